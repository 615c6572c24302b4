import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { contract } from '@venue/domain';
import type { TerminalMessageInput, TerminalMessagePatch } from '@venue/domain';
import { api } from '../../platform/api/apiClient';

const KEY = ['terminalMessages'] as const;

/** GET /TerminalMessage (docs/api-gate.md). */
export function useTerminalMessages() {
  return useQuery({ queryKey: KEY, queryFn: () => api.call(contract.terminalMessages.list) });
}

/** POST /TerminalMessage and PATCH /TerminalMessage/{id}; both are pushed to the club's terminals by the server. */
export function useSaveTerminalMessage() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { id?: number; body: TerminalMessageInput | TerminalMessagePatch }) =>
      v.id != null
        ? api.call(contract.terminalMessages.update, { params: { id: v.id }, body: v.body })
        : api.call(contract.terminalMessages.create, { body: v.body as TerminalMessageInput }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: KEY }),
  });
}
