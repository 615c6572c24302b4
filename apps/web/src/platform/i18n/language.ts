import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { directionOf, isLanguage, rememberLanguage, DEFAULT_LANGUAGE, type Language } from './i18n';

/**
 * The interface language and its writing direction, without the UI library:
 * the sign-in page uses these before antd has loaded (docs/operations.md
 * "Console files"); LocaleProvider re-exports them for the signed-in screens.
 */
export function useLanguage(): Language {
  const { i18n } = useTranslation();
  const l = i18n.resolvedLanguage ?? i18n.language;
  return isLanguage(l) ? l : DEFAULT_LANGUAGE;
}

/** Switches the interface language and remembers it for the next visit. */
export function useSetLanguage(): (lang: Language) => void {
  const { i18n } = useTranslation();
  return (lang) => {
    rememberLanguage(lang);
    void i18n.changeLanguage(lang);
  };
}

/** Current writing direction, for components that take physical sides (Drawer placement). */
export function useDirection(): 'rtl' | 'ltr' {
  return directionOf(useLanguage());
}

/** Drawer placement at the inline start (navigation) or end (forms) of the current direction. */
export function useDrawerSide(side: 'start' | 'end'): 'left' | 'right' {
  const rtl = useDirection() === 'rtl';
  return (side === 'start') === rtl ? 'right' : 'left';
}

/** Keeps the document's `lang` and `dir` on the interface language (STYLE point 9), on every page. */
export function useDocumentLanguage(): void {
  const lang = useLanguage();
  const direction = directionOf(lang);
  useEffect(() => {
    document.documentElement.lang = lang;
    document.documentElement.dir = direction;
  }, [lang, direction]);
}
