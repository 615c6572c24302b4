import { useMemo } from 'react';
import {
  formatDate,
  formatDateTime,
  formatInstantDate,
  formatMoney,
  formatNumber,
  formatTime,
  JERUSALEM,
} from '@venue/domain';
import { useSessionData } from '../platform/auth/AuthProvider';
import { useLanguage } from '../platform/i18n/LocaleProvider';

/**
 * The console's one format (packages/domain/src/format.ts; docs/console-management.md
 * "One format"), bound to the signed-in club: instants in the **club's** time zone
 * (its location; Jerusalem when it has none), money in the club's currency, numbers
 * in the interface language. Every screen shows dates and times through these,
 * never `toLocaleString` or an ad-hoc dayjs pattern.
 *
 * - `date('2026-11-23')` → `23/11/2026` (a calendar date, no zone)
 * - `instantDate(iso)` → `23/11/2026`, `time(iso)` → `22:10` (`time(iso, true)` → `22:10:05`)
 * - `dateTime(iso)` → `23/11/2026 22:10`
 * - `money(123450)` → `₪1,234.50` (agorot in), `number(1234)` → `1,234`
 *
 * Empty or invalid input gives ''.
 */
export function useFormat() {
  const { club } = useSessionData();
  const lang = useLanguage();
  const timeZone = club.location?.timeZone ?? JERUSALEM.timeZone;
  const symbol = club.currencySymbol;
  return useMemo(
    () => ({
      timeZone,
      date: (v: string | null | undefined) => formatDate(v),
      instantDate: (v: string | Date | null | undefined) => formatInstantDate(v, timeZone),
      time: (v: string | Date | null | undefined, seconds = false) => formatTime(v, timeZone, seconds),
      dateTime: (v: string | Date | null | undefined) => formatDateTime(v, timeZone),
      money: (minor: number | null | undefined) => formatMoney(minor, symbol, lang),
      number: (n: number | null | undefined, digits = 0) => formatNumber(n, lang, digits),
    }),
    [timeZone, symbol, lang],
  );
}
