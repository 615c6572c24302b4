import { COUNTRIES } from './schemas/club.js';
import { builtInCity, cityLocation } from './locations.js';
import { KALA_CLUB_FROM, USA_CLUB_FROM } from './enums.js';
import type { ClubLocation } from './local-date.js';

/** A country of the club settings (seed 000 §3). */
export type Country = (typeof COUNTRIES)[number];

/**
 * What the country decides when a club is created (issue 14 §1;
 * docs/calendar.md "Defaults by country"): currency (ISO 4217 numeric, seed
 * 000 §3), the location (a built-in city: time zone and Israel flag follow)
 * — VAT follows the country itself (money.ts vatRateBasisPoints).
 */
export const COUNTRY_DEFAULTS: Record<Country, { currency: number; city: string }> = {
  Israel: { currency: 376, city: 'Jerusalem' },
  USA: { currency: 840, city: 'New York' },
  UK: { currency: 826, city: 'London' },
  Hungary: { currency: 348, city: 'Budapest' },
  Belgium: { currency: 978, city: 'Antwerp' },
};

/**
 * The defaults of a new club: the country given, else USA for the USA class
 * (externalClubId 4000–6999, seed 000 §1) and Israel otherwise; with it the
 * currency and the location of COUNTRY_DEFAULTS.
 */
export function clubDefaults(
  externalClubId: number,
  country?: Country,
): { country: Country; currency: number; location: Required<ClubLocation> } {
  const usa = externalClubId >= USA_CLUB_FROM && externalClubId < KALA_CLUB_FROM;
  const c: Country = country ?? (usa ? 'USA' : 'Israel');
  const d = COUNTRY_DEFAULTS[c];
  return { country: c, currency: d.currency, location: cityLocation(builtInCity(d.city)!) };
}
