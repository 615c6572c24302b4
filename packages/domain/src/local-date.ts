/**
 * Local dates and times in a club's time zone, on the runtime's Intl alone
 * (no hebcal): what the signed-in frame, the formatter and the dashboard need
 * (issue 19 load speed — importing calendar.ts brings all of @hebcal/core,
 * which declares no sideEffects, and a Temporal polyfill with it).
 * calendar.ts re-exports everything here.
 */

/**
 * A club's location for zmanim (seed 001 §9 "Location"; docs/calendar.md).
 * Built-in cities and the validation of a custom one: locations.ts.
 */
export interface ClubLocation {
  /** The built-in city this location is (locations.ts BUILT_IN_CITIES id), null for a custom location. */
  city?: string | null;
  name: string;
  /** ISO 3166-1 alpha-2 ('IL', 'US'), '' when unknown. */
  countryCode?: string;
  /** Degrees, −90..90, north positive. */
  latitude: number;
  /** Degrees, −180..180, east positive. */
  longitude: number;
  /** metres above sea level */
  elevation: number;
  /** IANA time zone, e.g. Asia/Jerusalem */
  timeZone: string;
  /** Israel (true) or diaspora holiday schedule */
  il: boolean;
  /** A geographic id (e.g. a GeoNames id), null when none. */
  geoId?: string | null;
  /**
   * The club's candle-lighting minutes before sunset (0–90); null or absent:
   * the place's custom (calendar.ts customCandleLightingMinutes).
   */
  candleLightingMins?: number | null;
}

/** The default location when a club has none: Jerusalem, from hebcal's city table (locations.ts). */
export { JERUSALEM } from './locations.js';

/** A calendar day, as Y-M-D numbers, in the club's time zone. */
export interface LocalDate {
  year: number;
  month: number; // 1–12
  day: number;
}

const dtfCache = new Map<string, Intl.DateTimeFormat>();
function dtf(timeZone: string): Intl.DateTimeFormat {
  let f = dtfCache.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    dtfCache.set(timeZone, f);
  }
  return f;
}

/**
 * A zone's UTC offset changes only at quarter hours (every DST rule and
 * offset change in the tz database since 1970 is on :00, :15, :30 or :45), so
 * the offset found through Intl for an instant's quarter hour holds for the
 * whole quarter. One remembered quarter per zone saves the gate's decision
 * (which asks for the same minute many times) most of its Intl calls.
 */
const QUARTER_MS = 15 * 60_000;
const offsetCache = new Map<string, Map<number, number>>();
function zoneOffsetMs(ms: number, timeZone: string): number {
  const quarter = Math.floor(ms / QUARTER_MS);
  let zone = offsetCache.get(timeZone);
  if (!zone) offsetCache.set(timeZone, (zone = new Map()));
  const hit = zone.get(quarter);
  if (hit !== undefined) return hit;
  const start = quarter * QUARTER_MS;
  const parts: Record<string, number> = {};
  for (const p of dtf(timeZone).formatToParts(new Date(start))) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  const offsetMs = Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second) - start;
  if (zone.size >= 256) zone.clear(); // history generation walks years: keep the cache small
  zone.set(quarter, offsetMs);
  return offsetMs;
}

/** Wall-clock parts of an instant in a time zone (seconds truncated). */
export function localParts(
  instant: Date,
  timeZone: string,
): LocalDate & { hour: number; minute: number; second: number; weekday: number } {
  const t = instant.getTime();
  const wall = new Date(t + zoneOffsetMs(t, timeZone));
  return {
    year: wall.getUTCFullYear(),
    month: wall.getUTCMonth() + 1,
    day: wall.getUTCDate(),
    hour: wall.getUTCHours(),
    minute: wall.getUTCMinutes(),
    second: wall.getUTCSeconds(),
    weekday: wall.getUTCDay(),
  };
}

/** Minutes since local midnight of an instant in a time zone (0–1439). */
export function localMinutes(instant: Date, timeZone: string): number {
  const p = localParts(instant, timeZone);
  return p.hour * 60 + p.minute;
}

/**
 * The instant at which a wall clock in `timeZone` shows `seconds` after the
 * midnight of local date `d`, DST-safe: in an autumn overlap the first of the
 * two instants; in a spring-forward gap the instant one gap later (02:30 that
 * does not exist → 03:30), as Temporal's "compatible" disambiguation.
 * Assumes at most one offset change within a day of the wall time.
 */
export function localToInstant(d: LocalDate, seconds: number, timeZone: string): Date {
  const target = Date.UTC(d.year, d.month - 1, d.day) + seconds * 1000;
  const before = zoneOffsetMs(target - 86_400_000, timeZone);
  const after = zoneOffsetMs(target + 86_400_000, timeZone);
  const first = target - Math.max(before, after);
  const second = target - Math.min(before, after);
  if (zoneOffsetMs(first, timeZone) === Math.max(before, after)) return new Date(first);
  if (zoneOffsetMs(second, timeZone) === Math.min(before, after)) return new Date(second);
  // The wall time falls in a gap: read it with the offset before the change.
  return new Date(target - before);
}

/** Adds days to a local date. */
export function addDays(d: LocalDate, days: number): LocalDate {
  const t = new Date(Date.UTC(d.year, d.month - 1, d.day + days));
  return { year: t.getUTCFullYear(), month: t.getUTCMonth() + 1, day: t.getUTCDate() };
}

/** Weekday of a local date, 0 = Sunday … 6 = Saturday (the week starts on Sunday, seed 001 §2). */
export function weekdayOf(d: LocalDate): number {
  return new Date(Date.UTC(d.year, d.month - 1, d.day)).getUTCDay();
}

/** ISO form YYYY-MM-DD of a local date. */
export function isoDate(d: LocalDate): string {
  return `${d.year}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}`;
}

/** Parses YYYY-MM-DD. */
export function parseIsoDate(s: string): LocalDate {
  const [y, m, d] = s.split('-').map(Number);
  return { year: y, month: m, day: d };
}
