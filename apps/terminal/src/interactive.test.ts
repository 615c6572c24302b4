import { describe, expect, it } from 'vitest';
import { cashLine, decisionLine, shekelsToAgorot, typedIdentification } from './interactive.js';

/** The interactive simulator's display lines and typed input (no server). */

describe('interactive display', () => {
  it('shows a decision: welcome or refused, reason, offline, and the amount to pay at the gate', () => {
    const base = { type: 'decision' as const, eventId: 'e', gateOpenSeconds: 0, message: 'EntryBySubscription' };
    expect(decisionLine({ ...base, status: 1, reason: 0, clientName: 'Dana' })).toBe(
      'WELCOME Dana — EntryBySubscription (status 1, reason 0)',
    );
    expect(decisionLine({ ...base, status: 3, reason: 25, message: 'OfflineCannotDecide', offline: true })).toBe(
      'REFUSED  — OfflineCannotDecide (status 3, reason 25) [decided offline]',
    );
    expect(decisionLine({ ...base, status: 2, reason: 7, paymentRequired: { amount: 3550 } })).toContain(
      '— pay 35.50 ₪: buy <kind> <value> entrance',
    );
  });

  it('shows a cash session in shekels', () => {
    const s = { type: 'cash-state' as const, sessionId: 's', inserted: 5000, credited: 3000, unpaid: 0, excess: 0 };
    expect(
      cashLine({ ...s, state: 'startPayout', due: 3000, change: { coins: {}, bills: { '2000': 1 }, amount: 2000 } }),
    ).toBe('cash startPayout: inserted 50.00 ₪, due 30.00 ₪, change 20.00 ₪');
    expect(cashLine({ ...s, state: 'closed', due: null, unpaid: 50, error: 'COIN_CHANGE_ERROR' })).toBe(
      'cash closed: inserted 50.00 ₪, unpaid 0.50 ₪  COIN_CHANGE_ERROR',
    );
  });
});

describe('interactive input', () => {
  it('reads shekels as agorot', () => {
    expect(shekelsToAgorot('0.5')).toBe(50);
    expect(shekelsToAgorot('20')).toBe(2000);
    expect(shekelsToAgorot('1.234')).toBeNull();
    expect(shekelsToAgorot('x')).toBeNull();
  });

  it('reads an identification, finger for fingerprint', () => {
    expect(typedIdentification('finger', 'T1')).toEqual({ kind: 'fingerprint', value: 'T1' });
    expect(typedIdentification('code', '12')).toEqual({ kind: 'code', value: '12' });
    expect(typedIdentification('palm', '1')).toBeNull();
    expect(typedIdentification('card', undefined)).toBeNull();
  });
});
