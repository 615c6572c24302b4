import { and, desc, eq } from 'drizzle-orm';
import {
  AutoRenewSettings,
  dealerRefusal,
  PaymentMethod,
  periodMonths,
  PurchaseItemType,
  renewalQuote,
  UNLIMITED_END,
  type RenewalQuote,
  type SubscriptionPeriod,
  type SubscriptionsResponse,
} from '@venue/domain';
import type { Database, Db } from '../../db/index.js';
import {
  autoRenewLogs,
  clients,
  clubMoneySettings,
  groups,
  paymentMethods,
  purchaseItems,
  purchases,
} from '../../db/schema.js';
import { AppError, notFound } from '../../lib/errors.js';
import { scoped } from '../../lib/scoped.js';
import type { ClearingProvider } from '../../integrations/clearing/provider.js';
import { reconcileCharges, type ReconcileResult } from '../../integrations/clearing/charges.js';
import { createPurchase } from '../purchases/purchase.service.js';
import { clubSettings, clubToday, getClubRow } from '../club/club.service.js';
import { audit } from '../../lib/audit.js';
import type { Actor } from '../../lib/actor.js';
import { registerDebt } from '../debts/debts.service.js';
import { noticeRenewalRun } from '../notifications/money-notices.js';
import { issueSaleDocument } from '../documents/documents.service.js';
import {
  chargeChunk,
  logWithoutMethod,
  planRenewal,
  refundFailed,
  RENEW_CHUNK,
  renewalCandidates,
  renewalItem,
  renewalRun,
  writeChunk,
  type PlannedRenewal,
  type RenewalCandidate,
  type RenewalRun,
} from './auto-renew.batch.js';

/**
 * Subscriptions and automatic renewal (seed 000 §7 GetSubscriptions,
 * GetRenewSubscriptionStartAndEndDatesAndPrice, AutoRenew/DoAutoRenrenew;
 * seed 001 §3, §4). Dates are computed by packages/domain/subscription.ts.
 * A renewal repeats the client's last subscription at its monthly price.
 */

async function clientRow(db: Db, clubId: number, clientId: number) {
  const [r] = await db
    .select({ c: clients, endType: groups.subscriptionEndType, daysToExtend: groups.daysToExtend })
    .from(clients)
    .leftJoin(groups, eq(groups.id, clients.groupId))
    .where(scoped(db, clubId).live(clients, eq(clients.id, clientId)));
  if (!r) throw notFound('client');
  return r;
}

/** GET /api/GetSubscriptions/{id}: the current subscription and the subscriptions bought. */
export async function getSubscriptions(
  db: Db,
  clubId: number,
  clientId: number,
  today: string,
): Promise<SubscriptionsResponse> {
  const { c, endType, daysToExtend } = await clientRow(db, clubId, clientId);
  const rows = await db
    .select({ item: purchaseItems, p: purchases })
    .from(purchaseItems)
    .innerJoin(purchases, eq(purchases.id, purchaseItems.purchaseId))
    .where(
      scoped(db, clubId).where(
        purchases,
        eq(purchases.clientId, clientId),
        eq(purchaseItems.itemType, PurchaseItemType.NewSubscription),
      ),
    )
    .orderBy(desc(purchases.at), desc(purchases.id));
  return {
    clientId,
    current: {
      start: c.subscriptionStart,
      end: c.subscriptionEnd,
      unlimited: c.subscriptionEnd != null && c.subscriptionEnd >= UNLIMITED_END,
      active: c.subscriptionEnd != null && c.subscriptionEnd >= today && (c.subscriptionStart ?? today) <= today,
      immersionsLeft: c.subscriptionBalance,
    },
    endType: endType ?? 4,
    daysToExtend: daysToExtend ?? 0,
    history: rows.map(({ item, p }) => {
      const d = item.details ?? {};
      return {
        purchaseId: p.id,
        invoiceNumber: p.invoiceNumber,
        paymentStatus: p.paymentStatus,
        at: p.at.toISOString(),
        period: (d.period as string) ?? null,
        usageType: (d.usageType as string) ?? null,
        start: (d.start as string) ?? null,
        end: (d.end as string) ?? item.expiry,
        price: item.priceWithVat,
        kala: d.kala === true,
        immersions: typeof d.immersions === 'number' ? d.immersions : null,
        source: p.source,
      };
    }),
  };
}

/** The monthly price of a client's last subscription (minor units), or null when there is none to repeat. */
async function lastMonthlyPrice(db: Db, clubId: number, clientId: number): Promise<number | null> {
  const [r] = await db
    .select({ unitPrice: purchaseItems.unitPrice, details: purchaseItems.details })
    .from(purchaseItems)
    .innerJoin(purchases, eq(purchases.id, purchaseItems.purchaseId))
    .where(
      scoped(db, clubId).where(
        purchases,
        eq(purchases.clientId, clientId),
        eq(purchaseItems.itemType, PurchaseItemType.NewSubscription),
      ),
    )
    .orderBy(desc(purchases.at), desc(purchases.id))
    .limit(1);
  return r ? monthlyOf(r) : null;
}

/** The monthly price (agorot) of a subscription item, or null when it is not renewed (unlimited, kala, day, week). */
export function monthlyOf(r: { unitPrice: number; details: unknown }): number | null {
  const d = (r.details ?? {}) as {
    period?: SubscriptionPeriod;
    monthlyPrice?: number;
    unlimited?: boolean;
    kala?: boolean;
  };
  if (d.unlimited || d.kala) return null;
  if (typeof d.monthlyPrice === 'number' && d.period === 'month') return d.monthlyPrice;
  const months = d.period ? periodMonths(d.period) : 0;
  return months > 0 ? Math.round(r.unitPrice / months) : null;
}

/** The club's automatic renewal settings, with the schema's defaults when never saved (docs/money.md). */
export async function autoRenewSettings(db: Db, clubId: number): Promise<AutoRenewSettings> {
  const [r] = await scoped(db, clubId).list(clubMoneySettings);
  return AutoRenewSettings.parse(r?.autoRenew ?? {});
}

export async function saveAutoRenewSettings(db: Db, clubId: number, s: AutoRenewSettings): Promise<AutoRenewSettings> {
  await db
    .insert(clubMoneySettings)
    .values({ clubId, autoRenew: s })
    .onConflictDoUpdate({ target: clubMoneySettings.clubId, set: { autoRenew: s } });
  return s;
}

/**
 * POST /api/GetRenewSubscriptionStartAndEndDatesAndPrice/{id}: what an
 * automatic renewal would sell today, without charging.
 * @throws NOTHING_TO_RENEW when the client never bought a renewable subscription.
 */
export async function renewQuoteFor(db: Db, clubId: number, clientId: number, today: string) {
  const { c, endType } = await clientRow(db, clubId, clientId);
  const monthly = await lastMonthlyPrice(db, clubId, clientId);
  if (monthly == null) throw new AppError('NOTHING_TO_RENEW', 'No subscription to renew');
  const rule = await autoRenewSettings(db, clubId);
  const { autoRenewDaysBefore } = clubSettings(await getClubRow(db, clubId));
  const q = renewalQuote(today, c.subscriptionEnd, monthly, endType ?? 4, rule, autoRenewDaysBefore);
  const [pm] = await db
    .select({ id: paymentMethods.id })
    .from(paymentMethods)
    .where(and(eq(paymentMethods.clientId, clientId), eq(paymentMethods.deleted, false)));
  return { ...q, monthlyPrice: monthly, hasPaymentMethod: !!pm };
}

export interface RunResult {
  considered: number;
  renewed: number;
  failed: number;
  skipped: number;
  /** Due clients without a stored payment method, logged `NO_PAYMENT_METHOD` (not counted in `considered`). */
  noPaymentMethod: number;
}

/**
 * Automatic renewal (seed 001 §3, §4): every client of the club with a
 * stored payment method whose subscription ends within the club's window
 * (autoRenewDaysBefore before to autoRenewDaysAfter after) and who has no
 * attempt for that end date yet is renewed once: the quote is charged to the
 * stored card (or sent to MASAV), a purchase made (source 'autorenew'), the
 * attempt logged. A failed charge logs the error and registers a debt; the
 * subscription is not extended, so the gate refuses the client after the
 * end (status 2). Idempotent per (client, subscription end).
 *
 * Set-based (auto-renew.batch.ts; docs/money.md "Automatic renewal"): the
 * candidates in one query, the domain's rules in memory, and per chunk of
 * RENEW_CHUNK clients one charge insert, the provider's idempotent calls, one
 * settling update and one transaction of multi-row inserts. A client whose
 * key was used before, and every client of a chunk whose transaction fails,
 * goes through the one-client path `renewOne` (createPurchase), which reuses
 * the charge rows by key. The per-client loop this replaced is kept for the
 * tests and the benchmark as `runAutoRenewPerClient` (test/auto-renew-reference.ts).
 * A club that cannot issue tax documents (no dealer number or address) charges nobody: each due
 * client's attempt is logged with DEALER_IDENTITY_MISSING (`refuseWithoutDealerIdentity`).
 * @throws AppError NOT_FOUND (club)
 */
export async function runAutoRenew(
  db: Db,
  provider: ClearingProvider,
  clubId: number,
  opts: { at?: Date; userId?: number | null; chunk?: number } = {},
): Promise<RunResult> {
  const size = opts.chunk ?? RENEW_CHUNK;
  const run = await renewalRun(
    db,
    clubId,
    await autoRenewSettings(db, clubId),
    opts.at ?? new Date(),
    opts.userId ?? null,
  );
  const list = await renewalCandidates(db, run);
  const noPaymentMethod = await logWithoutMethod(db, run);
  if (dealerRefusal(run.settings)) return { ...(await refuseWithoutDealerIdentity(db, run, list)), noPaymentMethod };
  const out: RunResult = { considered: list.length, renewed: 0, failed: 0, skipped: 0, noPaymentMethod };
  for (let i = 0; i < list.length; i += size) {
    const chunk = list.slice(i, i + size).map((c) => planRenewal(run, c, monthlyOf));
    await chargeChunk(db, provider, run, chunk);
    // Written in list order: runs of set-written clients, and between them the rare client that
    // takes the one-client path, so invoice numbers follow client order as before.
    let from = 0;
    while (from < chunk.length) {
      let to = from;
      while (to < chunk.length && chunk[to].outcome.kind !== 'single') to++;
      if (to > from) await writeSegment(db, provider, run, chunk.slice(from, to));
      if (to < chunk.length) await renewSingle(db, provider, run, chunk[to]);
      from = to + 1;
    }
    for (const p of chunk) {
      if (p.outcome.kind === 'skipped') out.skipped++;
      else if (p.outcome.kind === 'ok') out.renewed++;
      else out.failed++;
    }
  }
  // The run's notices (renewed with its document, renewal failed), after its money is written
  // (docs/notifications.md); a document that cannot be issued yet (MASAV) is only linked.
  await noticeRenewalRun(db, clubId, run.at, (purchaseId) =>
    issueSaleDocument(db, clubId, purchaseId, null).then(
      (d) => d.id,
      () => null,
    ),
  );
  return out;
}

/**
 * A run of a club that cannot issue tax documents (no dealer number or address, `dealerRefusal`;
 * docs/money.md "The dealer's identity on tax documents"): nothing is charged, no purchase and no
 * debt is written; each due client gets a failed log row with the error DEALER_IDENTITY_MISSING
 * (the club's fault, not the client's). The row names no subscription end (`forEnd` null), so it
 * is not the one attempt per end: the first run after the club sets its number renews the client.
 */
async function refuseWithoutDealerIdentity(
  db: Db,
  run: RenewalRun,
  list: RenewalCandidate[],
): Promise<Omit<RunResult, 'noPaymentMethod'>> {
  const due = list.map((c) => planRenewal(run, c, monthlyOf)).filter((p) => p.outcome.kind !== 'skipped');
  if (due.length) {
    await db.insert(autoRenewLogs).values(
      due.map((p) => ({
        clubId: run.clubId,
        clientId: p.c.client.id,
        at: run.at,
        success: false,
        error: 'DEALER_IDENTITY_MISSING',
        amount: p.price,
        startDate: p.start,
        endDate: p.endDate,
        forEnd: null,
      })),
    );
  }
  return { considered: list.length, renewed: 0, failed: due.length, skipped: list.length - due.length };
}

/**
 * Writes a run of set-planned clients in one transaction; when it fails nothing of it was
 * written and each client goes the one-client way (its charge row is found by key: no second
 * charge).
 */
async function writeSegment(db: Db, provider: ClearingProvider, run: RenewalRun, seg: PlannedRenewal[]) {
  try {
    await writeChunk(db, run, seg);
    await refundFailed(db, provider, seg);
  } catch {
    for (const p of seg) if (p.outcome.kind !== 'skipped') await renewSingle(db, provider, run, p);
  }
}

/** One client through `renewOne` (createPurchase); its outcome becomes 'ok' or 'failed'. */
async function renewSingle(db: Db, provider: ClearingProvider, run: RenewalRun, p: PlannedRenewal) {
  const ok = await renewOne(db, provider, {
    clubId: run.clubId,
    clientId: p.c.client.id,
    end: p.c.end,
    quote: { start: p.start, end: p.endDate, price: p.price },
    monthly: p.monthly,
    kind: p.c.method.kind,
    at: run.at,
    userId: run.userId,
  });
  p.outcome = ok ? { kind: 'ok' } : { kind: 'failed', error: '' };
}

interface MoneyJobOptions {
  /** The moment of the run (default now): which subscriptions are due. */
  at?: Date;
  /** The staff user who started the run, on its purchases (null: the scheduler). */
  userId?: number | null;
  /** Also reconcile the club's card charges (safer payments) after the renewal. */
  reconcile?: boolean;
}

/**
 * The money jobs of one club (seed 001 §4), the one place the daily scheduler,
 * StartChargeClub and AutoRenew/DoAutoRenrenew run them: automatic renewal of
 * the club's due subscriptions (`runAutoRenew`, set-based), then with
 * `reconcile` the safer-payments reconciliation of the club's card charges
 * (integrations/clearing/charges.ts `reconcileCharges`).
 * @throws AppError NOT_FOUND (club)
 */
export async function runClubMoneyJobs(
  database: Pick<Database, 'db' | 'kind'>,
  provider: ClearingProvider,
  clubId: number,
  opts: MoneyJobOptions & { reconcile: true },
): Promise<{ renewal: RunResult; saferPayments: ReconcileResult }>;
export async function runClubMoneyJobs(
  database: Pick<Database, 'db' | 'kind'>,
  provider: ClearingProvider,
  clubId: number,
  opts?: MoneyJobOptions,
): Promise<{ renewal: RunResult; saferPayments?: ReconcileResult }>;
export async function runClubMoneyJobs(
  database: Pick<Database, 'db' | 'kind'>,
  provider: ClearingProvider,
  clubId: number,
  opts: MoneyJobOptions = {},
): Promise<{ renewal: RunResult; saferPayments?: ReconcileResult }> {
  const renewal = await runAutoRenew(database.db, provider, clubId, { at: opts.at, userId: opts.userId });
  if (!opts.reconcile) return { renewal };
  return { renewal, saferPayments: await reconcileCharges(database.db, provider, clubId) };
}

/**
 * Renews one client through `createPurchase` (key `autorenew:<client>:<end>`) and logs the
 * attempt; a failure registers a debt (source 'autorenew') and logs the error code and reason.
 * The set-based run's fallback, and the per-client reference path of the tests.
 * @returns whether the client was renewed.
 */
export async function renewOne(
  db: Db,
  provider: ClearingProvider,
  a: {
    clubId: number;
    clientId: number;
    end: string;
    quote: Pick<RenewalQuote, 'start' | 'end' | 'price'>;
    /** The monthly price the quote was prorated from (agorot), recorded for the next renewal. */
    monthly: number;
    kind: string;
    at: Date;
    userId?: number | null;
  },
): Promise<boolean> {
  const { quote } = a;
  try {
    const p = await createPurchase(db, provider, {
      clubId: a.clubId,
      clientId: a.clientId,
      items: [renewalItem(quote, a.monthly)],
      payments: [
        {
          method: a.kind === 'masav' ? PaymentMethod.Masav : PaymentMethod.CreditCardToken,
          amount: quote.price,
          keepExcess: false,
        },
      ],
      isAdminUser: true,
      source: 'autorenew',
      userId: a.userId ?? null,
      idempotencyKey: `autorenew:${a.clientId}:${a.end}`,
      at: a.at,
    });
    await db.insert(autoRenewLogs).values({
      clubId: a.clubId,
      clientId: a.clientId,
      at: a.at,
      success: true,
      amount: quote.price,
      purchaseId: p.id,
      startDate: quote.start,
      endDate: quote.end,
      forEnd: a.end,
    });
    return true;
  } catch (err) {
    const code = err instanceof AppError ? err.code : 'GENERAL_ERROR';
    const reason =
      err instanceof AppError && err.details && typeof err.details === 'object'
        ? (err.details as { reason?: string }).reason
        : undefined;
    await db.transaction(async (tx) => {
      const debt = await registerDebt(tx, {
        clubId: a.clubId,
        clientId: a.clientId,
        amount: quote.price,
        description: `Automatic renewal ${quote.start}–${quote.end}`,
        source: 'autorenew',
        userId: a.userId ?? null,
      });
      await tx.insert(autoRenewLogs).values({
        clubId: a.clubId,
        clientId: a.clientId,
        at: a.at,
        success: false,
        error: reason ? `${code}:${reason}` : code,
        amount: quote.price,
        debtId: debt.id,
        startDate: quote.start,
        endDate: quote.end,
        forEnd: a.end,
      });
    });
    return false;
  }
}

/** Attempts of automatic renewal, newest first (client's "automatic actions", seed 001 §2). */
export async function autoRenewLogsOf(db: Db, clubId: number, clientId?: number) {
  const rows = await db
    .select({ l: autoRenewLogs, first: clients.firstName, last: clients.lastName })
    .from(autoRenewLogs)
    .leftJoin(clients, eq(clients.id, autoRenewLogs.clientId))
    .where(scoped(db, clubId).where(autoRenewLogs, clientId ? eq(autoRenewLogs.clientId, clientId) : undefined))
    .orderBy(desc(autoRenewLogs.at), desc(autoRenewLogs.id))
    .limit(1000);
  return rows.map(({ l, first, last }) => ({
    id: l.id,
    clientId: l.clientId,
    clientName: `${first ?? ''} ${last ?? ''}`.trim(),
    at: l.at.toISOString(),
    success: l.success,
    error: l.error,
    amount: l.amount,
    purchaseId: l.purchaseId,
    debtId: l.debtId,
    startDate: l.startDate,
    endDate: l.endDate,
  }));
}

/** The club's local day (YYYY-MM-DD) now, in its location's time zone. */
async function clubTodayOf(db: Db, clubId: number): Promise<string> {
  return clubToday((await getClubRow(db, clubId)).location, new Date());
}

/** GET /api/GetSubscriptions/{id} as of the club's today. */
export async function subscriptionsToday(db: Db, clubId: number, clientId: number) {
  return getSubscriptions(db, clubId, clientId, await clubTodayOf(db, clubId));
}

/** The renewal quote of a client as of the club's today (dates, price in agorot). */
export async function renewQuoteToday(db: Db, clubId: number, clientId: number) {
  return renewQuoteFor(db, clubId, clientId, await clubTodayOf(db, clubId));
}

/** The automatic renewal run by a user now (`concurrency` clients at once), audited as `run autoRenew`. */
export async function runAutoRenewBy(
  database: Pick<Database, 'db' | 'kind'>,
  provider: ClearingProvider,
  actor: Actor,
): Promise<RunResult> {
  const { renewal } = await runClubMoneyJobs(database, provider, actor.clubId, { userId: actor.userId });
  await audit(database.db, actor, { action: 'run', entity: 'autoRenew', entityId: actor.clubId, after: renewal });
  return renewal;
}

/** The renewal attempts of one client. @throws NOT_FOUND for another club's (or a deleted) client. */
export async function clientAutoRenewLogs(db: Db, clubId: number, clientId: number) {
  await clientRow(db, clubId, clientId);
  return autoRenewLogsOf(db, clubId, clientId);
}

/** Saves the club's renewal rule (days before/after the end), audited with before and after. */
export async function updateAutoRenewSettings(db: Db, actor: Actor, s: AutoRenewSettings): Promise<AutoRenewSettings> {
  const before = await autoRenewSettings(db, actor.clubId);
  const after = await saveAutoRenewSettings(db, actor.clubId, s);
  await audit(db, actor, { action: 'update', entity: 'autoRenewSettings', entityId: actor.clubId, before, after });
  return after;
}
