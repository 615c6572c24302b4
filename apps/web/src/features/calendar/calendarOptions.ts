import { CALENDAR_LOCALES, type CalendarLocale } from '@venue/domain';

/**
 * The calendar screen's options (seed 001 §9 "Options"; docs/calendar.md
 * "The calendar screen"), remembered per user in this browser.
 */
export interface CalendarPrefs {
  locale: CalendarLocale;
  /** Israel (true) or diaspora (false); null follows the club's location. */
  il: boolean | null;
  candlelighting: boolean;
  sedrot: boolean;
  omer: boolean;
  molad: boolean;
  shabbatMevarchim: boolean;
  dafYomi: boolean;
  mishnaYomi: boolean;
  nachYomi: boolean;
  /** Yerushalmi Yomi edition: 0 off, 1 Vilna, 2 Schottenstein. */
  yerushalmi: 0 | 1 | 2;
  noMinorFast: boolean;
  noModern: boolean;
  noRoshChodesh: boolean;
  noSpecialShabbat: boolean;
  noHolidays: boolean;
  yomKippurKatan: boolean;
  addHebrewDatesForEvents: boolean;
  hour12: boolean;
  useElevation: boolean;
  /** Minutes before sunset; null: the location's (18, Jerusalem 40, Haifa 30). */
  candleLightingMins: number | null;
  /** Havdalah in minutes after sunset, or null for degrees. */
  havdalahMins: number | null;
  /** Havdalah sun depression; null: 8.5°. Ignored when minutes are set. */
  havdalahDeg: number | null;
  /** Minor fast end sun depression; null: 7.083°. */
  fastEndDeg: number | null;
}

/** Defaults: everything the screen describes shown, the rendering of the interface language. */
export function defaultPrefs(lang: 'he' | 'en'): CalendarPrefs {
  return {
    locale: lang === 'he' ? 'he' : 'en',
    il: null,
    candlelighting: true,
    sedrot: true,
    omer: true,
    molad: true,
    shabbatMevarchim: true,
    dafYomi: true,
    mishnaYomi: false,
    nachYomi: false,
    yerushalmi: 0,
    noMinorFast: false,
    noModern: false,
    noRoshChodesh: false,
    noSpecialShabbat: false,
    noHolidays: false,
    yomKippurKatan: false,
    addHebrewDatesForEvents: false,
    hour12: false,
    useElevation: false,
    candleLightingMins: null,
    havdalahMins: null,
    havdalahDeg: null,
    fastEndDeg: null,
  };
}

/** localStorage key of one user's options in one club. */
export const prefsKey = (clubId: number, userId: number) => `venue.calendar.${clubId}.${userId}`;

/** Reads saved options over the defaults; a damaged or foreign entry gives the defaults. */
export function readPrefs(raw: string | null, lang: 'he' | 'en'): CalendarPrefs {
  const d = defaultPrefs(lang);
  if (!raw) return d;
  try {
    const saved = JSON.parse(raw) as Partial<CalendarPrefs>;
    const out = { ...d };
    for (const k of Object.keys(d) as (keyof CalendarPrefs)[]) {
      const v = saved[k];
      if (v !== undefined && (typeof v === typeof d[k] || (d[k] === null && (typeof v === 'number' || v === null)))) {
        (out as Record<string, unknown>)[k] = v;
      }
    }
    if (!CALENDAR_LOCALES.includes(out.locale)) out.locale = d.locale;
    if (saved.il === true || saved.il === false) out.il = saved.il;
    if (![0, 1, 2].includes(out.yerushalmi)) out.yerushalmi = 0;
    return out;
  } catch {
    return d;
  }
}

const text = (n: number | null) => (n === null ? undefined : String(n));

/** The query of GET /api/Calendar/Events for a period and the options, as query text. */
export function eventsQuery(p: CalendarPrefs, start: string, end: string): Record<string, string> {
  const q: Record<string, string | number | boolean | undefined> = {
    start,
    end,
    locale: p.locale,
    ...(p.il !== null ? { il: p.il } : {}),
    addHebrewDates: true,
    candlelighting: p.candlelighting,
    sedrot: p.sedrot,
    omer: p.omer,
    molad: p.molad,
    shabbatMevarchim: p.shabbatMevarchim,
    dafYomi: p.dafYomi,
    mishnaYomi: p.mishnaYomi,
    nachYomi: p.nachYomi,
    ...(p.yerushalmi ? { yerushalmi: p.yerushalmi } : {}),
    noMinorFast: p.noMinorFast,
    noModern: p.noModern,
    noRoshChodesh: p.noRoshChodesh,
    noSpecialShabbat: p.noSpecialShabbat,
    noHolidays: p.noHolidays,
    yomKippurKatan: p.yomKippurKatan,
    addHebrewDatesForEvents: p.addHebrewDatesForEvents,
    hour12: p.hour12,
    useElevation: p.useElevation,
    candleLightingMins: text(p.candleLightingMins),
    havdalahMins: text(p.havdalahMins),
    havdalahDeg: p.havdalahMins === null ? text(p.havdalahDeg) : undefined,
    fastEndDeg: text(p.fastEndDeg),
  };
  return Object.fromEntries(Object.entries(q).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]])));
}

/** The days of a Gregorian month's grid: leading nulls up to the first weekday (week starts Sunday, seed 001 §2). */
export function monthCells(year: number, month: number): (string | null)[] {
  const first = new Date(Date.UTC(year, month - 1, 1)).getUTCDay();
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const cells: (string | null)[] = Array.from({ length: first }, () => null);
  for (let d = 1; d <= days; d++) {
    cells.push(`${year}-${String(month).padStart(2, '0')}-${String(d).padStart(2, '0')}`);
  }
  while (cells.length % 7) cells.push(null);
  return cells;
}

/** Minutes after midnight as HH:MM; past midnight keeps counting on (25:30 → 01:30 +1). */
export function clock(m: number): string {
  const day = Math.floor(m / 1440);
  const r = m - day * 1440;
  const s = `${String(Math.floor(r / 60)).padStart(2, '0')}:${String(r % 60).padStart(2, '0')}`;
  return day > 0 ? `${s} +${day}` : s;
}
