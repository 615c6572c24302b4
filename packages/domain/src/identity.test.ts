import { describe, expect, it } from 'vitest';
import {
  dealerIdentityGaps,
  formatPhone,
  isValidIsraeliDealerNumber,
  isValidIsraeliId,
  normalizePhone,
  withIsraeliIdCheckDigit,
} from './identity.js';

describe('Israeli personal ID check digit (DOMAIN-FACTS "Identity")', () => {
  it('accepts known valid IDs, including short ones left-padded to 9 digits', () => {
    for (const id of ['000000018', '123456782', '039337423']) {
      expect(isValidIsraeliId(id)).toBe(true);
    }
    expect(isValidIsraeliId('00018')).toBe(true);
  });
  it('refuses a wrong check digit, letters, and lengths outside 5–9', () => {
    expect(isValidIsraeliId('123456789')).toBe(false);
    expect(isValidIsraeliId('12345678a')).toBe(false);
    expect(isValidIsraeliId('1234')).toBe(false);
    expect(isValidIsraeliId('1234567890')).toBe(false);
  });
  it('completes a body with the only digit that makes it valid', () => {
    for (const body of ['12345678', '03933742', '00000001']) {
      const id = withIsraeliIdCheckDigit(body);
      expect(isValidIsraeliId(id)).toBe(true);
      const wrong = id.slice(0, 8) + ((Number(id[8]) + 1) % 10);
      expect(isValidIsraeliId(wrong)).toBe(false);
    }
  });
});

describe('phone numbers (libphonenumber-js)', () => {
  it('normalises Israeli mobile and landline numbers to E.164', () => {
    expect(normalizePhone('050-123-4567')).toBe('+972501234567');
    expect(normalizePhone('02-6234567')).toBe('+97226234567');
    expect(normalizePhone('+972 54 765 4321')).toBe('+972547654321');
  });
  it('refuses numbers that are not valid', () => {
    expect(normalizePhone('123')).toBeNull();
    expect(normalizePhone('050-12')).toBeNull();
  });
  it('formats for display', () => {
    expect(formatPhone('+972501234567')).toBe('050-123-4567');
  });
});

describe("the dealer's identity on tax documents", () => {
  it('checks an Israeli dealer or company number: nine digits with the ID check digit, hyphens ignored', () => {
    expect(isValidIsraeliDealerNumber('514123454')).toBe(true);
    expect(isValidIsraeliDealerNumber('51-412345-4')).toBe(true);
    expect(isValidIsraeliDealerNumber('123456782')).toBe(true);
    expect(isValidIsraeliDealerNumber('514123456')).toBe(false);
    expect(isValidIsraeliDealerNumber('12345674')).toBe(false); // a valid ID of eight digits, not nine
    expect(isValidIsraeliDealerNumber('')).toBe(false);
  });

  it('lists what an Israeli club lacks to issue tax documents; other countries need nothing', () => {
    const ok = { country: 'Israel', companyNumber: '514123454', addressCity: 'ירושלים', addressStreet: 'יפו' };
    expect(dealerIdentityGaps(ok)).toEqual([]);
    expect(dealerIdentityGaps({ ...ok, companyNumber: ' ', addressStreet: '' })).toEqual(['companyNumber', 'address']);
    expect(dealerIdentityGaps({ ...ok, companyNumber: '514123456' })).toEqual(['companyNumberInvalid']);
    expect(dealerIdentityGaps({ ...ok, addressCity: '' })).toEqual(['address']);
    expect(dealerIdentityGaps({ country: 'UK', companyNumber: '', addressCity: '', addressStreet: '' })).toEqual([]);
  });
});
