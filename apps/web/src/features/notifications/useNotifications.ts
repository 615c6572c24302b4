import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  contract,
  type NotificationSettings,
  type OutboxQuery,
  type TemplateParams,
  type TemplatePreviewInput,
} from '@venue/domain';
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

/** GET /Notification/Settings. */
export function useNoticeSettings() {
  return useQuery({ queryKey: ['notificationSettings'], queryFn: () => api.call(contract.notifications.getSettings) });
}

/** PUT /Notification/Settings. */
export function useSaveNoticeSettings() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: NotificationSettings) => api.call(contract.notifications.saveSettings, { body }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ['notificationSettings'] }),
  });
}

/** GET /Notification/Template: every wording of the club. */
export function useTemplates() {
  return useQuery({ queryKey: ['notificationTemplates'], queryFn: () => api.call(contract.notifications.templates) });
}

/** PUT /Notification/Template and POST /Notification/Template/Reset. */
export function useTemplateActions() {
  const qc = useQueryClient();
  const done = () => void qc.invalidateQueries({ queryKey: ['notificationTemplates'] });
  return {
    save: useMutation({
      mutationFn: (body: TemplatePreviewInput) => api.call(contract.notifications.saveTemplate, { body }),
      onSuccess: done,
    }),
    reset: useMutation({
      mutationFn: (body: TemplateParams) => api.call(contract.notifications.resetTemplate, { body }),
      onSuccess: done,
    }),
    preview: useMutation({
      mutationFn: (body: TemplatePreviewInput) => api.call(contract.notifications.preview, { body }),
    }),
  };
}
