import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { contract } from '@venue/domain';
import type {
  Inventory,
  LiveMessage,
  Terminal,
  TerminalActionName,
  TerminalInput,
  TerminalPatch,
  TerminalScreenView,
} from '@venue/domain';
import { api, type Page } from '../../platform/api/apiClient';
import { useLiveMessages } from '../../platform/live/LiveProvider';

export const TERMINALS_KEY = ['terminals'] as const;
const terminalKey = (id: number) => ['terminal', id] as const;

/** Applies a live terminal or door message to a terminal shown anywhere (list or details). */
function applyLive(qc: QueryClient, msg: LiveMessage): void {
  if (msg.type !== 'terminal' && msg.type !== 'door') return;
  const patch = (x: Terminal): Terminal =>
    msg.type === 'terminal'
      ? {
          ...x,
          connected: msg.connected,
          lastConnection: msg.connected ? new Date().toISOString() : x.lastConnection,
        }
      : { ...x, doorState: msg.doorState };
  qc.setQueryData<Page<Terminal>>(TERMINALS_KEY, (old) =>
    old ? { ...old, items: old.items.map((x) => (x.id === msg.terminalId ? patch(x) : x)) } : old,
  );
  qc.setQueryData<Terminal>(terminalKey(msg.terminalId), (old) => (old ? patch(old) : old));
  if (msg.type === 'terminal') void qc.invalidateQueries({ queryKey: ['terminal-devices', msg.terminalId] });
}

/** GET /Terminal, kept current by the live feed's terminal and door messages. */
export function useTerminalList(opts: { deleted?: boolean } = {}) {
  const qc = useQueryClient();
  useLiveMessages((msg) => applyLive(qc, msg));
  const deleted = opts.deleted === true;
  return useQuery({
    queryKey: deleted ? [...TERMINALS_KEY, 'deleted'] : TERMINALS_KEY,
    queryFn: () => api.call(contract.terminals.list, { query: deleted ? { deleted: true } : undefined }),
  });
}

/** GET /Terminal/{id}, kept current by the live feed. */
export function useTerminal(id: number) {
  const qc = useQueryClient();
  useLiveMessages((msg) => applyLive(qc, msg));
  return useQuery({ queryKey: terminalKey(id), queryFn: () => api.call(contract.terminals.get, { params: { id } }) });
}

/** GET /Terminal/GetConnectedDevices/{id}. */
export function useConnectedDevices(id: number) {
  return useQuery({
    queryKey: ['terminal-devices', id],
    queryFn: () => api.call(contract.terminals.connectedDevices, { params: { id } }),
  });
}

/** GET /Terminal/GetCashBoxStatus/{id}, refreshed when the live feed reports cash at this terminal. */
export function useCashBoxStatus(id: number) {
  const qc = useQueryClient();
  useLiveMessages((msg) => {
    if (msg.type === 'cash' && msg.terminalId === id) void qc.invalidateQueries({ queryKey: ['terminal-cash', id] });
  });
  return useQuery({
    queryKey: ['terminal-cash', id],
    queryFn: () => api.call(contract.terminals.cashBox, { params: { id } }),
  });
}

function useInvalidateTerminals() {
  const qc = useQueryClient();
  return (id?: number) => {
    void qc.invalidateQueries({ queryKey: TERMINALS_KEY });
    if (id != null) void qc.invalidateQueries({ queryKey: terminalKey(id) });
  };
}

/** POST /Terminal: the answer carries the terminal's secret, shown once. */
export function useCreateTerminal() {
  const invalidate = useInvalidateTerminals();
  return useMutation({
    mutationFn: (body: TerminalInput) => api.call(contract.terminals.create, { body }),
    onSuccess: () => invalidate(),
  });
}

/** PATCH /Terminal/{id} {approved: true}. */
export function useApproveTerminal() {
  const invalidate = useInvalidateTerminals();
  return useMutation({
    mutationFn: (id: number) => api.call(contract.terminals.update, { params: { id }, body: { approved: true } }),
    onSuccess: (t) => invalidate(t.id),
  });
}

/** PATCH /Terminal/{id}. */
export function useUpdateTerminal(id: number) {
  const qc = useQueryClient();
  const invalidate = useInvalidateTerminals();
  return useMutation({
    mutationFn: (body: TerminalPatch) => api.call(contract.terminals.update, { params: { id }, body }),
    onSuccess: (t) => {
      qc.setQueryData(terminalKey(id), t);
      invalidate();
    },
  });
}

/** DELETE /Terminal/{id} and PATCH /Terminal/Restore/{id}. */
export function useDeleteRestoreTerminal(id: number) {
  const invalidate = useInvalidateTerminals();
  const del = useMutation({
    mutationFn: () => api.call(contract.terminals.remove, { params: { id } }),
    onSuccess: () => invalidate(id),
  });
  const restore = useMutation({
    mutationFn: () => api.call(contract.terminals.restore, { params: { id } }),
    onSuccess: () => invalidate(id),
  });
  return { del, restore };
}

/** POST /Terminal/TerminalActionWithReply: the terminal's own answer, or 503 "No terminal connection". */
export function useTerminalAction(id: number) {
  return useMutation({
    mutationFn: (a: { actionName: TerminalActionName; data?: unknown }) =>
      api.call(contract.terminals.actionWithReply, { body: { targetId: id, ...a } }),
  });
}

/** POST /Terminal/CreateResetCashLevels and /Terminal/LoadCash/{id}. */
export function useCashActions(id: number) {
  const qc = useQueryClient();
  const refresh = () => void qc.invalidateQueries({ queryKey: ['terminal-cash', id] });
  const reset = useMutation({
    mutationFn: () => api.call(contract.terminals.resetCash, { body: { terminalId: id } }),
    onSuccess: refresh,
  });
  const load = useMutation({
    mutationFn: (body: { coins: Inventory; bills: Inventory }) =>
      api.call(contract.terminals.loadCash, { params: { id }, body }),
    onSuccess: refresh,
  });
  return { reset, load };
}

/**
 * Remote view: GET /Terminal/GetScreen/{id}, replaced by every live `screen` message of the
 * terminal (docs/terminal-protocol.md "Remote view"). Only for users who may control terminals.
 */
export function useTerminalScreen(id: number, enabled: boolean) {
  const qc = useQueryClient();
  useLiveMessages((msg) => {
    if (msg.type !== 'screen' || msg.terminalId !== id) return;
    qc.setQueryData<TerminalScreenView>(['terminal-screen', id], (old) => ({
      terminalId: id,
      connected: old?.connected ?? true,
      screen: msg.screen,
      at: msg.at,
      receivedAt: msg.receivedAt,
    }));
  });
  return useQuery({
    queryKey: ['terminal-screen', id],
    queryFn: () => api.call(contract.terminals.screen, { params: { id } }),
    enabled,
  });
}
