import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDate, formatMinor, UNLIMITED_END_YEAR } from '@venue/domain';
import { useSessionData } from '../../platform/auth/AuthProvider';
import { useLanguage } from '../../platform/i18n/LocaleProvider';
import { useFormat } from '../../shared/useFormat';

/**
 * Display helpers of client values: money in the club's currency, dates (2125 = unlimited), yes/no;
 * `dateTime` / `time` are the console's one format of instants (shared/useFormat: the club's zone).
 */
export function useClientFormat() {
  const { t } = useTranslation();
  const lang = useLanguage();
  const { club } = useSessionData();
  const base = useFormat();
  return useMemo(() => {
    const locale = lang === 'he' ? 'he-IL' : 'en-US';
    return {
      money: (minor: number) => (
        <span className="ltr-value nowrap">
          {club.currencySymbol}
          {formatMinor(minor, locale)}
        </span>
      ),
      date: (s: string | null) => {
        if (!s) return '—';
        if (s.startsWith(String(UNLIMITED_END_YEAR))) return t('clients.unlimited');
        return <span className="ltr-value nowrap">{formatDate(s)}</span>;
      },
      dateTime: base.dateTime,
      time: base.time,
      yesNo: (v: boolean) => (v ? t('common.yes') : t('common.no')),
    };
  }, [t, lang, club.currencySymbol, base]);
}
