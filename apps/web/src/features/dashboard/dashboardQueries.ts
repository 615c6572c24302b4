import type { QueryClient } from '@tanstack/react-query';
import { contract } from '@venue/domain';
import { api } from '../../platform/api/apiClient';
import { dashboardCounters } from './counters';

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

/** What the charts ask for when the dashboard opens (sales by amount, the default measure). */
const chartEntries = (): DashboardEntry[] => {
  const d = contract.dashboard;
  return [
    d.entranceByStatus,
    d.confirmedEntranceByTime,
    d.payments,
    d.entranceByGroup,
    d.amountByItemType,
    d.amountByProduct,
  ];
};

/**
 * Starts the dashboard's six counter calls before its screen renders: the
 * router calls this as soon as the session's data says the user opens on the
 * dashboard, and asks for the signed-in frame's files only after it, so that
 * these six small calls do not queue behind ~45 files for the browser's six
 * connections (issue 35 dashboard speed). The first screen
 * (DashboardFirstScreen) and the dashboard's queries then find the answers in
 * the cache (same keys, within staleTime).
 */
export function prefetchDashboardCounters(queryClient: QueryClient): void {
  for (const { entry } of dashboardCounters()) void queryClient.prefetchQuery(dashboardQuery(entry));
}

/** Starts the dashboard's chart calls (after the frame's files were asked for: the charts need echarts first). */
export function prefetchDashboardCharts(queryClient: QueryClient): void {
  for (const entry of chartEntries()) void queryClient.prefetchQuery(dashboardQuery(entry));
}
