import { describe, expect, it } from 'vitest';
import { HDate } from '@hebcal/core';
import { hebrewDate } from './hebrew-date.js';

describe('hebrewDate (from @hebcal/hdate, issue 19 load speed)', () => {
  it('renders a known day in Hebrew and English', () => {
    expect(hebrewDate({ year: 2026, month: 11, day: 26 }, 'en')).toBe('16th of Kislev, 5787');
    expect(hebrewDate({ year: 2026, month: 11, day: 26 }, 'he')).toBe('16 כִּסְלֵו, 5787');
  });

  it("equals @hebcal/core's rendering on every day of two years, leap year and Adar II included", () => {
    for (let i = 0; i < 731; i++) {
      const g = new Date(2027, 0, 1 + i, 12);
      const d = { year: g.getFullYear(), month: g.getMonth() + 1, day: g.getDate() };
      expect(hebrewDate(d, 'he')).toBe(new HDate(g).render('he'));
      expect(hebrewDate(d, 'en')).toBe(new HDate(g).render('en'));
    }
  });
});
