import { HDate } from '@hebcal/core';
import { localInstant } from '../time.js';

/**
 * Dates for the money life test's model, written here on purpose rather than
 * taken from `packages/domain` (the model must not share the product's
 * arithmetic): local dates are `YYYY-MM-DD` in the club's zone
 * (Asia/Jerusalem); Gregorian months by UTC date arithmetic, Hebrew months by
 * `@hebcal/core` (a calendar library, not the product's rules).
 */

export const ZONE = 'Asia/Jerusalem';

/** `iso` plus `n` days. */
export function addDays(iso: string, n: number): string {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/** Days from `a` to `b` (b − a). */
export function dayDiff(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);
}

/** The instant of a local wall-clock minute of a day in the club's zone. */
export function at(day: string, minuteOfDay: number): Date {
  const [y, m, d] = day.split('-').map(Number);
  return localInstant(ZONE, y, m, d, Math.floor(minuteOfDay / 60), minuteOfDay % 60);
}

/** The local date of an instant in the club's zone. */
export function localDay(t: Date | string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(t),
  );
}

// ------------------------------------------------------------- Gregorian

function gregMonthStart(iso: string): string {
  return `${iso.slice(0, 7)}-01`;
}
function gregMonthLength(iso: string): number {
  const [y, m] = iso.split('-').map(Number);
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
}
function gregMonthEnd(iso: string): string {
  return `${iso.slice(0, 7)}-${String(gregMonthLength(iso)).padStart(2, '0')}`;
}
/** `iso` plus `n` Gregorian months, the day clamped to the month's length. */
function gregPlusMonths(iso: string, n: number): string {
  const [y, m, d] = iso.split('-').map(Number);
  const k = y * 12 + (m - 1) + n;
  const first = `${Math.floor(k / 12)}-${String((k % 12) + 1).padStart(2, '0')}-01`;
  return `${first.slice(0, 8)}${String(Math.min(d, gregMonthLength(first))).padStart(2, '0')}`;
}

// ------------------------------------------------------------- Hebrew

function hOf(iso: string): HDate {
  const [y, m, d] = iso.split('-').map(Number);
  return new HDate(new Date(y, m - 1, d, 12));
}
/** First day of the Hebrew month of `iso`: walk back while the Hebrew day number falls. */
function hebMonthStart(iso: string): string {
  return addDays(iso, -(hOf(iso).getDate() - 1));
}
/** Last day of the Hebrew month of `iso`: walk forward to the day before the next 1st. */
function hebMonthEnd(iso: string): string {
  let d = addDays(iso, 1);
  while (hOf(d).getDate() !== 1) d = addDays(d, 1);
  return addDays(d, -1);
}
/** `iso` plus `n` Hebrew months (Adar I and II are two months), the day clamped to the month's length. */
function hebPlusMonths(iso: string, n: number): string {
  const day = hOf(iso).getDate();
  let first = hebMonthStart(iso);
  for (let i = 0; i < n; i++) first = addDays(hebMonthEnd(first), 1);
  const len = dayDiff(first, hebMonthEnd(first)) + 1;
  return addDays(first, Math.min(day, len) - 1);
}

// ------------------------------------------------------------- by end type (seed 001 §4)

/** Subscription end types (seed 001 §4): 1 end of Hebrew month, 2 end of Gregorian month, 3 Hebrew day to day, 4 Gregorian day to day. */
export type EndType = 1 | 2 | 3 | 4;
const hebrew = (t: EndType) => t === 1 || t === 3;

export function monthStart(iso: string, t: EndType): string {
  return hebrew(t) ? hebMonthStart(iso) : gregMonthStart(iso);
}
export function monthEnd(iso: string, t: EndType): string {
  return hebrew(t) ? hebMonthEnd(iso) : gregMonthEnd(iso);
}
export function monthLength(iso: string, t: EndType): number {
  return dayDiff(monthStart(iso, t), monthEnd(iso, t)) + 1;
}
export function plusMonths(iso: string, n: number, t: EndType): string {
  return hebrew(t) ? hebPlusMonths(iso, n) : gregPlusMonths(iso, n);
}

/** Last day of a subscription of `months` months from `start` (seed 001 §4 end types; no days to extend here). */
export function subscriptionEndOf(start: string, months: number, t: EndType): string {
  if (t === 1 || t === 2) return monthEnd(plusMonths(start, months - 1, t), t);
  return addDays(plusMonths(start, months, t), -1);
}

/** `YYYY-MM-DD` → `DD/MM/YYYY` (MOVEIN dates). */
export function ddmmyyyy(iso: string): string {
  return `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;
}
