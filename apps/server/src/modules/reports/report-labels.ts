import {
  IDENTIFIER_COLUMNS,
  calendarDate,
  codeLabel,
  reportText,
  wallClockDate,
  xlsxMoneyFormat,
  XLSX_CLIENT_NUMBER_FORMAT,
  XLSX_DATE_FORMAT,
  XLSX_DATE_TIME_FORMAT,
  XLSX_INT_FORMAT,
  type CodeKind,
  type ReportValueType,
} from '@venue/domain';
import type { XlsxCell } from '../../lib/xlsx.js';

/**
 * The cells of the report exports (.xlsx), docs/reports.md "Formats and
 * exports". Every word comes from packages/domain: headers, totals and
 * titles from report-text.ts, the labels of codes from labels.ts — the same
 * catalogue the console shows, so a file and the screen say the same.
 */
type Lang = 'he' | 'en';

/** The report value types that are codes of the label catalogue. */
const CODE_KIND: Partial<Record<ReportValueType, CodeKind>> = {
  entranceStatus: 'entranceStatus',
  reason: 'reason',
  paymentMethod: 'paymentMethod',
  itemType: 'itemType',
  purchaseStatus: 'purchaseStatus',
  quickExitType: 'quickExitType',
  debtSource: 'debtSource',
  activityKind: 'activityKind',
  auditAction: 'auditAction',
  auditEntity: 'auditEntity',
  personalDataKind: 'personalDataKind',
  cashState: 'cashState',
  excessState: 'excessState',
  licenseSource: 'licenseSource',
  saferState: 'saferState',
  licenseRequestStatus: 'licenseRequestStatus',
  bookingKind: 'bookingKind',
};

/** The items of a purchase as one line: "2 × Towel, Money load" (an item without a name shows its type). */
export function itemsText(v: unknown, lang: Lang): string | null {
  if (v == null) return null;
  const list = (typeof v === 'string' ? JSON.parse(v) : v) as { t: number; n: string; q: number }[];
  return list
    .map((i) => {
      const name = i.n || codeLabel('itemType', i.t, lang);
      return i.q > 1 ? `${i.q} × ${name}` : name;
    })
    .join(', ');
}

/** The payment methods of a purchase as one line: "Cash, Credit card" (codes of the label catalogue). */
export function methodsText(v: unknown, lang: Lang): string | null {
  if (v == null) return null;
  const list = (typeof v === 'string' ? JSON.parse(v) : v) as number[];
  return list.map((m) => codeLabel('paymentMethod', m, lang)).join(', ');
}

/** Column header of an export (the console's column title). */
export function exportHeader(key: string, lang: Lang): string {
  return reportText('col', key, lang);
}

/** Label of a total or a breakdown in the export's summary (the console's card title). */
export function exportTotalLabel(key: string, lang: Lang): string {
  return reportText('total', key, lang, reportText('col', key, lang, reportText('breakdown', key, lang)));
}

/** Sheet title (the report id) or the totals label (`totals`). */
export function exportTitle(key: string, lang: Lang): string {
  return reportText('title', key, lang);
}

/** What a cell of a column needs to be written: the club's zone and currency symbol, and the language. */
export interface CellContext {
  lang: Lang;
  timeZone: string;
  currencySymbol: string;
}

/** The spreadsheet number format of a column's cells (dates, money, counts, durations); none for words. */
export function exportFormat(type: ReportValueType, key: string, c: CellContext): string | undefined {
  switch (type) {
    case 'money':
      return xlsxMoneyFormat(c.currencySymbol);
    case 'datetime':
      return XLSX_DATE_TIME_FORMAT;
    case 'date':
      return XLSX_DATE_FORMAT;
    case 'minutes':
      return '[h]:mm';
    case 'int':
      return IDENTIFIER_COLUMNS.has(key) ? XLSX_CLIENT_NUMBER_FORMAT : XLSX_INT_FORMAT;
    default:
      return undefined;
  }
}

/**
 * A cell of an export, typed: money a number in major units (₪ 12.50 →
 * 12.5) shown with the currency format; an instant a date cell holding the
 * club's local wall clock; a calendar date a date cell; minutes a duration
 * (days, shown `[h]:mm`); counts numbers; codes their words in `lang`
 * (labels.ts); yes/no words.
 */
export function exportCell(type: ReportValueType, v: unknown, c: CellContext): XlsxCell {
  if (v == null || v === '') return null;
  const kind = CODE_KIND[type];
  if (kind) return codeLabel(kind, typeof v === 'number' ? v : String(v), c.lang);
  switch (type) {
    case 'money':
      return Number(v) / 100;
    case 'datetime':
      return wallClockDate(v instanceof Date ? v : String(v), c.timeZone);
    case 'date':
      return calendarDate(String(v)) ?? String(v);
    case 'minutes':
      return Number(v) / 1440;
    case 'text':
      return String(v);
    case 'bool':
      return codeLabel('yesNo', v ? 1 : 0, c.lang);
    default:
      return Number(v);
  }
}
