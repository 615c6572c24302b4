import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import he from '../../i18n/he.json';
import en from '../../i18n/en.json';

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
// (loadFullCatalogues), so the sign-in page does not download them.
void i18n.use(initReactI18next).init({
  resources: { he: { translation: he }, en: { translation: en } },
  lng: storedLanguage(),
  fallbackLng: DEFAULT_LANGUAGE,
  interpolation: { escapeValue: false },
  returnNull: false,
});

/**
 * Adds every catalogue (catalogues.ts: the features' strings, the labels of
 * every code, the report words) to i18next; the router awaits it with the
 * signed-in frame, so no signed-in screen renders before its strings.
 */
export async function loadFullCatalogues(): Promise<void> {
  const { catalogues } = await import('../../i18n/catalogues');
  for (const lang of LANGUAGES) i18n.addResourceBundle(lang, 'translation', catalogues[lang], true, true);
}

export { i18n };
