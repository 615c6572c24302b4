import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { contract, type IncidentInput, type IncidentStatus } from '@venue/domain';
import { api } from '../../platform/api/apiClient';
import { useLiveMessages } from '../../platform/live/LiveProvider';

const KEY = ['incidents'] as const;

/** GET /Incident?status=: the club's incidents, newest first; refreshed by the live feed's `incident` event. */
export function useIncidents(status: IncidentStatus | 'all') {
  const qc = useQueryClient();
  useLiveMessages((m) => {
    if (m.type === 'incident') void qc.invalidateQueries({ queryKey: KEY });
  });
  return useQuery({
    queryKey: [...KEY, status],
    queryFn: () => api.call(contract.incidents.list, { query: { status } }),
  });
}

/** POST /Incident: staff report an incident in the console. */
export function useReportIncident() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: IncidentInput) => api.call(contract.incidents.create, { body }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: KEY }),
  });
}

/** PUT /Incident/Handle/{id}. */
export function useHandleIncident() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.call(contract.incidents.handle, { params: { id } }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: KEY }),
  });
}
