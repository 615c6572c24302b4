import { useCallback, useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { contract, type CurrentUser } from '@venue/domain';
import { api } from '../platform/api/apiClient';
import { SESSION_QUERY_KEY, useAuth, type SessionData } from '../platform/auth/AuthProvider';

/**
 * The saved state of one data grid (seed 000 §3 "dataGridStates"): column
 * order, widths and visibility, the sort and the screen's own filters. It is
 * stored per user on the server (PATCH /api/User/UpdateDataGridStates/{id})
 * and comes back with GET /api/Account/GetCurrent on the next sign-in.
 */
export interface GridColumnState {
  key: string;
  hidden?: boolean;
  /** Pixels. */
  width?: number;
}
export interface GridSort {
  key: string;
  order: 'asc' | 'desc';
}
export interface GridState<F = Record<string, unknown>> {
  /** Every column the user has arranged, in display order. */
  columns?: GridColumnState[];
  sort?: GridSort | null;
  filters?: Partial<F>;
  pageSize?: number;
}

/** How long the grid waits after the last change before it saves (ms). */
export const GRID_SAVE_DELAY_MS = 800;

let pendingUserId: number | null = null;
let pendingStates: Record<string, unknown> | null = null;
let timer: number | null = null;

function flush(): void {
  if (timer != null) window.clearTimeout(timer);
  timer = null;
  if (pendingUserId == null || pendingStates == null) return;
  const id = pendingUserId;
  const dataGridStates = pendingStates;
  pendingStates = null;
  // A failed save only loses layout preferences; the screen keeps working.
  void api.call(contract.users.gridStates, { params: { id }, body: { dataGridStates } }).catch(() => undefined);
}

if (typeof window !== 'undefined') window.addEventListener('pagehide', flush);

function isGridState(v: unknown): v is GridState {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The saved state of grid `gridId` and a setter that saves it (debounced,
 * all grids of the user in one record). The session cache is updated at once,
 * so leaving and re-opening a screen restores it without a reload.
 */
export function useGridState<F = Record<string, unknown>>(
  gridId: string,
): [GridState<F>, (update: (s: GridState<F>) => GridState<F>) => void] {
  const { data, session } = useAuth();
  const qc = useQueryClient();
  const user: CurrentUser | undefined = data?.user;
  const [state, setState] = useState<GridState<F>>(() => {
    const saved = user?.dataGridStates?.[gridId];
    return isGridState(saved) ? (saved as GridState<F>) : {};
  });
  const userRef = useRef(user);
  userRef.current = user;
  const stateRef = useRef(state);

  const update = useCallback(
    (fn: (s: GridState<F>) => GridState<F>) => {
      const next = fn(stateRef.current);
      stateRef.current = next;
      setState(next);
      const u = userRef.current;
      if (!u) return;
      const key = [...SESSION_QUERY_KEY, session?.token ?? ''];
      const all = { ...(pendingStates ?? u.dataGridStates ?? {}), [gridId]: next };
      qc.setQueryData<SessionData>(key, (old) => (old ? { ...old, user: { ...old.user, dataGridStates: all } } : old));
      pendingUserId = u.id;
      pendingStates = all;
      if (timer != null) window.clearTimeout(timer);
      timer = window.setTimeout(flush, GRID_SAVE_DELAY_MS);
    },
    [gridId, qc, session?.token],
  );

  // Save what is pending when the screen goes away (navigation inside the console).
  useEffect(() => () => flush(), []);

  return [state, update];
}
