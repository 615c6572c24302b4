import { describe, expect, it } from 'vitest';
import { hhmm, nextStep, previousStep, refundsNow } from './rules';

describe('the attendant’s steps (docs/appointments.md "The console")', () => {
  it('moves one step forward and back; done and offers have no next step', () => {
    expect(nextStep('booked')).toBe('checkedIn');
    expect(nextStep('checkedIn')).toBe('preparing');
    expect(nextStep('preparing')).toBe('immersed');
    expect(nextStep('immersed')).toBe('done');
    expect(nextStep('done')).toBeNull();
    expect(nextStep('noShow')).toBeNull();
    expect(nextStep('offered')).toBeNull();
    expect(previousStep('done')).toBe('immersed');
    expect(previousStep('checkedIn')).toBe('booked');
    expect(previousStep('noShow')).toBe('booked');
    expect(previousStep('booked')).toBeNull();
    expect(previousStep('offered')).toBeNull();
  });
});

describe('the refund the cancel dialog announces', () => {
  const now = Date.parse('2031-03-07T15:00:00Z');
  it('refunds a fee at least the cutoff before the start, keeps it after, says nothing without a fee', () => {
    expect(refundsNow({ fee: 2500, startsAt: '2031-03-07T17:00:00Z' }, 120, now)).toBe(true);
    expect(refundsNow({ fee: 2500, startsAt: '2031-03-07T16:59:00Z' }, 120, now)).toBe(false);
    expect(refundsNow({ fee: 0, startsAt: '2031-03-08T17:00:00Z' }, 120, now)).toBe(false);
  });
});

describe('hhmm', () => {
  it('writes minutes of the day, after midnight too', () => {
    expect(hhmm(17 * 60 + 5)).toBe('17:05');
    expect(hhmm(1440 + 30)).toBe('00:30');
    expect(hhmm(0)).toBe('00:00');
  });
});
