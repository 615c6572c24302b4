import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/index.js';
import { charges, clubCharges, licenseOrders, purchases } from '../../db/schema.js';
import { scoped } from '../../lib/scoped.js';
import { ClearingUncertainError, type ClearingProvider } from './provider.js';
import { clockNow } from '../../lib/clock.js';
import { DEFAULT_ORPHAN_CHARGE_SECONDS } from '../../config.js';

/**
 * Idempotent charges against the clearing provider (DESIGN §7): one
 * `charges` row per idempotency key, written (and committed) before the
 * provider is called, so that
 *
 * - a retry or a concurrent duplicate with the same key finds the row and
 *   never calls the provider a second time for money (it waits for the first
 *   call to settle and answers its outcome);
 * - an uncertain outcome (timeout, lost answer) stays recorded as
 *   'uncertain' until `reconcileCharges` (safer payments) settles it.
 *
 * The key is also sent to the provider, which applies it once on its side.
 */

export type ChargeRow = typeof charges.$inferSelect;

export interface ChargeRequest {
  clubId: number;
  clientId: number | null;
  idempotencyKey: string;
  token: string;
  amount: number;
  currency: number;
  lastFour: string;
  brand: string;
}

/** How long a duplicate waits for the first call with its key to settle. */
const WAIT_MS = 15_000;

/**
 * Charges `amount` (minor units) to a token once per idempotency key.
 * Returns the settled row: status 'approved', 'declined' or 'uncertain'.
 */
export async function chargeOnce(db: Db, provider: ClearingProvider, req: ChargeRequest): Promise<ChargeRow> {
  const [mine] = await db
    .insert(charges)
    .values({
      clubId: req.clubId,
      clientId: req.clientId,
      idempotencyKey: req.idempotencyKey,
      provider: provider.name,
      token: req.token,
      amount: req.amount,
      currency: req.currency,
      status: 'pending',
      lastFour: req.lastFour,
      brand: req.brand,
      createdAt: clockNow(),
    })
    .onConflictDoNothing({ target: [charges.clubId, charges.idempotencyKey] })
    .returning();
  if (!mine) return waitSettled(db, req.clubId, req.idempotencyKey);
  let status: string;
  let providerRef: string | null = null;
  let error: string | null = null;
  try {
    const r = await provider.chargeToken({
      token: req.token,
      amount: req.amount,
      currency: req.currency,
      idempotencyKey: req.idempotencyKey,
    });
    if (r.status === 'approved') {
      status = 'approved';
      providerRef = r.providerRef;
    } else {
      status = 'declined';
      error = r.reason;
    }
  } catch (err) {
    status = 'uncertain';
    error = err instanceof ClearingUncertainError ? err.message : 'provider error';
  }
  const [row] = await db
    .update(charges)
    .set({ status, providerRef, error, settledAt: status === 'uncertain' ? null : clockNow() })
    .where(eq(charges.id, mine.id))
    .returning();
  return row;
}

async function waitSettled(db: Db, clubId: number, key: string): Promise<ChargeRow> {
  const until = Date.now() + WAIT_MS;
  for (;;) {
    const [row] = await db
      .select()
      .from(charges)
      .where(scoped(db, clubId).where(charges, eq(charges.idempotencyKey, key)));
    if (row.status !== 'pending' || Date.now() > until) return row;
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * Gives back an approved charge whose purchase could not be completed.
 * Idempotent (refund key = `<charge key>:refund`).
 */
export async function refundCharge(db: Db, provider: ClearingProvider, row: ChargeRow): Promise<void> {
  if (row.status !== 'approved' || !row.providerRef) return;
  const r = await provider.refund({
    providerRef: row.providerRef,
    amount: row.amount,
    idempotencyKey: `${row.idempotencyKey}:refund`,
  });
  await db
    .update(charges)
    .set({
      status: r.status === 'approved' ? 'refunded' : row.status,
      error: r.status === 'declined' ? r.reason : null,
    })
    .where(eq(charges.id, row.id));
}

/**
 * Gives back `amount` (minor units) of an approved charge, for a refund of (part of) its purchase
 * (docs/money.md "Refunds"). Idempotent on `key` at the provider (a repeated refund moves no money);
 * `charges.refunded` grows by the amount and the status becomes 'refunded' once all of it is back.
 * @returns true when the provider gave the money back, false when it refused (nothing recorded)
 */
export async function refundChargePart(
  db: Db,
  provider: ClearingProvider,
  row: ChargeRow,
  amount: number,
  key: string,
): Promise<boolean> {
  if (amount <= 0) return true;
  if (!row.providerRef || row.refunded + amount > row.amount) return false;
  const r = await provider.refund({ providerRef: row.providerRef, amount, idempotencyKey: key });
  if (r.status !== 'approved') {
    await db.update(charges).set({ error: r.reason }).where(eq(charges.id, row.id));
    return false;
  }
  const refunded = row.refunded + amount;
  await db
    .update(charges)
    .set({ refunded, status: refunded >= row.amount ? 'refunded' : row.status, error: null })
    .where(eq(charges.id, row.id));
  return true;
}

/** Links settled charges to the purchase they paid. */
export async function linkCharges(db: Db, ids: number[], purchaseId: number): Promise<void> {
  if (ids.length) await db.update(charges).set({ purchaseId }).where(inArray(charges.id, ids));
}

/**
 * Seconds an approved charge may stay without its purchase before the
 * reconciliation gives the money back (ORPHAN_CHARGE_SECONDS, default 600;
 * set at start by `configureReconciliation`). A purchase commits
 * milliseconds after its charge; a charge older than this without one
 * belongs to a request that died (a crash, a kill, a lost database) between
 * the provider's approval and the purchase's commit. A charge still
 * 'pending' (its caller died while the provider was asked) is asked about
 * after a minute, or after this wait when shorter.
 */
let orphanAfterSeconds = DEFAULT_ORPHAN_CHARGE_SECONDS;

/** Sets the orphan wait of this process (seconds, at least 1; config ORPHAN_CHARGE_SECONDS). */
export function configureReconciliation(opts: { orphanAfterSeconds: number }): void {
  orphanAfterSeconds = Math.max(1, Math.floor(opts.orphanAfterSeconds));
}

/** The orphan wait in force (seconds). */
export function orphanChargeSeconds(): number {
  return orphanAfterSeconds;
}

/** The purchase's idempotency key of one of its card charges (`<purchase key>:p<payment index>`), or null. */
export function purchaseKeyOfCharge(chargeKey: string): string | null {
  const m = /^(.*):p\d+$/.exec(chargeKey);
  return m ? m[1] : null;
}

/**
 * The advisory-lock key that serialises one purchase key: createPurchase's
 * transaction and the reconciliation of its charges take it, so a charge is
 * never refunded while its purchase commits, nor kept when it did not.
 */
export function purchaseLockSql(clubId: number, purchaseKey: string) {
  return sql`select pg_advisory_xact_lock(hashtextextended(${`purchase:${clubId}:${purchaseKey}`}, 0))`;
}

export interface ReconcileResult {
  checked: number;
  /** Approved charges whose purchase had committed but was not linked: linked now. */
  linked?: number;
  /** Charged at the provider without a purchase here: refunded. */
  refunded: number;
  /** Not charged at the provider (or declined): nothing to do. */
  notCharged: number;
  /** Provider still unreachable: left uncertain for the next run. */
  stillUncertain: number;
}

/**
 * Safer payments (DESIGN §7; seed 000 §2 /reports/app-safer-payments):
 * settles every 'uncertain' charge (and 'pending' ones older than a minute, or
 * than the orphan wait when shorter: their caller died) of a club, or of every club, with the provider's status
 * by idempotency key, and records how each was settled:
 *
 * - 'approved' at the provider → the purchase was not completed here, so the
 *   money is refunded: status 'refunded', result 'charged-refunded';
 * - 'declined' or 'not_found' → status 'declined', result 'not-charged';
 * - the provider is still unreachable → left for the next run.
 */
export async function reconcileCharges(db: Db, provider: ClearingProvider, clubId?: number): Promise<ReconcileResult> {
  const rows = await db
    .select()
    .from(charges)
    .where(
      and(
        clubId ? eq(charges.clubId, clubId) : undefined,
        sql`(${charges.status} = 'uncertain' or (${charges.status} = 'pending' and ${charges.createdAt} < now() - make_interval(secs => ${Math.min(60, orphanAfterSeconds)})))`,
      ),
    );
  const out: ReconcileResult = { checked: rows.length, refunded: 0, notCharged: 0, stillUncertain: 0 };
  for (const row of rows) {
    let st;
    try {
      st = await provider.queryStatus(row.idempotencyKey);
    } catch {
      out.stillUncertain++;
      continue;
    }
    if (st.status === 'approved') {
      const r = await provider.refund({
        providerRef: st.providerRef,
        amount: st.amount,
        idempotencyKey: `${row.idempotencyKey}:refund`,
      });
      await db
        .update(charges)
        .set({
          status: r.status === 'approved' ? 'refunded' : 'approved',
          providerRef: st.providerRef,
          reconciledAt: clockNow(),
          reconcileResult: r.status === 'approved' ? 'charged-refunded' : 'charged-refund-failed',
          settledAt: clockNow(),
        })
        .where(eq(charges.id, row.id));
      out.refunded++;
    } else if (st.status === 'refunded') {
      await db
        .update(charges)
        .set({
          status: 'refunded',
          reconciledAt: clockNow(),
          reconcileResult: 'charged-refunded',
          settledAt: clockNow(),
        })
        .where(eq(charges.id, row.id));
      out.refunded++;
    } else {
      await db
        .update(charges)
        .set({ status: 'declined', reconciledAt: clockNow(), reconcileResult: 'not-charged', settledAt: clockNow() })
        .where(eq(charges.id, row.id));
      out.notCharged++;
    }
  }
  await settleOrphans(db, provider, clubId, out);
  return out;
}

/**
 * Orphan charges: approved charges with no purchase, older than the orphan
 * wait (`orphanChargeSeconds`). Under the purchase key's lock: a purchase with the
 * key exists → the charge is linked to it (the process died after the commit,
 * before linking); a license order or a club's yearly charge paid by it →
 * nothing to do; otherwise the
 * charge is claimed ('refunding') and refunded, result 'orphan-refunded' (or
 * 'charged-refund-failed', kept approved for the next run), shown in the
 * safer-payments report.
 */
async function settleOrphans(db: Db, provider: ClearingProvider, clubId: number | undefined, out: ReconcileResult) {
  const rows = await db
    .select()
    .from(charges)
    .where(
      and(
        clubId ? eq(charges.clubId, clubId) : undefined,
        eq(charges.status, 'approved'),
        isNull(charges.purchaseId),
        sql`${charges.createdAt} < now() - make_interval(secs => ${orphanAfterSeconds})`,
      ),
    );
  for (const row of rows) {
    const purchaseKey = purchaseKeyOfCharge(row.idempotencyKey);
    const claim = await db.transaction(async (tx) => {
      if (purchaseKey != null) {
        await tx.execute(purchaseLockSql(row.clubId, purchaseKey));
        const [p] = await tx
          .select({ id: purchases.id })
          .from(purchases)
          .where(scoped(tx, row.clubId).where(purchases, eq(purchases.idempotencyKey, purchaseKey)));
        if (p) {
          await tx.update(charges).set({ purchaseId: p.id }).where(eq(charges.id, row.id));
          return 'linked' as const;
        }
      } else {
        const [order] = await tx
          .select({ id: licenseOrders.id })
          .from(licenseOrders)
          .where(eq(licenseOrders.chargeId, row.id));
        if (order) return 'paid' as const;
        // The operator's yearly charge of a club (docs/operator.md "Charging clubs") has no purchase either.
        const [yearly] = await tx
          .select({ id: clubCharges.id })
          .from(clubCharges)
          .where(and(eq(clubCharges.clubId, row.clubId), eq(clubCharges.chargeId, row.id)));
        if (yearly) return 'paid' as const;
      }
      const taken = await tx
        .update(charges)
        .set({ status: 'refunding' })
        .where(and(eq(charges.id, row.id), eq(charges.status, 'approved'), isNull(charges.purchaseId)))
        .returning({ id: charges.id });
      return taken.length ? ('refund' as const) : ('skip' as const);
    });
    if (claim === 'paid' || claim === 'skip') continue;
    out.checked++;
    if (claim === 'linked') {
      out.linked = (out.linked ?? 0) + 1;
      continue;
    }
    let ok = false;
    try {
      const r = await provider.refund({
        providerRef: row.providerRef ?? '',
        amount: row.amount,
        idempotencyKey: `${row.idempotencyKey}:refund`,
      });
      ok = r.status === 'approved';
    } catch {
      ok = false;
    }
    await db
      .update(charges)
      .set({
        status: ok ? 'refunded' : 'approved',
        reconciledAt: clockNow(),
        reconcileResult: ok ? 'orphan-refunded' : 'charged-refund-failed',
      })
      .where(eq(charges.id, row.id));
    if (ok) out.refunded++;
    else out.stillUncertain++;
  }
}
