import {
  BUILT_IN_CITIES,
  candleLightingMinutes,
  ClubLocationInput,
  customCandleLightingMinutes,
  halachicMinutes,
  HalachicTime,
  localParts,
  type BuiltInCity,
  type ClubLocation,
  type LocalDate,
} from '@venue/domain';

/**
 * The club-location form (issue 14 §1; docs/calendar.md) as pure mapping:
 * the form's values, the request input (`ClubLocationInput`, validated by the
 * same schema as the server), the city options and the sun-time preview.
 */

/** What the form holds: a built-in city, or the fields of a custom location (numbers as typed). */
export interface LocationValues {
  mode: 'city' | 'custom';
  city?: string;
  name?: string;
  countryCode?: string;
  latitude?: number | string | null;
  longitude?: number | string | null;
  elevation?: number | string | null;
  timeZone?: string;
  il?: boolean;
  geoId?: string;
  /** The club's candle-lighting minutes; empty: the place's custom (docs/calendar.md "Candle lighting"). */
  candleLightingMins?: number | string | null;
}

/** The form's values of a club's location. */
export function locationValues(loc: ClubLocation): LocationValues {
  const candleLightingMins = loc.candleLightingMins ?? null;
  if (loc.city) return { mode: 'city', city: loc.city, il: loc.il, candleLightingMins };
  return {
    mode: 'custom',
    name: loc.name,
    countryCode: loc.countryCode ?? '',
    latitude: loc.latitude,
    longitude: loc.longitude,
    elevation: loc.elevation,
    timeZone: loc.timeZone,
    il: loc.il,
    geoId: loc.geoId ?? '',
    candleLightingMins,
  };
}

/** A typed number: a number as is, a numeric string as its number, empty as absent, anything else as typed (the schema says `notANumber`). */
function num(v: number | string | null | undefined): unknown {
  if (v === null || v === undefined || v === '') return undefined;
  if (typeof v === 'number') return v;
  const t = v.trim().replace(',', '.');
  return t !== '' && Number.isFinite(Number(t)) ? Number(t) : v;
}

/** Form values → the request's `location` (ClubLocationInput input). */
export function toLocationInput(v: LocationValues): unknown {
  const candleLightingMins = num(v.candleLightingMins) ?? null;
  if (v.mode === 'city') return { city: v.city ?? '', candleLightingMins };
  return {
    name: v.name ?? '',
    ...(v.countryCode ? { countryCode: v.countryCode } : {}),
    latitude: num(v.latitude),
    longitude: num(v.longitude),
    ...(num(v.elevation) !== undefined ? { elevation: num(v.elevation) } : {}),
    timeZone: v.timeZone ?? '',
    il: v.il ?? false,
    ...(v.geoId ? { geoId: v.geoId } : {}),
    candleLightingMins,
  };
}

/** The location the values describe when they are valid, else null (for the preview). */
export function previewLocation(v: LocationValues): ClubLocation | null {
  const parsed = ClubLocationInput.safeParse(toLocationInput(v));
  if (!parsed.success) return null;
  const p = parsed.data;
  if (p.city != null) {
    const c = BUILT_IN_CITIES.find((x) => x.id.toLowerCase() === p.city!.toLowerCase());
    return c ? { ...c, name: c.nameEn, city: c.id, candleLightingMins: p.candleLightingMins ?? null } : null;
  }
  return {
    name: p.name!,
    latitude: p.latitude!,
    longitude: p.longitude!,
    elevation: p.elevation ?? 0,
    timeZone: p.timeZone!,
    il: p.il ?? false,
    countryCode: (p.countryCode ?? '').toUpperCase(),
    candleLightingMins: p.candleLightingMins ?? null,
  };
}

/**
 * A city's label in the interface language only (a Hebrew screen shows no English
 * words: docs/console-management.md "Every string through the catalogues"); the
 * picker's search still matches either name ({@link cityOptions}).
 */
export function cityLabel(c: BuiltInCity, lang: string): string {
  return lang === 'he' ? c.nameHe : c.nameEn;
}

/** Select options of the built-in cities, sorted in the interface language; search matches either name. */
export function cityOptions(lang: string): { value: string; label: string; search: string }[] {
  return [...BUILT_IN_CITIES]
    .sort((a, b) => (lang === 'he' ? a.nameHe.localeCompare(b.nameHe, 'he') : a.nameEn.localeCompare(b.nameEn, 'en')))
    .map((c) => ({
      value: c.id,
      label: cityLabel(c, lang),
      search: `${c.nameEn} ${c.nameHe} ${c.countryCode}`.toLowerCase(),
    }));
}

/** Every IANA zone the browser knows (for the custom location's zone select). */
export function timeZoneOptions(): string[] {
  const intl = Intl as unknown as { supportedValuesOf?: (k: string) => string[] };
  return intl.supportedValuesOf?.('timeZone') ?? [];
}

/**
 * Today's sunset, nightfall (tzeit 8.5°) and candle lighting (the club's
 * minutes, else the place's custom: `candleMins`) at a location, as HH:MM in
 * its own zone, rounded as the calendar and the gate round them; null when
 * the sun does not reach them.
 */
export function sunPreview(
  loc: ClubLocation,
  now = new Date(),
): { date: LocalDate; sunset: string | null; nightfall: string | null; candles: string | null; candleMins: number } {
  const p = localParts(now, loc.timeZone);
  const date = { year: p.year, month: p.month, day: p.day };
  const hhmm = (m: number | null) =>
    m === null ? null : `${String(Math.floor(m / 60) % 24).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
  return {
    date,
    sunset: hhmm(halachicMinutes(HalachicTime.Sunset, date, loc)),
    nightfall: hhmm(halachicMinutes(HalachicTime.Nightfall, date, loc)),
    candles: hhmm(halachicMinutes(HalachicTime.CandleLighting, date, loc)),
    candleMins: candleLightingMinutes(loc),
  };
}

/** The place's own candle-lighting custom for the field's placeholder (the preview location's; 18 before one is valid). */
export function customCandleMinutesOf(loc: ClubLocation | null): number {
  return loc ? customCandleLightingMinutes(loc) : 18;
}
