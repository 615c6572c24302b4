import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Terminal, TerminalInput } from '@venue/domain';
import { api, type Page } from '../../app/api/apiClient';
import { useLiveMessages } from '../../app/live/LiveProvider';

export const TERMINALS_KEY = ['terminals'] as const;

/** GET /Terminal, kept current by the live feed's terminal messages. */
export function useTerminalList() {
  const qc = useQueryClient();
  useLiveMessages((msg) => {
    if (msg.type !== 'terminal') return;
    qc.setQueryData<Page<Terminal>>(TERMINALS_KEY, (old) =>
      old
        ? {
            ...old,
            items: old.items.map((x) =>
              x.id === msg.terminalId
                ? {
                    ...x,
                    connected: msg.connected,
                    lastConnection: msg.connected ? new Date().toISOString() : x.lastConnection,
                  }
                : x,
            ),
          }
        : old,
    );
  });
  return useQuery({ queryKey: TERMINALS_KEY, queryFn: () => api.get<Page<Terminal>>('/Terminal') });
}

/** POST /Terminal: the answer carries the terminal's secret, shown once. */
export function useCreateTerminal() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: TerminalInput) => api.post<Terminal & { secret: string }>('/Terminal', body),
    onSuccess: () => void qc.invalidateQueries({ queryKey: TERMINALS_KEY }),
  });
}

/** PATCH /Terminal/{id} {approved: true}. */
export function useApproveTerminal() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.patch<Terminal>(`/Terminal/${id}`, { approved: true }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: TERMINALS_KEY }),
  });
}
