import { describe, expect, it } from 'vitest';
import { Location } from '@hebcal/core';
import { halachicTimeAt, halachicMinutes } from './calendar.js';
import { HalachicTime } from './enums.js';
import {
  ANTWERP,
  BUILT_IN_CITIES,
  builtInCity,
  cityLocation,
  ClubLocationInput,
  JERUSALEM,
  normalizeLocation,
  resolveLocation,
} from './locations.js';

describe('built-in cities', () => {
  it('are hebcal’s 65 classic cities, exactly as Location.lookup has them, plus Antwerp', () => {
    expect(BUILT_IN_CITIES).toHaveLength(66);
    for (const c of BUILT_IN_CITIES.filter((x) => x.id !== 'Antwerp')) {
      const h = Location.lookup(c.id)!;
      expect(h, c.id).toBeDefined();
      expect([c.latitude, c.longitude, c.elevation, c.timeZone, c.il, c.countryCode]).toEqual([
        h.getLatitude(),
        h.getLongitude(),
        h.getElevation(),
        h.getTzid(),
        h.getIsrael(),
        h.getCountryCode(),
      ]);
      expect(c.nameHe, c.id).toMatch(/[\u05d0-\u05ea]/);
    }
    expect(builtInCity('antwerp')).toBe(ANTWERP);
    expect(Location.lookup('Antwerp')).toBeUndefined(); // ours, not hebcal's
  });

  it('default to Jerusalem', () => {
    expect(JERUSALEM).toMatchObject({ city: 'Jerusalem', latitude: 31.76904, timeZone: 'Asia/Jerusalem', il: true });
    expect(normalizeLocation(null)).toEqual(JERUSALEM);
  });
});

describe('ClubLocationInput (seed 001 §5)', () => {
  const base = { name: 'Here', latitude: 40, longitude: -74, timeZone: 'America/New_York' };
  const issues = (v: unknown) =>
    ClubLocationInput.safeParse(v).error?.issues.map((i) => [i.path.join('.'), i.message]) ?? [];

  it('accepts a city or a custom location at the limits', () => {
    expect(issues({ city: 'London' })).toEqual([]);
    expect(issues({ ...base, latitude: -90, longitude: 180, elevation: 0 })).toEqual([]);
    expect(issues({ ...base, latitude: 90, longitude: -180 })).toEqual([]);
  });

  it.each([
    [{ ...base, latitude: 90.0001 }, 'latitude', 'latitudeRange'],
    [{ ...base, longitude: -180.5 }, 'longitude', 'longitudeRange'],
    [{ ...base, elevation: -0.5 }, 'elevation', 'elevationMin'],
    [{ ...base, latitude: 'north' }, 'latitude', 'notANumber'],
    [{ ...base, timeZone: 'Nowhere/City' }, 'timeZone', 'invalidTimeZone'],
    [{ city: 'Gotham' }, 'city', 'unknownCity'],
    [{ city: 'Paris', timeZone: 'UTC' }, 'timeZone', 'notWithCity'],
    [{ latitude: 1, longitude: 1, timeZone: 'UTC' }, 'name', 'required'],
  ])('refuses %j: %s %s', (v, path, message) => {
    expect(issues(v)).toContainEqual([path, message]);
  });

  it('resolves a city from the table and a custom location with its defaults', () => {
    expect(resolveLocation({ city: 'new york' })).toEqual(cityLocation(builtInCity('New York')!));
    expect(resolveLocation({ ...base, countryCode: 'us' })).toEqual({
      ...base,
      city: null,
      countryCode: 'US',
      elevation: 0,
      il: false,
      geoId: null,
      candleLightingMins: null,
    });
  });

  it('reads a location stored before city, country code and geo id existed', () => {
    const legacy = {
      name: 'Jerusalem',
      latitude: 31.76904,
      longitude: 35.21633,
      elevation: 786,
      timeZone: 'Asia/Jerusalem',
      il: true,
    };
    expect(normalizeLocation(legacy)).toEqual(JERUSALEM);
    expect(normalizeLocation({ ...legacy, latitude: 31.7 })).toMatchObject({ city: null, countryCode: '' });
  });
});

/**
 * Second source for the sun times: the sunrise/sunset algorithm of the US
 * Naval Observatory's "Almanac for Computers" (Nautical Almanac Office,
 * USNO, Washington DC, 1990; zenith 90°50′, stated accuracy about one
 * minute) — an implementation independent of hebcal's NOAA (Meeus) code.
 * The references below were computed with it for hebcal's New York
 * (40.71427 N, 74.00597 W) and are kept as fixed values; the function is
 * here so anyone can recompute them.
 */
function usnoSunsetUtc(y: number, m: number, d: number, lat: number, lng: number): Date {
  const rad = Math.PI / 180;
  const n =
    Math.floor((275 * m) / 9) -
    Math.floor((m + 9) / 12) * (1 + Math.floor((y - 4 * Math.floor(y / 4) + 2) / 3)) +
    d -
    30;
  const lngHour = lng / 15;
  const t = n + (18 - lngHour) / 24;
  const meanAnomaly = 0.9856 * t - 3.289;
  const L =
    (((meanAnomaly + 1.916 * Math.sin(meanAnomaly * rad) + 0.02 * Math.sin(2 * meanAnomaly * rad) + 282.634) % 360) +
      360) %
    360;
  let ra = (((Math.atan(0.91764 * Math.tan(L * rad)) / rad) % 360) + 360) % 360;
  ra = (ra + Math.floor(L / 90) * 90 - Math.floor(ra / 90) * 90) / 15;
  const sinDec = 0.39782 * Math.sin(L * rad);
  const cosDec = Math.cos(Math.asin(sinDec));
  const cosH = (Math.cos(90.8333 * rad) - sinDec * Math.sin(lat * rad)) / (cosDec * Math.cos(lat * rad));
  const T = Math.acos(cosH) / rad / 15 + ra - 0.06571 * t - 6.622;
  const ut = (((T - lngHour) % 24) + 24) % 24;
  // West of Greenwich an evening sunset can fall after 00:00 UT: that is the next UTC day.
  return new Date(Date.UTC(y, m - 1, d + (ut < 12 ? 1 : 0)) + ut * 3_600_000);
}

describe('New York’s sunset against the USNO almanac algorithm', () => {
  const NY = cityLocation(builtInCity('New York')!);
  // [local date, USNO sunset UTC, the same as local time in New York]
  const REFERENCES: [string, string, string][] = [
    ['2026-01-15', '2026-01-15T21:53:15Z', '16:53 EST'],
    ['2026-03-20', '2026-03-20T23:07:56Z', '19:07 EDT'],
    ['2026-06-21', '2026-06-22T00:30:38Z', '20:30 EDT'],
    ['2026-09-06', '2026-09-06T23:20:31Z', '19:20 EDT'],
    ['2026-12-21', '2026-12-21T21:31:44Z', '16:31 EST'],
  ];

  it.each(REFERENCES)('%s: hebcal within one minute of %s (%s)', (date, reference) => {
    const [y, m, d] = date.split('-').map(Number);
    const ours = halachicTimeAt(HalachicTime.Sunset, { year: y, month: m, day: d }, NY)!;
    expect(Math.abs(ours.getTime() - new Date(reference).getTime())).toBeLessThan(60_000);
    // The fixed value is what the algorithm gives (to the second).
    expect(
      Math.abs(usnoSunsetUtc(y, m, d, NY.latitude, NY.longitude).getTime() - new Date(reference).getTime()),
    ).toBeLessThan(1000);
  });

  it('in the club’s own time zone: 19:19 on 6 September 2026 (hebcal’s sunset 19:19:57, a deadline, rounded down), not Jerusalem’s', () => {
    const d = { year: 2026, month: 9, day: 6 };
    expect(halachicMinutes(HalachicTime.Sunset, d, NY)).toBe(19 * 60 + 19);
    expect(halachicMinutes(HalachicTime.Sunset, d, JERUSALEM)).not.toBe(19 * 60 + 19);
  });
});
