import { z } from 'zod';
import hebcalCities from '@hebcal/core/dist/esm/cities.json';
import type { ClubLocation } from './local-date.js';
import { text } from './parts.js';
import { keyOr } from './zod-keys.js';

/**
 * The club's location (seed 001 §9 "Location"; docs/calendar.md): the
 * built-in cities a club picks from, the custom-location input and its
 * validation (seed 001 §5 "Calendar feature"), and the default city.
 *
 * The cities are `@hebcal/core`'s own table of "classic" cities (65: US,
 * Israel, Europe, Latin America, Australia and others; the table behind
 * `Location.lookup`), read from the package at build time — never retyped —
 * plus the one custom location the seed names, Antwerp. hebcal has no Hebrew
 * city names; the Hebrew names below are ours.
 */

/** A city of the built-in list, as the console shows it and the server stores it. */
export interface BuiltInCity {
  /** Stable key: hebcal's city name (`Location.lookup(id)` finds it), or 'Antwerp'. */
  id: string;
  /** English name (hebcal's). */
  nameEn: string;
  nameHe: string;
  /** ISO 3166-1 alpha-2, e.g. 'IL', 'US', 'BE'. */
  countryCode: string;
  /** Degrees, north positive. */
  latitude: number;
  /** Degrees, east positive. */
  longitude: number;
  /** Metres above sea level. */
  elevation: number;
  /** IANA time zone id. */
  timeZone: string;
  /** Israel holiday and Torah-reading schedule (hebcal: country code IL). */
  il: boolean;
}

/** Hebrew names of hebcal's classic cities (hebcal gives none). */
const HEBREW_NAMES: Record<string, string> = {
  Ashdod: 'אשדוד',
  Atlanta: 'אטלנטה',
  Austin: 'אוסטין',
  Baghdad: 'בגדד',
  'Beer Sheva': 'באר שבע',
  Berlin: 'ברלין',
  Baltimore: 'בולטימור',
  Bogota: 'בוגוטה',
  Boston: 'בוסטון',
  Budapest: 'בודפשט',
  'Buenos Aires': 'בואנוס איירס',
  Buffalo: 'באפלו',
  Chicago: 'שיקגו',
  Cincinnati: 'סינסינטי',
  Cleveland: 'קליבלנד',
  Dallas: 'דאלאס',
  Denver: 'דנוור',
  Detroit: 'דטרויט',
  Eilat: 'אילת',
  Gibraltar: 'גיברלטר',
  Haifa: 'חיפה',
  Hawaii: 'הוואי',
  Helsinki: 'הלסינקי',
  Houston: 'יוסטון',
  Jerusalem: 'ירושלים',
  Johannesburg: 'יוהנסבורג',
  Kiev: 'קייב',
  'La Paz': 'לה פס',
  Livingston: 'ליווינגסטון',
  'Las Vegas': 'לאס וגאס',
  London: 'לונדון',
  'Los Angeles': "לוס אנג'לס",
  Marseilles: 'מרסיי',
  Miami: 'מיאמי',
  Minneapolis: 'מיניאפוליס',
  Melbourne: 'מלבורן',
  'Mexico City': 'מקסיקו סיטי',
  Montreal: 'מונטריאול',
  Moscow: 'מוסקבה',
  'New York': 'ניו יורק',
  Omaha: 'אומהה',
  Ottawa: 'אוטווה',
  'Panama City': 'פנמה סיטי',
  Paris: 'פריז',
  Pawtucket: 'פוטאקט',
  'Petach Tikvah': 'פתח תקווה',
  Philadelphia: 'פילדלפיה',
  Phoenix: 'פיניקס',
  Pittsburgh: 'פיטסבורג',
  Providence: 'פרובידנס',
  Portland: 'פורטלנד',
  'Saint Louis': 'סנט לואיס',
  'Saint Petersburg': 'סנקט פטרבורג',
  'San Diego': 'סן דייגו',
  'San Francisco': 'סן פרנסיסקו',
  'Sao Paulo': 'סאו פאולו',
  Seattle: 'סיאטל',
  Sydney: 'סידני',
  'Tel Aviv': 'תל אביב',
  Tiberias: 'טבריה',
  Toronto: 'טורונטו',
  Vancouver: 'ונקובר',
  'White Plains': 'וייט פליינס',
  'Washington DC': 'וושינגטון',
  Worcester: 'ווסטר',
};

/**
 * The custom Antwerp location of seed 001 §9 ("A custom location for Antwerp
 * is added to the calculation"). Coordinates 51°13′10″N 4°24′09″E =
 * 51.2194, 4.4025 (Wikipedia, "Antwerp", infobox); elevation 0 m (the city
 * lies at about sea level on the Scheldt; zmanim are computed at sea level
 * anyway, DOMAIN-FACTS "Jewish calendar"); zone Europe/Brussels; diaspora.
 */
export const ANTWERP: BuiltInCity = {
  id: 'Antwerp',
  nameEn: 'Antwerp',
  nameHe: 'אנטוורפן',
  countryCode: 'BE',
  latitude: 51.2194,
  longitude: 4.4025,
  elevation: 0,
  timeZone: 'Europe/Brussels',
  il: false,
};

/** hebcal's row format: `name|country code|latitude|longitude|tzid|elevation` (dist/esm/cities.json). */
function fromHebcal(row: string): BuiltInCity {
  const [name, cc, lat, lng, tzid, elev] = row.split('|');
  return {
    id: name,
    nameEn: name,
    nameHe: HEBREW_NAMES[name] ?? name,
    countryCode: cc,
    latitude: Number(lat),
    longitude: Number(lng),
    elevation: Number(elev),
    timeZone: tzid,
    il: cc === 'IL',
  };
}

/** Every built-in city: hebcal's 65 classic cities and Antwerp, in English alphabetical order. */
export const BUILT_IN_CITIES: readonly BuiltInCity[] = [...(hebcalCities as string[]).map(fromHebcal), ANTWERP].sort(
  (a, b) => a.nameEn.localeCompare(b.nameEn, 'en'),
);

const byId = new Map(BUILT_IN_CITIES.map((c) => [c.id.toLowerCase(), c]));

/** The built-in city of an id (case-insensitive), or undefined. */
export function builtInCity(id: string): BuiltInCity | undefined {
  return byId.get(id.toLowerCase());
}

/** A location's name in the interface language: a built-in city's Hebrew or English name, else the name as stored. */
export function locationDisplayName(name: string, lang: 'he' | 'en'): string {
  const c = builtInCity(name);
  return c ? (lang === 'he' ? c.nameHe : c.nameEn) : name;
}

/** The stored location of a built-in city. */
export function cityLocation(city: BuiltInCity): Required<ClubLocation> {
  return {
    city: city.id,
    name: city.nameEn,
    countryCode: city.countryCode,
    latitude: city.latitude,
    longitude: city.longitude,
    elevation: city.elevation,
    timeZone: city.timeZone,
    il: city.il,
    geoId: null,
    candleLightingMins: null,
  };
}

/** The default city when a club has chosen none (seed 001 §9 leaves it unnamed; docs/calendar.md). */
export const DEFAULT_CITY_ID = 'Jerusalem';

/** The default location: Jerusalem from hebcal's table (31.76904 N, 35.21633 E, 786 m, Asia/Jerusalem, Israel). */
export const JERUSALEM: Required<ClubLocation> = cityLocation(builtInCity(DEFAULT_CITY_ID)!);

/**
 * Whether a string is an IANA time-zone id the runtime knows (Intl). The
 * server also asks the database, whose reports convert in the same zone.
 */
export function isTimeZone(tz: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(tz)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

const coordinate = (limit: number, key: string) =>
  z.number(keyOr('notANumber')).min(-limit, { message: key }).max(limit, { message: key });

/**
 * The location a club sets (PATCH /api/Club/{id} `location`): either a
 * built-in city — `{ city: "New York" }`, nothing else — or a custom
 * location with name, latitude, longitude, time zone and optionally
 * elevation (default 0), Israel flag (default false), country code and geo
 * id. Rules of seed 001 §5: latitude −90..90 (`latitudeRange`), longitude
 * −180..180 (`longitudeRange`), elevation ≥ 0 (`elevationMin`; at most
 * 9000 m, `outOfRange`), a non-number is `notANumber`, the time zone an IANA
 * id (`invalidTimeZone`), an unknown city `unknownCity`, a custom field
 * beside a city `notWithCity`, a missing custom field `required`. Beside
 * either, the club's candle-lighting minutes (`candleLightingMins`, 0–90,
 * `outOfRange`; null or absent: the place's custom, docs/calendar.md).
 */
export const ClubLocationInput = z
  .strictObject({
    city: z.string().max(60, { message: 'unknownCity' }).nullable().optional(),
    name: text(100).trim().optional(),
    countryCode: z
      .string()
      .regex(/^[A-Za-z]{2}$/, { message: 'invalidCountryCode' })
      .or(z.literal(''))
      .optional(),
    latitude: coordinate(90, 'latitudeRange').optional(),
    longitude: coordinate(180, 'longitudeRange').optional(),
    elevation: z
      .number(keyOr('notANumber'))
      .min(0, { message: 'elevationMin' })
      .max(9000, { message: 'outOfRange' })
      .optional(),
    timeZone: z
      .string()
      .max(64, { message: 'invalidTimeZone' })
      .refine(isTimeZone, { message: 'invalidTimeZone' })
      .optional(),
    il: z.boolean().optional(),
    geoId: text(40).trim().nullable().optional(),
    /** The club's candle-lighting minutes before sunset, 0–90 whole minutes; null: the place's custom. */
    candleLightingMins: z
      .number(keyOr('notANumber'))
      .int({ message: 'outOfRange' })
      .min(0, { message: 'outOfRange' })
      .max(90, { message: 'outOfRange' })
      .nullable()
      .optional(),
  })
  .superRefine((v, ctx) => {
    const custom = (
      ['name', 'countryCode', 'latitude', 'longitude', 'elevation', 'timeZone', 'il', 'geoId'] as const
    ).filter((k) => v[k] !== undefined);
    if (v.city != null) {
      if (!builtInCity(v.city)) ctx.addIssue({ code: 'custom', path: ['city'], message: 'unknownCity' });
      for (const k of custom) ctx.addIssue({ code: 'custom', path: [k], message: 'notWithCity' });
      return;
    }
    for (const k of ['name', 'latitude', 'longitude', 'timeZone'] as const) {
      if (v[k] === undefined || v[k] === '') ctx.addIssue({ code: 'custom', path: [k], message: 'required' });
    }
  });
export type ClubLocationInput = z.infer<typeof ClubLocationInput>;

/**
 * The stored location of a valid input (parsed with ClubLocationInput): the
 * city's row from the built-in table, or the custom fields with their
 * defaults (elevation 0, diaspora, no country code, no geo id, the place's
 * candle-lighting custom).
 * @throws RangeError for an unknown city (the schema refuses it first)
 */
export function resolveLocation(input: ClubLocationInput): Required<ClubLocation> {
  if (input.city != null) {
    const city = builtInCity(input.city);
    if (!city) throw new RangeError(`unknown city ${input.city}`);
    return { ...cityLocation(city), candleLightingMins: input.candleLightingMins ?? null };
  }
  return {
    city: null,
    name: input.name!,
    countryCode: (input.countryCode ?? '').toUpperCase(),
    latitude: input.latitude!,
    longitude: input.longitude!,
    elevation: input.elevation ?? 0,
    timeZone: input.timeZone!,
    il: input.il ?? false,
    geoId: input.geoId ? input.geoId : null,
    candleLightingMins: input.candleLightingMins ?? null,
  };
}

/**
 * A stored location (clubs.location, possibly written before the country
 * code, geo id and city existed) with every field present; the default city
 * when nothing is stored.
 */
export function normalizeLocation(stored: Partial<ClubLocation> | null | undefined): Required<ClubLocation> {
  if (!stored || typeof stored.latitude !== 'number' || typeof stored.timeZone !== 'string') return JERUSALEM;
  // Rows written before `city` existed: a built-in city when name and coordinates are its own.
  const legacy = builtInCity(stored.name ?? '');
  const named =
    stored.city !== undefined
      ? stored.city
        ? builtInCity(stored.city)
        : undefined
      : legacy && legacy.latitude === stored.latitude && legacy.longitude === stored.longitude
        ? legacy
        : undefined;
  return {
    city: named ? named.id : null,
    name: stored.name ?? '',
    countryCode: stored.countryCode ?? named?.countryCode ?? '',
    latitude: stored.latitude,
    longitude: stored.longitude ?? 0,
    elevation: stored.elevation ?? 0,
    timeZone: stored.timeZone,
    il: stored.il ?? false,
    geoId: stored.geoId ?? null,
    candleLightingMins: typeof stored.candleLightingMins === 'number' ? stored.candleLightingMins : null,
  };
}
