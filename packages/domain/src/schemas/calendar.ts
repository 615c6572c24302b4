import { z } from 'zod';

/**
 * The calendar API's shapes (issue 14 §2; seed 001 §9 "Jewish calendar and
 * sun-time feature"; docs/calendar.md "The calendar API").
 *
 * Query values the rules of seed 001 §5 judge (year, Omer day, locale, the
 * havdalah pair, start and end) are taken as text here and checked by
 * `readCalendarOptions` (calendar-events.ts), so each rule answers its own
 * translated error code rather than a generic field error.
 */

/** A yes/no query flag: `true`/`false`, `1`/`0`, `yes`/`no`, `on`/`off`. */
const flag = z.stringbool().optional();
/** A number given as query text; the rules are checked by readCalendarOptions. */
const numText = z.string().max(24).optional();

/** Options of GET /api/Calendar/Events (seed 001 §9 "Options"; unknown options are ignored). */
export const CalendarEventsQuery = z.object({
  /** First and last day (YYYY-MM-DD), both or neither. */
  start: z.string().max(24).optional(),
  end: z.string().max(24).optional(),
  /** A Gregorian year, or a Hebrew year (1–32658) with isHebrewYear. Default: this year. */
  year: numText,
  isHebrewYear: flag,
  /** A month of `year`: 1–12 Gregorian, 1–13 Hebrew (Nisan = 1, Adar II = 13). */
  month: numText,
  /** Years from `year` (1–5). */
  numYears: numText,
  candlelighting: flag,
  candleLightingMins: numText,
  havdalahMins: numText,
  havdalahDeg: numText,
  fastEndDeg: numText,
  sedrot: flag,
  /** Israel (true) or diaspora; default the club location's flag. */
  il: flag,
  noMinorFast: flag,
  noModern: flag,
  shabbatMevarchim: flag,
  noRoshChodesh: flag,
  noSpecialShabbat: flag,
  noHolidays: flag,
  omer: flag,
  molad: flag,
  /** en, ashkenazi, he, he-x-NoNikud (case-insensitive). Default en. */
  locale: z.string().max(40).optional(),
  addHebrewDates: flag,
  addHebrewDatesForEvents: flag,
  /** hebcal's event flags bit mask (`flags` of @hebcal/core); only events of these kinds. */
  mask: numText,
  yomKippurKatan: flag,
  hour12: flag,
  dafYomi: flag,
  mishnaYomi: flag,
  nachYomi: flag,
  /** Yerushalmi Yomi edition: 1 Vilna, 2 Schottenstein. */
  yerushalmi: z.enum(['1', '2']).optional(),
  useElevation: flag,
  /** A built-in city id instead of the club's location, or `none` (no location: no times). */
  city: z.string().max(60).optional(),
});
export type CalendarEventsQuery = z.infer<typeof CalendarEventsQuery>;

/** A time of a timed event (candle lighting, havdalah, fast start and end, zmanim events). */
export const CalendarEventTime = z.object({
  /** The instant, ISO 8601 UTC. */
  instant: z.string(),
  /** Local wall time HH:MM (24 h) at the location. */
  time: z.string(),
  /** As hebcal formats it for the locale and hour12 option (e.g. `7:02pm`, `19:02`). */
  formatted: z.string(),
  /** The location's name. */
  location: z.string(),
  /** The event this time belongs to (e.g. the holiday candles are lit for), rendered; null when none. */
  linkedEvent: z.string().nullable(),
});

/** One event (seed 001 §9 "Event"). */
export const CalendarEvent = z.object({
  /** Gregorian date YYYY-MM-DD of the (daytime of the) event. */
  date: z.string(),
  /** The Hebrew date, rendered in the locale. */
  hebrewDate: z.string(),
  /** hebcal's untranslated title (stable key), e.g. `Pesach I`, `Candle lighting`. */
  description: z.string(),
  /** The title rendered in the requested locale. */
  title: z.string(),
  /** The short title (without the time for timed events). */
  titleBrief: z.string(),
  /** hebcal's flags bit mask (`flags` of @hebcal/core). */
  flags: z.number(),
  emoji: z.string().nullable(),
  /** hebcal's categories, e.g. ['holiday', 'major'], ['candles'], ['parashat']. */
  categories: z.array(z.string()),
  memo: z.string().nullable(),
  /** A page about the event on hebcal.com or sefaria.org; null when none. */
  url: z.string().nullable(),
  timed: CalendarEventTime.nullable(),
  /** Omer: day 1–49, full weeks, days within the current week. */
  omer: z.object({ day: z.number(), week: z.number(), dayInWeek: z.number() }).nullable(),
  /** Molad: Hebrew year and month, weekday (0 = Sunday), hour, minutes, chalakim (parts, 1/18 minute). */
  molad: z
    .object({
      year: z.number(),
      month: z.number(),
      monthName: z.string(),
      weekday: z.number(),
      hour: z.number(),
      minutes: z.number(),
      chalakim: z.number(),
    })
    .nullable(),
  /** Parsha: one or two portion names (hebcal's keys), Israel flag, portion number(s) 1–54. */
  parsha: z.object({ names: z.array(z.string()), il: z.boolean(), numbers: z.array(z.number()) }).nullable(),
});
export type CalendarEvent = z.infer<typeof CalendarEvent>;

/** The answer of GET /api/Calendar/Events. */
export const CalendarEvents = z.object({
  /** First and last day covered, YYYY-MM-DD. */
  start: z.string(),
  end: z.string(),
  locale: z.string(),
  il: z.boolean(),
  /** The location the times are for; null without one (city=none). */
  location: z.object({ name: z.string(), timeZone: z.string() }).nullable(),
  events: z.array(CalendarEvent),
});
export type CalendarEvents = z.infer<typeof CalendarEvents>;

/** Query of GET /api/Calendar/Zmanim. */
export const CalendarZmanimQuery = z.object({
  /** The day, YYYY-MM-DD; default today in the location's zone. */
  date: z.string().max(24).optional(),
  locale: z.string().max(40).optional(),
  useElevation: flag,
  candleLightingMins: numText,
  havdalahMins: numText,
  havdalahDeg: numText,
  il: flag,
  city: z.string().max(60).optional(),
});
export type CalendarZmanimQuery = z.infer<typeof CalendarZmanimQuery>;

/** Keys of the daily times, in the day's order (seed 001 §9 constants). */
export const ZMAN_KEYS = [
  'alotHaShachar',
  'misheyakir',
  'misheyakirMachmir',
  'sunrise',
  'sofZmanShmaMGA16Point1',
  'sofZmanShmaMGA',
  'sofZmanShma',
  'sofZmanTfillaMGA16Point1',
  'sofZmanTfillaMGA',
  'sofZmanTfilla',
  'chatzot',
  'minchaGedola',
  'minchaKetana',
  'plagHaMincha',
  'candleLighting',
  'sunset',
  'beinHaShmashos',
  'tzeit7083deg',
  'tzeit85deg',
  'havdalah',
] as const;
export type ZmanKey = (typeof ZMAN_KEYS)[number];

export const CalendarZman = z.object({
  key: z.enum(ZMAN_KEYS),
  /** ISO 8601 UTC; null when the sun does not reach the angle that day (polar). */
  instant: z.string().nullable(),
  /** Local HH:MM (rounded to the nearest minute); null as above. */
  time: z.string().nullable(),
});

/** The answer of GET /api/Calendar/Zmanim. */
export const CalendarZmanim = z.object({
  date: z.string(),
  hebrewDate: z.string(),
  location: z.object({ name: z.string(), timeZone: z.string(), elevation: z.number(), useElevation: z.boolean() }),
  /** Candle lighting minutes before sunset and the havdalah rule used. */
  candleLightingMins: z.number(),
  havdalah: z.object({ minutes: z.number().nullable(), degrees: z.number().nullable() }),
  times: z.array(CalendarZman),
  /** Tachanun that day (hebcal `tachanun`): said at shacharit, at mincha, by all congregations. */
  tachanun: z.object({ shacharit: z.boolean(), mincha: z.boolean(), allCongs: z.boolean() }),
  /** The day's holidays, rendered. */
  holidays: z.array(z.string()),
});
export type CalendarZmanim = z.infer<typeof CalendarZmanim>;

/** Query of GET /api/Calendar/Omer: a day of the count in a Hebrew year. */
export const CalendarOmerQuery = z.object({
  /** 1–49. */
  day: z.string().max(24),
  /** Hebrew year; default the current one. */
  year: z.string().max(24).optional(),
  locale: z.string().max(40).optional(),
});
export const CalendarOmer = z.object({
  day: z.number(),
  week: z.number(),
  dayInWeek: z.number(),
  /** The evening the count is said, YYYY-MM-DD (the day before `date`). */
  countEvening: z.string(),
  date: z.string(),
  title: z.string(),
  /** "Today is N days…" in the locale. */
  todayIs: z.string(),
  /** The sefira of the day, in the locale's script. */
  sefira: z.string(),
});
export type CalendarOmer = z.infer<typeof CalendarOmer>;

/** The club's feed link (GET /api/Calendar/Feed, POST /api/Calendar/Feed/Rotate). */
export const CalendarFeedLink = z.object({
  /** Path of the feed, relative to the server (`/api/Calendar/Feed/<token>.ics`); null before the first rotation. */
  path: z.string().nullable(),
});
export type CalendarFeedLink = z.infer<typeof CalendarFeedLink>;
export const CalendarFeedParams = z.object({ token: z.string().max(200) });
/** Query of the feed: the language of its titles (default Hebrew). */
export const CalendarFeedQuery = z.object({ lang: z.enum(['he', 'en']).optional() });

/** Query of GET /api/Calendar/Hours: the period (YYYY-MM-DD, both, at most 62 days). */
export const CalendarHoursQuery = z.object({ start: z.string().max(24), end: z.string().max(24) });
/** One group's opening windows per day (the week preview's computation; closed windows left out). */
export const CalendarGroupHours = z.object({
  groupId: z.number(),
  groupName: z.string(),
  days: z.array(
    z.object({
      date: z.string(),
      /** [from, to) minutes after the day's midnight (to may exceed 1440), entrance state, the row's display name. */
      windows: z.array(
        z.object({ from: z.number(), to: z.number(), entranceState: z.number(), displayName: z.string() }),
      ),
    }),
  ),
});
export type CalendarGroupHours = z.infer<typeof CalendarGroupHours>;
