import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { Purchase } from '@venue/domain';
import type { Db, Tx } from '../../db/index.js';
import { purchaseItems, purchasePayments, purchases } from '../../db/schema.js';
import { scoped } from '../../lib/scoped.js';

/** Reading purchases back and mapping their rows to the API shape (STYLE point 6: one place). */

type PurchaseRow = typeof purchases.$inferSelect;

/** Maps a purchase row (with items and payments) to the API shape; the only place that does. `change` is 0. */
export function presentPurchase(
  p: PurchaseRow,
  items: (typeof purchaseItems.$inferSelect)[],
  pays: (typeof purchasePayments.$inferSelect)[],
  warnings: string[] = [],
): Purchase {
  return {
    id: p.id,
    at: p.at.toISOString(),
    clientId: p.clientId,
    invoiceNumber: p.invoiceNumber,
    total: p.total,
    amountBeforeVat: p.amountBeforeVat,
    vat: p.vat,
    vatRateBp: p.vatRateBp,
    paymentStatus: p.paymentStatus,
    refunded: p.refunded,
    balanceBefore: p.balanceBefore,
    balanceAfter: p.balanceAfter,
    tempBalanceBefore: p.tempBalanceBefore,
    tempBalanceAfter: p.tempBalanceAfter,
    paidCash: p.paidCash,
    paidCredit: p.paidCredit,
    paidBeats: p.paidBeats,
    paidTemp: p.paidTemp,
    paidOther: p.paidOther,
    fee: p.fee,
    lastFour: p.lastFour,
    excess: p.excess,
    change: 0,
    payer: p.payer,
    source: p.source,
    items: items.map(presentItem),
    payments: pays.map((x) => ({ method: x.method, amount: x.amount, lastFour: x.lastFour })),
    warnings,
  };
}

/** Maps a purchase_items row to the API shape (amounts in agorot, expiry an ISO date). */
export function presentItem(i: typeof purchaseItems.$inferSelect) {
  return {
    id: i.id,
    itemType: i.itemType,
    itemId: i.itemId,
    name: i.name,
    quantity: i.quantity,
    unitPrice: i.unitPrice,
    priceWithVat: i.priceWithVat,
    amountBeforeVat: i.amountBeforeVat,
    expiry: i.expiry,
    details: i.details ?? null,
  };
}

/** A purchase of the club with its items and payments; 404 when not the club's. */
export async function getPurchase(db: Db | Tx, clubId: number, id: number): Promise<Purchase> {
  const p = await scoped(db, clubId).one(purchases, id, 'purchase');
  const [items, pays] = await Promise.all([
    db.select().from(purchaseItems).where(eq(purchaseItems.purchaseId, id)).orderBy(asc(purchaseItems.id)),
    db.select().from(purchasePayments).where(eq(purchasePayments.purchaseId, id)).orderBy(asc(purchasePayments.id)),
  ]);
  return presentPurchase(p, items, pays);
}

/** The id of the club's purchase made with an idempotency key, or null. */
export async function purchaseIdByKey(db: Db | Tx, clubId: number, key: string): Promise<number | null> {
  const [p] = await db
    .select({ id: purchases.id })
    .from(purchases)
    .where(scoped(db, clubId).where(purchases, eq(purchases.idempotencyKey, key)));
  return p?.id ?? null;
}

/** The club's purchase made with an idempotency key, presented, or null. */
export async function findPurchaseByKey(db: Db, clubId: number, key: string): Promise<Purchase | null> {
  const id = await purchaseIdByKey(db, clubId, key);
  return id != null ? getPurchase(db, clubId, id) : null;
}

/** Purchases of a client, newest first (purchase history tab). */
export async function listClientPurchases(db: Db, clubId: number, clientId: number, limit = 200) {
  const rows = await db
    .select()
    .from(purchases)
    .where(scoped(db, clubId).where(purchases, eq(purchases.clientId, clientId)))
    .orderBy(sql`${purchases.at} desc, ${purchases.id} desc`)
    .limit(limit);
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const [items, pays] = await Promise.all([
    db.select().from(purchaseItems).where(inArray(purchaseItems.purchaseId, ids)),
    db.select().from(purchasePayments).where(inArray(purchasePayments.purchaseId, ids)),
  ]);
  return rows.map((r) =>
    presentPurchase(
      r,
      items.filter((i) => i.purchaseId === r.id),
      pays.filter((p) => p.purchaseId === r.id),
    ),
  );
}
