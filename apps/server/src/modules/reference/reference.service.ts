import { CITIES, type CitiesQuery } from '@venue/domain';
import type { z } from 'zod';

/** The cities of a country (seed 000 §3), sorted in its language: Hebrew collation for Israel, English otherwise. */
export function citiesOf(country: z.infer<typeof CitiesQuery>['country']): string[] {
  return [...CITIES[country]].sort((a, b) => a.localeCompare(b, country === 'Israel' ? 'he' : 'en'));
}
