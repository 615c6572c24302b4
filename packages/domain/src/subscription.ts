import { HDate } from '@hebcal/core';
import { SubscriptionEndType, UNLIMITED_END_YEAR } from './enums.js';

/**
 * Subscriptions (seed 001 §3, §4; DESIGN §7): periods, end types on the Hebrew
 * and Gregorian calendars, days to extend, usage types, kala subscriptions
 * and the automatic-renewal quote. Pure functions on local dates
 * (`YYYY-MM-DD`, the club's time zone); Hebrew arithmetic is `@hebcal/core`'s
 * HDate. Decisions are in docs/money.md.
 */

/** Subscription periods (seed 001 §4 "Period options"). */
export const SUBSCRIPTION_PERIODS = ['day', 'week', 'month', 'threeMonths', 'halfYear', 'year'] as const;
export type SubscriptionPeriod = (typeof SUBSCRIPTION_PERIODS)[number];

/** Usage types (seed 001 §4): what a subscription is used for at the gate. */
export const USAGE_TYPES = ['subscription', 'money', 'both'] as const;
export type UsageType = (typeof USAGE_TYPES)[number];

/** Automatic renewal methods (seed 001 §4). */
export const AutoRenewMethod = { FromNextMonth: 1, RemainderProrated: 2, RemainderAndNextProrated: 3 } as const;
export type AutoRenewMethod = (typeof AutoRenewMethod)[keyof typeof AutoRenewMethod];

/** The end date that means "unlimited" (seed 001 §9: end year 2125). */
export const UNLIMITED_END = `${UNLIMITED_END_YEAR}-12-31`;

/** Default number of immersions of a kala subscription (seed 000 §3, §9). */
export const DEFAULT_KALA_IMMERSIONS = 14;

const MONTHS: Record<SubscriptionPeriod, number> = {
  day: 0,
  week: 0,
  month: 1,
  threeMonths: 3,
  halfYear: 6,
  year: 12,
};

/** Months a period spans (0 for day and week). */
export function periodMonths(period: SubscriptionPeriod): number {
  return MONTHS[period];
}

// ------------------------------------------------------------------ Gregorian helpers

function toUtc(iso: string): Date {
  const [y, m, d] = iso.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d));
}
function fromUtc(d: Date): string {
  return d.toISOString().slice(0, 10);
}
/** `iso` plus `days` days. */
export function plusDays(iso: string, days: number): string {
  const d = toUtc(iso);
  d.setUTCDate(d.getUTCDate() + days);
  return fromUtc(d);
}
/** Days from `a` to `b` (b − a). */
export function daysBetween(a: string, b: string): number {
  return Math.round((toUtc(b).getTime() - toUtc(a).getTime()) / 86_400_000);
}
/** `iso` plus `months` Gregorian months, the day clamped to the target month's length (Jan 31 + 1 → Feb 28/29). */
export function plusGregorianMonths(iso: string, months: number): string {
  const [y, m, d] = iso.split('-').map(Number);
  const first = new Date(Date.UTC(y, m - 1 + months, 1));
  const len = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  first.setUTCDate(Math.min(d, len));
  return fromUtc(first);
}
function endOfGregorianMonth(iso: string): string {
  const [y, m] = iso.split('-').map(Number);
  return fromUtc(new Date(Date.UTC(y, m, 0)));
}
function startOfGregorianMonth(iso: string): string {
  return `${iso.slice(0, 7)}-01`;
}

// ------------------------------------------------------------------ Hebrew helpers

function hdateOf(iso: string): HDate {
  const [y, m, d] = iso.split('-').map(Number);
  return new HDate(new Date(y, m - 1, d, 12)); // local noon: HDate reads local date parts
}
function isoOfHDate(h: HDate): string {
  const g = h.greg();
  return `${g.getFullYear()}-${String(g.getMonth() + 1).padStart(2, '0')}-${String(g.getDate()).padStart(2, '0')}`;
}
/** The first day of the Hebrew month after the one `h` is in (Adar I → Adar II in a leap year). */
function firstOfNextHebrewMonth(h: HDate): HDate {
  const first = new HDate(1, h.getMonth(), h.getFullYear());
  return first.add(first.daysInMonth(), 'd');
}
/**
 * `h` plus `months` Hebrew months, the day clamped to the target month's
 * length (30 Adar I 5784 + 1 → 29 Adar II 5784; 30 Cheshvan + 1 → 30 Kislev
 * only when Kislev has 30 days). Leap years count Adar I and Adar II as two months.
 */
export function plusHebrewMonths(iso: string, months: number): string {
  const h = hdateOf(iso);
  let cur = new HDate(1, h.getMonth(), h.getFullYear());
  for (let i = 0; i < months; i++) cur = firstOfNextHebrewMonth(cur);
  const day = Math.min(h.getDate(), cur.daysInMonth());
  return isoOfHDate(new HDate(day, cur.getMonth(), cur.getFullYear()));
}
function endOfHebrewMonth(iso: string): string {
  const h = hdateOf(iso);
  return isoOfHDate(new HDate(h.daysInMonth(), h.getMonth(), h.getFullYear()));
}
function startOfHebrewMonth(iso: string): string {
  const h = hdateOf(iso);
  return isoOfHDate(new HDate(1, h.getMonth(), h.getFullYear()));
}

const isHebrew = (t: number) => t === SubscriptionEndType.EndOfHebrewMonth || t === SubscriptionEndType.HebrewDayToDay;
const isEndOfMonth = (t: number) =>
  t === SubscriptionEndType.EndOfHebrewMonth || t === SubscriptionEndType.EndOfGregorianMonth;

/** First day of the month (Hebrew or Gregorian per end type) that contains `iso`. */
export function monthStart(iso: string, endType: number): string {
  return isHebrew(endType) ? startOfHebrewMonth(iso) : startOfGregorianMonth(iso);
}
/** Last day of the month (Hebrew or Gregorian per end type) that contains `iso`. */
export function monthEnd(iso: string, endType: number): string {
  return isHebrew(endType) ? endOfHebrewMonth(iso) : endOfGregorianMonth(iso);
}
/** Days in the month (Hebrew or Gregorian per end type) that contains `iso`. */
export function monthLength(iso: string, endType: number): number {
  return daysBetween(monthStart(iso, endType), monthEnd(iso, endType)) + 1;
}

export interface SubscriptionTerm {
  period: SubscriptionPeriod;
  /** SubscriptionEndType (seed 001 §4), from the client's group. */
  endType: number;
  /** Extra days added after the computed end (the group's "days to extend"). */
  daysToExtend?: number;
  unlimited?: boolean;
}

/**
 * The last day (inclusive, `YYYY-MM-DD`) of a subscription starting on `start`
 * (seed 001 §4 end types):
 *
 * - Gregorian / Hebrew day to day: `start` + the period − 1 day (months on the
 *   chosen calendar, day clamped to the month's length); day = the start day,
 *   week = 7 days.
 * - End of Gregorian / Hebrew month: the last day of the month that is
 *   (months − 1) months after the start's month: a month bought on 10 Nisan
 *   ends on 30 Nisan, three months at the end of Sivan. Day and week
 *   periods have no month to end with and run day to day.
 *
 * Then `daysToExtend` days are added. Unlimited answers 2125-12-31.
 */
export function subscriptionEnd(start: string, term: SubscriptionTerm): string {
  if (term.unlimited) return UNLIMITED_END;
  const months = MONTHS[term.period];
  let end: string;
  if (months === 0) end = plusDays(start, term.period === 'week' ? 6 : 0);
  else if (isEndOfMonth(term.endType)) {
    const anchor = isHebrew(term.endType)
      ? plusHebrewMonths(start, months - 1)
      : plusGregorianMonths(start, months - 1);
    end = monthEnd(anchor, term.endType);
  } else {
    const next = isHebrew(term.endType) ? plusHebrewMonths(start, months) : plusGregorianMonths(start, months);
    end = plusDays(next, -1);
  }
  return plusDays(end, term.daysToExtend ?? 0);
}

/**
 * Where a new subscription starts: the day after the current one ends when
 * that is still ahead (a renewal bought early continues it), else `today`.
 */
export function subscriptionStart(today: string, currentEnd: string | null): string {
  if (currentEnd && currentEnd >= today && currentEnd < UNLIMITED_END) return plusDays(currentEnd, 1);
  return today;
}

/**
 * The dates of a subscription bought on `today` (club's local date): the
 * given start or {@link subscriptionStart}, and the given end or
 * {@link subscriptionEnd} of the term (the group's end type and days to
 * extend). The one rule behind the purchase engine's subscription item and
 * the console's preview before payment (issue 18: a "month" bought on the
 * 23rd with an end-of-month group ends on the 30th, and the dialog says so).
 */
export function subscriptionDates(
  today: string,
  currentEnd: string | null,
  term: SubscriptionTerm,
  given: { start?: string; end?: string } = {},
): { start: string; end: string } {
  const start = given.start ?? subscriptionStart(today, currentEnd);
  return { start, end: given.end ?? subscriptionEnd(start, term) };
}

export interface RenewalRule {
  method: AutoRenewMethod;
  /**
   * The club's last day of the month (1–31) or null: a renewal quoted on or
   * after this day of the month is treated as `lastDayTreatment` says.
   */
  lastDayOfMonth?: number | null;
  /** 'nextMonth': only the next month is sold; 'remainderAndNext': the remainder (prorated) and the next month. */
  lastDayTreatment?: 'nextMonth' | 'remainderAndNext';
}

export interface RenewalQuote {
  start: string;
  end: string;
  /** Price in minor units. */
  price: number;
  method: AutoRenewMethod;
  /** Days charged at the prorated rate (0 when none). */
  proratedDays: number;
}

/**
 * The automatic-renewal quote (seed 001 §4; seed 000 §7
 * GetRenewSubscriptionStartAndEndDatesAndPrice): dates and price of the next
 * month-long subscription for a client whose subscription ends on
 * `currentEnd`, quoted on `today`. `monthlyPrice` is the price of one month in
 * minor units. The month is Hebrew or Gregorian per `endType`.
 *
 * - FromNextMonth: the whole month after the one the renewal starts in
 *   (start = the day after `currentEnd`, or today if that has passed) is
 *   sold at the full price; when the renewal falls on the 1st it is that month.
 * - RemainderProrated: from the start to the end of its month, at
 *   monthlyPrice × days left / days in the month (rounded to the minor unit).
 * - RemainderAndNextProrated: the prorated remainder plus the next whole month.
 * - Last-day rule: on or after the club's last day of the month the treatment
 *   overrides the method (nextMonth → FromNextMonth; remainderAndNext →
 *   RemainderAndNextProrated).
 * - Due again at once: with `daysBefore` (the club's autoRenewDaysBefore), a
 *   RemainderProrated quote whose month ends within `daysBefore` days of
 *   `today` — so the client would be due again the same day — sells the
 *   remainder and the next month (RemainderAndNextProrated) instead, so that a
 *   renewal run is idempotent per client: a second run the same day or the
 *   next charges nothing new (docs/money.md "Automatic renewal").
 */
export function renewalQuote(
  today: string,
  currentEnd: string | null,
  monthlyPrice: number,
  endType: number,
  rule: RenewalRule,
  daysBefore?: number,
): RenewalQuote {
  const start = subscriptionStart(today, currentEnd);
  let method = rule.method;
  if (rule.lastDayOfMonth && Number(start.slice(8, 10)) >= rule.lastDayOfMonth) {
    method =
      rule.lastDayTreatment === 'remainderAndNext'
        ? AutoRenewMethod.RemainderAndNextProrated
        : AutoRenewMethod.FromNextMonth;
  }
  const mStart = monthStart(start, endType);
  const mEnd = monthEnd(start, endType);
  const nextEnd = monthEnd(plusDays(mEnd, 1), endType);
  const left = daysBetween(start, mEnd) + 1;
  const prorated = Math.round((monthlyPrice * left) / monthLength(start, endType));
  if (method === AutoRenewMethod.FromNextMonth) {
    if (start === mStart) return { start, end: mEnd, price: monthlyPrice, method, proratedDays: 0 };
    return { start: plusDays(mEnd, 1), end: nextEnd, price: monthlyPrice, method, proratedDays: 0 };
  }
  if (method === AutoRenewMethod.RemainderProrated) {
    // A remainder that would be due again at once (its end inside the renewal window) is sold with
    // the next month in one purchase: one charge and one document, and a second run charges nothing.
    const dueAgain = daysBefore != null && daysBetween(today, mEnd) <= daysBefore;
    if (!dueAgain) return { start, end: mEnd, price: prorated, method, proratedDays: left };
    method = AutoRenewMethod.RemainderAndNextProrated;
  }
  return { start, end: nextEnd, price: prorated + monthlyPrice, method, proratedDays: left };
}

/**
 * True when a client whose subscription ends on `end` is due for automatic
 * renewal on `today`: from `daysBefore` days before the end to `daysAfter`
 * days after it (club settings autoRenewDaysBefore/After, seed 001 §3).
 */
export function isRenewalDue(today: string, end: string | null, daysBefore: number, daysAfter: number): boolean {
  if (!end || end >= UNLIMITED_END) return false;
  const d = daysBetween(end, today); // > 0: ended d days ago
  return d >= -daysBefore && d <= daysAfter;
}
