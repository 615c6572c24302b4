import { PaymentMethod, type PaymentInput, type Purchase } from '@venue/domain';
import type { Db } from '../../db/index.js';
import { AppError } from '../../lib/errors.js';
import { chargeOnce, refundCharge, type ChargeRow } from '../../integrations/clearing/charges.js';
import type { ClearingProvider } from '../../integrations/clearing/provider.js';
import type { PurchaseCommand, PurchaseContext } from './purchase-context.js';
import { findPurchaseByKey } from './purchase-present.js';

/**
 * The charge step of a purchase (DESIGN §7 "Payments", docs/money.md): card
 * payments are charged through the clearing provider before the purchase's
 * transaction, each idempotent on its own key `<purchase key>:p<payment index>`
 * (a retry charges nothing again).
 */

export interface CardCharges {
  /** The approved charges, in payment order. */
  charged: ChargeRow[];
  /** The charge of each charged payment, by payment index. */
  byPayment: Map<number, ChargeRow>;
}

/**
 * Refunds a purchase's charges unless a purchase of its key exists: a charge is
 * shared by every request with the same key (chargeOnce), and a concurrent
 * duplicate's purchase holds it. Refund failures are left to the reconciliation.
 */
export async function giveBack(
  db: Db,
  provider: ClearingProvider,
  cmd: PurchaseCommand,
  charged: ChargeRow[],
): Promise<void> {
  if (charged.length === 0 || (await findPurchaseByKey(db, cmd.clubId, cmd.idempotencyKey))) return;
  for (const c of charged) await refundCharge(db, provider, c).catch(() => undefined);
}

/**
 * The token of a card payment: a typed card is tokenized, a token payment uses the card of the
 * provider's hosted page when the command has one (the member app), else the payer's stored card.
 */
async function cardToken(
  provider: ClearingProvider,
  p: PaymentInput,
  ctx: PurchaseContext,
  hosted: PurchaseCommand['hostedCard'],
): Promise<{ token: string; lastFour: string; brand: string } | { reason: string }> {
  if (p.method === PaymentMethod.CreditCardToken && hosted) return hosted;
  if (p.method === PaymentMethod.CreditCard) {
    const t = await provider.tokenize({ ...p.card!, number: p.card!.number.replace(/\D/g, '') });
    return t.ok ? { token: t.token, lastFour: t.lastFour, brand: t.brand } : { reason: t.reason };
  }
  return {
    token: ctx.stored!.cardToken!,
    lastFour: ctx.stored!.cardLastFour ?? '',
    brand: ctx.stored!.cardBrand ?? '',
  };
}

/**
 * Charges the command's CreditCard and CreditCardToken payments (amounts in
 * agorot, the club's currency) for the payer `payerId`.
 *
 * @returns the charges, or `{ done }` when a charge failed but a concurrent
 *   duplicate completed the purchase meanwhile (its purchase is the answer).
 * @throws AppError PAYMENT_ERROR (details.reason: the provider's reason,
 *   'declined' or 'uncertain'); the charges made so far are refunded first.
 */
export async function chargeCards(
  db: Db,
  provider: ClearingProvider,
  cmd: PurchaseCommand,
  ctx: PurchaseContext,
  payerId: number | null,
): Promise<CardCharges | { done: Purchase }> {
  const out: CardCharges = { charged: [], byPayment: new Map() };
  for (const [k, p] of cmd.payments.entries()) {
    if (p.method !== PaymentMethod.CreditCard && p.method !== PaymentMethod.CreditCardToken) continue;
    if (p.amount === 0) continue;
    const card = await cardToken(provider, p, ctx, cmd.hostedCard);
    if ('reason' in card) {
      await giveBack(db, provider, cmd, out.charged);
      throw new AppError('PAYMENT_ERROR', 'Payment error', { reason: card.reason });
    }
    const row = await chargeOnce(db, provider, {
      clubId: cmd.clubId,
      clientId: payerId,
      idempotencyKey: `${cmd.idempotencyKey}:p${k}`,
      ...card,
      amount: p.amount,
      currency: ctx.club.currency,
    });
    if (row.status !== 'approved') {
      await giveBack(db, provider, cmd, out.charged);
      const done = await findPurchaseByKey(db, cmd.clubId, cmd.idempotencyKey);
      if (done) return { done };
      throw new AppError('PAYMENT_ERROR', 'Payment error', {
        reason: row.status === 'declined' ? (row.error ?? 'declined') : 'uncertain',
      });
    }
    out.charged.push(row);
    out.byPayment.set(k, row);
  }
  return out;
}
