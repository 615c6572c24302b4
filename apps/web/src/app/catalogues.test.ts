import { describe, expect, it } from 'vitest';
import {
  ERROR_STATUS,
  NAV_ENTRIES,
  REASON_KEYS,
  ENTRANCE_STATUSES,
  HALACHIC_TIMES,
  ENTRANCE_STATES,
} from '@venue/domain';
import { catalogues, type Catalogue } from './catalogues';
import { defaultPrefs } from '../features/calendar/calendarOptions';

/** Every leaf key of a catalogue, dot-joined. */
function leafKeys(c: Catalogue, prefix = ''): string[] {
  return Object.entries(c).flatMap(([k, v]) =>
    typeof v === 'string' ? [`${prefix}${k}`] : leafKeys(v, `${prefix}${k}.`),
  );
}

function lookup(c: Catalogue, key: string): string | undefined {
  let cur: string | Catalogue | undefined = c;
  for (const part of key.split('.')) {
    if (cur === undefined || typeof cur === 'string') return undefined;
    cur = cur[part];
  }
  return typeof cur === 'string' ? cur : undefined;
}

/** Keys the console builds at run time from domain tables (STYLE point 9). */
const REQUIRED_KEYS = [
  ...Object.keys(ERROR_STATUS).map((c) => `errors.${c}`),
  ...Object.values(REASON_KEYS).map((k) => `reason.${k}`),
  ...NAV_ENTRIES.map((e) => `nav.${e.key}`),
  ...ENTRANCE_STATUSES.map((s) => `status.${s}`),
  ...HALACHIC_TIMES.map((h) => `halachicTime.${h}`),
  ...ENTRANCE_STATES.map((s) => `entranceState.${s}`),
  ...[
    'required',
    'invalidPersonalId',
    'invalidPhone',
    'invalidDate',
    'invalidAmount',
    'chooseDays',
    'fromRequired',
    'toRequired',
    'dateRangeOrder',
    'invalidColor',
    'invalidSerial',
    'invalidCardSerial',
    // The shared schema parts of @venue/domain (parts.ts).
    'invalidId',
    'invalidText',
    'tooLong',
    'outOfRange',
    // The club location (@venue/domain locations.ts).
    'notANumber',
    'latitudeRange',
    'longitudeRange',
    'elevationMin',
    'invalidTimeZone',
    'unknownCity',
    'notWithCity',
    'invalidCountryCode',
    // The keys of a fault a schema leaves unnamed (@venue/domain zod-keys.ts issueKey).
    'tooShort',
    'invalidEmail',
    'invalid',
    'unknownField',
  ].map((k) => `validation.${k}`),
];

describe('i18n catalogues', () => {
  it('have the same keys in Hebrew and English', () => {
    const heKeys = new Set(leafKeys(catalogues.he));
    const enKeys = new Set(leafKeys(catalogues.en));
    // Hebrew has a dual plural form (Intl.PluralRules('he'): one, two, other) that English has not:
    // `x_two` in Hebrew matches `x_other` in English.
    const dual = (k: string) => k.endsWith('_two') && enKeys.has(`${k.slice(0, -4)}_other`);
    expect(
      [...heKeys].filter((k) => !enKeys.has(k) && !dual(k)),
      'in he, missing in en',
    ).toEqual([]);
    expect(
      [...enKeys].filter((k) => !heKeys.has(k)),
      'in en, missing in he',
    ).toEqual([]);
  });

  it('give Hebrew its dual form beside every plural (else a count of 2 finds no Hebrew text)', () => {
    const heKeys = new Set(leafKeys(catalogues.he));
    const plurals = [...heKeys].filter((k) => k.endsWith('_other')).map((k) => k.slice(0, -6));
    expect(plurals.filter((k) => !heKeys.has(`${k}_two`))).toEqual([]);
    expect(new Intl.PluralRules('he').select(2)).toBe('two');
  });

  it.each(Object.entries(catalogues))(
    '%s translates every error code, reason, nav entry, status and validation key',
    (_lang, c) => {
      const missing = REQUIRED_KEYS.filter((k) => !lookup(c, k)?.trim());
      expect(missing).toEqual([]);
    },
  );

  it('has real Hebrew in the Hebrew catalogue', () => {
    const notHebrew = leafKeys(catalogues.he).filter((k) => {
      const v = lookup(catalogues.he, k) ?? '';
      return /[A-Za-z]{3,}/.test(v.replace(/\{\{\w+\}\}|PDF|MB/g, '')) && !/[\u0590-\u05FF]/.test(v);
    });
    expect(notHebrew).toEqual([]);
  });

  it('keeps the seed wording of the failed-login message', () => {
    expect(lookup(catalogues.en, 'errors.INCORRECT_CREDENTIALS_OR_CLUB')).toBe(
      'Incorrect username or password, or club is not recognized',
    );
  });
});

describe('calendar labels', () => {
  it('names every time, rendering and option in Hebrew and English', async () => {
    const { ZMAN_KEYS, CALENDAR_LOCALES } = await import('@venue/domain');
    const { catalogues } = await import('./catalogues');
    const keys = [
      ...ZMAN_KEYS.map((k) => `calendar.zman.${k}`),
      ...CALENDAR_LOCALES.map((l) => `calendar.locale.${l}`),
      ...Object.keys(defaultPrefs('en'))
        .filter((k) => k !== 'locale' && k !== 'il')
        .map((k) => `calendar.opt.${k}`),
      'nav.calendar',
    ];
    for (const [lang, c] of Object.entries(catalogues)) {
      const missing = keys.filter((k) => {
        let v: unknown = c;
        for (const part of k.split('.')) v = (v as Record<string, unknown> | undefined)?.[part];
        return typeof v !== 'string' || v.trim() === '';
      });
      expect({ lang, missing }).toEqual({ lang, missing: [] });
    }
  });
});
