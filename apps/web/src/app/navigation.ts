import { useMemo } from 'react';
import { visibleNavigation, type NavEntry } from '@venue/domain';
import { useAuth } from './auth/AuthProvider';

/**
 * Screens this console implements. The visibility rule itself is
 * `visibleNavigation` in @venue/domain; this list only filters out entries
 * whose screen does not exist yet ("only screens that work appear").
 */
export const IMPLEMENTED_NAV_KEYS: readonly string[] = [
  'dashboard',
  'clients',
  'groups',
  'products',
  'settings',
  'users',
  'schedules',
  'terminals',
  'terminalMessages',
  'entranceReport',
  'paymentReport',
  'purchasesReport',
  'debtsReport',
  'financialReport',
  'cashTransactionsReport',
  'cashManagementReport',
  'autoRenewalReport',
  'activitiesReport',
  'quickExitReport',
  'productsReport',
  'payoutErrorReport',
  'productSummaryReport',
  'productMatrixReport',
  'excessStatusReport',
  'cashStatusReport',
  'licensesUsedReport',
  'loadedLicensesReport',
  'saferPaymentsReport',
  'addLicensesRequestsReport',
  'managerActivityReport',
];

/** The navigation entries the signed-in user sees, in seed order. */
export function useNavigationEntries(): NavEntry[] {
  const { data } = useAuth();
  return useMemo(() => {
    if (!data) return [];
    const { user, club, capacities } = data;
    return visibleNavigation({
      permissions: user,
      externalClubId: club.externalClubId,
      settings: club,
      capacities: capacities.map((c) => c.capacity),
    }).filter((e) => IMPLEMENTED_NAV_KEYS.includes(e.key));
  }, [data]);
}
