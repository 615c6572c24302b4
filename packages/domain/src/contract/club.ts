import { z } from 'zod';
import { BuiltInCitySchema, CitiesQuery, Cities, ClubPatch, Capacity, Club } from '../schemas/club.js';
import { IdParams, routes } from './route.js';

/** The signed-in club (seed 000 §7 "Club"). */
export const club = routes(['club'], {
  current: { method: 'GET', path: '/api/Club/GetCurrent', response: Club, access: {} },
  capacities: { method: 'GET', path: '/api/Club/GetCapacities', response: z.array(Capacity), access: {} },
  update: {
    method: 'PATCH',
    path: '/api/Club/:id',
    params: IdParams,
    body: ClubPatch,
    response: Club,
    access: { permission: 'roleEditGeneralSettings' },
  },
});

/** Reference data for forms (seed 000 §3 "a list of cities per country"); any signed-in user. */
export const reference = routes(['reference'], {
  /** The country's cities, sorted in its language. */
  cities: { method: 'GET', path: '/api/Reference/Cities', query: CitiesQuery, response: Cities, access: {} },
  /** The built-in cities a club's location is chosen from (docs/calendar.md), English alphabetical order. */
  locations: { method: 'GET', path: '/api/Reference/Locations', response: z.array(BuiltInCitySchema), access: {} },
});
