/**
 * Money helpers. All amounts are integers in minor units (agorot, cents):
 * the seed's "scale factor 100" (seed 000 §9). Prices include VAT (seed 001 §1).
 */

/**
 * VAT in basis points (1800 = 18%) for a country on the date of the tax event
 * (DOMAIN-FACTS "Money and tax"): Israel 18% from 1 January 2025 Israel time
 * (17% before), UK 20%, Belgium 21%, Hungary 27%; the USA has no VAT and its
 * sales tax varies by state: `usSalesTaxBp` (default 0). Other countries 0.
 */
export function vatRateBasisPoints(country: string, date: Date, usSalesTaxBp = 0): number {
  switch (country) {
    case 'Israel':
      return date.getTime() >= Date.UTC(2024, 11, 31, 22) ? 1800 : 1700;
    case 'UK':
      return 2000;
    case 'Belgium':
      return 2100;
    case 'Hungary':
      return 2700;
    case 'USA':
      return usSalesTaxBp;
    default:
      return 0;
  }
}

/**
 * Splits a VAT-inclusive total (minor units) into net and VAT, rounding VAT to
 * the nearest minor unit so that net + vat === total exactly.
 */
export function splitVat(totalMinor: number, rateBasisPoints: number): { net: number; vat: number } {
  if (!Number.isInteger(totalMinor)) throw new RangeError('amount must be an integer of minor units');
  const net = Math.round((totalMinor * 10000) / (10000 + rateBasisPoints));
  return { net, vat: totalMinor - net };
}

/**
 * Shekels (or another major unit) → integer agorot (minor units): ×100, rounded
 * half away from zero (1.005 → 101, −0.005 → −1, never −0). The product is read
 * at 15 significant digits first, so a decimal typed with binary-fraction noise
 * (1.005 is 1.00499999…) rounds as written. NaN and ±Infinity come back as they
 * are (the request's schema refuses them).
 *
 * @param shekels an amount in major units, e.g. 12.5
 * @returns the amount in agorot, an integer, e.g. 1250
 */
export function toMinor(shekels: number): number {
  const scaled = Math.abs(shekels) * 100;
  const minor = Math.round(scaled < 1e15 ? Number(scaled.toPrecision(15)) : scaled);
  return shekels < 0 && minor !== 0 ? -minor : minor;
}

/**
 * Agorot (minor units) → shekels (major units): ÷100, e.g. 1250 → 12.5, for an
 * input or a chart that takes major units; text goes through {@link formatMinor}.
 *
 * @param agorot an amount in minor units (an integer from the API)
 * @returns the amount in major units
 */
export function fromMinor(agorot: number): number {
  return agorot / 100;
}

/** Formats minor units for display, e.g. 12345 → "123.45" (symbol added by the caller's locale). */
export function formatMinor(amountMinor: number, locale = 'he-IL'): string {
  return (amountMinor / 100).toLocaleString(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

/** Parses a decimal string typed by a user ("12.5") to minor units (1250); null when invalid. */
export function parseToMinor(text: string): number | null {
  const t = text.trim().replace(',', '.');
  if (!/^-?\d+(\.\d{1,2})?$/.test(t)) return null;
  const [whole, frac = ''] = t.replace('-', '').split('.');
  const v = Number(whole) * 100 + Number(frac.padEnd(2, '0'));
  return t.startsWith('-') ? -v : v;
}
