import { describe, expect, it } from 'vitest';
import { periodRange } from './period.js';

describe('report periods (seed 001 §2: the week starts on Sunday)', () => {
  it('gives the Sunday-to-Saturday week of a date', () => {
    // 2026-11-20 is a Friday.
    expect(periodRange('week', { year: 2026, month: 11, day: 20 })).toEqual({ from: '2026-11-15', to: '2026-11-21' });
    // A Sunday is the first day of its own week.
    expect(periodRange('week', { year: 2026, month: 11, day: 15 })).toEqual({ from: '2026-11-15', to: '2026-11-21' });
  });
  it('gives whole months, including February of a leap year, and years', () => {
    expect(periodRange('month', { year: 2028, month: 2, day: 10 })).toEqual({ from: '2028-02-01', to: '2028-02-29' });
    expect(periodRange('month', { year: 2026, month: 12, day: 31 })).toEqual({ from: '2026-12-01', to: '2026-12-31' });
    expect(periodRange('year', { year: 2026, month: 5, day: 5 })).toEqual({ from: '2026-01-01', to: '2026-12-31' });
    expect(periodRange('day', { year: 2026, month: 5, day: 5 })).toEqual({ from: '2026-05-05', to: '2026-05-05' });
  });
});
