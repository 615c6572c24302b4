import { describe, expect, it } from 'vitest';
import { HDate } from '@hebcal/core';
import { SubscriptionEndType as E } from './enums.js';
import {
  AutoRenewMethod as M,
  isRenewalDue,
  plusHebrewMonths,
  renewalQuote,
  subscriptionEnd,
  subscriptionStart,
  UNLIMITED_END,
} from './subscription.js';

const heb = (iso: string) => {
  const [y, m, d] = iso.split('-').map(Number);
  return new HDate(new Date(y, m - 1, d, 12)).toString();
};

describe('subscription end dates (seed 001 §4)', () => {
  it('Gregorian day to day: a month from Jan 15 ends Feb 14; from Jan 31 the month is clamped', () => {
    expect(subscriptionEnd('2025-01-15', { period: 'month', endType: E.GregorianDayToDay })).toBe('2025-02-14');
    expect(subscriptionEnd('2025-01-31', { period: 'month', endType: E.GregorianDayToDay })).toBe('2025-02-27');
    expect(subscriptionEnd('2024-01-31', { period: 'month', endType: E.GregorianDayToDay })).toBe('2024-02-28');
    expect(subscriptionEnd('2025-03-01', { period: 'year', endType: E.GregorianDayToDay })).toBe('2026-02-28');
    expect(subscriptionEnd('2025-03-01', { period: 'halfYear', endType: E.GregorianDayToDay })).toBe('2025-08-31');
    expect(subscriptionEnd('2025-03-01', { period: 'threeMonths', endType: E.GregorianDayToDay })).toBe('2025-05-31');
  });
  it('day and week run day to day whatever the end type', () => {
    expect(subscriptionEnd('2025-03-10', { period: 'day', endType: E.EndOfHebrewMonth })).toBe('2025-03-10');
    expect(subscriptionEnd('2025-03-10', { period: 'week', endType: E.EndOfGregorianMonth })).toBe('2025-03-16');
  });
  it('end of Gregorian month: the month of the start (plus months − 1)', () => {
    expect(subscriptionEnd('2025-02-10', { period: 'month', endType: E.EndOfGregorianMonth })).toBe('2025-02-28');
    expect(subscriptionEnd('2024-02-10', { period: 'month', endType: E.EndOfGregorianMonth })).toBe('2024-02-29');
    expect(subscriptionEnd('2025-11-10', { period: 'threeMonths', endType: E.EndOfGregorianMonth })).toBe('2026-01-31');
  });
  it('end of Hebrew month: 10 Nisan 5785 ends 29 Nisan; Adar I and Adar II of a leap year are two months', () => {
    // 10 Nisan 5785 = 2025-04-08; 29 Nisan 5785 = 2025-04-27
    expect(heb('2025-04-08')).toBe('10 Nisan 5785');
    const end = subscriptionEnd('2025-04-08', { period: 'month', endType: E.EndOfHebrewMonth });
    expect(heb(end)).toBe('30 Nisan 5785');
    // 5784 is a leap year: 5 Adar I 5784 = 2024-02-14
    expect(heb('2024-02-14')).toBe('5 Adar I 5784');
    expect(heb(subscriptionEnd('2024-02-14', { period: 'month', endType: E.EndOfHebrewMonth }))).toBe('30 Adar I 5784');
    expect(heb(subscriptionEnd('2024-02-14', { period: 'threeMonths', endType: E.EndOfHebrewMonth }))).toBe(
      '30 Nisan 5784',
    );
  });
  it('Hebrew day to day: 30 Adar I + 1 month clamps to 29 Adar II; 30 Cheshvan + 1 month in a year with 29-day Kislev', () => {
    // 30 Adar I 5784 = 2024-03-10
    expect(plusHebrewMonths('2024-03-10', 1)).toBe('2024-04-08');
    expect(heb('2024-04-08')).toBe('29 Adar II 5784');
    // 15 Shvat 5784 + 1 = 15 Adar I; + 2 = 15 Adar II
    const shvat15 = new HDate(15, 'Shvat', 5784).greg();
    const iso = `${shvat15.getFullYear()}-${String(shvat15.getMonth() + 1).padStart(2, '0')}-${String(shvat15.getDate()).padStart(2, '0')}`;
    expect(heb(plusHebrewMonths(iso, 1))).toBe('15 Adar I 5784');
    expect(heb(plusHebrewMonths(iso, 2))).toBe('15 Adar II 5784');
    // A month from 15 Shvat ends 14 Adar I
    expect(heb(subscriptionEnd(iso, { period: 'month', endType: E.HebrewDayToDay }))).toBe('14 Adar I 5784');
    // 5783: Kislev has 29 days? find a year where 30 Cheshvan exists and Kislev is short
    const y = [5780, 5781, 5782, 5783, 5784, 5785, 5786].find((yr) => HDate.longCheshvan(yr) && HDate.shortKislev(yr));
    if (y) {
      const c30 = new HDate(30, 'Cheshvan', y).greg();
      const ciso = `${c30.getFullYear()}-${String(c30.getMonth() + 1).padStart(2, '0')}-${String(c30.getDate()).padStart(2, '0')}`;
      expect(heb(plusHebrewMonths(ciso, 1))).toBe(`29 Kislev ${y}`);
    }
    // In a non-leap year 15 Shvat + 1 = 15 Adar
    const s = new HDate(15, 'Shvat', 5785).greg();
    const siso = `${s.getFullYear()}-${String(s.getMonth() + 1).padStart(2, '0')}-${String(s.getDate()).padStart(2, '0')}`;
    expect(heb(plusHebrewMonths(siso, 1))).toBe('15 Adar 5785');
    expect(heb(plusHebrewMonths(siso, 2))).toBe('15 Nisan 5785');
  });
  it('days to extend are added; unlimited is 2125-12-31', () => {
    expect(subscriptionEnd('2025-01-15', { period: 'month', endType: E.GregorianDayToDay, daysToExtend: 3 })).toBe(
      '2025-02-17',
    );
    expect(subscriptionEnd('2025-01-15', { period: 'month', endType: 4, unlimited: true })).toBe(UNLIMITED_END);
  });
  it('a renewal bought before the end continues the subscription', () => {
    expect(subscriptionStart('2025-05-10', '2025-05-20')).toBe('2025-05-21');
    expect(subscriptionStart('2025-05-10', '2025-05-01')).toBe('2025-05-10');
    expect(subscriptionStart('2025-05-10', null)).toBe('2025-05-10');
    expect(subscriptionStart('2025-05-10', UNLIMITED_END)).toBe('2025-05-10');
  });
});

describe('automatic renewal quote (seed 001 §4)', () => {
  const rule = (method: M, extra = {}) => ({ method, ...extra }) as Parameters<typeof renewalQuote>[4];
  it('from next month: the whole next month at full price', () => {
    expect(renewalQuote('2025-05-10', '2025-05-09', 30000, E.EndOfGregorianMonth, rule(M.FromNextMonth))).toEqual({
      start: '2025-06-01',
      end: '2025-06-30',
      price: 30000,
      method: M.FromNextMonth,
      proratedDays: 0,
    });
    // A subscription ending on the last day renews the next month whole
    expect(renewalQuote('2025-05-28', '2025-05-31', 30000, E.EndOfGregorianMonth, rule(M.FromNextMonth)).start).toBe(
      '2025-06-01',
    );
  });
  it('remainder prorated: 22 of 31 days of May', () => {
    const q = renewalQuote('2025-05-10', '2025-05-09', 31000, E.EndOfGregorianMonth, rule(M.RemainderProrated));
    expect(q).toMatchObject({ start: '2025-05-10', end: '2025-05-31', price: 22000, proratedDays: 22 });
  });
  it('remainder and next month prorated', () => {
    const q = renewalQuote('2025-05-10', '2025-05-09', 31000, E.EndOfGregorianMonth, rule(M.RemainderAndNextProrated));
    expect(q).toMatchObject({ start: '2025-05-10', end: '2025-06-30', price: 53000 });
  });
  it('Hebrew months: the remainder of a 29-day month', () => {
    // 20 Iyar 5785 = 2025-05-18; Iyar has 29 days → 10 days left
    expect(heb('2025-05-18')).toBe('20 Iyyar 5785');
    const q = renewalQuote('2025-05-18', null, 29000, E.EndOfHebrewMonth, rule(M.RemainderProrated));
    expect(q.price).toBe(10000);
    expect(heb(q.end)).toBe('29 Iyyar 5785');
  });
  it('last-day-of-month rule: on or after the day the treatment decides', () => {
    const a = renewalQuote('2025-05-26', null, 31000, 2, rule(M.RemainderProrated, { lastDayOfMonth: 25 }));
    expect(a).toMatchObject({ start: '2025-06-01', end: '2025-06-30', price: 31000, method: M.FromNextMonth });
    const b = renewalQuote(
      '2025-05-26',
      null,
      31000,
      2,
      rule(M.FromNextMonth, { lastDayOfMonth: 25, lastDayTreatment: 'remainderAndNext' }),
    );
    expect(b).toMatchObject({ start: '2025-05-26', end: '2025-06-30', price: 6000 + 31000 });
    const c = renewalQuote('2025-05-24', null, 31000, 2, rule(M.RemainderProrated, { lastDayOfMonth: 25 }));
    expect(c.method).toBe(M.RemainderProrated);
  });
  it('a remainder due again at once (its end within daysBefore of today) is sold with the next month', () => {
    // 29–31 May: 3 days left; with 3 days' notice the client would be due again today.
    const a = renewalQuote('2025-05-29', '2025-05-28', 31000, 2, rule(M.RemainderProrated), 3);
    expect(a).toMatchObject({ start: '2025-05-29', end: '2025-06-30', price: 3000 + 31000, proratedDays: 3 });
    expect(a.method).toBe(M.RemainderAndNextProrated);
    expect(isRenewalDue('2025-05-29', a.end, 3, 0)).toBe(false);
    // With 1 day's notice the remainder alone is not due again today.
    const b = renewalQuote('2025-05-29', '2025-05-28', 31000, 2, rule(M.RemainderProrated), 1);
    expect(b).toMatchObject({ end: '2025-05-31', price: 3000, method: M.RemainderProrated });
  });
  it('due from N days before to M days after the end', () => {
    expect(isRenewalDue('2025-05-08', '2025-05-10', 2, 3)).toBe(true);
    expect(isRenewalDue('2025-05-07', '2025-05-10', 2, 3)).toBe(false);
    expect(isRenewalDue('2025-05-13', '2025-05-10', 2, 3)).toBe(true);
    expect(isRenewalDue('2025-05-14', '2025-05-10', 2, 3)).toBe(false);
    expect(isRenewalDue('2025-05-14', null, 2, 3)).toBe(false);
    expect(isRenewalDue('2125-12-30', UNLIMITED_END, 2, 3)).toBe(false);
  });
});
