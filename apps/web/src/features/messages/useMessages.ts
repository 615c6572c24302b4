import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { contract, type GlobalMessageInput, type GlobalMessagePatch } from '@venue/domain';
import { api } from '../../platform/api/apiClient';
import { useSessionData } from '../../platform/auth/AuthProvider';
import { useLiveMessages } from '../../platform/live/LiveProvider';

/** Query keys of the inbox (every key starts with it, so one invalidation refreshes all). */
export const INBOX_KEY = ['globalMessages'] as const;
const OPERATOR_KEY = ['globalMessagesOperator'] as const;

/**
 * Messages published later than they were written reach the inbox on this
 * refresh (a message published at once comes over the live feed).
 */
const REFRESH_MS = 5 * 60_000;

/** The caller's own inbox path parameters: their club and their user id (docs/messages.md). */
function useInboxParams() {
  const { user, club } = useSessionData();
  return { externalClubId: club.externalClubId, userId: user.id };
}

/** GET /GlobalMessage/GetUnreadMessages/{externalClubId}/{userId}: the bell's count and the sign-in popups. */
export function useUnreadMessages() {
  const params = useInboxParams();
  return useQuery({
    queryKey: [...INBOX_KEY, 'unread', params],
    queryFn: () => api.call(contract.globalMessages.unread, { params }),
    refetchInterval: REFRESH_MS,
  });
}

/** GET /GlobalMessage/GetAllMessagesByUser/{externalClubId}/{userId}: the inbox with read status. */
export function useInboxMessages() {
  const params = useInboxParams();
  return useQuery({
    queryKey: [...INBOX_KEY, 'all', params],
    queryFn: () => api.call(contract.globalMessages.allByUser, { params }),
  });
}

/** PUT UpdateMessageStatus (one id) or MarkAllMessagesAsRead (no id). */
export function useMarkRead() {
  const params = useInboxParams();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (messageId?: number) =>
      messageId != null
        ? api.call(contract.globalMessages.markRead, { params: { ...params, messageId } })
        : api.call(contract.globalMessages.markAllRead, { params }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: INBOX_KEY }),
  });
}

/** A new message pushed on the live feed refreshes the inbox at once (no reload). */
export function useInboxLive(): void {
  const qc = useQueryClient();
  useLiveMessages((m) => {
    if (m.type === 'message') void qc.invalidateQueries({ queryKey: INBOX_KEY });
  });
}

/** GET /GlobalMessage (operator). */
export function useOperatorMessages() {
  return useQuery({ queryKey: OPERATOR_KEY, queryFn: () => api.call(contract.globalMessages.list) });
}

/** POST /GlobalMessage or PATCH /GlobalMessage/{id} (operator). */
export function useSaveGlobalMessage() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { id?: number; body: GlobalMessageInput | GlobalMessagePatch }) =>
      v.id != null
        ? api.call(contract.globalMessages.update, { params: { id: v.id }, body: v.body })
        : api.call(contract.globalMessages.create, { body: v.body as GlobalMessageInput }),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: OPERATOR_KEY });
      void qc.invalidateQueries({ queryKey: INBOX_KEY });
    },
  });
}
