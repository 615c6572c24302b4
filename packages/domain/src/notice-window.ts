import { HDate, HebrewCalendar, flags } from '@hebcal/core';
import { HalachicTime } from './enums.js';
import { halachicTimeAt, roundedMinute } from './calendar.js';
import { addDays, localParts, localToInstant, weekdayOf, type ClubLocation, type LocalDate } from './local-date.js';

/**
 * When a message may go out at a club (issue 37, docs/notifications.md "Shabbat, holidays and quiet
 * hours"): never from candle lighting before Shabbat or a yom tov until havdalah after it, at the
 * club's location (its candle-lighting minutes; havdalah = nightfall, the sun 8.5° below the horizon,
 * as the calendar's havdalah), and never within the club's quiet hours. Pure: the clock is an argument.
 */

/** Why a moment is closed to messages. */
export type SendBlock = 'shabbat' | 'holiday' | 'quiet';

/** The club's quiet hours in minutes after local midnight; from = to means none; may cross midnight. */
export interface QuietHours {
  quietFrom: number;
  quietTo: number;
}

function hdateOf(d: LocalDate): HDate {
  return new HDate(new Date(d.year, d.month - 1, d.day, 12));
}

/** Whether a local day is a yom tov (hebcal's CHAG flag: the days work is forbidden), per Israel or diaspora. */
export function isYomTov(d: LocalDate, il: boolean): boolean {
  return (HebrewCalendar.getHolidaysOnDate(hdateOf(d), il) ?? []).some((e) => (e.getFlags() & flags.CHAG) !== 0);
}

/** Whether a local day is Shabbat or a yom tov. */
function isRestDay(d: LocalDate, il: boolean): boolean {
  return weekdayOf(d) === 6 || isYomTov(d, il);
}

/** Candle lighting on the eve `d` (rounded down, as printed); local 18:00 where the sun does not set. */
function candleLighting(d: LocalDate, loc: ClubLocation): Date {
  const t = halachicTimeAt(HalachicTime.CandleLighting, d, loc);
  return t ? roundedMinute(t, 'down') : localToInstant(d, 18 * 3600, loc.timeZone);
}

/** Havdalah at the end of rest day `d`: nightfall 8.5° (rounded up, as printed); local 21:00 where undefined. */
function havdalah(d: LocalDate, loc: ClubLocation): Date {
  const t = halachicTimeAt(HalachicTime.Nightfall, d, loc);
  return t ? roundedMinute(t, 'up') : localToInstant(d, 21 * 3600, loc.timeZone);
}

/**
 * If `at` falls between candle lighting and havdalah of Shabbat or a yom tov at `loc` (a run of rest
 * days — a two-day yom tov, a yom tov beside Shabbat — counts as one), the reason and the havdalah
 * that ends the run (`until`) and the candle lighting that began it (`from`); otherwise null.
 */
export function restPeriodAt(
  at: Date,
  loc: ClubLocation,
): { reason: 'shabbat' | 'holiday'; from: Date; until: Date } | null {
  const il = loc.il;
  const today: LocalDate = localParts(at, loc.timeZone);
  let first: LocalDate | null = null;
  if (isRestDay(today, il) && at < havdalah(today, loc)) first = today;
  else if (isRestDay(addDays(today, 1), il) && at >= candleLighting(today, loc)) first = addDays(today, 1);
  if (!first) return null;
  let last = first;
  let holiday = isYomTov(first, il);
  for (let i = 0; i < 3 && isRestDay(addDays(last, 1), il); i++) {
    last = addDays(last, 1);
    holiday ||= isYomTov(last, il);
  }
  // Candle lighting on the eve of the run's first day (a yom tov beside Shabbat: the earlier one's).
  for (let i = 0; i < 3 && isRestDay(addDays(first, -1), il); i++) {
    first = addDays(first, -1);
    holiday ||= isYomTov(first, il);
  }
  return {
    reason: holiday ? 'holiday' : 'shabbat',
    from: candleLighting(addDays(first, -1), loc),
    until: havdalah(last, loc),
  };
}

/** If `at` is within the quiet hours, the moment they end; otherwise null. */
export function quietUntil(at: Date, loc: ClubLocation, q: QuietHours): Date | null {
  if (q.quietFrom === q.quietTo) return null;
  const p = localParts(at, loc.timeZone);
  const m = p.hour * 60 + p.minute;
  const crosses = q.quietFrom > q.quietTo;
  const inside = crosses ? m >= q.quietFrom || m < q.quietTo : m >= q.quietFrom && m < q.quietTo;
  if (!inside) return null;
  const endDay = crosses && m >= q.quietFrom ? addDays(p, 1) : p;
  return localToInstant(endDay, q.quietTo * 60, loc.timeZone);
}

/**
 * The first moment at or after `at` when a message may go out at the club, and why it waits (the
 * first reason met), or `{at, reason: null}` when it may go now. Shabbat or a holiday moves it to
 * havdalah; quiet hours then move it to their end (havdalah at 17:00 on a winter Saturday is
 * outside the night's quiet hours; a late one inside them waits for the morning).
 */
export function nextSendMoment(at: Date, loc: ClubLocation, q: QuietHours): { at: Date; reason: SendBlock | null } {
  let t = at;
  let reason: SendBlock | null = null;
  for (let i = 0; i < 6; i++) {
    const rest = restPeriodAt(t, loc);
    if (rest) {
      reason ??= rest.reason;
      t = rest.until;
      continue;
    }
    const quiet = quietUntil(t, loc, q);
    if (quiet) {
      reason ??= 'quiet';
      t = quiet;
      continue;
    }
    break;
  }
  return { at: t, reason };
}
