import { describe, expect, it } from 'vitest';
import { addIsraeliBusinessDays, isIsraeliBusinessDay } from './business-days.js';
import { isoDate, parseIsoDate } from './calendar.js';

const add = (from: string, n: number) => isoDate(addIsraeliBusinessDays(parseIsoDate(from), n));
const biz = (d: string) => isIsraeliBusinessDay(parseIsoDate(d));

describe('Israeli business days (seed 000 §9: license transfer loads in 3 business days)', () => {
  it('counts Sunday to Thursday and skips the weekend', () => {
    // 2026-03-01 is a Sunday; 2026-03-05 a Thursday.
    expect(add('2026-03-01', 3)).toBe('2026-03-04');
    expect(add('2026-03-05', 3)).toBe('2026-03-10');
    // A request on Friday or Saturday: Sunday is the first day counted.
    expect(add('2026-03-06', 3)).toBe('2026-03-10');
    expect(add('2026-03-07', 1)).toBe('2026-03-08');
    expect(add('2026-03-04', 0)).toBe('2026-03-04');
    expect(biz('2026-03-06')).toBe(false);
    expect(biz('2026-03-07')).toBe(false);
  });

  it('skips yom tov in Israel but not Chol HaMoed', () => {
    // Pesach 5786: first day Thursday 2 April 2026, seventh day Wednesday 8 April 2026.
    expect(biz('2026-04-02')).toBe(false);
    expect(biz('2026-04-05')).toBe(true); // Chol HaMoed (Sunday)
    expect(biz('2026-04-08')).toBe(false);
    // Wednesday 1 April (erev Pesach) → Sun 5, Mon 6, Tue 7 (the 2nd is yom tov).
    expect(add('2026-04-01', 3)).toBe('2026-04-07');
    // Yom Kippur 5787: Monday 21 September 2026; Rosh Hashana 5787: Saturday 12 and Sunday 13 September.
    expect(biz('2026-09-21')).toBe(false);
    expect(biz('2026-09-13')).toBe(false);
    expect(add('2026-09-10', 3)).toBe('2026-09-16');
  });

  it("skips Yom HaAtzma'ut (moved as the law moves it)", () => {
    // 5786: 5 Iyar falls on a Wednesday (22 April 2026) and is kept then.
    expect(biz('2026-04-22')).toBe(false);
    // 5785: 5 Iyar was a Friday (2 May 2025), moved to Thursday 1 May 2025.
    expect(biz('2025-05-01')).toBe(false);
    expect(add('2025-04-30', 1)).toBe('2025-05-04');
  });

  it('refuses a negative or fractional count', () => {
    expect(() => addIsraeliBusinessDays(parseIsoDate('2026-03-01'), -1)).toThrow(RangeError);
    expect(() => addIsraeliBusinessDays(parseIsoDate('2026-03-01'), 1.5)).toThrow(RangeError);
  });
});
