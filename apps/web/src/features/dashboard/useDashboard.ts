import { useQuery } from '@tanstack/react-query';
import type { ChartPoint } from '@venue/domain';
import { api } from '../../app/api/apiClient';

/** Dashboard calls (seed 000 §7 "Dashboard", POST with an empty body). */
function useDashboardCall<T>(name: string) {
  return useQuery({
    queryKey: ['dashboard', name],
    queryFn: () => api.post<T>(`/Dashboard/${name}`, {}),
  });
}

export const useMonthlyEntranceCount = () => useDashboardCall<{ value: number }>('GetMonthlyEntranceCount');
export const useActiveClientsCount = () => useDashboardCall<{ value: number }>('GetActiveClientsCount');
export const useEntranceByStatus = () => useDashboardCall<ChartPoint[]>('GetChartEntranceByStatus');
export const useEntranceByTime = () => useDashboardCall<ChartPoint[]>('GetChartConfirmedEntranceByTime');
