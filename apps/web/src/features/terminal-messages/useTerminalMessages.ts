import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TerminalMessageInput, TerminalMessagePatch, TerminalMessageRecord } from '@venue/domain';
import { api, type Page } from '../../app/api/apiClient';

const KEY = ['terminalMessages'] as const;

/** GET /TerminalMessage (docs/api-gate.md). */
export function useTerminalMessages() {
  return useQuery({ queryKey: KEY, queryFn: () => api.get<Page<TerminalMessageRecord>>('/TerminalMessage') });
}

/** POST /TerminalMessage and PATCH /TerminalMessage/{id}; both are pushed to the club's terminals by the server. */
export function useSaveTerminalMessage() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { id?: number; body: TerminalMessageInput | TerminalMessagePatch }) =>
      v.id != null
        ? api.patch<TerminalMessageRecord>(`/TerminalMessage/${v.id}`, v.body)
        : api.post<TerminalMessageRecord>('/TerminalMessage', v.body),
    onSuccess: () => void qc.invalidateQueries({ queryKey: KEY }),
  });
}
