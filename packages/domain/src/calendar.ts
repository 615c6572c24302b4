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

/** A place whose custom sets its own candle-lighting minutes: centre (degrees) and radius (km). */
interface CandleCustomArea {
  latitude: number;
  longitude: number;
  km: number;
  minutes: number;
}

/**
 * Places with their own candle-lighting custom (seed 001 §9: Jerusalem 40,
 * Haifa and Zichron Yaakov 30), as areas on the map: hebcal's city centres
 * (Jerusalem 31.76904 N 35.21633 E, Haifa 32.81841 N 34.9885 E) and Zikhron
 * Ya'akov's (GeoNames 293067, 32.5707 N 34.9565 E). The radii take in the
 * cities' neighbourhoods (Jerusalem's Neve Yaakov and Gilo lie within 9 km;
 * Beit Shemesh, 21 km away, does not). docs/calendar.md "Candle lighting".
 */
export const CANDLE_CUSTOM_AREAS: readonly CandleCustomArea[] = [
  { latitude: 31.76904, longitude: 35.21633, km: 10, minutes: 40 },
  { latitude: 32.81841, longitude: 34.9885, km: 10, minutes: 30 },
  { latitude: 32.5707, longitude: 34.9565, km: 3, minutes: 30 },
];

/** Great-circle distance in km (haversine, mean Earth radius 6371 km). */
function distanceKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const r = Math.PI / 180;
  const a =
    Math.sin(((lat2 - lat1) * r) / 2) ** 2 +
    Math.cos(lat1 * r) * Math.cos(lat2 * r) * Math.sin(((lon2 - lon1) * r) / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.min(1, Math.sqrt(a)));
}

/**
 * The candle-lighting custom of a place, minutes before sunset, decided by
 * where it is and never by its name (issue 34 items 1 and 4): within
 * Jerusalem's area 40, Haifa's or Zikhron Ya'akov's 30 (seed 001 §9,
 * CANDLE_CUSTOM_AREAS), elsewhere in Israel 20 (the Israeli custom, also
 * hebcal's), anywhere else 18 (seed 001 §9). A place is Israeli when its
 * country code is IL, or when it has none and keeps the Israel schedule.
 */
export function customCandleLightingMinutes(loc: ClubLocation): number {
  for (const a of CANDLE_CUSTOM_AREAS) {
    if (distanceKm(loc.latitude, loc.longitude, a.latitude, a.longitude) <= a.km) return a.minutes;
  }
  const cc = (loc.countryCode ?? '').toUpperCase();
  return cc === 'IL' || (cc === '' && loc.il) ? 20 : 18;
}

/**
 * The club's candle-lighting minutes before sunset: its own setting
 * (`location.candleLightingMins`, 0–90) or else the place's custom
 * (customCandleLightingMinutes). The one value every place uses: the
 * calendar's events, zmanim and feed, the printed notice and the gate's
 * candle-lighting rows (docs/calendar.md "Candle lighting").
 */
export function candleLightingMinutes(loc: ClubLocation): number {
  return loc.candleLightingMins ?? customCandleLightingMinutes(loc);
}

/**
 * How a halachic instant becomes a minute on a screen or a gate row, as
 * printed calendars round: a deadline (`down`: the last moment to do
 * something — sof zman shma, candle lighting, sunset) to the minute before,
 * an earliest time (`up`: the first moment something is allowed — dawn,
 * sunrise, nightfall, havdalah) to the minute after. Never shows a deadline
 * after it passes nor an earliest time before it comes. docs/calendar.md
 * "Rounding".
 */
export function roundedMinute(t: Date, direction: 'down' | 'up'): Date {
  const ms = t.getTime();
  return new Date((direction === 'down' ? Math.floor(ms / 60_000) : Math.ceil(ms / 60_000)) * 60_000);
}

/** The rounding of each halachic time type of the gate's rows (1–8), as the calendar rounds the same times. */
const HALACHIC_ROUNDING: Record<number, 'down' | 'up'> = {
  [HalachicTime.Dawn]: 'up',
  [HalachicTime.EarliestTime]: 'up',
  [HalachicTime.Sunrise]: 'up',
  [HalachicTime.Midday]: 'down',
  [HalachicTime.Midnight]: 'down',
  [HalachicTime.Sunset]: 'down',
  [HalachicTime.Nightfall]: 'up',
  [HalachicTime.CandleLighting]: 'down',
};

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
 * exceed 1439 for chatzot halaila after midnight), rounded as the calendar
 * shows the same time (roundedMinute: candle lighting, sunset, midday and
 * midnight down, the others up), so a row opening at candle lighting opens
 * at the minute the printed notice gives. Null when undefined that day.
 */
export function halachicMinutes(type: number, d: LocalDate, loc: ClubLocation): number | null {
  const exact = halachicTimeAt(type, d, loc);
  if (!exact) return null;
  const t = roundedMinute(exact, HALACHIC_ROUNDING[type] ?? 'up');
  const p = localParts(t, loc.timeZone);
  const dayDiff = Math.round(
    (Date.UTC(p.year, p.month - 1, p.day) - Date.UTC(d.year, d.month - 1, d.day)) / 86_400_000,
  );
  return dayDiff * 1440 + p.hour * 60 + p.minute;
}
