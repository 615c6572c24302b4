/**
 * The router's routes that are not entries of the navigation (router.tsx
 * uses these constants; the navigation's own routes are `NAV_ENTRIES` of
 * @venue/domain). Pure data, so that the browser checks walk every screen
 * from the app's own lists (e2e/a11y.spec.ts; docs/accessibility.md):
 * a path parameter (`:clientId`) names the list whose first row fills it.
 */
export const LOGIN_ROUTE = '/login';
export const CLIENT_DETAILS_ROUTE = '/management/clients/:clientId';
export const GROUP_EDIT_ROUTE = '/management/app-groups-list/:groupId';
export const TERMINAL_DETAILS_ROUTE = '/management/app-terminals-list/:terminalId';
export const LICENSES_ROUTE = '/management/app-settings/licenses';
export const MONEY_SETTINGS_ROUTE = '/management/app-settings/money';
export { INBOX_ROUTE, OPERATOR_MESSAGES_ROUTE } from '../features/messages/routes';

import { INBOX_ROUTE, OPERATOR_MESSAGES_ROUTE } from '../features/messages/routes';

/** A route outside the navigation: its path and who may open it (`operator`: the SuperUser only). */
export interface ExtraRoute {
  path: string;
  operator?: boolean;
  /** Signed out (the sign-in page). */
  public?: boolean;
}

/** Every route of router.tsx that the navigation does not list. */
export const EXTRA_ROUTES: readonly ExtraRoute[] = [
  { path: LOGIN_ROUTE, public: true },
  { path: CLIENT_DETAILS_ROUTE },
  { path: GROUP_EDIT_ROUTE },
  { path: TERMINAL_DETAILS_ROUTE },
  { path: LICENSES_ROUTE },
  { path: MONEY_SETTINGS_ROUTE },
  { path: INBOX_ROUTE },
  { path: OPERATOR_MESSAGES_ROUTE, operator: true },
];
