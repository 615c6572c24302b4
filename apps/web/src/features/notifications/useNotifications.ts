import { useQuery } from '@tanstack/react-query';
import { contract, type OutboxQuery } from '@venue/domain';
import { api } from '../../platform/api/apiClient';

/** GET /Notification/Outbox: the club's outbox and delivery log, newest first (refreshed every 10 s). */
export function useOutbox(query: Partial<OutboxQuery>) {
  return useQuery({
    queryKey: ['notificationOutbox', query],
    queryFn: () => api.call(contract.notifications.outbox, { query }),
    refetchInterval: 10_000,
  });
}

/** GET /Notification/Transport: SMTP or the outbox, an SMS provider or the outbox. */
export function useTransport() {
  return useQuery({
    queryKey: ['notificationTransport'],
    queryFn: () => api.call(contract.notifications.transport),
    staleTime: 60_000,
  });
}
