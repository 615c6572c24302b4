import { useEffect, useMemo, type ReactNode } from 'react';
import { ConfigProvider, App as AntApp } from 'antd';
import { antdEn, antdHe } from './antdLocales';
import dayjs from 'dayjs';
import 'dayjs/locale/he';
import 'dayjs/locale/en';
import { useTranslation } from 'react-i18next';
import { ToastProvider } from '../../shared/toast/ToastProvider';
import { directionOf, isLanguage, rememberLanguage, DEFAULT_LANGUAGE, type Language } from './i18n';

/**
 * Theme colours that meet WCAG 2.1 AA contrast (4.5:1 for text; Israeli
 * Standard 5568; docs/accessibility.md "Colours"). antd's defaults do not:
 * white on #1677ff is 4.1:1, tertiary text rgba(0,0,0,.45) 3.4:1, tag text
 * (palette step 7 on step 1) about 3.3:1 for green, cyan, orange and gold.
 * The ratios in the comments are against white or the tag's own light background.
 */
export const CONTRAST_TOKENS = {
  colorPrimary: '#0958d9', // white on it 6.2:1
  colorInfo: '#0958d9',
  colorLink: '#0958d9',
  colorSuccess: '#237804', // 5.6:1; on its light background 5.4:1
  colorWarning: '#ad4e00', // 5.1:1 on its light background
  colorError: '#cf1322', // 5.6:1; on its light background 5.1:1
  colorTextTertiary: 'rgba(0, 0, 0, 0.62)', // #616161, 6.2:1
  colorTextDescription: 'rgba(0, 0, 0, 0.62)',
  colorTextPlaceholder: 'rgba(0, 0, 0, 0.56)', // #707070, 4.9:1
  // Tag text is the palette's step 7; these steps are dark enough on the step-1 background.
  green7: '#237804',
  cyan7: '#006d75',
  orange7: '#ad4e00',
  gold7: '#874d00',
  lime7: '#3f6600',
  yellow7: '#876800',
  volcano7: '#ad2102',
} as const;

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
        ...CONTRAST_TOKENS,
        fontFamily:
          lang === 'he'
            ? "'Segoe UI', 'Noto Sans Hebrew', 'Arial Hebrew', Arial, sans-serif"
            : "'Segoe UI', Roboto, 'Noto Sans', Arial, sans-serif",
      },
    }),
    [lang],
  );

  return (
    <ConfigProvider direction={direction} locale={lang === 'he' ? antdHe : antdEn} theme={theme}>
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
