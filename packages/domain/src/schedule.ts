import {
  addDays,
  halachicMinutes,
  isErevChag,
  localParts,
  parseIsoDate,
  weekdayOf,
  type ClubLocation,
  type LocalDate,
} from './calendar.js';

/**
 * Schedule resolution: which schedule row of a group is in force at a
 * terminal at an instant (seed 001 §3 "Schedule entry", §4 "the lower one
 * wins"; DESIGN §7). Pure functions of their inputs, shared by the server's
 * entrance engine and the console's previews.
 */

/** Day code of the holiday-eve column of a schedule row (days 0–6 are Sunday–Saturday). */
export const HOLIDAY_EVE_DAY = 7;

/** The fields of a schedule row that resolution reads. */
export interface ScheduleRowTimes {
  id: number;
  /** Position in the group's list; the row with the higher position (lower on screen) wins. */
  sortOrder: number;
  /** 0 = Sunday … 6 = Saturday, 7 = eve of holiday. */
  days: number[];
  /** Minutes after midnight; used when fromHalachic is null. */
  fromTime: number | null;
  toTime: number | null;
  /** Halachic time type 1–8 (seed 000 §3) and an offset in minutes (may be negative). */
  fromHalachic: number | null;
  fromOffset: number;
  toHalachic: number | null;
  toOffset: number;
  /** Validity dates, inclusive, YYYY-MM-DD; null = open-ended. */
  fromDate: string | null;
  toDate: string | null;
  /** Null applies to all terminals. */
  terminalId: number | null;
  entranceState: number;
}

/** A business day: its date and the minutes since that date's midnight (may exceed 1439). */
export interface BusinessMoment {
  date: LocalDate;
  minutes: number;
}

/**
 * The business day of an instant for a group whose day starts at
 * `newDayStartHour` (0–23, seed 001 §3): at 02:00 with a new-day hour of 4
 * the business date is yesterday and the minutes are 26 × 60.
 */
export function businessMoment(instant: Date, timeZone: string, newDayStartHour: number): BusinessMoment {
  const p = localParts(instant, timeZone);
  const m = p.hour * 60 + p.minute;
  const date: LocalDate = { year: p.year, month: p.month, day: p.day };
  if (m < newDayStartHour * 60) return { date: addDays(date, -1), minutes: m + 1440 };
  return { date, minutes: m };
}

/** Whether a row is valid on a date (validity range) and on its weekday or as a holiday eve. */
export function rowAppliesOnDate(row: ScheduleRowTimes, date: LocalDate, erevChag: boolean): boolean {
  const iso = `${date.year}-${String(date.month).padStart(2, '0')}-${String(date.day).padStart(2, '0')}`;
  if (row.fromDate && iso < row.fromDate) return false;
  if (row.toDate && iso > row.toDate) return false;
  return row.days.includes(weekdayOf(date)) || (erevChag && row.days.includes(HOLIDAY_EVE_DAY));
}

/**
 * The window [from, to) of a row on a date, in minutes after that date's
 * midnight; `to` at or before `from` runs past midnight. Null when a halachic
 * time does not occur that day.
 */
export function rowWindow(
  row: ScheduleRowTimes,
  date: LocalDate,
  loc: ClubLocation,
): { from: number; to: number } | null {
  const edge = (h: number | null, offset: number, fixed: number | null): number | null => {
    if (h != null) {
      const m = halachicMinutes(h, date, loc);
      return m == null ? null : m + offset;
    }
    return fixed;
  };
  const from = edge(row.fromHalachic, row.fromOffset, row.fromTime) ?? 0;
  let to = edge(row.toHalachic, row.toOffset, row.toTime);
  if (to == null) to = 1440;
  if (to <= from) to += 1440;
  return { from, to };
}

/** Memo of erev-chag answers within one resolution (holiday lookups are the costly part). */
type ErevFn = (d: LocalDate) => boolean;

/**
 * The row in force for `terminalId` at business moment `at`, or null when no
 * row covers it. Rows of the previous business date that run past midnight
 * are considered too. On overlap the row with the highest sortOrder wins.
 */
export function resolveScheduleRow<R extends ScheduleRowTimes>(
  rows: readonly R[],
  terminalId: number,
  at: BusinessMoment,
  loc: ClubLocation,
  erev: ErevFn = (d) => isErevChag(d, loc.il),
): R | null {
  const ordered = rows
    .filter((r) => r.terminalId == null || r.terminalId === terminalId)
    .sort((a, b) => b.sortOrder - a.sortOrder);
  if (ordered.length === 0) return null;
  const prev = addDays(at.date, -1);
  const erevToday = erev(at.date);
  let erevPrev: boolean | undefined;
  for (const row of ordered) {
    if (rowAppliesOnDate(row, at.date, erevToday)) {
      const w = rowWindow(row, at.date, loc);
      if (w && at.minutes >= w.from && at.minutes < w.to) return row;
    }
    erevPrev ??= erev(prev);
    if (rowAppliesOnDate(row, prev, erevPrev)) {
      const w = rowWindow(row, prev, loc);
      const m = at.minutes + 1440;
      if (w && m >= w.from && m < w.to) return row;
    }
  }
  return null;
}

/** Convenience for tests and previews: parse "HH:MM" to minutes. */
export function hhmm(s: string): number {
  const [h, m] = s.split(':').map(Number);
  return h * 60 + m;
}

/** Formats minutes after midnight as HH:MM (wrapping past 24h). */
export function formatMinutes(m: number): string {
  const x = ((Math.round(m) % 1440) + 1440) % 1440;
  return `${String(Math.floor(x / 60)).padStart(2, '0')}:${String(x % 60).padStart(2, '0')}`;
}

export { parseIsoDate };
