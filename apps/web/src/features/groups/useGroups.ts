import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { contract } from '@venue/domain';
import type { Group, GroupInput, ScheduleRow } from '@venue/domain';
import { api, type Page } from '../../platform/api/apiClient';
import { SESSION_QUERY_KEY } from '../../platform/auth/AuthProvider';
import { useCan } from '../../platform/auth/useCan';

export const GROUPS_KEY = ['groups'] as const;

/**
 * GET /Group: every group of the club (a short list; no paging). Asked only by a user the
 * route allows (`allowed`; a cashier who may edit clients but not view groups gets no 403,
 * issue 35): the screens leave out, or show read-only, what needs the list.
 */
export function useGroupList() {
  const allowed = useCan()({ route: contract.groups.list.access });
  const query = useQuery({
    queryKey: GROUPS_KEY,
    queryFn: () => api.call(contract.groups.list) as Promise<Page<Group>>,
    enabled: allowed,
  });
  return { ...query, allowed };
}

/** GET /Group/{id} with its schedule rows in list order. */
export function useGroup(id: number | null) {
  return useQuery({
    queryKey: [...GROUPS_KEY, id],
    queryFn: () => api.call(contract.groups.get, { params: { id: id as number } }) as Promise<Group>,
    enabled: id != null,
  });
}

/** POST /Group or PATCH /Group/{id}; the schedule is saved with the group (seed 001 §4). */
export function useSaveGroup() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: GroupInput }) =>
      id == null
        ? (api.call(contract.groups.create, { body }) as Promise<Group>)
        : (api.call(contract.groups.update, { params: { id }, body }) as Promise<Group>),
    onSuccess: (g) => {
      qc.setQueryData([...GROUPS_KEY, g.id], g);
      void qc.invalidateQueries({ queryKey: GROUPS_KEY, exact: true });
      void qc.invalidateQueries({ queryKey: SESSION_QUERY_KEY });
    },
  });
}

export function useDeleteGroup() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.call(contract.groups.remove, { params: { id } }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: GROUPS_KEY }),
  });
}

export type { ScheduleRow };

/** GET /Group/StateNow: each group open or closed now by its schedule; refreshed every minute. */
export function useGroupsStateNow() {
  const allowed = useCan()({ route: contract.groups.stateNow.access });
  return useQuery({
    queryKey: ['groups', 'state-now'],
    queryFn: () => api.call(contract.groups.stateNow),
    refetchInterval: 60_000,
    enabled: allowed,
  });
}
