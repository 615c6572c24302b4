import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import he from './he.json';
import en from './en.json';

/** Interface languages (seed 000 §1): Hebrew is the default, English the second. */
export const LANGUAGES = ['he', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'he';
const STORAGE_KEY = 'venue.lang';

export function isLanguage(v: unknown): v is Language {
  return v === 'he' || v === 'en';
}

export function storedLanguage(): Language {
  try {
    const v = localStorage.getItem(STORAGE_KEY);
    return isLanguage(v) ? v : DEFAULT_LANGUAGE;
  } catch {
    return DEFAULT_LANGUAGE;
  }
}

export function rememberLanguage(lang: Language): void {
  localStorage.setItem(STORAGE_KEY, lang);
}

export function directionOf(lang: Language): 'rtl' | 'ltr' {
  return lang === 'he' ? 'rtl' : 'ltr';
}

// The shared catalogue only (sign-in, errors, common words): the features'
// catalogues and the code labels come with the signed-in screens
// (addCatalogues, called by the router), so the sign-in page does not download them.
/**
 * The catalogue check of the browser tests (e2e/i18n.spec.ts; docs/console-management.md
 * "Every string through the catalogues"): with `localStorage['venue.i18n-check'] = '1'`
 * every key asked for and missing from the catalogues (also when the call gives a
 * default, e.g. an unknown code shown as its number) is kept in
 * `window.__venueMissingKeys` as `lang:key`. Off for everyone else.
 */
function missingKeyCheck(): boolean {
  try {
    return localStorage.getItem('venue.i18n-check') === '1';
  } catch {
    return false;
  }
}
const checkMissing = missingKeyCheck();

declare global {
  interface Window {
    __venueMissingKeys?: string[];
  }
}

void i18n.use(initReactI18next).init({
  resources: { he: { translation: he }, en: { translation: en } },
  lng: storedLanguage(),
  fallbackLng: DEFAULT_LANGUAGE,
  interpolation: { escapeValue: false },
  returnNull: false,
  saveMissing: checkMissing,
  missingKeyHandler: checkMissing
    ? (lngs, _ns, key) => {
        const seen = (window.__venueMissingKeys ??= []);
        const entry = `${lngs.join(',')}:${key}`;
        if (!seen.includes(entry)) seen.push(entry);
      }
    : false,
});

/**
 * Adds catalogues (the shell's `app/catalogues.ts`: the features' strings, the
 * labels of every code, the report words) to i18next, each language merged
 * into what is there.
 */
export function addCatalogues(catalogues: Readonly<Record<Language, object>>): void {
  for (const lang of LANGUAGES) i18n.addResourceBundle(lang, 'translation', catalogues[lang], true, true);
}

export { i18n };
