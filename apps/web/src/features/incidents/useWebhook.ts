import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { contract, type IncidentWebhookInput } from '@venue/domain';
import { api } from '../../platform/api/apiClient';

/** GET /Incident/Deliveries: the delivery log to the club's reporting system. */
export function useDeliveries(enabled: boolean) {
  return useQuery({
    queryKey: ['incidentDeliveries'],
    queryFn: () => api.call(contract.incidents.deliveries),
    enabled,
  });
}

/** GET /Incident/Webhook (operator). */
export function useWebhook(enabled: boolean) {
  return useQuery({ queryKey: ['incidentWebhook'], queryFn: () => api.call(contract.incidents.getWebhook), enabled });
}

/** PUT /Incident/Webhook (operator). */
export function useSaveWebhook() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: IncidentWebhookInput) => api.call(contract.incidents.setWebhook, { body }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ['incidentWebhook'] }),
  });
}
