import { desc, eq, sql } from 'drizzle-orm';
import type { Actor } from '../../lib/actor.js';
import {
  PaymentMethod,
  pricePurchase,
  PurchaseItemType,
  roundCash,
  type AddCreditRequest,
  type BalanceResponse,
} from '@venue/domain';
import type { Db } from '../../db/index.js';
import { balanceLedger, charges, clients, clubs } from '../../db/schema.js';
import { clubSettings } from '../club/club.service.js';
import { scoped } from '../../lib/scoped.js';
import { AppError } from '../../lib/errors.js';
import type { ClearingProvider } from '../../integrations/clearing/provider.js';
import { reconcileCharges } from '../../integrations/clearing/charges.js';
import { createPurchase, listClientPurchases } from './purchase.service.js';

/**
 * Balances (seed 000 §7 getBalance/addCredit; DESIGN §7): the money balance
 * ("beats"), the temporary balance and the subscription balance (immersions)
 * with their ledger rows. Each balance equals the sum of its ledger rows.
 */
export async function getBalance(db: Db, clubId: number, clientId: number): Promise<BalanceResponse> {
  const s = scoped(db, clubId);
  const c = await s.one(clients, clientId, 'client', { live: true });
  const ledger = await db
    .select()
    .from(balanceLedger)
    .where(s.where(balanceLedger, eq(balanceLedger.clientId, clientId)))
    .orderBy(desc(balanceLedger.at), desc(balanceLedger.id))
    .limit(500);
  const purchases = (await listClientPurchases(db, clubId, clientId, 100)).map(
    ({ items: _i, payments: _p, warnings: _w, ...p }) => p,
  );
  return {
    clientId,
    balance: c.balance,
    tempBalance: c.tempBalance,
    subscriptionBalance: c.subscriptionBalance,
    subscriptionStart: c.subscriptionStart,
    subscriptionEnd: c.subscriptionEnd,
    ledger: ledger.map((l) => ({
      id: l.id,
      at: l.at.toISOString(),
      kind: l.kind,
      delta: l.delta,
      source: l.source,
      sourceId: l.sourceId,
    })),
    purchases,
  };
}

/**
 * POST /api/addCredit/{id} {amount}: loads money on a client's balance as a
 * ChargingMoney purchase (cash at the console, or the stored card), with the
 * group's bonus, the min/max charge amounts and the card fee (seed 000 §3).
 * The idempotency key is required (400 without it): a retry answers the first load.
 */
export async function addCredit(
  db: Db,
  provider: ClearingProvider,
  actor: Actor,
  clientId: number,
  body: AddCreditRequest,
) {
  const key = body.idempotencyKey;
  const items = [{ itemType: PurchaseItemType.ChargingMoney, name: '', quantity: 1, unitPrice: body.amount }] as const;
  // By card the club's credit-charge fee comes on top (seed 000 §3): the engine prices it.
  // Cash is paid rounded to 10 agorot (DOMAIN-FACTS); the load itself stays to the agora.
  let amount = body.method === PaymentMethod.Cash ? roundCash(body.amount) : body.amount;
  if (body.method === PaymentMethod.CreditCardToken) {
    const [club] = await db.select().from(clubs).where(eq(clubs.id, actor.clubId));
    const priced = pricePurchase(
      [...items],
      [{ method: body.method, amount: 0, keepExcess: false }],
      0,
      clubSettings(club),
    );
    amount = 'error' in priced ? priced.expected : priced.total;
  }
  return createPurchase(db, provider, {
    clubId: actor.clubId,
    clientId,
    items: [...items],
    payments: [{ method: body.method, amount, keepExcess: false }],
    isAdminUser: true,
    source: 'console',
    userId: actor.userId,
    idempotencyKey: key,
    actor,
  });
}

/** Safer payments: charges whose outcome was uncertain and how they were settled (newest first). */
export async function saferPayments(db: Db, clubId: number) {
  const rows = await db
    .select()
    .from(charges)
    .where(
      scoped(db, clubId).where(
        charges,
        sql`(${charges.status} in ('uncertain', 'pending', 'refunding') or ${charges.reconciledAt} is not null)`,
      ),
    )
    .orderBy(desc(charges.createdAt))
    .limit(1000);
  return rows.map((r) => ({
    id: r.id,
    clientId: r.clientId,
    createdAt: r.createdAt.toISOString(),
    amount: r.amount,
    status: r.status,
    lastFour: r.lastFour,
    brand: r.brand,
    reconciledAt: r.reconciledAt?.toISOString() ?? null,
    result: r.reconcileResult,
  }));
}

export { reconcileCharges };

/**
 * An admin purchase of the console (seed 000 §7 "Clients" AdminPurchase): the
 * request's items and payments (agorot) priced and charged by the purchase
 * engine, source 'console', by the signed-in user. Idempotent per
 * `idempotencyKey`. A line priced 0 needs the explicit payment method Free
 * (PRICE_REQUIRED otherwise), and Free needs the admin flag roleIsAdmin
 * (issue 18; docs/money.md "The price rule").
 * @throws AppError NOT_AUTHORIZED (403) for Free without roleIsAdmin; the engine's refusals.
 */
export async function adminPurchase(
  db: Db,
  provider: ClearingProvider,
  actor: Actor,
  body: import('@venue/domain').AdminPurchaseRequest,
) {
  assertMayGiveFree(actor, body.payments);
  return createPurchase(db, provider, {
    clubId: actor.clubId,
    clientId: body.clientId,
    items: body.purchaseItems,
    payments: body.payments,
    payer: body.payer,
    isAdminUser: body.IsAdminUser,
    source: 'console',
    userId: actor.userId,
    idempotencyKey: body.idempotencyKey,
    actor,
  });
}

/**
 * Free is an explicit choice of a user with the admin flag (issue 18): a console sale paid by Free
 * from anyone else is 403 NOT_AUTHORIZED {path: payments}. AdminPurchase and the front desk's sale.
 */
export function assertMayGiveFree(actor: Pick<Actor, 'isAdmin'>, payments: readonly { method: number }[]): void {
  if (!actor.isAdmin && payments.some((p) => p.method === PaymentMethod.Free)) {
    throw new AppError('NOT_AUTHORIZED', 'Free needs the admin permission', { path: 'payments' });
  }
}

/** The purchases of a client, newest first. @throws NOT_FOUND for another club's (or a deleted) client. */
export async function clientPurchases(db: Db, clubId: number, clientId: number) {
  await getBalance(db, clubId, clientId);
  return listClientPurchases(db, clubId, clientId);
}
