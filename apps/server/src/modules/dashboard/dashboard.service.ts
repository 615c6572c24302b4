import { and, countDistinct, eq, gte, isNotNull, lt, sql } from 'drizzle-orm';
import { EntranceStatus, periodRange, type ChartPoint } from '@venue/domain';
import type { Db } from '../../db/index.js';
import { entranceLogs } from '../../db/schema.js';
import { clubTimeZone, todayIn, toInstants, type ResolvedRange } from '../reports/report-range.js';

/**
 * Dashboard counters and charts (seed 000 §2 "Dashboard content", §7
 * "Dashboard"). "This month" is the calendar month containing today in the
 * club's time zone, [local midnight of the 1st, local midnight of the next
 * 1st); hours are local hours in the club's time zone.
 */

/** This calendar month of a club as instants. */
export async function thisMonth(db: Db, clubId: number, now: Date = new Date()): Promise<ResolvedRange> {
  const tz = await clubTimeZone(db, clubId);
  return toInstants(db, periodRange('month', todayIn(tz, now)), tz);
}

function inRange(clubId: number, r: ResolvedRange) {
  return and(eq(entranceLogs.clubId, clubId), gte(entranceLogs.at, r.start), lt(entranceLogs.at, r.end));
}

/** `GetMonthlyEntranceCount`: `{value}` = approved entrances (status 1) this calendar month. */
export async function monthlyEntranceCount(db: Db, clubId: number, now: Date = new Date()): Promise<{ value: number }> {
  const r = await thisMonth(db, clubId, now);
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(entranceLogs)
    .where(and(inRange(clubId, r), eq(entranceLogs.status, EntranceStatus.Approved)));
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
      and(
        eq(entranceLogs.clubId, clubId),
        gte(entranceLogs.at, since),
        lt(entranceLogs.at, new Date(now.getTime() + 1)),
        eq(entranceLogs.status, EntranceStatus.Approved),
        isNotNull(entranceLogs.clientId),
      ),
    );
  return { value: Number(row?.n ?? 0) };
}

/** `GetChartEntranceByStatus`: entrances this month per status; key = status number, ascending; only statuses that occur. */
export async function chartEntranceByStatus(db: Db, clubId: number, now: Date = new Date()): Promise<ChartPoint[]> {
  const r = await thisMonth(db, clubId, now);
  const rows = await db
    .select({ status: entranceLogs.status, n: sql<number>`count(*)::int` })
    .from(entranceLogs)
    .where(inRange(clubId, r))
    .groupBy(entranceLogs.status)
    .orderBy(entranceLogs.status);
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
  const r = await thisMonth(db, clubId, now);
  const hour = sql<number>`extract(hour from (${entranceLogs.at} at time zone ${r.timeZone}))::int`;
  const rows = await db
    .select({ h: hour, n: sql<number>`count(*)::int` })
    .from(entranceLogs)
    .where(and(inRange(clubId, r), eq(entranceLogs.status, EntranceStatus.Approved)))
    // By position: the zone is a bound parameter, so the two expressions would differ.
    .groupBy(sql`1`);
  const byHour = new Map(rows.map((x) => [Number(x.h), Number(x.n)]));
  return Array.from({ length: 24 }, (_, h) => ({ key: String(h).padStart(2, '0'), value: byHour.get(h) ?? 0 }));
}
