import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { catalogues } from '../../i18n/catalogues';

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

void i18n.use(initReactI18next).init({
  resources: { he: { translation: catalogues.he }, en: { translation: catalogues.en } },
  lng: storedLanguage(),
  fallbackLng: DEFAULT_LANGUAGE,
  interpolation: { escapeValue: false },
  returnNull: false,
});

export { i18n };
