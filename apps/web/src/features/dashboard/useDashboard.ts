import { useQuery } from '@tanstack/react-query';
import { contract, type ChartPoint } from '@venue/domain';
import { dashboardQuery, type DashboardEntry } from './dashboardQueries';

/**
 * Dashboard calls (seed 000 §7 "Dashboard", POST with an empty body). Every
 * key starts with 'dashboard', which the live feed invalidates on each
 * entrance (LIVE_REFRESHED_KEYS), so today's and this month's figures follow
 * the gate without a reload. Keys and fetchers: dashboardQueries.ts (which
 * the router also uses to start them before the screen loads).
 */
function useDashboardCall<T>(entry: DashboardEntry) {
  return useQuery(dashboardQuery<T>(entry));
}

const d = contract.dashboard;

type Count = { value: number };

export const useMonthlyEntranceCount = () => useDashboardCall<Count>(d.monthlyEntrances);
export const useActiveClientsCount = () => useDashboardCall<Count>(d.activeClients);
export const useEntranceByStatus = () => useDashboardCall<ChartPoint[]>(d.entranceByStatus);
export const useEntranceByTime = () => useDashboardCall<ChartPoint[]>(d.confirmedEntranceByTime);
/** This month's income, minor units (agorot). */
export const useMonthlyIncome = () => useDashboardCall<Count>(d.monthlyIncome);
export const useLastWeekArrivals = () => useDashboardCall<Count>(d.lastWeekArrivals);
export const useValidLicenses = () => useDashboardCall<Count>(d.validLicenses);
export const useExpiredLicenses = () => useDashboardCall<Count>(d.expiredLicenses);
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
