import { useTranslation } from 'react-i18next';
import { NAV_ENTRIES } from '@venue/domain';
import { pageTitle, useDocumentTitle } from '../shared/pageTitle';
import { INBOX_ROUTE, LICENSES_ROUTE, MONEY_SETTINGS_ROUTE, OPERATOR_MESSAGES_ROUTE } from './screens';

/**
 * Browser tab titles (issue 19 "One format"; docs/console-management.md "Page titles"):
 * `<screen> — <club>` on every signed-in screen (shared/pageTitle.ts; the sign-in page
 * names itself, features/login/useSignInTitle.ts).
 * The screen's name is its navigation entry's (`nav.<key>` of the catalogues); a route
 * under an entry (a client's page under the clients list) takes the entry's name;
 * the few screens outside the navigation name themselves here.
 */
const OWN_TITLES: Readonly<Record<string, string>> = {
  [LICENSES_ROUTE]: 'licenses.title',
  [MONEY_SETTINGS_ROUTE]: 'moneySettings.title',
  [INBOX_ROUTE]: 'messages.inbox',
  [OPERATOR_MESSAGES_ROUTE]: 'messages.operatorTitle',
};

/** The catalogue key of the screen at `pathname`, or null when no screen is known there. */
export function screenTitleKey(pathname: string): string | null {
  const path = pathname.replace(/\/+$/, '') || '/';
  if (OWN_TITLES[path]) return OWN_TITLES[path];
  let best: { key: string; len: number } | null = null;
  for (const e of NAV_ENTRIES) {
    if ((path === e.route || path.startsWith(`${e.route}/`)) && (!best || e.route.length > best.len))
      best = { key: e.key, len: e.route.length };
  }
  return best ? `nav.${best.key}` : null;
}

/** Keeps `document.title` on the screen at `pathname` and the club's name, in the interface language. */
export function usePageTitle(pathname: string, clubName: string): void {
  const { t } = useTranslation();
  const key = screenTitleKey(pathname);
  useDocumentTitle(pageTitle(key ? t(key) : null, clubName || t('app.title')));
}
