import { describe, expect, it } from 'vitest';
import {
  calendarDate,
  formatClientNumber,
  formatDate,
  formatDateTime,
  formatInstantDate,
  formatMoney,
  formatNumber,
  formatTime,
  wallClockDate,
  xlsxMoneyFormat,
} from './format.js';

describe('the one format', () => {
  it('shows dates DD/MM/YYYY in both languages, instants in the club zone', () => {
    expect(formatDate('2026-11-23')).toBe('23/11/2026');
    expect(formatDate(null)).toBe('');
    // 22:10 UTC on 23 Nov is 00:10 on 24 Nov in Jerusalem (UTC+2).
    expect(formatDateTime('2026-11-23T22:10:00Z', 'Asia/Jerusalem')).toBe('24/11/2026 00:10');
    expect(formatDateTime('2026-11-23T22:10:00Z', 'America/New_York')).toBe('23/11/2026 17:10');
    expect(formatInstantDate('2026-11-23T22:10:00Z', 'Asia/Jerusalem')).toBe('24/11/2026');
    expect(formatTime('2026-07-01T05:07:09Z', 'Asia/Jerusalem')).toBe('08:07');
    expect(formatTime('2026-07-01T05:07:09Z', 'Asia/Jerusalem', true)).toBe('08:07:09');
    expect(formatDateTime('not a date', 'Asia/Jerusalem')).toBe('');
  });

  it('formats numbers with a separator and client numbers without', () => {
    expect(formatNumber(1234567, 'he')).toBe('1,234,567');
    expect(formatNumber(1234567, 'en')).toBe('1,234,567');
    expect(formatClientNumber(2001)).toBe('2001');
    expect(formatClientNumber('12345')).toBe('12345');
  });

  it('formats money from agorot with the symbol and two decimals', () => {
    expect(formatMoney(123450, '₪', 'he')).toBe('₪1,234.50');
    expect(formatMoney(-1200, '₪', 'en')).toBe('-₪12.00');
    expect(formatMoney(null, '₪')).toBe('');
    expect(xlsxMoneyFormat('₪')).toBe('"₪"#,##0.00;-"₪"#,##0.00');
  });

  it('gives spreadsheet dates the club wall clock as UTC fields', () => {
    expect(wallClockDate('2026-11-23T22:10:00Z', 'Asia/Jerusalem').toISOString()).toBe('2026-11-24T00:10:00.000Z');
    expect(calendarDate('2026-03-01')?.toISOString()).toBe('2026-03-01T00:00:00.000Z');
  });
});
