import { HDate, HebrewCalendar, flags } from '@hebcal/core';
import { addDays, weekdayOf, type LocalDate } from './local-date.js';

/**
 * Israeli business days (seed 000 §9 "add-licenses request business days 3";
 * seed 001 §9 "licenses from transfer load within a number of business
 * days"; docs/operator.md "Expected load date"). A business day is a Sunday
 * to Thursday (Israeli banks do not clear on Friday and Saturday) that is not
 * an Israeli holiday on which banks are closed: a yom tov in the Israel
 * schedule (hebcal's CHAG flag: Rosh Hashana both days, Yom Kippur, Sukkot,
 * Shmini Atzeret, Pesach first and seventh day, Shavuot) and Yom HaAtzma'ut
 * (hebcal's date, moved for Shabbat as the law moves it). Chol HaMoed and
 * fast days are business days. Dates and holidays come from @hebcal/core.
 */

/** Business days a bank-transfer license request takes to load (seed 000 §9). */
export const LICENSE_TRANSFER_BUSINESS_DAYS = 3;

function hdate(d: LocalDate): HDate {
  // hebcal reads a Gregorian date through the runtime's local calendar fields (as calendar.ts).
  return new HDate(new Date(d.year, d.month - 1, d.day, 12));
}

/** Whether a local date is an Israeli business day (Sunday–Thursday, not a bank holiday; see above). */
export function isIsraeliBusinessDay(d: LocalDate): boolean {
  if (weekdayOf(d) > 4) return false;
  const events = HebrewCalendar.getHolidaysOnDate(hdate(d), true) ?? [];
  return !events.some((e) => (e.getFlags() & flags.CHAG) !== 0 || e.getDesc() === "Yom HaAtzma'ut");
}

/**
 * The date `n` Israeli business days after `from` (a local date in Israel,
 * the day of the request): counting starts on the next day, so a request on
 * a Sunday with n = 3 is expected on Wednesday; a request on Thursday, on
 * the next Tuesday. `n` is a whole number ≥ 0; n = 0 answers `from`.
 * @throws RangeError for a negative or fractional `n`
 */
export function addIsraeliBusinessDays(from: LocalDate, n: number): LocalDate {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`business days must be a whole number ≥ 0, got ${n}`);
  let d = from;
  for (let left = n; left > 0;) {
    d = addDays(d, 1);
    if (isIsraeliBusinessDay(d)) left--;
  }
  return d;
}
