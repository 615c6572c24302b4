import { HDate, HebrewCalendar, Location, Zmanim, flags, type GeoLocation } from '@hebcal/core';
import { HalachicTime } from './enums.js';
import { addDays, localParts, type ClubLocation, type LocalDate } from './local-date.js';

export * from './local-date.js';

/**
 * Calendar helpers on `@hebcal/core` (DESIGN §1 "The calendar"; DOMAIN-FACTS
 * "Jewish calendar"). Nothing here re-implements calendar arithmetic: dates,
 * holidays and zmanim all come from hebcal.
 */

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
