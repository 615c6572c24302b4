import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';

/**
 * Israeli personal ID (teudat zehut) check digit (DOMAIN-FACTS, "Identity"):
 * left-pad to 9 digits, multiply alternately by 1 and 2 from the left, subtract
 * 9 from products above 9; valid when the sum divides by 10.
 * Accepts 5–9 digits; anything else is invalid.
 */
export function isValidIsraeliId(value: string): boolean {
  const digits = value.trim();
  if (!/^\d{5,9}$/.test(digits)) return false;
  const padded = digits.padStart(9, '0');
  let sum = 0;
  for (let i = 0; i < 9; i++) {
    let n = Number(padded[i]) * ((i % 2) + 1);
    if (n > 9) n -= 9;
    sum += n;
  }
  return sum % 10 === 0;
}

/** Completes an 8-digit ID body with its check digit (used by test-data builders). */
export function withIsraeliIdCheckDigit(body8: string): string {
  const padded = body8.padStart(8, '0');
  for (let d = 0; d <= 9; d++) {
    if (isValidIsraeliId(padded + d)) return padded + d;
  }
  throw new Error('unreachable');
}

/**
 * Validates and normalises a phone number with libphonenumber-js.
 * Returns the E.164 form, or null when the number is not valid for `country`.
 */
export function normalizePhone(value: string, country: CountryCode = 'IL'): string | null {
  const p = parsePhoneNumberFromString(value, country);
  return p && p.isValid() ? p.number : null;
}

/** National display form of a stored E.164 phone (e.g. 050-123-4567). */
export function formatPhone(e164: string): string {
  const p = parsePhoneNumberFromString(e164);
  return p ? p.formatNational() : e164;
}
