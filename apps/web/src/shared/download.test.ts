import { describe, expect, it } from 'vitest';
import { fileNameOf } from './download';

describe('fileNameOf', () => {
  it('prefers the RFC 6266 filename* (UTF-8, percent-encoded)', () => {
    expect(
      fileNameOf(
        `attachment; filename="clients.xlsx"; filename*=UTF-8''%D7%9C%D7%A7%D7%95%D7%97%D7%95%D7%AA.xlsx`,
        'x',
      ),
    ).toBe('לקוחות.xlsx');
  });

  it('reads a plain filename, quoted or not', () => {
    expect(fileNameOf('attachment; filename="report.csv"', 'x')).toBe('report.csv');
    expect(fileNameOf('attachment; filename=report.csv', 'x')).toBe('report.csv');
  });

  it('falls back when the header is missing or names no file', () => {
    expect(fileNameOf(null, 'products.xlsx')).toBe('products.xlsx');
    expect(fileNameOf('inline', 'products.xlsx')).toBe('products.xlsx');
  });
});
