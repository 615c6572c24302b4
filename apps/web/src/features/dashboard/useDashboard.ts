import { useEffect, useRef } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { contract, type ChartPoint } from '@venue/domain';
import { api } from '../../platform/api/apiClient';
import { dashboardQuery, type DashboardEntry } from './dashboardQueries';

/**
 * Dashboard calls (seed 000 §7 "Dashboard", POST with an empty body). Every
 * key starts with 'dashboard', which the live feed invalidates on each
 * entrance (LIVE_REFRESHED_KEYS), so today's and this month's figures follow
 * the gate without a reload. Keys and fetchers: dashboardQueries.ts (which
 * the router also uses to start them before the screen loads). The six
 * counters' queries are in counters.ts and DashboardPage's CountCard.
 */
function useDashboardCall<T>(entry: DashboardEntry) {
  return useQuery(dashboardQuery<T>(entry));
}

const d = contract.dashboard;

export const useEntranceByStatus = () => useDashboardCall<ChartPoint[]>(d.entranceByStatus);
export const useEntranceByTime = () => useDashboardCall<ChartPoint[]>(d.confirmedEntranceByTime);
/** Approved entrances this month per EntrancePaymentType. */
export const useEntranceByPaymentType = () => useDashboardCall<ChartPoint[]>(d.payments);
export const useEntranceByGroup = () => useDashboardCall<ChartPoint[]>(d.entranceByGroup);
/** Per PurchaseItemType: price with VAT (agorot) or units. */
export const useByItemType = (measure: 'amount' | 'quantity') =>
  useDashboardCall<ChartPoint[]>(measure === 'amount' ? d.amountByItemType : d.quantityByItemType);
/** Per product name, largest first: price with VAT (agorot) or units. */
export const useByProduct = (measure: 'amount' | 'quantity') =>
  useDashboardCall<ChartPoint[]>(measure === 'amount' ? d.amountByProduct : d.quantityByProduct);

export type DashboardQuery<T> = ReturnType<typeof useDashboardCall<T>>;

/**
 * Whether the club's history is still being written (the demo club's year on
 * its first start; docs/demo-club.md "While the history is written"). Asked
 * every 5 s while it is; when it is done, every dashboard figure is fetched
 * again so the year's money appears without a reload.
 */
export function useHistoryStatus() {
  const queryClient = useQueryClient();
  const q = useQuery({
    queryKey: ['history-status'],
    queryFn: () => api.call(d.historyStatus),
    refetchInterval: (query) => (query.state.data?.writing ? 5000 : false),
  });
  const wasWriting = useRef(false);
  const writing = q.data?.writing ?? false;
  useEffect(() => {
    if (wasWriting.current && !writing) void queryClient.invalidateQueries({ queryKey: ['dashboard'] });
    wasWriting.current = writing;
  }, [writing, queryClient]);
  return q;
}
