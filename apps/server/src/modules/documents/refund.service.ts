import { and, asc, eq, gte, sql } from 'drizzle-orm';
import {
  PAYMENT_METHOD_BEATS,
  nothingPaid,
  PaymentMethod,
  planRefund,
  purchaseDocumentLines,
  PurchaseItemType,
  PurchasePaymentStatus,
  type PlannedRefund,
  type PurchaseRefund,
  type RefundableLine,
  type RefundablePayment,
  type RefundableState,
  type RefundRequest,
  type RefundResponse,
} from '@venue/domain';
import type { Db, Tx } from '../../db/index.js';
import {
  charges,
  clients,
  debts,
  purchaseDocuments,
  purchaseItems,
  purchasePayments,
  purchaseRefunds,
  purchases,
  type RefundLineRow,
} from '../../db/schema.js';
import { audit } from '../../lib/audit.js';
import { clockNow } from '../../lib/clock.js';
import type { Actor } from '../../lib/actor.js';
import { AppError, notFound } from '../../lib/errors.js';
import { scoped } from '../../lib/scoped.js';
import { refundChargePart } from '../../integrations/clearing/charges.js';
import type { ClearingProvider } from '../../integrations/clearing/provider.js';
import { writeLedger, type LedgerEntry } from '../purchases/ledger.js';
import { getPurchase } from '../purchases/purchase-present.js';
import { issueCreditDocument, presentDocument } from './documents.service.js';
import { assertNumbersOpen } from '../../lib/history-writing.js';

/**
 * Refunds (docs/money.md "Refunds"; issue 18): a purchase is given back whole or in parts — chosen
 * lines, an amount of a line, or an amount spread over the lines (the rule: packages/domain
 * refund.ts planRefund) — each refund in one transaction with its own credit document (tax credit
 * invoice in Israel, refund receipt elsewhere) for exactly its amount and VAT.
 */

type PurchaseRow = typeof purchases.$inferSelect;
type ItemRow = typeof purchaseItems.$inferSelect;
type RefundRow = typeof purchaseRefunds.$inferSelect;

const refusal = (reason: string, details: Record<string, unknown> = {}) =>
  new AppError('REFUND_NOT_POSSIBLE', 'The purchase cannot be refunded', { reason, ...details });

/** Card payments refunded through the clearing provider (the others are handed back or recorded). */
const CARD_CHARGED: number[] = [PaymentMethod.CreditCard, PaymentMethod.CreditCardToken];

/** The purchase's lines and payments with what its earlier refunds took of each (refund.ts inputs). */
function refundableOf(
  p: PurchaseRow,
  items: ItemRow[],
  pays: (typeof purchasePayments.$inferSelect)[],
  refunds: RefundRow[],
): { lines: (RefundableLine & { item: ItemRow | null })[]; payments: RefundablePayment[] } {
  const took = new Map<number, { total: number; vat: number; quantity: number }>();
  const back = new Map<number, number>();
  for (const r of refunds) {
    for (const l of r.lines) {
      const t = took.get(l.key) ?? { total: 0, vat: 0, quantity: 0 };
      took.set(l.key, { total: t.total + l.amount, vat: t.vat + l.vat, quantity: t.quantity + l.quantity });
    }
    for (const x of r.payments) back.set(x.id, (back.get(x.id) ?? 0) + x.amount);
  }
  const lines = purchaseDocumentLines(p.fee, items).map((l) => {
    const t = took.get(l.key) ?? { total: 0, vat: 0, quantity: 0 };
    return {
      key: l.key,
      item: l.item,
      itemType: l.item?.itemType ?? null,
      quantity: l.quantity,
      total: l.total,
      vat: l.vat,
      refundedTotal: t.total,
      refundedVat: t.vat,
      refundedQuantity: t.quantity,
    };
  });
  const payments = pays.map((x) => ({
    id: x.id,
    method: x.method,
    amount: x.amount,
    lastFour: x.lastFour,
    refunded: back.get(x.id) ?? 0,
  }));
  return { lines, payments };
}

/**
 * Why a purchase cannot be refunded at all: nothing was paid (Free, ₪0: no sale document to credit,
 * docs/money.md "Nothing paid"), not collected (MASAV) or licenses; null when it can.
 */
function blockedReason(
  p: PurchaseRow,
  items: ItemRow[],
  pays: Pick<typeof purchasePayments.$inferSelect, 'method' | 'amount'>[],
): string | null {
  if (p.paymentStatus !== PurchasePaymentStatus.Pending && nothingPaid(pays)) return 'nothingPaid';
  if (p.paymentStatus === PurchasePaymentStatus.Pending || p.invoiceNumber == null) return 'pending';
  if (items.some((i) => i.itemType === PurchaseItemType.License)) return 'license';
  return null;
}

/** A refund row as the API presents it, with its credit document's number and kind. */
function presentRefund(r: RefundRow, doc?: { number: number; kind: number } | null): PurchaseRefund {
  return {
    id: r.id,
    at: r.at.toISOString(),
    reason: r.reason,
    total: r.total,
    beforeVat: r.beforeVat,
    vat: r.vat,
    lines: r.lines.map((l) => ({
      key: l.key,
      itemType: l.itemType,
      quantity: l.quantity,
      amount: l.amount,
      vat: l.vat,
    })),
    payments: r.payments.map((x) => ({ method: x.method, amount: x.amount, lastFour: x.lastFour })),
    documentId: r.documentId,
    documentNumber: doc?.number ?? null,
    documentKind: doc?.kind ?? null,
  };
}

async function refundsOf(db: Db | Tx, clubId: number, purchaseId: number): Promise<RefundRow[]> {
  return db
    .select()
    .from(purchaseRefunds)
    .where(and(eq(purchaseRefunds.clubId, clubId), eq(purchaseRefunds.purchaseId, purchaseId)))
    .orderBy(asc(purchaseRefunds.id));
}

/**
 * What of a club's purchase can still be refunded (GET /api/Purchase/Refundable/{id}): lines (key =
 * item id, 0 the card fee) with their VAT and what was refunded, payments, the amount left (agorot)
 * and the refunds so far with their credit documents.
 * @throws AppError NOT_FOUND (not the club's purchase)
 */
export async function refundableState(db: Db, clubId: number, purchaseId: number): Promise<RefundableState> {
  const p = await scoped(db, clubId).one(purchases, purchaseId, 'purchase');
  const [items, pays, refunds, docs] = await Promise.all([
    db.select().from(purchaseItems).where(eq(purchaseItems.purchaseId, p.id)).orderBy(asc(purchaseItems.id)),
    db.select().from(purchasePayments).where(eq(purchasePayments.purchaseId, p.id)).orderBy(asc(purchasePayments.id)),
    refundsOf(db, clubId, p.id),
    db
      .select()
      .from(purchaseDocuments)
      .where(and(eq(purchaseDocuments.clubId, clubId), eq(purchaseDocuments.purchaseId, p.id))),
  ]);
  const { lines, payments } = refundableOf(p, items, pays, refunds);
  const blocked = blockedReason(p, items, pays);
  return {
    purchaseId: p.id,
    canRefund: blocked == null && p.paymentStatus !== PurchasePaymentStatus.Refunded,
    blockedReason: blocked ?? (p.paymentStatus === PurchasePaymentStatus.Refunded ? 'refunded' : null),
    vatRateBp: p.vatRateBp,
    total: p.total,
    refunded: p.refunded,
    refundable: p.paymentStatus === PurchasePaymentStatus.Refunded ? 0 : p.total - p.refunded,
    lines: lines.map(({ item, ...l }) => ({
      ...l,
      name: item?.name ?? '',
    })),
    payments,
    refunds: refunds.map((r) =>
      presentRefund(
        r,
        docs.find((d) => d.id === r.documentId),
      ),
    ),
  };
}

/**
 * Who refunds: a staff user, or nobody (`userId` null: a member cancelling her booking before the
 * cutoff, docs/appointments.md), with the club and the address for the audit row.
 */
export type RefundActor = Pick<Actor, 'clubId' | 'ip'> & { userId: number | null };

/**
 * Refunds a purchase of the club, whole or in part (`req.lines` / `req.amount`; neither = all that
 * is left), as many times as something is left. Per refunded line: a money load takes back the
 * refunded amount and the same share of its bonus from the balance (guarded: refused with reason
 * 'spent' when already used); a debt payment reopens the debt by the amount; a subscription's kala
 * immersions are taken back in proportion (rounded down, the rest with the refund that empties the
 * line) and its validity ends the day before its start only when the line is refunded whole. The
 * money goes back to each payment in proportion to what it paid: the money and temporary balances
 * are credited, card charges refunded through the clearing provider (idempotent per charge and
 * request, last in the transaction, so a refusal rolls everything back), cash and other methods are
 * handed back by the cashier; every balance change is a ledger row of source 'refund'. The credit
 * document is numbered without gaps and refers to the sale document; once nothing is left the
 * purchase's status becomes Refunded. A repeated idempotency key answers the first refund.
 *
 * @throws AppError NOT_FOUND; REFUND_NOT_POSSIBLE (409) with details.reason: 'nothingPaid' (Free,
 *   ₪0), 'pending' (MASAV not collected), 'license', 'spent', 'refunded' (nothing left), 'overRefund' (more than is left;
 *   details.refundable), 'badAmount' (lines whose sum differs from `amount`), 'unknownLine' (a key
 *   not of this purchase), 'idempotencyKey' (the key was used for another purchase); PAYMENT_ERROR
 *   {reason: 'refund'} (the provider refused a card refund; nothing changed); HISTORY_BEING_WRITTEN
 *   (the club's demo history is still being written: no credit number now)
 */
export async function refundPurchase(
  db: Db,
  provider: ClearingProvider,
  actor: RefundActor,
  purchaseId: number,
  req: RefundRequest,
): Promise<RefundResponse> {
  assertNumbersOpen(actor.clubId);
  const { refund, doc } = await db.transaction(async (tx) => {
    const [p] = await tx
      .select()
      .from(purchases)
      .where(and(eq(purchases.clubId, actor.clubId), eq(purchases.id, purchaseId)))
      .for('update');
    if (!p) throw notFound('purchase');
    const [seen] = await tx
      .select()
      .from(purchaseRefunds)
      .where(and(eq(purchaseRefunds.clubId, actor.clubId), eq(purchaseRefunds.idempotencyKey, req.idempotencyKey)));
    if (seen) {
      if (seen.purchaseId !== p.id) throw refusal('idempotencyKey');
      const [d] = await tx
        .select()
        .from(purchaseDocuments)
        .where(and(eq(purchaseDocuments.clubId, actor.clubId), eq(purchaseDocuments.id, seen.documentId ?? -1)));
      if (!d) throw refusal('idempotencyKey');
      return { refund: seen, doc: d };
    }
    if (p.paymentStatus === PurchasePaymentStatus.Refunded) throw refusal('refunded', { refundable: 0 });
    const items = await tx
      .select()
      .from(purchaseItems)
      .where(eq(purchaseItems.purchaseId, p.id))
      .orderBy(asc(purchaseItems.id));
    const pays = await tx
      .select()
      .from(purchasePayments)
      .where(eq(purchasePayments.purchaseId, p.id))
      .orderBy(asc(purchasePayments.id));
    const blocked = blockedReason(p, items, pays);
    if (blocked) throw refusal(blocked);
    const earlier = await refundsOf(tx, p.clubId, p.id);
    const { lines, payments } = refundableOf(p, items, pays, earlier);
    const plan = planRefund(lines, payments, { lines: req.lines, amount: req.amount });
    if ('refusal' in plan) throw refusal(plan.refusal.reason, { ...plan.refusal });
    return applyRefund(tx, provider, actor, { p, items, pays, lines, plan, req });
  });
  return {
    purchase: await getPurchase(db, actor.clubId, purchaseId),
    document: presentDocument(doc),
    refund: presentRefund(refund, doc),
  };
}

/** Writes a planned refund: undoes lines, gives money back, issues the credit document, refunds cards last. */
async function applyRefund(
  tx: Tx,
  provider: ClearingProvider,
  actor: RefundActor,
  o: {
    p: PurchaseRow;
    items: ItemRow[];
    pays: (typeof purchasePayments.$inferSelect)[];
    lines: (RefundableLine & { item: ItemRow | null })[];
    plan: PlannedRefund;
    req: RefundRequest;
  },
): Promise<{ refund: RefundRow; doc: typeof purchaseDocuments.$inferSelect }> {
  const { p, plan, req } = o;
  // The refund's moment: the server's clock (lib/clock.ts), as every other money row records it.
  const at = clockNow();
  const rows: RefundLineRow[] = [];
  const ledger: LedgerEntry[] = [];
  for (const pl of plan.lines) {
    const line = o.lines.find((l) => l.key === pl.key)!;
    const row: RefundLineRow = { ...pl };
    delete (row as { completesLine?: boolean }).completesLine;
    if (line.item) ledger.push(...(await undoLine(tx, p, line.item, pl, row)));
    rows.push(row);
  }
  ledger.push(...(await returnBalances(tx, p, plan)));
  await writeLedger(tx, p.clubId, ledger, { sourceId: p.id, at, userId: actor.userId });
  const status = plan.complete ? PurchasePaymentStatus.Refunded : p.paymentStatus;
  await tx
    .update(purchases)
    .set({ paymentStatus: status, refunded: sql`${purchases.refunded} + ${plan.total}` })
    .where(and(eq(purchases.clubId, p.clubId), eq(purchases.id, p.id)));
  const credit = await issueCreditDocument(tx, p, {
    refunded: plan.payments
      .filter((x) => x.method !== PaymentMethod.Free)
      .map((x) => ({ method: x.method, amount: x.amount, lastFour: x.lastFour })),
    lines: plan.lines.map((l) => ({ key: l.key, quantity: l.quantity, amount: l.amount, vat: l.vat })),
    rounding: plan.payments.reduce((s, x) => s + x.amount, 0) - plan.total,
    reason: req.reason,
    at,
    userId: actor.userId,
  });
  const [refund] = await tx
    .insert(purchaseRefunds)
    .values({
      clubId: p.clubId,
      purchaseId: p.id,
      idempotencyKey: req.idempotencyKey,
      at,
      userId: actor.userId,
      reason: req.reason,
      total: plan.total,
      beforeVat: plan.beforeVat,
      vat: plan.vat,
      lines: rows,
      payments: plan.payments,
      documentId: credit.id,
    })
    .returning();
  await audit(tx, actor, {
    action: 'refund',
    entity: 'purchase',
    entityId: p.id,
    before: { paymentStatus: p.paymentStatus, refunded: p.refunded },
    after: {
      paymentStatus: status,
      refunded: p.refunded + plan.total,
      amount: plan.total,
      vat: plan.vat,
      document: credit.number,
      reason: req.reason,
    },
  });
  await refundCards(tx, provider, o.pays, plan, req.idempotencyKey);
  return { refund, doc: credit };
}

/**
 * Refunds the card share of a plan through the clearing provider, per payment's charge; the key
 * `<charge key>:refund:<request key>` makes a retried request move no more money.
 * @throws AppError PAYMENT_ERROR {reason: 'refund'}
 */
async function refundCards(
  tx: Tx,
  provider: ClearingProvider,
  pays: (typeof purchasePayments.$inferSelect)[],
  plan: PlannedRefund,
  requestKey: string,
): Promise<void> {
  for (const back of plan.payments) {
    const pay = pays.find((x) => x.id === back.id);
    if (!pay || !CARD_CHARGED.includes(pay.method) || pay.chargeId == null) continue;
    const [c] = await tx
      .select()
      .from(charges)
      .where(and(eq(charges.clubId, pay.clubId), eq(charges.id, pay.chargeId)));
    if (!c || (c.status !== 'approved' && c.status !== 'refunded'))
      throw new AppError('PAYMENT_ERROR', 'Payment error', { reason: 'refund' });
    const ok = await refundChargePart(
      tx as unknown as Db,
      provider,
      c,
      back.amount,
      `${c.idempotencyKey}:refund:${requestKey}`,
    );
    if (!ok) throw new AppError('PAYMENT_ERROR', 'Payment error', { reason: 'refund' });
  }
}

/** Undoes what `pl.amount` of a line did to the client; records the bonus and immersions taken in `row`. */
async function undoLine(
  tx: Tx,
  p: PurchaseRow,
  item: ItemRow,
  pl: PlannedRefund['lines'][number],
  row: RefundLineRow,
): Promise<LedgerEntry[]> {
  const clientId = p.clientId;
  const ledger: LedgerEntry[] = [];
  const share = (whole: number, takenBefore: number) =>
    pl.completesLine ? whole - takenBefore : Math.floor((whole * pl.amount) / Math.max(item.priceWithVat, 1));
  const before = await takenBefore(tx, p, item.id);
  if (item.itemType === PurchaseItemType.ChargingMoney && clientId != null) {
    const bonus = Math.max(0, share(Number((item.details as { bonus?: number } | null)?.bonus ?? 0), before.bonus));
    await takeBack(tx, clientId, 'money', pl.amount + bonus);
    ledger.push({ clientId, kind: 'money', delta: -pl.amount, source: 'refund' });
    if (bonus > 0) ledger.push({ clientId, kind: 'money', delta: -bonus, source: 'refund' });
    row.bonus = bonus;
  } else if (item.itemType === PurchaseItemType.PayDebt && item.itemId != null) {
    await tx
      .update(debts)
      .set({ paid: sql`greatest(${debts.paid} - ${pl.amount}, 0)` })
      .where(and(eq(debts.clubId, p.clubId), eq(debts.id, item.itemId)));
  } else if (item.itemType === PurchaseItemType.NewSubscription && clientId != null) {
    const d = (item.details ?? {}) as { start?: string; end?: string; immersions?: number | null };
    if (pl.completesLine && d.start && d.end) {
      // Only when the client's subscription still ends where this purchase put it.
      await tx
        .update(clients)
        .set({ subscriptionEnd: sql`(${d.start}::date - 1)` })
        .where(and(eq(clients.clubId, p.clubId), eq(clients.id, clientId), eq(clients.subscriptionEnd, d.end)));
    }
    const immersions = Math.max(0, share(d.immersions ?? 0, before.immersions));
    if (immersions > 0) {
      await takeBack(tx, clientId, 'subscription', immersions);
      ledger.push({ clientId, kind: 'subscription', delta: -immersions, source: 'refund' });
    }
    row.immersions = immersions;
  }
  return ledger;
}

/** The bonus and immersions earlier refunds took back of a line. */
async function takenBefore(tx: Tx, p: PurchaseRow, key: number): Promise<{ bonus: number; immersions: number }> {
  const out = { bonus: 0, immersions: 0 };
  for (const r of await refundsOf(tx, p.clubId, p.id))
    for (const l of r.lines)
      if (l.key === key) {
        out.bonus += l.bonus ?? 0;
        out.immersions += l.immersions ?? 0;
      }
  return out;
}

/** Gives back to the payer what the plan returns to the money balance (beats) and the temporary balance. */
async function returnBalances(tx: Tx, p: PurchaseRow, plan: PlannedRefund): Promise<LedgerEntry[]> {
  const payerId = p.payerClientId ?? p.clientId;
  if (payerId == null) return [];
  const sum = (m: number) => plan.payments.filter((x) => x.method === m).reduce((s, x) => s + x.amount, 0);
  const beats = sum(PAYMENT_METHOD_BEATS);
  const temp = sum(PaymentMethod.TempCredit);
  const out: LedgerEntry[] = [];
  if (beats > 0) {
    await tx
      .update(clients)
      .set({ balance: sql`${clients.balance} + ${beats}` })
      .where(and(eq(clients.clubId, p.clubId), eq(clients.id, payerId)));
    out.push({ clientId: payerId, kind: 'money', delta: beats, source: 'refund' });
  }
  if (temp > 0) {
    await tx
      .update(clients)
      .set({ tempBalance: sql`${clients.tempBalance} + ${temp}` })
      .where(and(eq(clients.clubId, p.clubId), eq(clients.id, payerId)));
    out.push({ clientId: payerId, kind: 'temp', delta: temp, source: 'refund' });
  }
  return out;
}

/**
 * Takes `amount` back from a client's money balance or kala immersions, guarded.
 * @throws AppError REFUND_NOT_POSSIBLE reason 'spent'
 */
async function takeBack(tx: Tx, clientId: number, kind: 'money' | 'subscription', amount: number): Promise<void> {
  if (amount <= 0) return;
  const column = kind === 'money' ? clients.balance : clients.subscriptionBalance;
  const set =
    kind === 'money' ? { balance: sql`${column} - ${amount}` } : { subscriptionBalance: sql`${column} - ${amount}` };
  const ok = await tx
    .update(clients)
    .set(set)
    .where(and(eq(clients.id, clientId), gte(column, amount)))
    .returning({ id: clients.id });
  if (!ok.length) throw refusal('spent');
}
