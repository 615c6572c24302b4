import { describe, expect, it } from 'vitest';
import { fromMinor, parseToMinor, splitVat, toMinor, vatRateBasisPoints } from './money.js';

describe('money in minor units', () => {
  it('uses Israeli VAT 18% from 2025 and 17% before (DOMAIN-FACTS "Money and tax")', () => {
    expect(vatRateBasisPoints('Israel', new Date('2025-01-01T00:00:00+02:00'))).toBe(1800);
    expect(vatRateBasisPoints('Israel', new Date('2024-12-31T23:00:00+02:00'))).toBe(1700);
    expect(vatRateBasisPoints('UK', new Date())).toBe(2000);
  });
  it('gives Belgium 21%, Hungary 27%, and the USA its configurable sales tax (default 0)', () => {
    const d = new Date('2026-06-01T12:00:00Z');
    expect(vatRateBasisPoints('Belgium', d)).toBe(2100);
    expect(vatRateBasisPoints('Hungary', d)).toBe(2700);
    expect(vatRateBasisPoints('USA', d)).toBe(0);
    expect(vatRateBasisPoints('USA', d, 825)).toBe(825);
    expect(vatRateBasisPoints('Israel', d, 825)).toBe(1800);
  });
  it('splits a VAT-inclusive total so that net + VAT is exact', () => {
    expect(splitVat(11800, 1800)).toEqual({ net: 10000, vat: 1800 });
    for (const total of [1, 99, 3000, 12345, 999999]) {
      const { net, vat } = splitVat(total, 1800);
      expect(net + vat).toBe(total);
    }
    expect(() => splitVat(10.5, 1800)).toThrow(RangeError);
  });
  it('parses typed amounts to agorot and refuses malformed text', () => {
    expect(parseToMinor('12.5')).toBe(1250);
    expect(parseToMinor('30')).toBe(3000);
    expect(parseToMinor('0,99')).toBe(99);
    expect(parseToMinor('-1.01')).toBe(-101);
    expect(parseToMinor('1.234')).toBeNull();
    expect(parseToMinor('abc')).toBeNull();
  });
  it('converts shekels to integer agorot, rounding half away from zero', () => {
    expect(toMinor(12.5)).toBe(1250);
    expect(toMinor(30)).toBe(3000);
    expect(toMinor(0.1 + 0.2)).toBe(30);
    expect(toMinor(19.99)).toBe(1999);
    expect(toMinor(1.005)).toBe(101);
    expect(toMinor(1.004)).toBe(100);
    expect(toMinor(-1.005)).toBe(-101);
    expect(toMinor(-0.005)).toBe(-1);
    expect(Object.is(toMinor(-0.004), 0)).toBe(true);
    expect(Object.is(toMinor(-0), 0)).toBe(true);
    expect(toMinor(1_000_000.01)).toBe(100_000_001);
    for (let a = -100_000; a <= 100_000; a += 37) expect(toMinor(a / 100)).toBe(a);
    expect(toMinor(Number.NaN)).toBeNaN();
  });
  it('converts agorot to shekels, and back to the same agorot', () => {
    expect(fromMinor(1250)).toBe(12.5);
    expect(fromMinor(-1999)).toBe(-19.99);
    expect(fromMinor(0)).toBe(0);
    for (let a = -100_000; a <= 100_000; a += 37) expect(toMinor(fromMinor(a))).toBe(a);
  });
});
