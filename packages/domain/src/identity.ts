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

/**
 * An Israeli dealer's number as printed on a tax invoice (מספר עוסק, or a
 * company's ח.פ.): nine digits with the teudat-zehut check digit
 * (DOMAIN-FACTS "Identity"; a company number 51xxxxxxx follows the same
 * rule, and an individual dealer's number is the owner's ID). Hyphens and
 * spaces between the digits are ignored (51-234567-9).
 */
export function isValidIsraeliDealerNumber(value: string): boolean {
  const digits = value.replace(/[\s-]/g, '');
  return /^\d{9}$/.test(digits) && isValidIsraeliId(digits);
}

/** What the club lacks to issue a tax document: its dealer number unset, set but failing the check digit, or its address. */
export type DealerIdentityGap = 'companyNumber' | 'companyNumberInvalid' | 'address';

/** The club settings a tax document prints as the dealer's identity (ClubSettings fields). */
export interface DealerSettings {
  country: string;
  companyNumber: string;
  addressCity: string;
  addressStreet: string;
}

/**
 * What keeps a club from issuing tax documents (docs/money.md "The dealer's
 * identity on tax documents"): the Income Tax bookkeeping instructions
 * (הוראות מס הכנסה (ניהול פנקסי חשבונות), התשל״ג-1973) and the VAT law
 * (§47) require the dealer's name, address and dealer number on every tax
 * invoice, tax invoice-receipt and credit invoice. Applies to clubs whose
 * country is Israel (the only ones that issue tax documents, kinds 320 and
 * 330): the number must be set and pass the check digit, and the address
 * needs a city and a street. Other countries issue receipts: empty.
 * @returns the gaps in this order (empty: the club may issue tax documents)
 */
export function dealerIdentityGaps(s: DealerSettings): DealerIdentityGap[] {
  if (s.country !== 'Israel') return [];
  const gaps: DealerIdentityGap[] = [];
  if (s.companyNumber.trim() === '') gaps.push('companyNumber');
  else if (!isValidIsraeliDealerNumber(s.companyNumber)) gaps.push('companyNumberInvalid');
  if (s.addressCity.trim() === '' || s.addressStreet.trim() === '') gaps.push('address');
  return gaps;
}
