import { addDays, isoDate, weekdayOf, type LocalDate } from './local-date.js';

/**
 * Report periods (seed 001 §2): day, week (starting Sunday), month, year or an
 * explicit range. Ranges are local dates, inclusive; the server turns them
 * into instants in the club's time zone.
 */
export const PERIODS = ['day', 'week', 'month', 'year', 'range'] as const;
export type Period = (typeof PERIODS)[number];

/** The inclusive local-date range of the period that contains `anchor`. */
export function periodRange(period: Exclude<Period, 'range'>, anchor: LocalDate): { from: string; to: string } {
  switch (period) {
    case 'day':
      return { from: isoDate(anchor), to: isoDate(anchor) };
    case 'week': {
      const start = addDays(anchor, -weekdayOf(anchor));
      return { from: isoDate(start), to: isoDate(addDays(start, 6)) };
    }
    case 'month': {
      const start = { ...anchor, day: 1 };
      const next = new Date(Date.UTC(anchor.year, anchor.month, 1));
      const end = addDays({ year: next.getUTCFullYear(), month: next.getUTCMonth() + 1, day: 1 }, -1);
      return { from: isoDate(start), to: isoDate(end) };
    }
    case 'year':
      return { from: `${anchor.year}-01-01`, to: `${anchor.year}-12-31` };
  }
}
