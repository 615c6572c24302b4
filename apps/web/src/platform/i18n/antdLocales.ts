import type { Locale } from 'antd/es/locale';
import heIL from 'antd/es/locale/he_IL';
import enUS from 'antd/es/locale/en_US';
import { DATE_PATTERN, DATE_TIME_PATTERN } from '@venue/domain';

/**
 * antd's Hebrew and English locales with the console's one date format
 * (packages/domain/src/format.ts; docs/console-management.md "One format"):
 * every date picker shows and parses `DD/MM/YYYY` (`DD/MM/YYYY HH:mm` with a
 * time) instead of the pickers' default ISO `YYYY-MM-DD`.
 */
function withDateFormat(module: Locale | { default: Locale }): Locale {
  // `antd/locale/*` are CommonJS files whose default export a bundler may hand over
  // wrapped ({ default: locale }); the ES build is imported, and unwrapped to be sure.
  const locale: Locale = 'default' in module ? module.default : module;
  const picker = locale.DatePicker;
  if (!picker) return locale;
  const lang = { ...picker.lang, fieldDateFormat: DATE_PATTERN, fieldDateTimeFormat: DATE_TIME_PATTERN };
  return { ...locale, DatePicker: { ...picker, lang } };
}

/** antd's Hebrew pager names its page-size chooser in English ("Page Size"). */
function withHebrewPager(locale: Locale): Locale {
  return { ...locale, Pagination: { ...locale.Pagination, page_size: 'גודל עמוד' } };
}

export const antdHe: Locale = withHebrewPager(withDateFormat(heIL));
export const antdEn: Locale = withDateFormat(enUS);
