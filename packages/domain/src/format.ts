import { localParts } from './local-date.js';

/**
 * The one format of dates, times, numbers, client numbers and money (seed 001
 * §1 two languages; docs/reports.md "Formats and exports"): the console's
 * screens, its print view and the server's spreadsheet exports all use these,
 * so a value looks the same wherever it is read.
 *
 * - Dates `DD/MM/YYYY` in both languages (the Israeli and British order; the
 *   Hebrew locale's own `23.11.2026` and the ISO `2026-11-23` are not used on
 *   screen). Times 24-hour `HH:mm`. An instant is shown in the **club's** time
 *   zone (its location, docs/calendar.md), never the browser's.
 * - Numbers with a thousands separator (`1,234`; the same in he-IL and en);
 *   client numbers **without** one (`2001`): they are identifiers.
 * - Money: minor units (agorot) in, the currency symbol and two decimals out
 *   (`₪1,234.50`), the symbol before the number in both languages.
 */
export type FormatLang = 'he' | 'en';

/** The date pattern of the console's date pickers (dayjs tokens). */
export const DATE_PATTERN = 'DD/MM/YYYY';
/** The date-and-time pattern (dayjs tokens). */
export const DATE_TIME_PATTERN = 'DD/MM/YYYY HH:mm';
/** The same patterns as spreadsheet number formats (Excel / LibreOffice codes) of the exports' date cells. */
export const XLSX_DATE_FORMAT = 'dd/mm/yyyy';
export const XLSX_DATE_TIME_FORMAT = 'dd/mm/yyyy hh:mm';
export const XLSX_INT_FORMAT = '#,##0';
/** A client number cell: digits only, no thousands separator. */
export const XLSX_CLIENT_NUMBER_FORMAT = '0';

const two = (n: number) => String(n).padStart(2, '0');

/** A calendar date `YYYY-MM-DD` (or a Date's UTC day) as `DD/MM/YYYY`; '' for null/invalid. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '';
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  return m ? `${m[3]}/${m[2]}/${m[1]}` : '';
}

/** The wall-clock parts of an instant in a zone, or null for null / an invalid value. */
function partsOf(instant: string | Date | null | undefined, timeZone: string) {
  if (instant == null || instant === '') return null;
  const d = instant instanceof Date ? instant : new Date(instant);
  if (Number.isNaN(d.getTime())) return null;
  return localParts(d, timeZone);
}

/** An instant's local date in the club's zone, `DD/MM/YYYY`. */
export function formatInstantDate(instant: string | Date | null | undefined, timeZone: string): string {
  const p = partsOf(instant, timeZone);
  return p ? `${two(p.day)}/${two(p.month)}/${p.year}` : '';
}

/** An instant's local time in the club's zone, `HH:mm` (24 hours); `HH:mm:ss` with `seconds`. */
export function formatTime(instant: string | Date | null | undefined, timeZone: string, seconds = false): string {
  const p = partsOf(instant, timeZone);
  if (!p) return '';
  return `${two(p.hour)}:${two(p.minute)}${seconds ? `:${two(p.second)}` : ''}`;
}

/** An instant in the club's zone, `DD/MM/YYYY HH:mm`. */
export function formatDateTime(instant: string | Date | null | undefined, timeZone: string): string {
  const p = partsOf(instant, timeZone);
  return p ? `${two(p.day)}/${two(p.month)}/${p.year} ${two(p.hour)}:${two(p.minute)}` : '';
}

/**
 * The club's wall clock of an instant as a Date whose **UTC** fields are the
 * local ones: what a spreadsheet date cell stores (a serial has no zone), so
 * the file shows the club's local time whoever opens it.
 */
export function wallClockDate(instant: string | Date, timeZone: string): Date {
  const p = localParts(instant instanceof Date ? instant : new Date(instant), timeZone);
  return new Date(Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second));
}

/** A calendar date `YYYY-MM-DD` as a Date at UTC midnight (a spreadsheet date cell); null when not a date. */
export function calendarDate(value: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  return m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : null;
}

const numberFormats = new Map<string, Intl.NumberFormat>();
function numberFormat(lang: FormatLang, digits: number): Intl.NumberFormat {
  const key = `${lang}:${digits}`;
  let f = numberFormats.get(key);
  if (!f) {
    f = new Intl.NumberFormat(lang === 'he' ? 'he-IL' : 'en-US', {
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    });
    numberFormats.set(key, f);
  }
  return f;
}

/** A count or quantity with a thousands separator: 1234 → "1,234" (integers; `digits` decimals otherwise). */
export function formatNumber(n: number | null | undefined, lang: FormatLang = 'he', digits = 0): string {
  if (n == null || !Number.isFinite(Number(n))) return '';
  return numberFormat(lang, digits).format(Number(n));
}

/**
 * Report columns that hold identifiers (client, invoice and club numbers):
 * shown and exported without a thousands separator, like client numbers in lists.
 */
export const IDENTIFIER_COLUMNS: ReadonlySet<string> = new Set(['clientNumber', 'invoiceNumber', 'externalClubId']);

/** A client number: digits only, no thousands separator ("2001"; they are identifiers, not amounts). */
export function formatClientNumber(n: number | string | null | undefined): string {
  if (n == null || n === '') return '';
  return String(Math.trunc(Number(n)));
}

/**
 * Money in minor units (agorot) with the currency symbol and two decimals:
 * 123450 → "₪1,234.50"; negative "-₪12.00". `symbol` is the club's
 * (club settings, seed 000 §3 currency).
 */
export function formatMoney(minor: number | null | undefined, symbol: string, lang: FormatLang = 'he'): string {
  if (minor == null || !Number.isFinite(Number(minor))) return '';
  const v = Number(minor);
  return `${v < 0 ? '-' : ''}${symbol}${numberFormat(lang, 2).format(Math.abs(v) / 100)}`;
}

/**
 * A spreadsheet number format showing the currency symbol before the amount
 * with two decimals and a thousands separator (`"₪"#,##0.00`); negative
 * amounts with a minus. Quotes in the symbol are dropped.
 */
export function xlsxMoneyFormat(symbol: string): string {
  const s = symbol.replace(/"/g, '');
  return s ? `"${s}"#,##0.00;-"${s}"#,##0.00` : '#,##0.00';
}
