import { useMemo, type ReactNode } from 'react';
import { ConfigProvider, App as AntApp } from 'antd';
import { antdEn, antdHe } from './antdLocales';
import { useTranslation } from 'react-i18next';
import { useScreenReaderText } from './screenReaderText';
import dayjs from 'dayjs';
import 'dayjs/locale/he';
import 'dayjs/locale/en';
import { directionOf } from './i18n';
import { useLanguage } from './language';

export { useDirection, useDrawerSide, useLanguage, useSetLanguage } from './language';

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
  // antd derives the light backgrounds from the seed; from these dark seeds it gives a grey
  // #adb8a5 for success (#237804 on it 2.7:1) and #ede4d5 for warning: antd's own light ones.
  colorSuccessBg: '#f6ffed',
  colorSuccessBorder: '#b7eb8f',
  colorWarning: '#ad4e00', // 5.1:1 on its light background
  colorWarningBg: '#fffbe6',
  colorWarningBorder: '#ffe58f',
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
 * Component tokens where antd uses a lighter global one for text that is read:
 * an empty table's "no data" is drawn in colorTextDisabled (rgba(0,0,0,.25),
 * 1.8:1); inside tables it takes the placeholder grey (4.9:1). Disabled
 * controls keep the light grey (WCAG 1.4.3 exempts inactive controls).
 */
export const CONTRAST_COMPONENT_TOKENS = {
  Table: { colorTextDisabled: CONTRAST_TOKENS.colorTextPlaceholder },
} as const;

/**
 * The one place where the UI library's direction follows language (STYLE
 * point 9): antd's direction, locale and theme, and dayjs's locale. The
 * document's dir and lang follow it on every page (language.ts
 * `useDocumentLanguage`, in App). Wraps the signed-in screens (SignedInShell)
 * and the 403/404 and error screens; the sign-in page needs no antd and
 * loads without it (docs/operations.md "Console files"). The shell puts the
 * toast service (shared/toast) directly inside it.
 */
/** antd's controls whose only content is an icon, by the icon's name: their name in the interface language. */
const ICON_CONTROL_WORDS: Record<string, string> = {
  search: 'a11y.search',
  close: 'common.close',
  'close-circle': 'a11y.clear',
  // The tabs' overflow button (antd's default moreIcon).
  ellipsis: 'a11y.moreTabs',
};

export function LocaleProvider({ children }: { children: ReactNode }) {
  const lang = useLanguage();
  const direction = directionOf(lang);
  // Set synchronously so that pickers rendered in this pass use the right month names.
  if (dayjs.locale() !== lang) dayjs.locale(lang);
  const { t } = useTranslation();
  const words = useMemo(
    () => ({
      tabOf: (n: number, count: number) => t('a11y.tabOf', { n, count }),
      iconControl: (name: string) => ICON_CONTROL_WORDS[name] && t(ICON_CONTROL_WORDS[name]),
    }),
    [t],
  );
  useScreenReaderText(words);

  const theme = useMemo(
    () => ({
      token: {
        ...CONTRAST_TOKENS,
        fontFamily:
          lang === 'he'
            ? "'Segoe UI', 'Noto Sans Hebrew', 'Arial Hebrew', Arial, sans-serif"
            : "'Segoe UI', Roboto, 'Noto Sans', Arial, sans-serif",
      },
      components: CONTRAST_COMPONENT_TOKENS,
    }),
    [lang],
  );

  return (
    <ConfigProvider direction={direction} locale={lang === 'he' ? antdHe : antdEn} theme={theme}>
      <AntApp>{children}</AntApp>
    </ConfigProvider>
  );
}
