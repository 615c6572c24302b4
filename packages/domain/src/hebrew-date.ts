import { HDate } from '@hebcal/hdate';
import type { LocalDate } from './local-date.js';

/**
 * The Hebrew date of a day, rendered in Hebrew ("17 כִּסְלֵו, 5787") or
 * English ("17th of Kislev, 5787"). From @hebcal/hdate alone, not
 * @hebcal/core: the dashboard shows it, and core brings the zmanim, the
 * holiday tables and a Temporal polyfill (~45 KB compressed) with it (issue
 * 19 load speed). Same output as core's HDate (hebrew-date.test.ts).
 */
export function hebrewDate(d: LocalDate, locale: 'en' | 'he' = 'he'): string {
  // hebcal reads the Gregorian date through the runtime's local calendar fields.
  return new HDate(new Date(d.year, d.month - 1, d.day, 12)).render(locale === 'he' ? 'he' : 'en');
}
