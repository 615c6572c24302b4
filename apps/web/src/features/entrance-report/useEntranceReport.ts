import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { EntranceReport, ReportFilter } from '@venue/domain';
import { api } from '../../app/api/apiClient';

export const ENTRANCE_REPORT_KEY = ['entranceReport'] as const;

/** POST /Report/GetEnteracesReport (the catalogue's spelling) with a ReportFilter. */
export function useEntranceReport(filter: ReportFilter) {
  return useQuery({
    queryKey: [...ENTRANCE_REPORT_KEY, filter],
    queryFn: () => api.post<EntranceReport>('/Report/GetEnteracesReport', filter),
    placeholderData: keepPreviousData,
  });
}
