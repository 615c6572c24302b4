import { desc, eq } from 'drizzle-orm';
import type { Actor } from '../../lib/actor.js';
import type { z } from 'zod';
import { PurchasePaymentStatus, type Debt, type DebtInput, type DebtPatch } from '@venue/domain';
import type { Db, Tx } from '../../db/index.js';
import { clients, debts, purchases } from '../../db/schema.js';
import { validationError } from '../../lib/validation.js';
import { audit, auditedUpdate } from '../../lib/audit.js';
import { AppError } from '../../lib/errors.js';
import { scoped } from '../../lib/scoped.js';
import { clockNow } from '../../lib/clock.js';
import { noticeNewDebt } from '../notifications/money-notices.js';

/**
 * Debts (seed 000 §7 "Debts"; seed 001 §4 "register debt", "pay debt").
 * Registered by staff, by a failed automatic renewal or by a MASAV payment;
 * paid with a PayDebt purchase item (modules/purchases/purchase.service.ts); edited and
 * soft-deleted by staff. Amounts in minor units.
 */
type Row = typeof debts.$inferSelect;

/** The answer shape of a debt row; `open` = amount − paid, in agorot. */
export function presentDebt(r: Row): Debt {
  return {
    id: r.id,
    clientId: r.clientId,
    amount: r.amount,
    paid: r.paid,
    open: r.amount - r.paid,
    description: r.description,
    source: r.source,
    createdAt: r.createdAt.toISOString(),
    deleted: r.deleted,
    masavFileId: r.masavFileId,
    returnReason: r.returnReason || null,
  };
}

/**
 * GET /api/Debts/GetByClientId/{id}: the client's debts that are not deleted, newest first.
 * @throws NOT_FOUND when the client is not one of the club's (or is deleted).
 */
export async function debtsOfClient(db: Db, clubId: number, clientId: number): Promise<Debt[]> {
  const s = scoped(db, clubId);
  await s.one(clients, clientId, 'client', { live: true });
  const rows = await db
    .select()
    .from(debts)
    .where(s.live(debts, eq(debts.clientId, clientId)))
    .orderBy(desc(debts.createdAt), desc(debts.id));
  return rows.map(presentDebt);
}

/** Registers a debt (inside `tx` when given). */
export async function registerDebt(
  tx: Db | Tx,
  v: { clubId: number; clientId: number; amount: number; description: string; source: string; userId?: number | null },
): Promise<Row> {
  const [r] = await tx
    .insert(debts)
    .values({ ...v, userId: v.userId ?? null, createdAt: clockNow() })
    .returning();
  return r;
}

/**
 * POST /api/Debts: registers a manual debt of a client (amount in agorot). Audited.
 * @throws AppError NOT_FOUND (404) when the client is not a non-deleted client of this club
 */
export async function createDebt(db: Db, actor: Actor, input: z.infer<typeof DebtInput>): Promise<Debt> {
  await scoped(db, actor.clubId).one(clients, input.clientId, 'client', { live: true });
  return db.transaction(async (tx) => {
    const r = await registerDebt(tx, { ...input, clubId: actor.clubId, source: 'manual', userId: actor.userId });
    await audit(tx, actor, { action: 'create', entity: 'debt', entityId: r.id, after: presentDebt(r) });
    await noticeNewDebt(tx, actor.clubId, r.clientId, r.amount);
    return presentDebt(r);
  });
}

/** PATCH /api/Debts/{id}: amount (not below what was paid) and description. */
export async function updateDebt(db: Db, actor: Actor, id: number, patch: z.infer<typeof DebtPatch>): Promise<Debt> {
  const r = await scoped(db, actor.clubId).one(debts, id, 'debt', { live: true });
  // The debt of a MASAV sale is the sale's price: the bank collects it, or the desk pays it in full.
  if (patch.amount != null && patch.amount !== r.amount && (r.purchaseId != null || r.masavFileId != null)) {
    throw validationError([
      { path: 'amount', message: r.masavFileId != null ? 'debtInCollection' : 'masavDebtAmount' },
    ]);
  }
  if (patch.amount != null && patch.amount < r.paid) {
    throw new AppError('VALIDATION_ERROR', 'Amount below what was paid', [{ path: 'amount', message: 'belowPaid' }]);
  }
  return auditedUpdate(
    db,
    actor,
    debts,
    'debt',
    r,
    { amount: patch.amount ?? r.amount, description: patch.description ?? r.description },
    presentDebt,
  );
}

/**
 * Closes a MASAV sale the bank did not collect (docs/money.md "MASAV: rejected, then paid another
 * way"): the purchase goes from Pending to Cancelled — it has no document and leaves the income
 * summaries, so income and VAT are counted once, in the document that took the money (or never,
 * for a debt written off). Call it in the transaction that pays the sale's debt another way or
 * writes it off.
 * @returns whether a Pending purchase was closed (false: already collected, closed, or not MASAV).
 */
export async function closeMasavSale(tx: Tx, clubId: number, purchaseId: number): Promise<boolean> {
  const closed = await tx
    .update(purchases)
    .set({ paymentStatus: PurchasePaymentStatus.Cancelled })
    .where(
      scoped(tx, clubId).where(
        purchases,
        eq(purchases.id, purchaseId),
        eq(purchases.paymentStatus, PurchasePaymentStatus.Pending),
      ),
    )
    .returning({ id: purchases.id });
  return closed.length > 0;
}

/**
 * PATCH /api/Debts/Delete/{id}: soft delete (the row stays for reports) — a write-off. A debt the
 * bank is collecting (in a sent MASAV file not yet returned) is not written off; writing off the
 * debt of an uncollected MASAV sale closes the sale (`closeMasavSale`): it was never income.
 * @throws AppError VALIDATION_ERROR debtInCollection; NOT_FOUND
 */
export async function deleteDebt(db: Db, actor: Actor, id: number): Promise<Debt> {
  const r = await scoped(db, actor.clubId).one(debts, id, 'debt', { live: true });
  if (r.masavFileId != null) throw validationError([{ path: 'id', message: 'debtInCollection' }]);
  return db.transaction(async (tx) => {
    const [u] = await tx.update(debts).set({ deleted: true }).where(eq(debts.id, id)).returning();
    if (r.purchaseId != null) await closeMasavSale(tx, actor.clubId, r.purchaseId);
    await audit(tx, actor, { action: 'delete', entity: 'debt', entityId: id, before: presentDebt(r) });
    return presentDebt(u);
  });
}
