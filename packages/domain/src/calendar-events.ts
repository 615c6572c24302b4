import {
  CandleLightingEvent,
  HavdalahEvent,
  HDate,
  HebrewCalendar,
  Location,
  MoladEvent,
  OmerEvent,
  ParshaEvent,
  TimedChanukahEvent,
  TimedEvent,
  Zmanim,
  flags,
  reformatTimeStr,
  type CalOptions,
  type Event,
} from '@hebcal/core';
// Registers the daily learning schedules (dafYomi, mishnaYomi, nachYomi, yerushalmi) with hebcal (DOMAIN-FACTS).
import '@hebcal/learning';
import { candleLightingMinutes, localParts, roundedMinute, type ClubLocation, type LocalDate } from './calendar.js';
import { builtInCity, cityLocation } from './locations.js';
import type {
  CalendarEvent,
  CalendarEvents,
  CalendarEventsQuery,
  CalendarOmer,
  CalendarZmanim,
  CalendarZmanimQuery,
  ZmanKey,
} from './schemas/calendar.js';

/**
 * The calendar API's computations (issue 14 §2, seed 001 §9), all on
 * `@hebcal/core` and `@hebcal/learning`: nothing here does calendar
 * arithmetic of its own. docs/calendar.md "The calendar API".
 */

/** The four renderings of seed 001 §1: English, Ashkenazi transliteration, Hebrew with and without vowel marks. */
export const CALENDAR_LOCALES = ['en', 'ashkenazi', 'he', 'he-x-NoNikud'] as const;
export type CalendarLocale = (typeof CALENDAR_LOCALES)[number];

/** Hebrew year range (seed 001 §5, §9). */
export const HEBREW_YEAR_MIN = 1;
export const HEBREW_YEAR_MAX = 32658;
/** Gregorian years the API takes (hebcal's own limit is wider; ours keeps answers of sensible size). */
export const GREGORIAN_YEAR_MIN = 1;
export const GREGORIAN_YEAR_MAX = 9999;
/** At most this many days in one answer (five years and a leap day). */
export const CALENDAR_MAX_DAYS = 5 * 366;

/** Error codes of the calendar rules (seed 001 §5, §8); each is a 400 (errors.ts). */
export type CalendarErrorCode =
  | 'CALENDAR_INVALID_YEAR'
  | 'CALENDAR_INVALID_OMER_DAY'
  | 'CALENDAR_LOCATION_REQUIRED'
  | 'CALENDAR_HAVDALAH_CONFLICT'
  | 'CALENDAR_START_END_TOGETHER'
  | 'CALENDAR_UNKNOWN_LOCALE'
  | 'CALENDAR_INVALID_DATE'
  | 'CALENDAR_INVALID_OPTION'
  | 'CALENDAR_RANGE_TOO_LONG';

/** A broken rule of the calendar's options: `code` (errors.ts), `field` the option at fault. */
export class CalendarRuleError extends Error {
  constructor(
    readonly code: CalendarErrorCode,
    readonly field: string,
  ) {
    super(`${code}: ${field}`);
    this.name = 'CalendarRuleError';
  }
}

/**
 * The canonical spelling of a rendering, case-insensitive (`HE-X-NONIKUD` → `he-x-NoNikud`).
 * @throws CalendarRuleError CALENDAR_UNKNOWN_LOCALE for any other locale (seed 001 §5 "An unknown locale is an error")
 */
export function calendarLocale(raw: string | undefined): CalendarLocale {
  if (raw === undefined || raw === '') return 'en';
  const hit = CALENDAR_LOCALES.find((l) => l.toLowerCase() === raw.toLowerCase());
  if (!hit) throw new CalendarRuleError('CALENDAR_UNKNOWN_LOCALE', 'locale');
  return hit;
}

/** YYYY-MM-DD with the year in four digits (and a sign before the common era), for any year hebcal takes. */
function isoDate(d: LocalDate): string {
  const y = `${d.year < 0 ? '-' : ''}${String(Math.abs(d.year)).padStart(4, '0')}`;
  return `${y}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}`;
}
const dayNumber = (d: LocalDate) => {
  const t = new Date(Date.UTC(2000, d.month - 1, d.day));
  t.setUTCFullYear(d.year);
  return t.getTime() / 864e5;
};

function num(
  raw: string | undefined,
  field: string,
  min: number,
  max: number,
  opts: { int?: boolean; code?: CalendarErrorCode } = {},
): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  const code = opts.code ?? 'CALENDAR_INVALID_OPTION';
  if (!/^-?\d+(\.\d+)?$/.test(raw.trim())) throw new CalendarRuleError(code, field);
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min || n > max || (opts.int && !Number.isInteger(n))) {
    throw new CalendarRuleError(code, field);
  }
  return n;
}

function day(raw: string, field: string): LocalDate {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(raw);
  const [year, month, d] = m ? [Number(m[1]), Number(m[2]), Number(m[3])] : [0, 0, 0];
  const t = new Date(Date.UTC(2000, month - 1, d));
  t.setUTCFullYear(year);
  if (!m || year < 1 || t.getUTCMonth() !== month - 1 || t.getUTCDate() !== d) {
    throw new CalendarRuleError('CALENDAR_INVALID_DATE', field);
  }
  return { year, month, day: d };
}

/** hebcal reads a Gregorian Date through the runtime's local calendar fields: noon local avoids any zone edge. */
function hdate(d: LocalDate): HDate {
  const t = new Date(2000, d.month - 1, d.day, 12);
  t.setFullYear(d.year); // years 0–99 too (the Date constructor would read them as 1900–1999)
  return new HDate(t);
}
function localOf(h: HDate): LocalDate {
  const g = h.greg();
  return { year: g.getFullYear(), month: g.getMonth() + 1, day: g.getDate() };
}

/**
 * The location a calendar call computes for: a built-in city (`city`), no
 * location (`city=none`), else the club's.
 * @throws CalendarRuleError CALENDAR_LOCATION_REQUIRED for an unknown city id
 */
export function calendarLocation(club: ClubLocation, city: string | undefined): ClubLocation | null {
  if (city === undefined || city === '') return club;
  if (city.toLowerCase() === 'none') return null;
  const hit = builtInCity(city);
  if (!hit) throw new CalendarRuleError('CALENDAR_LOCATION_REQUIRED', 'city');
  return cityLocation(hit);
}

/**
 * A hebcal Location of a club location for computing (zmanim and
 * `HebrewCalendar.calendar`). The Israel schedule is never the location's: it
 * is `CalOptions.il`, always given. hebcal's calendar replaces 18 candle
 * minutes by its own Israel custom (20; 40 and 30 by the name or geo id of
 * Jerusalem, Haifa, Zikhron Ya'akov) whenever the location says Israel
 * (`checkCandleOptions`, @hebcal/core 6.9 calendar.js), and country code IL
 * makes a location Israeli — so the location carries neither, and the
 * club's minutes (candleLightingMinutes) are what the calendar uses, 18 in
 * Israel too. The 24-hour clock of an Israeli place is kept by `hour12`
 * (calendarHour12).
 */
export function hebcalLocation(loc: ClubLocation): Location {
  const cc = loc.countryCode === 'IL' ? undefined : loc.countryCode || undefined;
  return new Location(
    loc.latitude,
    loc.longitude,
    false,
    loc.timeZone,
    loc.name,
    cc,
    loc.geoId ?? undefined,
    loc.elevation,
  );
}

/**
 * hebcal's `hour12` for a place: as asked, else 24-hour for an Israeli place
 * (its country code is kept from hebcal, hebcalLocation), else hebcal's own
 * choice by country (12-hour in the US, Canada, Australia …) — so an Israeli
 * city asked on the diaspora schedule keeps 24-hour times (issue 34 item 5).
 */
function calendarHour12(loc: ClubLocation | null, asked: boolean | undefined): boolean | undefined {
  if (asked !== undefined) return asked;
  return loc?.countryCode === 'IL' ? false : undefined;
}

function validLocation(loc: ClubLocation | null): boolean {
  return (
    loc !== null &&
    Number.isFinite(loc.latitude) &&
    Math.abs(loc.latitude) <= 90 &&
    Number.isFinite(loc.longitude) &&
    Math.abs(loc.longitude) <= 180 &&
    typeof loc.timeZone === 'string' &&
    loc.timeZone !== ''
  );
}

/** The period asked for: start and end, else year (+month, numYears), else this Gregorian year at `today`. */
function period(q: CalendarEventsQuery, today: LocalDate): { start: LocalDate; end: LocalDate } {
  if ((q.start === undefined) !== (q.end === undefined)) {
    throw new CalendarRuleError('CALENDAR_START_END_TOGETHER', q.start === undefined ? 'start' : 'end');
  }
  if (q.start !== undefined && q.end !== undefined) {
    const start = day(q.start, 'start');
    const end = day(q.end, 'end');
    if (dayNumber(end) < dayNumber(start)) throw new CalendarRuleError('CALENDAR_INVALID_DATE', 'end');
    return { start, end };
  }
  const hebrew = q.isHebrewYear === true;
  const yearCode = { int: true, code: 'CALENDAR_INVALID_YEAR' as const };
  const year = hebrew
    ? (num(q.year, 'year', HEBREW_YEAR_MIN, HEBREW_YEAR_MAX, yearCode) ?? new HDate(hdate(today)).getFullYear())
    : (num(q.year, 'year', GREGORIAN_YEAR_MIN, GREGORIAN_YEAR_MAX, yearCode) ?? today.year);
  const month = num(q.month, 'month', 1, hebrew ? 13 : 12, { int: true, code: 'CALENDAR_INVALID_DATE' });
  const numYears = num(q.numYears, 'numYears', 1, 5, { int: true }) ?? 1;
  if (month !== undefined && numYears > 1) throw new CalendarRuleError('CALENDAR_INVALID_OPTION', 'numYears');
  if (!hebrew) {
    if (year + numYears - 1 > GREGORIAN_YEAR_MAX) throw new CalendarRuleError('CALENDAR_INVALID_YEAR', 'numYears');
    if (month !== undefined) {
      const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
      return { start: { year, month, day: 1 }, end: { year, month, day: last } };
    }
    return { start: { year, month: 1, day: 1 }, end: { year: year + numYears - 1, month: 12, day: 31 } };
  }
  if (month !== undefined) {
    if (month === 13 && !HDate.isLeapYear(year)) throw new CalendarRuleError('CALENDAR_INVALID_DATE', 'month');
    const first = new HDate(1, month, year);
    return { start: localOf(first), end: localOf(new HDate(first.daysInMonth(), month, year)) };
  }
  if (year + numYears > HEBREW_YEAR_MAX + 1) throw new CalendarRuleError('CALENDAR_INVALID_YEAR', 'numYears');
  return { start: localOf(new HDate(1, 7, year)), end: localOf(new HDate(new HDate(1, 7, year + numYears).abs() - 1)) };
}

/** Checked options, ready for `HebrewCalendar.calendar`. */
export interface CalendarRun {
  options: CalOptions;
  locale: CalendarLocale;
  location: ClubLocation | null;
  start: LocalDate;
  end: LocalDate;
  il: boolean;
}

/**
 * Checks a query of GET /api/Calendar/Events against the rules of seed 001
 * §5 and turns it into hebcal's CalOptions. Unknown options never reach here
 * (the query schema drops them: "unknown options are ignored").
 * @param club the club's location (the default for times and the Israel flag)
 * @param today the club's local date (default period: this Gregorian year)
 * @throws CalendarRuleError with the code of the rule broken (each a 400)
 */
export function readCalendarOptions(q: CalendarEventsQuery, club: ClubLocation, today: LocalDate): CalendarRun {
  const locale = calendarLocale(q.locale);
  const location = calendarLocation(club, q.city);
  const { start, end } = period(q, today);
  const days = dayNumber(end) - dayNumber(start);
  if (days + 1 > CALENDAR_MAX_DAYS)
    throw new CalendarRuleError('CALENDAR_RANGE_TOO_LONG', q.start ? 'end' : 'numYears');
  const havdalahMins = num(q.havdalahMins, 'havdalahMins', 0, 180);
  const havdalahDeg = num(q.havdalahDeg, 'havdalahDeg', 0, 18);
  if (havdalahMins !== undefined && havdalahDeg !== undefined) {
    throw new CalendarRuleError('CALENDAR_HAVDALAH_CONFLICT', 'havdalahDeg');
  }
  const candleLightingMins = num(q.candleLightingMins, 'candleLightingMins', 0, 90);
  const fastEndDeg = num(q.fastEndDeg, 'fastEndDeg', 0, 18);
  const mask = num(q.mask, 'mask', 0, 2 ** 31 - 1, { int: true });
  const timesAsked = q.candlelighting === true;
  if (timesAsked && !validLocation(location)) throw new CalendarRuleError('CALENDAR_LOCATION_REQUIRED', 'city');
  const il = q.il ?? location?.il ?? false;
  const dailyLearning: Record<string, boolean | number> = {};
  if (q.dafYomi) dailyLearning.dafYomi = true;
  if (q.mishnaYomi) dailyLearning.mishnaYomi = true;
  if (q.nachYomi) dailyLearning.nachYomi = true;
  if (q.yerushalmi) dailyLearning.yerushalmi = Number(q.yerushalmi);
  const options: CalOptions = {
    start: hdate(start),
    end: hdate(end),
    il,
    locale,
    candlelighting: timesAsked,
    ...(location ? { location: hebcalLocation(location) } : {}),
    candleLightingMins: candleLightingMins ?? (location ? candleLightingMinutes(location) : undefined),
    ...(havdalahMins !== undefined ? { havdalahMins } : {}),
    ...(havdalahDeg !== undefined ? { havdalahDeg } : {}),
    ...(fastEndDeg !== undefined ? { fastEndDeg } : {}),
    ...(mask !== undefined ? { mask } : {}),
    ...(calendarHour12(location, q.hour12) !== undefined ? { hour12: calendarHour12(location, q.hour12) } : {}),
    sedrot: q.sedrot === true,
    noMinorFast: q.noMinorFast === true,
    noModern: q.noModern === true,
    shabbatMevarchim: q.shabbatMevarchim === true,
    noRoshChodesh: q.noRoshChodesh === true,
    noSpecialShabbat: q.noSpecialShabbat === true,
    noHolidays: q.noHolidays === true,
    omer: q.omer === true,
    molad: q.molad === true,
    addHebrewDates: q.addHebrewDates === true,
    addHebrewDatesForEvents: q.addHebrewDatesForEvents === true,
    yomKippurKatan: q.yomKippurKatan === true,
    useElevation: q.useElevation === true,
    ...(Object.keys(dailyLearning).length ? { dailyLearning } : {}),
  };
  return { options, locale, location, start, end, il };
}

/** A Hebrew date in a rendering: gematriya for Hebrew (with or without vowel marks), hebcal's render otherwise. */
export function renderHebrewDate(h: HDate, locale: CalendarLocale): string {
  if (locale === 'he' || locale === 'he-x-NoNikud') return h.renderGematriya(locale === 'he-x-NoNikud');
  return h.render(locale);
}

/** Local HH:MM of an instant that is a whole minute (roundedMinute). */
function hhmm(instant: Date, timeZone: string): string {
  const p = localParts(instant, timeZone);
  return `${String(p.hour).padStart(2, '0')}:${String(p.minute).padStart(2, '0')}`;
}

/**
 * The exact instant of a timed event and the direction its minute is
 * rounded (roundedMinute), recomputed on hebcal's Zmanim with the run's
 * options because hebcal keeps only the nearest minute: candle lighting
 * (sunset − the club's minutes) and the start of a fast are deadlines
 * (down); havdalah, candles lit at nightfall (a second festival night),
 * Chanukah's weekday candles (bein hashmashos, 13.5 minutes before 7.083°)
 * and the end of a fast are earliest times (up). Which time is hebcal's own
 * choice (@hebcal/core 6.9 candles.js makeCandleEvent, makeFastStartEnd,
 * makeWeekdayChanukahCandleLighting). Null for other timed events (chametz
 * times): hebcal's minute is kept.
 */
function exactTime(e: TimedEvent | TimedChanukahEvent, o: CalOptions): { at: Date; round: 'down' | 'up' } | null {
  const loc = o.location;
  if (!loc) return null;
  const hd = e.getDate();
  const z = new Zmanim(loc, hd, Boolean(o.useElevation));
  const weekday = hd.getDay();
  const candles = () => ({
    at: z.sunsetOffset(-Math.abs(Number(o.candleLightingMins ?? 18)), false),
    round: 'down' as const,
  });
  const night = () => ({
    at: o.havdalahMins ? z.sunsetOffset(Math.abs(o.havdalahMins), false) : z.tzeit(o.havdalahDeg ?? 8.5),
    round: 'up' as const,
  });
  if (e instanceof HavdalahEvent) return night();
  if (e instanceof CandleLightingEvent) {
    const atNight =
      weekday === 6 ||
      (weekday !== 5 &&
        (e.getFlags() & (flags.LIGHT_CANDLES_TZEIS | flags.CHANUKAH_CANDLES | flags.YOM_TOV_ENDS)) !== 0);
    return atNight ? night() : candles();
  }
  if (e instanceof TimedChanukahEvent) {
    if (weekday === 5) return candles();
    if (weekday === 6) return night();
    return { at: z.beinHaShmashos(), round: 'up' };
  }
  const fast = e.linkedEvent?.getDesc() ?? '';
  if (e.getDesc() === 'Fast begins') {
    return { at: fast === "Erev Tish'a B'Av" ? z.sunset() : z.alotHaShachar(), round: 'down' };
  }
  if (e.getDesc() === 'Fast ends') {
    if (fast.startsWith("Tish'a B'Av")) return { at: z.tzeit(6.45), round: 'up' };
    if (o.fastEndDeg) return { at: z.tzeit(o.fastEndDeg), round: 'up' };
    return { at: o.il ? z.sunsetOffset(15, false) : z.tzeit(7.0833333), round: 'up' };
  }
  return null;
}

/**
 * The time of a timed event as presented — candle lighting, havdalah, a
 * fast's start and end, and Chanukah's candles (hebcal's TimedChanukahEvent
 * is not a TimedEvent: issue 34 item 2) — at our rounded minute, formatted
 * as hebcal formats a time (reformatTimeStr: hour12, the place's country).
 */
function eventTime(e: Event, o: CalOptions, timeZone: string | null): CalendarEvent['timed'] {
  if (!(e instanceof TimedEvent || e instanceof TimedChanukahEvent)) return null;
  const exact = exactTime(e, o);
  const at = exact && !Number.isNaN(exact.at.getTime()) ? roundedMinute(exact.at, exact.round) : e.eventTime;
  const time = hhmm(at, timeZone ?? e.location.getTzid());
  return {
    instant: at.toISOString(),
    time,
    formatted: reformatTimeStr(time, 'pm', { ...o, location: e.location }),
    location: e.location.getName() ?? '',
    linkedEvent: e instanceof TimedEvent && e.linkedEvent ? e.linkedEvent.render(o.locale) : null,
  };
}

/**
 * One hebcal event in the shape of seed 001 §9 "Event". A timed event's
 * time and title carry our minute (eventTime), not hebcal's nearest one.
 * @param options the run's hebcal options (location, candle and havdalah rules, hour12)
 */
export function presentCalendarEvent(
  e: Event,
  locale: CalendarLocale,
  timeZone: string | null,
  options: CalOptions = {},
): CalendarEvent {
  const timed = eventTime(e, { ...options, locale }, timeZone);
  const omer = e instanceof OmerEvent ? { day: e.omer, week: e.getWeeks(), dayInWeek: e.getDaysWithinWeeks() } : null;
  const m = e instanceof MoladEvent ? e.molad : null;
  const p = e instanceof ParshaEvent ? (e.p as { parsha: string[]; num: number | number[]; il?: boolean }) : null;
  return {
    date: isoDate(localOf(e.getDate())),
    hebrewDate: renderHebrewDate(e.getDate(), locale),
    description: e.getDesc(),
    title: e instanceof TimedEvent && timed ? `${e.renderBrief(locale)}: ${timed.formatted}` : e.render(locale),
    titleBrief: e.renderBrief(locale),
    flags: e.getFlags(),
    emoji: e.getEmoji() ?? null,
    categories: e.getCategories(),
    memo: e.memo ?? null,
    url: e.url() ?? null,
    timed,
    omer,
    molad: m
      ? {
          year: m.getYear(),
          month: m.getMonth(),
          monthName: m.getMonthName(),
          weekday: m.getDow(),
          hour: m.getHour(),
          minutes: m.getMinutes(),
          chalakim: m.getChalakim(),
        }
      : null,
    parsha: p
      ? { names: [...p.parsha], il: p.il ?? false, numbers: Array.isArray(p.num) ? [...p.num] : [p.num] }
      : null,
  };
}

/**
 * Events of a checked run (readCalendarOptions): hebcal's calendar, presented.
 * Sorted by date as hebcal returns them.
 */
export function calendarEvents(run: CalendarRun): CalendarEvents {
  const evs = HebrewCalendar.calendar(run.options);
  const tz = run.location?.timeZone ?? null;
  return {
    start: isoDate(run.start),
    end: isoDate(run.end),
    locale: run.locale,
    il: run.il,
    location: run.location ? { name: run.location.name, timeZone: run.location.timeZone } : null,
    events: evs.map((e) => presentCalendarEvent(e, run.locale, tz, run.options)),
  };
}

/**
 * Which way each of the day's times is rounded to its minute (roundedMinute;
 * docs/calendar.md "Rounding"): `down` for a deadline — the latest time for
 * the Shema and the Amida (GRA, MGA, 16.1°), midday (chatzot), candle
 * lighting and sunset; `up` for an earliest time — dawn, misheyakir,
 * sunrise, the earliest and the preferred mincha, plag hamincha (the
 * earliest to take on Shabbat early), bein hashmashos (Chanukah's lighting),
 * nightfall and havdalah. `instant` stays exact.
 */
export const ZMAN_ROUNDING: Record<ZmanKey, 'down' | 'up'> = {
  alotHaShachar: 'up',
  misheyakir: 'up',
  misheyakirMachmir: 'up',
  sunrise: 'up',
  sofZmanShmaMGA16Point1: 'down',
  sofZmanShmaMGA: 'down',
  sofZmanShma: 'down',
  sofZmanTfillaMGA16Point1: 'down',
  sofZmanTfillaMGA: 'down',
  sofZmanTfilla: 'down',
  chatzot: 'down',
  minchaGedola: 'up',
  minchaKetana: 'up',
  plagHaMincha: 'up',
  candleLighting: 'down',
  sunset: 'down',
  beinHaShmashos: 'up',
  tzeit7083deg: 'up',
  tzeit85deg: 'up',
  havdalah: 'up',
};

/** Zmanim functions by key, on one hebcal Zmanim (seed 001 §9 constants; hebcal's own defaults). */
const ZMAN_OF: Record<Exclude<ZmanKey, 'candleLighting' | 'havdalah'>, (z: Zmanim) => Date> = {
  alotHaShachar: (z) => z.alotHaShachar(),
  misheyakir: (z) => z.misheyakir(),
  misheyakirMachmir: (z) => z.misheyakirMachmir(),
  sunrise: (z) => z.sunrise(),
  sofZmanShmaMGA16Point1: (z) => z.sofZmanShmaMGA16Point1(),
  sofZmanShmaMGA: (z) => z.sofZmanShmaMGA(),
  sofZmanShma: (z) => z.sofZmanShma(),
  sofZmanTfillaMGA16Point1: (z) => z.sofZmanTfillaMGA16Point1(),
  sofZmanTfillaMGA: (z) => z.sofZmanTfillaMGA(),
  sofZmanTfilla: (z) => z.sofZmanTfilla(),
  chatzot: (z) => z.chatzot(),
  minchaGedola: (z) => z.minchaGedola(),
  minchaKetana: (z) => z.minchaKetana(),
  plagHaMincha: (z) => z.plagHaMincha(),
  sunset: (z) => z.sunset(),
  beinHaShmashos: (z) => z.beinHaShmashos(),
  tzeit7083deg: (z) => z.tzeit(7.083),
  tzeit85deg: (z) => z.tzeit(8.5),
};

/**
 * The day's zmanim at a location (seed 001 §9 constants), Tachanun and the
 * day's holidays. `date` default: today at the location.
 * @throws CalendarRuleError CALENDAR_INVALID_DATE, CALENDAR_UNKNOWN_LOCALE, CALENDAR_HAVDALAH_CONFLICT,
 *   CALENDAR_LOCATION_REQUIRED (city=none or an unknown city: zmanim need a place), CALENDAR_INVALID_OPTION
 */
export function dailyZmanim(q: CalendarZmanimQuery, club: ClubLocation, today: LocalDate): CalendarZmanim {
  const locale = calendarLocale(q.locale);
  const loc = calendarLocation(club, q.city);
  if (!loc || !validLocation(loc)) throw new CalendarRuleError('CALENDAR_LOCATION_REQUIRED', 'city');
  const d = q.date ? day(q.date, 'date') : today;
  const havdalahMins = num(q.havdalahMins, 'havdalahMins', 0, 180);
  const havdalahDeg = num(q.havdalahDeg, 'havdalahDeg', 0, 18);
  if (havdalahMins !== undefined && havdalahDeg !== undefined) {
    throw new CalendarRuleError('CALENDAR_HAVDALAH_CONFLICT', 'havdalahDeg');
  }
  const candleMins = num(q.candleLightingMins, 'candleLightingMins', 0, 90) ?? candleLightingMinutes(loc);
  const il = q.il ?? loc.il;
  const useElevation = q.useElevation === true;
  const hd = hdate(d);
  const z = new Zmanim(hebcalLocation(loc), hd, useElevation);
  const at = (t: Date) => (Number.isNaN(t.getTime()) ? null : t);
  const times = Object.entries(ZMAN_OF).map(([key, f]) => [key, at(f(z))] as const);
  times.push(['candleLighting', at(z.sunsetOffset(-candleMins, false))]);
  times.push([
    'havdalah',
    at(havdalahMins !== undefined ? z.sunsetOffset(havdalahMins, false) : z.tzeit(havdalahDeg ?? 8.5)),
  ]);
  times.sort((a, b) => (a[1]?.getTime() ?? Infinity) - (b[1]?.getTime() ?? Infinity));
  return {
    date: isoDate(d),
    hebrewDate: renderHebrewDate(hd, locale),
    location: { name: loc.name, timeZone: loc.timeZone, elevation: loc.elevation, useElevation },
    candleLightingMins: candleMins,
    havdalah: { minutes: havdalahMins ?? null, degrees: havdalahMins === undefined ? (havdalahDeg ?? 8.5) : null },
    times: times.map(([key, t]) => ({
      key: key as ZmanKey,
      instant: t ? t.toISOString() : null,
      time: t ? hhmm(roundedMinute(t, ZMAN_ROUNDING[key as ZmanKey]), loc.timeZone) : null,
    })),
    tachanun: HebrewCalendar.tachanun(hd, il),
    holidays: (HebrewCalendar.getHolidaysOnDate(hd, il) ?? []).map((e) => e.render(locale)),
  };
}

/**
 * A day of the Omer count in a Hebrew year (seed 001 §9: 49 days from 16 Nisan).
 * @throws CalendarRuleError CALENDAR_INVALID_OMER_DAY (not an integer 1–49), CALENDAR_INVALID_YEAR, CALENDAR_UNKNOWN_LOCALE
 */
export function omerDay(q: { day: string; year?: string; locale?: string }, today: LocalDate): CalendarOmer {
  const locale = calendarLocale(q.locale);
  const n = num(q.day, 'day', 1, 49, { int: true, code: 'CALENDAR_INVALID_OMER_DAY' });
  if (n === undefined) throw new CalendarRuleError('CALENDAR_INVALID_OMER_DAY', 'day');
  const year =
    num(q.year, 'year', HEBREW_YEAR_MIN, HEBREW_YEAR_MAX, { int: true, code: 'CALENDAR_INVALID_YEAR' }) ??
    hdate(today).getFullYear();
  const hd = new HDate(new HDate(16, 1, year).abs() + n - 1);
  const e = new OmerEvent(hd, n);
  const lang = locale === 'en' || locale === 'ashkenazi' ? 'translit' : 'he';
  return {
    day: n,
    week: e.getWeeks(),
    dayInWeek: e.getDaysWithinWeeks(),
    countEvening: isoDate(localOf(hd.prev())),
    date: isoDate(localOf(hd)),
    title: e.render(locale),
    todayIs: e.getTodayIs(locale === 'ashkenazi' ? 'en' : locale),
    sefira: e.sefira(lang),
  };
}

/** One entry of the club's iCalendar feed: a whole day (holiday) or an instant (candle lighting, havdalah). */
export interface FeedEntry {
  /** Stable id within the club's feed (same event, same id on every refresh). */
  uid: string;
  /** Whole-day entries: the day. */
  day: LocalDate | null;
  /** Timed entries: the instant. */
  instant: Date | null;
  summary: string;
  url: string | null;
}

/**
 * The holidays (major, minor, modern, fasts, Rosh Chodesh), candle lighting
 * (the club's minutes), havdalah and Chanukah's candles of a period at a
 * location, rendered in Hebrew or English, for the club's iCalendar feed —
 * the same titles and minutes as the calendar's events. Israel or diaspora
 * by the location's flag.
 */
export function calendarFeedEntries(
  loc: ClubLocation,
  lang: 'he' | 'en',
  start: LocalDate,
  end: LocalDate,
): FeedEntry[] {
  const locale: CalendarLocale = lang === 'he' ? 'he-x-NoNikud' : 'en';
  const options: CalOptions = {
    start: hdate(start),
    end: hdate(end),
    il: loc.il,
    location: hebcalLocation(loc),
    candlelighting: true,
    candleLightingMins: candleLightingMinutes(loc),
    hour12: calendarHour12(loc, undefined),
    locale,
  };
  return HebrewCalendar.calendar(options).map((e) => {
    const shown = presentCalendarEvent(e, locale, loc.timeZone, options);
    const date = localOf(e.getDate());
    return {
      uid: `${isoDate(date)}-${e.getDesc().replace(/[^A-Za-z0-9]+/g, '-')}`,
      day: shown.timed ? null : date,
      instant: shown.timed ? new Date(shown.timed.instant) : null,
      summary: shown.title,
      url: shown.url,
    };
  });
}
