import { useEffect, useMemo, type ReactNode } from 'react';
import { ConfigProvider, App as AntApp } from 'antd';
import heIL from 'antd/locale/he_IL';
import enUS from 'antd/locale/en_US';
import dayjs from 'dayjs';
import 'dayjs/locale/he';
import 'dayjs/locale/en';
import { useTranslation } from 'react-i18next';
import { ToastProvider } from '../../shared/toast/ToastProvider';
import { directionOf, isLanguage, rememberLanguage, DEFAULT_LANGUAGE, type Language } from './i18n';

/**
 * The one place where direction follows language (STYLE point 9): the
 * document's dir and lang, antd's direction and locale, and dayjs's locale.
 */
export function LocaleProvider({ children }: { children: ReactNode }) {
  const lang = useLanguage();
  const direction = directionOf(lang);
  // Set synchronously so that pickers rendered in this pass use the right month names.
  if (dayjs.locale() !== lang) dayjs.locale(lang);

  useEffect(() => {
    document.documentElement.lang = lang;
    document.documentElement.dir = direction;
  }, [lang, direction]);

  const theme = useMemo(
    () => ({
      token: {
        fontFamily:
          lang === 'he'
            ? "'Segoe UI', 'Noto Sans Hebrew', 'Arial Hebrew', Arial, sans-serif"
            : "'Segoe UI', Roboto, 'Noto Sans', Arial, sans-serif",
      },
    }),
    [lang],
  );

  return (
    <ConfigProvider direction={direction} locale={lang === 'he' ? heIL : enUS} theme={theme}>
      <AntApp>
        <ToastProvider>{children}</ToastProvider>
      </AntApp>
    </ConfigProvider>
  );
}

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
