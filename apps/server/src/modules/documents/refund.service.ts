import { and, eq, gte, sql } from 'drizzle-orm';
import {
  DocumentKind,
  PaymentMethod,
  PurchaseItemType,
  PurchasePaymentStatus,
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
  purchases,
} from '../../db/schema.js';
import { audit } from '../../lib/audit.js';
import type { Actor } from '../../lib/actor.js';
import { AppError, notFound } from '../../lib/errors.js';
import { refundCharge } from '../../integrations/clearing/charges.js';
import type { ClearingProvider } from '../../integrations/clearing/provider.js';
import { writeLedger, type LedgerEntry } from '../../engine/ledger.js';
import { getPurchase } from '../../engine/purchase-present.js';
import { issueCreditDocument, presentDocument } from './documents.service.js';

/**
 * Refunds (docs/money.md "Refunds"): a whole purchase is given back and a
 * credit document issued (tax credit invoice in Israel, refund receipt
 * elsewhere), in one transaction.
 */

const refusal = (reason: string) => new AppError('REFUND_NOT_POSSIBLE', 'The purchase cannot be refunded', { reason });

/**
 * Refunds a purchase of the club. Undone: a money load (and its bonus) is taken back from the
 * client's balance (guarded: never below zero; refused with reason 'spent' when already used),
 * what the money and temporary balances paid goes back to them, a debt payment reopens the debt,
 * a subscription the purchase set ends again the day before its start (kala immersions are taken
 * back, guarded); card charges are refunded through the clearing provider (idempotent per charge);
 * cash is handed back by the cashier. The purchase's status becomes Refunded (the reports and the
 * daily summaries leave it out) and the credit document is numbered without gaps. A repeated
 * refund answers the first one's document.
 *
 * @throws AppError NOT_FOUND, REFUND_NOT_POSSIBLE (details.reason: 'pending' — MASAV not collected;
 *   'license' — licenses are not given back; 'spent' — the loaded money or immersions were used),
 *   PAYMENT_ERROR (the provider refused a card refund; nothing changed)
 */
export async function refundPurchase(
  db: Db,
  provider: ClearingProvider,
  actor: Actor,
  purchaseId: number,
  req: RefundRequest,
): Promise<RefundResponse> {
  const doc = await db.transaction(async (tx) => {
    const [p] = await tx
      .select()
      .from(purchases)
      .where(and(eq(purchases.clubId, actor.clubId), eq(purchases.id, purchaseId)))
      .for('update');
    if (!p) throw notFound('purchase');
    if (p.paymentStatus === PurchasePaymentStatus.Refunded) {
      const [done] = await tx
        .select()
        .from(purchaseDocuments)
        .where(
          and(
            eq(purchaseDocuments.clubId, actor.clubId),
            eq(purchaseDocuments.purchaseId, p.id),
            sql`${purchaseDocuments.kind} in (${DocumentKind.CreditInvoice}, ${DocumentKind.RefundReceipt})`,
          ),
        );
      if (done) return done;
    }
    if (p.paymentStatus !== PurchasePaymentStatus.Paid || p.invoiceNumber == null) throw refusal('pending');
    const items = await tx.select().from(purchaseItems).where(eq(purchaseItems.purchaseId, p.id));
    if (items.some((i) => i.itemType === PurchaseItemType.License)) throw refusal('license');
    const pays = await tx.select().from(purchasePayments).where(eq(purchasePayments.purchaseId, p.id));
    const at = new Date();
    const ledger = await undoItems(tx, p, items);
    ledger.push(...(await returnBalances(tx, p)));
    await writeLedger(tx, p.clubId, ledger, { sourceId: p.id, at, userId: actor.userId });
    await tx.update(purchases).set({ paymentStatus: PurchasePaymentStatus.Refunded }).where(eq(purchases.id, p.id));
    const refunded = pays
      .filter((x) => x.method !== PaymentMethod.Free && x.amount > 0)
      .map((x) => ({ method: x.method, amount: x.amount, lastFour: x.lastFour }));
    const credit = await issueCreditDocument(tx, p, { refunded, reason: req.reason, at, userId: actor.userId });
    await audit(tx, actor, {
      action: 'refund',
      entity: 'purchase',
      entityId: p.id,
      before: { paymentStatus: p.paymentStatus },
      after: { paymentStatus: PurchasePaymentStatus.Refunded, document: credit.number, reason: req.reason },
    });
    // Cards last: a refusal by the provider rolls everything back; the refund keys are idempotent.
    const cardCharges = await tx
      .select()
      .from(charges)
      .where(and(eq(charges.purchaseId, p.id), eq(charges.status, 'approved')));
    for (const c of cardCharges) {
      await refundCharge(tx as unknown as Db, provider, c);
      const [after] = await tx.select({ status: charges.status }).from(charges).where(eq(charges.id, c.id));
      if (after.status !== 'refunded') throw new AppError('PAYMENT_ERROR', 'Payment error', { reason: 'refund' });
    }
    return credit;
  });
  return { purchase: await getPurchase(db, actor.clubId, purchaseId), document: presentDocument(doc) };
}

/** Undoes what the purchase's items did to the client; returns the ledger rows. */
async function undoItems(
  tx: Tx,
  p: typeof purchases.$inferSelect,
  items: (typeof purchaseItems.$inferSelect)[],
): Promise<LedgerEntry[]> {
  const ledger: LedgerEntry[] = [];
  const clientId = p.clientId;
  for (const i of items) {
    if (i.itemType === PurchaseItemType.ChargingMoney && clientId != null) {
      const bonus = Number((i.details as { bonus?: number } | null)?.bonus ?? 0);
      await takeBack(tx, clientId, 'money', i.priceWithVat + bonus);
      ledger.push({ clientId, kind: 'money', delta: -i.priceWithVat, source: 'refund' });
      if (bonus > 0) ledger.push({ clientId, kind: 'money', delta: -bonus, source: 'refund' });
    } else if (i.itemType === PurchaseItemType.PayDebt && i.itemId != null) {
      await tx
        .update(debts)
        .set({ paid: sql`greatest(${debts.paid} - ${i.priceWithVat}, 0)` })
        .where(and(eq(debts.clubId, p.clubId), eq(debts.id, i.itemId)));
    } else if (i.itemType === PurchaseItemType.NewSubscription && clientId != null) {
      const d = (i.details ?? {}) as { start?: string; end?: string; immersions?: number | null };
      if (d.start && d.end) {
        // Only when the client's subscription still ends where this purchase put it.
        await tx
          .update(clients)
          .set({ subscriptionEnd: sql`(${d.start}::date - 1)` })
          .where(and(eq(clients.id, clientId), eq(clients.subscriptionEnd, d.end)));
      }
      if (d.immersions) {
        await takeBack(tx, clientId, 'subscription', d.immersions);
        ledger.push({ clientId, kind: 'subscription', delta: -d.immersions, source: 'refund' });
      }
    }
  }
  return ledger;
}

/** Gives back what the money balance (beats) and the temporary balance paid, to the payer. */
async function returnBalances(tx: Tx, p: typeof purchases.$inferSelect): Promise<LedgerEntry[]> {
  const payerId = p.payerClientId ?? p.clientId;
  if (payerId == null) return [];
  const out: LedgerEntry[] = [];
  if (p.paidBeats > 0) {
    await tx
      .update(clients)
      .set({ balance: sql`${clients.balance} + ${p.paidBeats}` })
      .where(eq(clients.id, payerId));
    out.push({ clientId: payerId, kind: 'money', delta: p.paidBeats, source: 'refund' });
  }
  if (p.paidTemp > 0) {
    await tx
      .update(clients)
      .set({ tempBalance: sql`${clients.tempBalance} + ${p.paidTemp}` })
      .where(eq(clients.id, payerId));
    out.push({ clientId: payerId, kind: 'temp', delta: p.paidTemp, source: 'refund' });
  }
  return out;
}

/**
 * Takes `amount` back from a client's money balance or kala immersions, guarded.
 * @throws AppError REFUND_NOT_POSSIBLE reason 'spent'
 */
async function takeBack(tx: Tx, clientId: number, kind: 'money' | 'subscription', amount: number): Promise<void> {
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
