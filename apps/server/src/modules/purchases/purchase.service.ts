import { paymentTotals, type Purchase } from '@venue/domain';
import type { Db } from '../../db/index.js';
import { pgError } from '../../lib/validation.js';
import { assertNumbersOpen } from '../../lib/history-writing.js';
import { linkCharges } from '../../integrations/clearing/charges.js';
import type { ClearingProvider } from '../../integrations/clearing/provider.js';
import { chargeCards, giveBack } from './purchase-charge.js';
import { checkCommand, readPurchaseContext, type PurchaseCommand } from './purchase-context.js';
import { findPurchaseByKey, getPurchase } from './purchase-present.js';
import { writePurchase } from './purchase-write.js';

/**
 * Purchases (seed 000 §3, seed 001 §3; DESIGN §7): the one way money comes
 * in, from the console (POST /api/Client/AdminPurchase), from terminals
 * (kiosk purchases: call `createPurchase` with source 'terminal'), from
 * automatic renewal and from license orders. See docs/money.md.
 *
 * A purchase runs four steps, each in its own file:
 * read (`purchase-context.ts`: club, client, group, products, stored payment
 * method) → check (the pure `checkPurchase` of packages/domain
 * `purchase-check.ts`: prices, card fee, VAT, limits, every refusal) → charge
 * (`purchase-charge.ts`: cards through the clearing provider) → write
 * (`purchase-write.ts`: one transaction with balances, items, invoice number,
 * ledger and audit rows).
 */

export { type PurchaseCommand } from './purchase-context.js';
export { getPurchase, listClientPurchases } from './purchase-present.js';

/**
 * Makes a purchase: checks the items and payments, charges cards through the
 * clearing provider (idempotent per payment), then in one transaction debits
 * the money and temporary balances (guarded: never below zero under
 * concurrency), applies the items (subscription dates, money loads with the
 * group's bonus, debt payments, licenses from the club's pool), takes the
 * next invoice number of the club (no gaps) and writes the purchase, its
 * items, payments and ledger rows. If the transaction fails after a card was
 * charged, the charge is refunded.
 *
 * Rules: seed 000 §3 (item types, payment methods, fee types), seed 001 §3
 * (stored fields, group bonus, min/max charge), DOMAIN-FACTS (VAT by date,
 * cash rounding). Amounts in agorot. The answer's `change` is the cash given
 * back; `warnings` may hold LICENSES_LOW.
 *
 * @throws AppError NOT_FOUND (client, debt, product), VALIDATION_ERROR,
 *   PAYMENTS_DO_NOT_MATCH_TOTAL, CHARGE_AMOUNT_OUT_OF_RANGE, NOT_ENOUGH_BALANCE,
 *   NO_PAYMENT_METHOD, INVALID_EXPIRATION_DATE, PAYMENT_ERROR (declined or
 *   uncertain; details.reason), NOT_ENOUGH_LICENSES, PURCHASES_NOT_ALLOWED,
 *   HISTORY_BEING_WRITTEN (the club's demo history is still being written, lib/history-writing.ts).
 */
export async function createPurchase(db: Db, provider: ClearingProvider, cmd: PurchaseCommand): Promise<Purchase> {
  const existing = await findPurchaseByKey(db, cmd.clubId, cmd.idempotencyKey);
  if (existing) return existing;
  try {
    return await purchaseOnce(db, provider, cmd);
  } catch (err) {
    // Duplicate requests with one key: the one that lost the race fails a check the winner's
    // purchase made untrue (balance spent, debt paid). It answers the winner's purchase, never
    // an error for a purchase that went through.
    const done = await findPurchaseByKey(db, cmd.clubId, cmd.idempotencyKey);
    if (done) return done;
    throw err;
  }
}

/** One attempt of createPurchase, after the idempotency key was found unused: read → check → charge → write. */
async function purchaseOnce(db: Db, provider: ClearingProvider, cmd: PurchaseCommand): Promise<Purchase> {
  // Before anything is charged: no number of the club's series while its history is written.
  assertNumbersOpen(cmd.clubId);
  const ctx = await readPurchaseContext(db, cmd);
  const checked = checkCommand(ctx, cmd);
  const charges = await chargeCards(db, provider, cmd, ctx, checked.payerId);
  if ('done' in charges) return charges.done;
  let written: Awaited<ReturnType<typeof writePurchase>>;
  try {
    written = await writePurchase(db, { cmd, ctx, checked, charges });
  } catch (err) {
    if (pgError(err).constraint === 'purchases_idem') {
      const done = await findPurchaseByKey(db, cmd.clubId, cmd.idempotencyKey);
      if (done) return done;
    }
    await giveBack(db, provider, cmd, charges.charged);
    throw err;
  }
  await linkCharges(
    db,
    charges.charged.map((c) => c.id),
    written.purchaseId,
  );
  const out = await getPurchase(db, cmd.clubId, written.purchaseId);
  return { ...out, change: paymentTotals(cmd.payments).change, warnings: written.warnings };
}
