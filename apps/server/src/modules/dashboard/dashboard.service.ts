import { countDistinct, eq, gte, isNotNull, lt, sql, type SQL } from 'drizzle-orm';
import {
  EntrancePaymentType,
  EntranceStatus,
  periodRange,
  PurchasePaymentStatus,
  Reason,
  type ChartPoint,
} from '@venue/domain';
import type { Db } from '../../db/index.js';
import { clients, entranceLogs } from '../../db/schema.js';
import { queryRows } from '../../db/query.js';
import { scoped } from '../../lib/scoped.js';
import { productDailyLessRefunds } from '../reports/product-sql.js';
import {
  clubTimeZone,
  clubZoneSql,
  todayIn,
  toInstants,
  withClubZone,
  type ResolvedRange,
} from '../reports/report-range.js';

/**
 * Dashboard counters and charts (seed 000 §2 "Dashboard content", §7
 * "Dashboard"). "This month" is the calendar month containing today in the
 * club's time zone, [local midnight of the 1st, local midnight of the next
 * 1st); hours are local hours in the club's time zone.
 */

/** This calendar month of a club as instants. */
export async function thisMonth(db: Db, clubId: number, now: Date = new Date()): Promise<ResolvedRange> {
  return monthIn(await clubTimeZone(db, clubId), now);
}

/** The month of `now` in a zone as instants. */
function monthIn(tz: string, now: Date): ResolvedRange {
  return toInstants(periodRange('month', todayIn(tz, now)), tz);
}

type Row = Record<string, unknown>;

/**
 * A statement over this month of the club, without a round trip to read the
 * club's zone (report-range.ts withClubZone): `query(r, zone)` runs with the
 * zone this process last saw, and selects `zone` (the club's zone read by the
 * same statement, as `__tz`); run again when it differs. A statement without
 * rows tells no zone: withClubZone then reads it.
 */
function monthRows(db: Db, clubId: number, now: Date, query: (r: ResolvedRange, zone: SQL) => SQL): Promise<Row[]> {
  const zone = sql`${clubZoneSql(clubId)} as "__tz"`;
  return withClubZone(db, clubId, async (tz) => {
    const rows = await queryRows<Row>(db, query(monthIn(tz, now), zone));
    return { result: rows, zone: rows[0]?.__tz as string | null | undefined };
  });
}

/** `GetMonthlyEntranceCount`: `{value}` = approved entrances (status 1) this calendar month. */
export async function monthlyEntranceCount(db: Db, clubId: number, now: Date = new Date()): Promise<{ value: number }> {
  const [row] = await monthRows(
    db,
    clubId,
    now,
    (r, zone) => sql`select count(*)::int as n, ${zone} from entrance_logs
      where club_id = ${clubId} and at >= ${r.start} and at < ${r.end} and status = ${EntranceStatus.Approved}`,
  );
  return { value: Number(row?.n ?? 0) };
}

/**
 * `GetActiveClientsCount`: `{value}` = distinct clients with an approved
 * entrance in the 30 days (30 × 24 h) before `now`.
 */
export async function activeClientsCount(db: Db, clubId: number, now: Date = new Date()): Promise<{ value: number }> {
  const since = new Date(now.getTime() - 30 * 86_400_000);
  const [row] = await db
    .select({ n: countDistinct(entranceLogs.clientId) })
    .from(entranceLogs)
    .where(
      scoped(db, clubId).where(
        entranceLogs,
        gte(entranceLogs.at, since),
        lt(entranceLogs.at, new Date(now.getTime() + 1)),
        eq(entranceLogs.status, EntranceStatus.Approved),
        isNotNull(entranceLogs.clientId),
      ),
    );
  return { value: Number(row?.n ?? 0) };
}

/**
 * `GetLastWeekArrivalsCount` (ours: seed 000 §2 lists "arrivals last week"
 * among the dashboard content without naming a call): `{value}` = approved
 * entrances in the 7 days (7 × 24 h) before `now`.
 */
export async function lastWeekArrivalsCount(
  db: Db,
  clubId: number,
  now: Date = new Date(),
): Promise<{ value: number }> {
  const since = new Date(now.getTime() - 7 * 86_400_000);
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(entranceLogs)
    .where(
      scoped(db, clubId).where(
        entranceLogs,
        gte(entranceLogs.at, since),
        lt(entranceLogs.at, new Date(now.getTime() + 1)),
        eq(entranceLogs.status, EntranceStatus.Approved),
      ),
    );
  return { value: Number(row?.n ?? 0) };
}

/** `GetChartEntranceByStatus`: entrances this month per status; key = status number, ascending; only statuses that occur. */
export async function chartEntranceByStatus(db: Db, clubId: number, now: Date = new Date()): Promise<ChartPoint[]> {
  const rows = await monthRows(
    db,
    clubId,
    now,
    (r, zone) => sql`select status, count(*)::int as n, ${zone} from entrance_logs
      where club_id = ${clubId} and at >= ${r.start} and at < ${r.end} group by status order by status`,
  );
  return rows.map((x) => ({ key: String(x.status), value: Number(x.n) }));
}

/**
 * `GetChartConfirmedEntranceByTime`: approved entrances this month per local
 * hour of the club; all 24 keys `00`..`23` in order, zero when none.
 */
export async function chartConfirmedEntranceByTime(
  db: Db,
  clubId: number,
  now: Date = new Date(),
): Promise<ChartPoint[]> {
  // Grouped by position: the zone is a bound parameter, so the two expressions would differ.
  const rows = await monthRows(
    db,
    clubId,
    now,
    (
      r,
      zone,
    ) => sql`select extract(hour from (at at time zone ${r.timeZone}))::int as h, count(*)::int as n, ${zone} from entrance_logs
      where club_id = ${clubId} and at >= ${r.start} and at < ${r.end} and status = ${EntranceStatus.Approved} group by 1`,
  );
  const byHour = new Map(rows.map((x) => [Number(x.h), Number(x.n)]));
  return Array.from({ length: 24 }, (_, h) => ({ key: String(h).padStart(2, '0'), value: byHour.get(h) ?? 0 }));
}

// ---------------------------------------------------------------- money and groups

/**
 * `GetMonthlyIncome`: `{value}` = sum of `total` (minor units, VAT and card
 * fee included) of this month's purchases that were not refunded, less what
 * partial refunds gave back of them (`refunded`, docs/money.md "Refunds").
 */
export async function monthlyIncome(db: Db, clubId: number, now: Date = new Date()): Promise<{ value: number }> {
  const [row] = await monthRows(
    db,
    clubId,
    now,
    (r, zone) => sql`select coalesce(sum(total - refunded), 0)::bigint as v, ${zone} from purchases
      where club_id = ${clubId} and at >= ${r.start} and at < ${r.end} and payment_status not in (${PurchasePaymentStatus.Refunded}, ${PurchasePaymentStatus.Cancelled})`,
  );
  return { value: Number(row?.v ?? 0) };
}

/**
 * Clients of the club (not deleted) with a license expiry before today
 * (`expired`) or today or later (`valid`) in the club's time zone: a license
 * is valid through its expiry day, as at the gate. Clients that never had a
 * license (no expiry) are in neither.
 */
async function licensesCount(db: Db, clubId: number, now: Date, side: 'expired' | 'valid'): Promise<{ value: number }> {
  // Today in the club's zone computed in the same statement (one round trip).
  const today = sql`(${now.toISOString()}::timestamptz at time zone ${clubZoneSql(clubId)})::date`;
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(clients)
    .where(
      scoped(db, clubId).live(
        clients,
        isNotNull(clients.licenseExpiry),
        side === 'expired' ? sql`${clients.licenseExpiry} < ${today}` : sql`${clients.licenseExpiry} >= ${today}`,
      ),
    );
  return { value: Number(row?.n ?? 0) };
}

/** `GetExpiredLicensesCount`: `{value}` = clients whose license has expired (see `licensesCount`). */
export function expiredLicensesCount(db: Db, clubId: number, now: Date = new Date()): Promise<{ value: number }> {
  return licensesCount(db, clubId, now, 'expired');
}

/**
 * `GetValidLicensesCount` (ours: seed 000 §2 "valid licenses", no call
 * named): `{value}` = clients whose license is valid today — the complement
 * of `GetExpiredLicensesCount` among clients that have an expiry.
 */
export function validLicensesCount(db: Db, clubId: number, now: Date = new Date()): Promise<{ value: number }> {
  return licensesCount(db, clubId, now, 'valid');
}

/**
 * `GetChartPaymentData` ("entries by payment type", seed 000 §2, seed 001
 * §2): approved entrances this month per how they were paid; key =
 * `EntrancePaymentType` number (1 subscription, 2 money, 3 free, 4 manager,
 * 5 bonus, 6 paid at the terminal), ascending; only types that occur. An
 * entrance paid at the terminal (reason 7 EntryByPayment) is logged with
 * payment type None and a purchase; it counts as 6. Any other None counts
 * as 0.
 */
export async function chartPaymentData(db: Db, clubId: number, now: Date = new Date()): Promise<ChartPoint[]> {
  const kind = sql`(case when payment_type = ${EntrancePaymentType.None} and reason = ${Reason.EntryByPayment} then ${EntrancePaymentType.Payment} else payment_type end)::int`;
  // Grouped by position: the constants are bound parameters, so the two expressions would differ.
  const rows = await monthRows(
    db,
    clubId,
    now,
    (r, zone) => sql`select ${kind} as kind, count(*)::int as n, ${zone} from entrance_logs
      where club_id = ${clubId} and at >= ${r.start} and at < ${r.end} and status = ${EntranceStatus.Approved}
      group by 1 order by 1`,
  );
  return rows.map((x) => ({ key: String(x.kind), value: Number(x.n) }));
}

/**
 * `GetChartDataByItemType` (`measure` 'amount': sum of the lines' price with
 * VAT, minor units) and `GetChartDataQtyByItemType` ('quantity': units):
 * lines of this month's purchases that were not refunded, per item type;
 * key = PurchaseItemType number, ascending; only types that occur.
 */
export async function chartByItemType(
  db: Db,
  clubId: number,
  measure: 'amount' | 'quantity',
  now: Date = new Date(),
): Promise<ChartPoint[]> {
  // The financial report's daily summary (kind 1: per item type, local days, purchases not refunded;
  // schema.ts financialDaily) holds exactly these sums; a type occurs when some purchase has such a line.
  const value = measure === 'amount' ? sql`sum(f.total)` : sql`sum(f.quantity)`;
  const rows = await monthRows(
    db,
    clubId,
    now,
    (r, zone) => sql`select f.key as type, ${value}::bigint as v, ${zone} from financial_daily f
      where f.club_id = ${clubId} and f.kind = 1 and f.day >= ${r.from}::date and f.day <= ${r.to}::date
      group by f.key having sum(f.purchases) <> 0 order by f.key`,
  );
  return rows.map((x) => ({ key: String(x.type), value: Number(x.v) }));
}

/**
 * `GetChartDataByProduct` ('amount', minor units with VAT) and
 * `GetChartDataQtyByProduct` ('quantity', units): product lines (item type
 * 10) of this month's purchases that were not refunded, less what partial
 * refunds took of them (docs/money.md "Refunds"), per product; key =
 * the product's current name (the line's name when the product is gone);
 * largest value first, ties by name.
 */
export async function chartByProduct(
  db: Db,
  clubId: number,
  measure: 'amount' | 'quantity',
  now: Date = new Date(),
): Promise<ChartPoint[]> {
  const value = measure === 'amount' ? sql`sum(f.total)` : sql`sum(f.quantity)`;
  // The month's products from the daily summary product_daily (migration 0019; kind 1 per product,
  // kind 2 the lines' names for a product whose row is gone) less what partial refunds took of
  // product lines (as the product reports count them), then named.
  const rows = await monthRows(
    db,
    clubId,
    now,
    (r, zone) => sql`select coalesce(pr.name, s.line_name, '') as name, s.v, ${zone} from (
      select f.item_id, max(f.name) filter (where f.kind = 2 and f.purchases > 0) as line_name,
        (${value} filter (where f.kind = 1))::bigint as v
      from ${productDailyLessRefunds(clubId)} f
      where f.club_id = ${clubId} and f.kind in (1, 2) and f.day >= ${r.from}::date and f.day <= ${r.to}::date
      group by f.item_id having sum(f.purchases) filter (where f.kind = 1) > 0) s
    left join products pr on pr.id = s.item_id and pr.club_id = ${clubId}`,
  );
  return rows
    .map((x) => ({ key: String(x.name), value: Number(x.v) }))
    .sort((a, b) => b.value - a.value || a.key.localeCompare(b.key));
}

/**
 * `GetChartEntranceByGroup`: approved entrances this month per group logged
 * with the entrance (the client's group at that moment); key = the group's
 * name, '' for entrances without a group; largest first, ties by name.
 */
export async function chartEntranceByGroup(db: Db, clubId: number, now: Date = new Date()): Promise<ChartPoint[]> {
  // Counted per group id first, then named (4 joins instead of one per entrance).
  const rows = await monthRows(
    db,
    clubId,
    now,
    (r, zone) => sql`select coalesce(g.name, '') as name, e.n, ${zone} from (
      select group_id, count(*)::int as n from entrance_logs
      where club_id = ${clubId} and at >= ${r.start} and at < ${r.end} and status = ${EntranceStatus.Approved}
      group by group_id) e
    left join groups g on g.id = e.group_id and g.club_id = ${clubId}`,
  );
  return rows
    .map((x) => ({ key: String(x.name), value: Number(x.n) }))
    .sort((a, b) => b.value - a.value || a.key.localeCompare(b.key));
}
