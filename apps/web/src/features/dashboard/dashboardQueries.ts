import type { QueryClient } from '@tanstack/react-query';
import { contract } from '@venue/domain';
import { api } from '../../platform/api/apiClient';

/** One dashboard call of the contract (seed 000 §7 "Dashboard", POST with an empty body). */
export type DashboardEntry = (typeof contract.dashboard)[keyof typeof contract.dashboard];

/**
 * The query of a dashboard call: key and fetcher, shared by the screen's hooks
 * (useDashboard.ts) and the prefetch below. Every key starts with 'dashboard',
 * which the live feed invalidates on each entrance (LIVE_REFRESHED_KEYS).
 */
export function dashboardQuery<T>(entry: DashboardEntry) {
  return {
    queryKey: ['dashboard', entry.path.slice('/api/Dashboard/'.length)],
    queryFn: () => api.call(entry, { body: {} }) as Promise<T>,
  };
}

const d = contract.dashboard;
/** What the dashboard asks for when it opens: six counters, six charts (sales by amount, the default measure). */
const ON_OPEN: DashboardEntry[] = [
  d.monthlyEntrances,
  d.activeClients,
  d.monthlyIncome,
  d.lastWeekArrivals,
  d.validLicenses,
  d.expiredLicenses,
  d.entranceByStatus,
  d.confirmedEntranceByTime,
  d.payments,
  d.entranceByGroup,
  d.amountByItemType,
  d.amountByProduct,
];

/**
 * Starts the dashboard's calls before its screen renders: the router calls
 * this as soon as the session's data says the user may see the dashboard and
 * is headed there (right after sign-in), so the answers arrive while the
 * signed-in frame's code still loads (issue 19 load speed). The screen's
 * queries then find them in the cache (same keys, within staleTime).
 */
export function prefetchDashboard(queryClient: QueryClient): void {
  for (const entry of ON_OPEN) void queryClient.prefetchQuery(dashboardQuery(entry));
}
