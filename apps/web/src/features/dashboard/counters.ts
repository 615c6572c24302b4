import { contract, formatMinor, hebrewDate, JERUSALEM, localParts } from '@venue/domain';
import type { Language } from '../../platform/i18n/i18n';
import type { LightIconData } from '../../shared/lightIcons';
import {
  CarryOutIcon,
  ExclamationCircleIcon,
  LoginIcon,
  SafetyCertificateIcon,
  TeamIcon,
  WalletIcon,
} from './counterIcons';

/** One of the dashboard's six counters (seed 000 §2 "Dashboard content"). */
export interface Counter {
  /** Its call (contract.dashboard); the answer is `{ value: number }`. */
  entry: (typeof contract.dashboard)[keyof typeof contract.dashboard];
  /** Its title's key in the shared catalogue (platform/i18n), which the sign-in page's bundle already has. */
  titleKey: string;
  testId: string;
  icon: LightIconData;
  /** `money`: minor units (agorot) in the club's currency; `count`: a whole number. */
  kind: 'money' | 'count';
}

let counters: readonly Counter[] | undefined;

/**
 * The six counters, in the screen's order. The dashboard (DashboardPage) and
 * its first screen before antd has loaded (DashboardFirstScreen) both draw
 * them from this list, with the same titles, icons and figures.
 *
 * Made on the first call, not when the module runs: the bundler puts this
 * module beside a dynamic import's file that holds the contract's dashboard
 * part and imports this one back; read while the two files are still
 * starting, the contract's part would be undefined.
 */
export function dashboardCounters(): readonly Counter[] {
  const d = contract.dashboard;
  return (counters ??= [
    {
      entry: d.monthlyEntrances,
      titleKey: 'dashboard.monthlyEntrances',
      testId: 'card-monthly-entrances',
      icon: LoginIcon,
      kind: 'count',
    },
    {
      entry: d.activeClients,
      titleKey: 'dashboard.activeClients',
      testId: 'card-active-clients',
      icon: TeamIcon,
      kind: 'count',
    },
    {
      entry: d.monthlyIncome,
      titleKey: 'dashboard.monthlyIncome',
      testId: 'card-monthly-income',
      icon: WalletIcon,
      kind: 'money',
    },
    {
      entry: d.lastWeekArrivals,
      titleKey: 'dashboard.lastWeekArrivals',
      testId: 'card-last-week-arrivals',
      icon: CarryOutIcon,
      kind: 'count',
    },
    {
      entry: d.validLicenses,
      titleKey: 'dashboard.validLicenses',
      testId: 'card-valid-licenses',
      icon: SafetyCertificateIcon,
      kind: 'count',
    },
    {
      entry: d.expiredLicenses,
      titleKey: 'dashboard.expiredLicenses',
      testId: 'card-expired-licenses',
      icon: ExclamationCircleIcon,
      kind: 'count',
    },
  ]);
}

/** The number format's locale of an interface language. */
export function numberLocale(lang: Language): string {
  return lang === 'he' ? 'he-IL' : 'en-US';
}

/**
 * A counter's figure as the screen shows it: money (agorot) as the club's
 * currency symbol and two decimals ("₪52,015.00"), a count grouped ("4,263"),
 * both in the interface language's number format.
 */
export function counterText(kind: Counter['kind'], value: number, lang: Language, currencySymbol: string): string {
  const locale = numberLocale(lang);
  return kind === 'money'
    ? `${currencySymbol}${formatMinor(value, locale)}`
    : new Intl.NumberFormat(locale).format(value);
}

/**
 * The dashboard's date line for now in the club's time zone: the Hebrew date
 * and the civil one ("19 כִּסְלֵו, 5787 · יום ראשון, 29 בנובמבר 2026" /
 * "19th of Kislev, 5787 · Sunday, 29 November 2026"). `timeZone`: an IANA
 * zone; Jerusalem when the club has none (seed 000 §9).
 */
export function dashboardDate(lang: Language, timeZone: string | undefined, now = new Date()): string {
  const zone = timeZone ?? JERUSALEM.timeZone;
  const civil = new Intl.DateTimeFormat(lang === 'he' ? 'he-IL' : 'en-GB', {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: zone,
  }).format(now);
  return `${hebrewDate(localParts(now, zone), lang)} · ${civil}`;
}
