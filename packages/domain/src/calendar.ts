import { HDate, HebrewCalendar, Location, Zmanim, flags, type GeoLocation } from '@hebcal/core';
import { HalachicTime } from './enums.js';

/**
 * Calendar helpers on `@hebcal/core` (DESIGN §1 "The calendar"; DOMAIN-FACTS
 * "Jewish calendar"). Nothing here re-implements calendar arithmetic: dates,
 * holidays and zmanim all come from hebcal.
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

function hdateOf(d: LocalDate): HDate {
  // hebcal reads the Gregorian date through the runtime's local calendar fields.
  return new HDate(new Date(d.year, d.month - 1, d.day, 12));
}

const geoCache = new Map<string, GeoLocation>();
function geo(loc: ClubLocation): GeoLocation {
  const key = `${loc.latitude},${loc.longitude},${loc.elevation},${loc.timeZone},${loc.il}`;
  let g = geoCache.get(key);
  if (!g) {
    g = new Location(loc.latitude, loc.longitude, loc.il, loc.timeZone, loc.name, undefined, undefined, loc.elevation);
    geoCache.set(key, g);
  }
  return g;
}

/**
 * Whether a day is the eve of a holiday (erev chag): the next day is a yom tov
 * (hebcal's CHAG flag: Rosh Hashana, Yom Kippur, Sukkot, Shmini Atzeret,
 * Pesach first and last days, Shavuot), observed per Israel or diaspora.
 */
export function isErevChag(d: LocalDate, il: boolean): boolean {
  const next = hdateOf(addDays(d, 1));
  const evs = HebrewCalendar.getHolidaysOnDate(next, il) ?? [];
  const today = HebrewCalendar.getHolidaysOnDate(hdateOf(d), il) ?? [];
  const todayIsChag = today.some((e) => (e.getFlags() & flags.CHAG) !== 0);
  // The second day of a two-day yom tov is not an "eve".
  return !todayIsChag && evs.some((e) => (e.getFlags() & flags.CHAG) !== 0);
}

/** Names (English, hebcal's keys) of the holidays on a day. */
export function holidaysOn(d: LocalDate, il: boolean, locale: 'en' | 'he' = 'en'): string[] {
  return (HebrewCalendar.getHolidaysOnDate(hdateOf(d), il) ?? []).map((e) => e.render(locale));
}

/** The Hebrew date of a day, rendered in Hebrew or English. */
export function hebrewDate(d: LocalDate, locale: 'en' | 'he' = 'he'): string {
  return hdateOf(d).render(locale === 'he' ? 'he' : 'en');
}

/** Candle lighting minutes before sunset: 18, Jerusalem 40, Haifa and Zikhron Ya'akov 30 (seed 001 §9). */
export function candleLightingMinutes(loc: ClubLocation): number {
  const n = loc.name.toLowerCase();
  if (n.includes('jerusalem') || loc.name.includes('ירושלים')) return 40;
  if (n.includes('haifa') || n.includes('zikhron') || n.includes('zichron')) return 30;
  return 18;
}

/**
 * The instant of a halachic time (seed 000 §3, types 1–8) on a local date:
 * dawn = alot hashachar (16.1°), earliest time = misheyakir (11.5°), sunrise,
 * midday = chatzot, midnight = chatzot halaila, sunset, nightfall = tzeit
 * (8.5°), candle lighting = sunset minus the location's candle minutes.
 * Returns null when the sun never reaches that angle (polar days).
 */
export function halachicTimeAt(type: number, d: LocalDate, loc: ClubLocation): Date | null {
  const z = new Zmanim(geo(loc), hdateOf(d), false);
  let t: Date;
  switch (type) {
    case HalachicTime.Dawn:
      t = z.alotHaShachar();
      break;
    case HalachicTime.EarliestTime:
      t = z.misheyakir();
      break;
    case HalachicTime.Sunrise:
      t = z.sunrise();
      break;
    case HalachicTime.Midday:
      t = z.chatzot();
      break;
    case HalachicTime.Midnight:
      t = z.chatzotNight();
      break;
    case HalachicTime.Sunset:
      t = z.sunset();
      break;
    case HalachicTime.Nightfall:
      t = z.tzeit(8.5);
      break;
    case HalachicTime.CandleLighting:
      t = z.sunsetOffset(-candleLightingMinutes(loc), false);
      break;
    default:
      throw new RangeError(`unknown halachic time type ${type}`);
  }
  return Number.isNaN(t.getTime()) ? null : t;
}

/**
 * Minutes after local midnight of `d` at which a halachic time falls (may
 * exceed 1439 for chatzot halaila after midnight). Null when undefined that day.
 */
export function halachicMinutes(type: number, d: LocalDate, loc: ClubLocation): number | null {
  const t = halachicTimeAt(type, d, loc);
  if (!t) return null;
  const p = localParts(t, loc.timeZone);
  const dayDiff = Math.round(
    (Date.UTC(p.year, p.month - 1, p.day) - Date.UTC(d.year, d.month - 1, d.day)) / 86_400_000,
  );
  return dayDiff * 1440 + p.hour * 60 + p.minute + (p.second >= 30 ? 1 : 0);
}
