import {
  addDays,
  localParts,
  localToInstant,
  parseIsoDate,
  periodRange,
  type LocalDate,
  type Period,
} from '@venue/domain';
import type { Db, Tx } from '../../db/index.js';
import { AppError, notFound } from '../../lib/errors.js';
import { eq, sql, type SQL } from 'drizzle-orm';
import { clubs } from '../../db/schema.js';
import { clubLocation } from '../club/club.service.js';

/** Longest explicit range a report accepts: three years (inclusive days, leap years included). */
export const MAX_RANGE_DAYS = 3 * 366;

/** An inclusive local-date range and the half-open instant interval [start, end) it covers. */
export interface ResolvedRange {
  /** Inclusive local dates, YYYY-MM-DD, in the club's time zone. */
  from: string;
  to: string;
  /** Local midnight at the start of `from`. */
  start: Date;
  /** Local midnight at the start of the day after `to` (exclusive). */
  end: Date;
  timeZone: string;
}

/** The IANA time zone of a club (its location; Jerusalem when unset). */
export async function clubTimeZone(db: Db | Tx, clubId: number): Promise<string> {
  // Only the location column (the settings and capacities JSON are not needed here).
  const [row] = await db.select({ location: clubs.location }).from(clubs).where(eq(clubs.id, clubId));
  if (!row) throw notFound('club');
  return clubLocation(row).timeZone ?? 'Asia/Jerusalem';
}

/**
 * The club's zone as a scalar subquery (the same default as
 * {@link clubTimeZone} and the summary triggers of migration 0011), to add to
 * a statement that runs anyway: null when the club does not exist.
 */
export function clubZoneSql(clubId: number): SQL {
  return sql`(select coalesce(z.location->>'timeZone', 'Asia/Jerusalem') from clubs z where z.id = ${clubId})`;
}

/**
 * The zone each club had when last read in this process (club id → IANA
 * zone): a guess only, never trusted on its own — {@link withClubZone}
 * confirms it by the zone the call's own statements read.
 */
const zoneGuess = new Map<number, string>();

/**
 * Runs work that depends on the club's time zone without a round trip of its
 * own to read the zone (docs/reports.md "Speed"). `work(tz)` runs with the
 * zone this process last saw for the club and returns its result and the
 * zone its statements read ({@link clubZoneSql} in a statement it runs
 * anyway; undefined when no row carried it). When that zone is the guessed
 * one the result stands; when it differs (the club's location changed, on
 * this or another server instance) the work runs again with the zone read,
 * so a report never uses a zone other than the club's at the time of the
 * call. Without a guess (first call of the club in this process) or without
 * a zone from the work, the zone is read first ({@link clubTimeZone}: 404
 * for an unknown club).
 */
export async function withClubZone<T>(
  db: Db | Tx,
  clubId: number,
  work: (timeZone: string) => Promise<{ result: T; zone: string | null | undefined }>,
): Promise<T> {
  const guess = zoneGuess.get(clubId);
  // Whether tz was read from the database for this call (then a work without a zone needs no check).
  let read = guess === undefined;
  let tz: string = guess ?? (await clubTimeZone(db, clubId));
  if (read) zoneGuess.set(clubId, tz);
  for (let attempt = 0; attempt < 3; attempt++) {
    const out = await work(tz);
    if (out.zone === tz || (out.zone == null && read)) return out.result;
    // No row told the zone, or another zone: read it (a missing club is 404); again when it changed.
    const zone: string = out.zone ?? (await clubTimeZone(db, clubId));
    zoneGuess.set(clubId, zone);
    if (zone === tz) return out.result;
    tz = zone;
    read = true;
  }
  // The zone changed under every attempt: once more with the zone read last.
  return (await work(tz)).result;
}

/** Today's local date in a time zone. */
export function todayIn(timeZone: string, now: Date = new Date()): LocalDate {
  const p = localParts(now, timeZone);
  return { year: p.year, month: p.month, day: p.day };
}

function daysBetween(from: string, to: string): number {
  const a = parseIsoDate(from);
  const b = parseIsoDate(to);
  return Math.round((Date.UTC(b.year, b.month - 1, b.day) - Date.UTC(a.year, a.month - 1, a.day)) / 86_400_000);
}

/**
 * The inclusive local-date range of a report filter (seed 001 §2: day, week
 * starting Sunday, month, year, range). `anchor` defaults to today in the
 * club's time zone. A 'range' needs `from` and `to`, from ≤ to, at most
 * {@link MAX_RANGE_DAYS} days; otherwise 400 VALIDATION_ERROR with the field.
 */
export function localRange(
  filter: { period: Period; anchor?: string; from?: string; to?: string },
  timeZone: string,
  now: Date = new Date(),
): { from: string; to: string } {
  if (filter.period === 'range') {
    const { from, to } = filter;
    if (!from || !to) {
      throw new AppError('VALIDATION_ERROR', 'from and to are required for a range', [
        { path: from ? 'to' : 'from', message: 'required' },
      ]);
    }
    if (from > to) {
      throw new AppError('VALIDATION_ERROR', 'from is after to', [{ path: 'to', message: 'dateRangeOrder' }]);
    }
    if (daysBetween(from, to) + 1 > MAX_RANGE_DAYS) {
      throw new AppError('VALIDATION_ERROR', 'range longer than three years', [
        { path: 'to', message: 'rangeTooLong' },
      ]);
    }
    return { from, to };
  }
  const anchor = filter.anchor ? parseIsoDate(filter.anchor) : todayIn(timeZone, now);
  return periodRange(filter.period, anchor);
}

/**
 * Turns an inclusive local-date range into instants: local midnight of `from`
 * and of the day after `to`, in the club's IANA zone (days of a DST change
 * are 23 or 25 hours long; a midnight that a spring-forward skips is the
 * first instant of the day, as PostgreSQL's `date::timestamp AT TIME ZONE tz`
 * gives). Computed here with Intl, without a database round trip, so a
 * report's queries compare the indexed instant column with two constants.
 */
export function toInstants(range: { from: string; to: string }, timeZone: string): ResolvedRange {
  const next = addDays(parseIsoDate(range.to), 1);
  return {
    ...range,
    start: localToInstant(parseIsoDate(range.from), 0, timeZone),
    end: localToInstant(next, 0, timeZone),
    timeZone,
  };
}

/** {@link localRange} then {@link toInstants} for a club. */
export async function resolveReportRange(
  db: Db | Tx,
  clubId: number,
  filter: { period: Period; anchor?: string; from?: string; to?: string },
  now: Date = new Date(),
): Promise<ResolvedRange> {
  const tz = await clubTimeZone(db, clubId);
  return toInstants(localRange(filter, tz, now), tz);
}
