import { useQuery } from '@tanstack/react-query';
import type { ChartPoint } from '@venue/domain';
import { api } from '../../app/api/apiClient';

/**
 * Dashboard calls (seed 000 §7 "Dashboard", POST with an empty body). Every
 * key starts with 'dashboard', which the live feed invalidates on each
 * entrance (LIVE_REFRESHED_KEYS), so today's and this month's figures follow
 * the gate without a reload.
 */
function useDashboardCall<T>(name: string) {
  return useQuery({
    queryKey: ['dashboard', name],
    queryFn: () => api.post<T>(`/Dashboard/${name}`, {}),
  });
}

type Count = { value: number };

export const useMonthlyEntranceCount = () => useDashboardCall<Count>('GetMonthlyEntranceCount');
export const useActiveClientsCount = () => useDashboardCall<Count>('GetActiveClientsCount');
export const useEntranceByStatus = () => useDashboardCall<ChartPoint[]>('GetChartEntranceByStatus');
export const useEntranceByTime = () => useDashboardCall<ChartPoint[]>('GetChartConfirmedEntranceByTime');
/** This month's income, minor units (agorot). */
export const useMonthlyIncome = () => useDashboardCall<Count>('GetMonthlyIncome');
export const useLastWeekArrivals = () => useDashboardCall<Count>('GetLastWeekArrivalsCount');
export const useValidLicenses = () => useDashboardCall<Count>('GetValidLicensesCount');
export const useExpiredLicenses = () => useDashboardCall<Count>('GetExpiredLicensesCount');
/** Approved entrances this month per EntrancePaymentType. */
export const useEntranceByPaymentType = () => useDashboardCall<ChartPoint[]>('GetChartPaymentData');
export const useEntranceByGroup = () => useDashboardCall<ChartPoint[]>('GetChartEntranceByGroup');
/** Per PurchaseItemType: price with VAT (agorot) or units. */
export const useByItemType = (measure: 'amount' | 'quantity') =>
  useDashboardCall<ChartPoint[]>(measure === 'amount' ? 'GetChartDataByItemType' : 'GetChartDataQtyByItemType');
/** Per product name, largest first: price with VAT (agorot) or units. */
export const useByProduct = (measure: 'amount' | 'quantity') =>
  useDashboardCall<ChartPoint[]>(measure === 'amount' ? 'GetChartDataByProduct' : 'GetChartDataQtyByProduct');

export type DashboardQuery<T> = ReturnType<typeof useDashboardCall<T>>;
