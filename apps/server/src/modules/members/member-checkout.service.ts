import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import {
  PaymentMethod,
  PurchaseItemType,
  quotePurchase,
  type MemberCheckoutRequest,
  type MemberCheckoutStarted,
  type MemberCheckoutState,
  type PurchaseItemInput,
} from '@venue/domain';
import type { Db } from '../../db/index.js';
import { debts, memberCheckouts, purchaseDocuments } from '../../db/schema.js';
import { AppError, notFound } from '../../lib/errors.js';
import { validationError } from '../../lib/validation.js';
import type { ClearingProvider } from '../../integrations/clearing/provider.js';
import type { HostedCallback, HostedPageProvider } from '../../integrations/clearing/hosted.js';
import { createPurchase } from '../purchases/purchase.service.js';
import { checkCommand, readPurchaseContext, type PurchaseCommand } from '../purchases/purchase-context.js';
import { renewQuoteToday } from '../subscriptions/subscriptions.service.js';
import { renewalItem } from '../subscriptions/auto-renew.batch.js';
import { issueSaleDocument } from '../documents/documents.service.js';
import { ownClient, type BoundMember } from './members.service.js';

/*
 * Paying in the member app (issue 37; docs/members.md "Paying"): a debt, a
 * money load or a renewal, for the member or a child of hers, by card on the
 * clearing provider's hosted page. The checkout row holds the purchase's items
 * and the amount the page shows; the provider's signed callback makes the
 * purchase through createPurchase (the console's path: idempotent on the
 * checkout's code, card charged once, ledger rows, invoice number), and its
 * tax document is issued at once so the member can download it.
 */

type CheckoutRow = typeof memberCheckouts.$inferSelect;

/** The purchase command of a checkout (the callback adds the hosted card). */
function commandOf(row: Pick<CheckoutRow, 'clubId' | 'clientId' | 'payerClientId' | 'items' | 'amount' | 'code'>) {
  return {
    clubId: row.clubId,
    clientId: row.clientId,
    items: row.items as PurchaseItemInput[],
    payments: [{ method: PaymentMethod.CreditCardToken, amount: row.amount, keepExcess: false }],
    payer: row.clientId === row.payerClientId ? 'client' : 'parent',
    isAdminUser: false,
    source: 'member',
    userId: null,
    idempotencyKey: `member:${row.code}`,
  } satisfies PurchaseCommand;
}

/** The purchase items of a checkout request, for the client `clientId`. */
async function itemsOf(db: Db, m: BoundMember, clientId: number, req: MemberCheckoutRequest) {
  if (req.kind === 'debt') {
    if (req.debtId == null) throw validationError([{ path: 'debtId', message: 'required' }]);
    const [d] = await db
      .select()
      .from(debts)
      .where(
        and(
          eq(debts.clubId, m.clubId),
          eq(debts.id, req.debtId),
          eq(debts.clientId, clientId),
          eq(debts.deleted, false),
        ),
      );
    if (!d || d.amount <= d.paid) throw notFound('debt');
    return [{ itemType: PurchaseItemType.PayDebt, itemId: d.id, name: '', quantity: 1, unitPrice: d.amount - d.paid }];
  }
  if (req.kind === 'load') {
    if (req.amount == null) throw validationError([{ path: 'amount', message: 'required' }]);
    return [{ itemType: PurchaseItemType.ChargingMoney, name: '', quantity: 1, unitPrice: req.amount }];
  }
  const q = await renewQuoteToday(db, m.clubId, clientId);
  return [renewalItem(q, q.monthlyPrice)];
}

/**
 * Starts a payment on the provider's hosted page (POST /api/Member/Checkout):
 * prices it with the console's price rule (a card payment, so the club's card
 * fee applies), checks it as the purchase will be checked, and records it.
 * @returns the page's address and the amount (agorot)
 * @throws AppError NOT_FOUND (a client or debt not hers), VALIDATION_ERROR, NOTHING_TO_RENEW,
 *   and every refusal of the purchase check (CHARGE_AMOUNT_OUT_OF_RANGE, …)
 */
export async function startCheckout(
  db: Db,
  hosted: HostedPageProvider,
  m: BoundMember,
  req: MemberCheckoutRequest,
  language: 'he' | 'en',
): Promise<MemberCheckoutStarted> {
  const { c } = await ownClient(db, m, req.clientId);
  const items = (await itemsOf(db, m, c.id, req)) as PurchaseItemInput[];
  const code = randomBytes(18).toString('base64url');
  const draft = { clubId: m.clubId, clientId: c.id, payerClientId: m.clientId, items, amount: 0, code };
  const ctx = await readPurchaseContext(db, commandOf(draft));
  const quote = quotePurchase(
    items,
    [{ method: PaymentMethod.CreditCardToken, amount: 0 }],
    ctx.vatRateBp,
    ctx.settings,
  );
  draft.amount = quote.total;
  // The refusals the purchase would answer, before the member types a card.
  checkCommand(ctx, { ...commandOf(draft), hostedCard: { token: '', lastFour: '', brand: '' } });
  await db.insert(memberCheckouts).values({ ...draft, kind: req.kind });
  const { url } = await hosted.createPaymentPage({
    reference: code,
    amount: draft.amount,
    currency: ctx.club.currency,
    description: `${ctx.club.name} — ${c.firstName} ${c.lastName}`.trim(),
    language,
    returnUrl: `/m/#/checkout/${code}`,
    callbackUrl: '/api/Member/PaymentCallback',
  });
  return { code, url, amount: draft.amount };
}

/**
 * The provider's callback (POST /api/Member/PaymentCallback): an approved card
 * makes the purchase through createPurchase (idempotent: a repeated callback
 * changes nothing) and issues its tax document; a decline, a cancel or a
 * refused purchase ends the checkout `failed` with its reason.
 * @throws AppError BAD_SIGNATURE (401) when the callback is not the provider's
 * @throws AppError NOT_FOUND for an unknown reference
 */
export async function settleCheckout(
  db: Db,
  hosted: HostedPageProvider,
  clearing: ClearingProvider,
  body: Record<string, unknown>,
): Promise<{ ok: true }> {
  const cb = hosted.verifyCallback(body);
  if (!cb) throw new AppError('BAD_SIGNATURE', 'The callback is not signed by the provider');
  const [row] = await db.select().from(memberCheckouts).where(eq(memberCheckouts.code, cb.reference));
  if (!row) throw notFound('checkout');
  if (row.status === 'paid') return { ok: true };
  if (cb.status !== 'approved') {
    await finish(db, row, { status: 'failed', reason: cb.reason || cb.status });
    return { ok: true };
  }
  try {
    const purchase = await createPurchase(db, clearing, { ...commandOf(row), hostedCard: cardOf(cb) });
    await issueSaleDocument(db, row.clubId, purchase.id, null);
    await finish(db, row, { status: 'paid', reason: null, purchaseId: purchase.id });
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const reason = (err.details as { reason?: string } | undefined)?.reason ?? err.code;
    await finish(db, row, { status: 'failed', reason });
  }
  return { ok: true };
}

function cardOf(cb: HostedCallback) {
  return { token: cb.token, lastFour: cb.lastFour, brand: cb.brand };
}

async function finish(
  db: Db,
  row: CheckoutRow,
  set: { status: 'paid' | 'failed'; reason: string | null; purchaseId?: number },
): Promise<void> {
  await db
    .update(memberCheckouts)
    .set({ ...set, settledAt: sql`now()` })
    .where(and(eq(memberCheckouts.clubId, row.clubId), eq(memberCheckouts.id, row.id)));
}

/**
 * GET /api/Member/Checkout/{code}: how the member's checkout ended, with the tax document once paid.
 * @throws AppError NOT_FOUND when it is not a checkout paid by this member
 */
export async function checkoutState(db: Db, m: BoundMember, code: string): Promise<MemberCheckoutState> {
  const [row] = await db
    .select()
    .from(memberCheckouts)
    .where(
      and(
        eq(memberCheckouts.code, code),
        eq(memberCheckouts.clubId, m.clubId),
        eq(memberCheckouts.payerClientId, m.clientId),
      ),
    );
  if (!row) throw notFound('checkout');
  let documentId: number | null = null;
  if (row.purchaseId != null) {
    const [d] = await db
      .select({ id: purchaseDocuments.id })
      .from(purchaseDocuments)
      .where(and(eq(purchaseDocuments.clubId, row.clubId), eq(purchaseDocuments.purchaseId, row.purchaseId)))
      .limit(1);
    documentId = d?.id ?? null;
  }
  return {
    code: row.code,
    kind: row.kind as MemberCheckoutState['kind'],
    clientId: row.clientId,
    amount: row.amount,
    status: row.status as MemberCheckoutState['status'],
    reason: row.reason,
    purchaseId: row.purchaseId,
    documentId,
  };
}
