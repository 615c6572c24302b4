import { and, desc, eq, sql } from 'drizzle-orm';
import {
  AutoRenewSettings,
  ClientStatus,
  PaymentMethod,
  periodMonths,
  PurchaseItemType,
  renewalQuote,
  isRenewalDue,
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
  clubs,
  groups,
  paymentMethods,
  purchaseItems,
  purchases,
} from '../../db/schema.js';
import { AppError, notFound } from '../../lib/errors.js';
import { queryRows } from '../../db/query.js';
import { scoped } from '../../lib/scoped.js';
import type { ClearingProvider } from '../../integrations/clearing/provider.js';
import { reconcileCharges, type ReconcileResult } from '../../integrations/clearing/charges.js';
import { clubToday, createPurchase } from '../../engine/purchase.service.js';
import { clubSettings, getClubRow } from '../club/club.service.js';
import { audit } from '../../lib/audit.js';
import type { Actor } from '../../lib/actor.js';
import { registerDebt } from '../debts/debts.service.js';

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

function monthlyOf(r: { unitPrice: number; details: unknown }): number | null {
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
  const q = renewalQuote(today, c.subscriptionEnd, monthly, endType ?? 4, rule);
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
 */
export async function runAutoRenew(
  db: Db,
  provider: ClearingProvider,
  clubId: number,
  opts: { at?: Date; userId?: number | null; concurrency?: number } = {},
): Promise<RunResult> {
  const at = opts.at ?? new Date();
  const [club] = await db.select().from(clubs).where(eq(clubs.id, clubId));
  if (!club) throw notFound('club');
  const settings = clubSettings(club);
  const today = clubToday(club.location, at);
  const rule = await autoRenewSettings(db, clubId);
  const from = shift(today, -settings.autoRenewDaysAfter);
  const to = shift(today, settings.autoRenewDaysBefore);
  // Candidates with their last subscription item, in one query.
  const list = await queryRows<{ id: number; end: string | Date; end_type: number; kind: string; last: unknown }>(
    db,
    sql`
    select c.id, c.subscription_end as end, coalesce(g.subscription_end_type, 4) as end_type, pm.kind,
           (select json_build_object('unitPrice', pi.unit_price, 'details', pi.details)
              from purchase_items pi join purchases p on p.id = pi.purchase_id
             where p.club_id = ${clubId} and p.client_id = c.id and pi.item_type = ${PurchaseItemType.NewSubscription}
             order by p.at desc, p.id desc limit 1) as last
      from clients c
      join payment_methods pm on pm.client_id = c.id and pm.deleted = false and pm.club_id = ${clubId}
      left join groups g on g.id = c.group_id
     where c.club_id = ${clubId} and c.status = ${ClientStatus.Active}
       and c.subscription_end between ${from}::date and ${to}::date
       and not exists (select 1 from auto_renew_logs l
                        where l.club_id = ${clubId} and l.client_id = c.id and l.for_end = c.subscription_end)
     order by c.id`,
  );
  const out: RunResult = { considered: list.length, renewed: 0, failed: 0, skipped: 0 };
  // A few clients at a time: each renewal is its own charge and transaction (the invoice counter
  // serializes only the short insert at the end).
  let next = 0;
  const worker = async () => {
    while (next < list.length) await renewRow(list[next++]);
  };
  const renewRow = async (r: (typeof list)[number]) => {
    const end = typeof r.end === 'string' ? r.end.slice(0, 10) : isoOf(r.end);
    const last = (typeof r.last === 'string' ? JSON.parse(r.last) : r.last) as {
      unitPrice: number;
      details: unknown;
    } | null;
    const monthly = last ? monthlyOf(last) : null;
    if (monthly == null || !isRenewalDue(today, end, settings.autoRenewDaysBefore, settings.autoRenewDaysAfter)) {
      out.skipped++;
      return;
    }
    const q: RenewalQuote = renewalQuote(today, end, monthly, Number(r.end_type), rule);
    const ok = await renewOne(db, provider, {
      clubId,
      clientId: r.id,
      end,
      quote: q,
      kind: r.kind,
      at,
      userId: opts.userId,
    });
    if (ok) out.renewed++;
    else out.failed++;
  };
  await Promise.all(Array.from({ length: Math.min(opts.concurrency ?? 1, list.length) }, worker));
  return out;
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
 * the club's due subscriptions (`runAutoRenew`: 4 clients at a time on
 * PostgreSQL, one at a time on PGlite's single connection), then with
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
  const renewal = await runAutoRenew(database.db, provider, clubId, {
    at: opts.at,
    userId: opts.userId,
    concurrency: database.kind === 'postgres' ? 4 : 1,
  });
  if (!opts.reconcile) return { renewal };
  return { renewal, saferPayments: await reconcileCharges(database.db, provider, clubId) };
}

async function renewOne(
  db: Db,
  provider: ClearingProvider,
  a: {
    clubId: number;
    clientId: number;
    end: string;
    quote: RenewalQuote;
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
      items: [
        {
          itemType: PurchaseItemType.NewSubscription,
          name: '',
          quantity: 1,
          unitPrice: quote.price,
          subscription: {
            period: 'month',
            usageType: 'subscription',
            unlimited: false,
            kala: false,
            start: quote.start,
            end: quote.end,
          },
        },
      ],
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

function shift(iso: string, days: number): string {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}
function isoOf(d: Date): string {
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
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
