import { describe, expect, it } from 'vitest';
import {
  INT32_MAX,
  MONEY_MAX,
  id,
  idParam,
  isoDate,
  isRealDate,
  isStorableText,
  money,
  requiredId,
  text,
  unstorableTextPath,
} from './parts.js';

/** The probe's malformed values against the shared schema parts. */
describe('schema parts', () => {
  it('ids are positive 32-bit integers (PostgreSQL integer)', () => {
    expect(id.safeParse(INT32_MAX).success).toBe(true);
    for (const bad of [INT32_MAX + 1, 0, -1, 1.5, 1e21, '1', null]) expect(id.safeParse(bad).success).toBe(false);
    expect(idParam.parse('2147483647')).toBe(INT32_MAX);
    for (const bad of ['2147483648', '0', '-1', '1.5', 'abc', '1e21'])
      expect(idParam.safeParse(bad).success).toBe(false);
    expect(id.safeParse(INT32_MAX + 1).error?.issues[0]?.message).toBe('invalidId');
  });

  it('a required id says "required" when left out or null, "invalidId" when malformed', () => {
    expect(requiredId.parse(7)).toBe(7);
    for (const missing of [undefined, null]) {
      expect(requiredId.safeParse(missing).error?.issues[0]?.message).toBe('required');
    }
    for (const bad of ['abc', '7', 0, -1, 1.5, INT32_MAX + 1]) {
      expect(requiredId.safeParse(bad).error?.issues[0]?.message, String(bad)).toBe('invalidId');
    }
  });

  it('text refuses NUL and lone surrogates and keeps pairs', () => {
    expect(isStorableText('שלום 👋 a\u05b0')).toBe(true);
    for (const bad of ['a\u0000b', '\ud800', 'x\udc00y', '\udc00\ud800', 'end\ud83d'])
      expect(isStorableText(bad)).toBe(false);
    expect(text(5).safeParse('abcdef').error?.issues[0]?.message).toBe('tooLong');
    expect(text(5).safeParse('a\u0000b').error?.issues[0]?.message).toBe('invalidText');
    expect(text(10).trim().min(1).safeParse('  ').success).toBe(false);
  });

  it('finds the path of the first unstorable string, keys included', () => {
    expect(unstorableTextPath({ a: [1, { b: 'ok' }, { c: 'x\ud800' }] })).toEqual(['a', 2, 'c']);
    expect(unstorableTextPath({ ['k\u0000']: 1 })).toEqual(['k\u0000']);
    expect(unstorableTextPath({ a: 'fine', b: [null, 2, true] })).toBeNull();
  });

  it('dates exist on the calendar (checked against the JavaScript Date round trip)', () => {
    for (let y = 1900; y <= 2200; y += 7) {
      for (let m = 1; m <= 12; m++) {
        for (const d of [28, 29, 30, 31]) {
          const s = `${y}-${String(m).padStart(2, '0')}-${d}`;
          const t = new Date(`${s}T00:00:00Z`);
          const real = !Number.isNaN(t.getTime()) && t.toISOString().startsWith(s);
          expect(isRealDate(s), s).toBe(real);
        }
      }
    }
    for (const bad of [
      '2025-02-30',
      '0000-00-00',
      '9999-99-99',
      '2025-13-01',
      '2025-1-01',
      '1899-12-31',
      '2201-01-01',
    ]) {
      expect(isoDate.safeParse(bad).success, bad).toBe(false);
    }
    expect(isoDate.safeParse('2024-02-29').success).toBe(true);
    expect(isoDate.safeParse('2100-02-29').success).toBe(false);
  });

  it('money is whole agorot within ±MONEY_MAX', () => {
    expect(money.safeParse(MONEY_MAX).success).toBe(true);
    for (const bad of [MONEY_MAX + 1, -MONEY_MAX - 1, 1.5, 2147483648, '100'])
      expect(money.safeParse(bad).success).toBe(false);
  });
});
