import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Group, GroupInput, ScheduleRow } from '@venue/domain';
import { api, type Page } from '../../app/api/apiClient';
import { SESSION_QUERY_KEY } from '../../app/auth/AuthProvider';

export const GROUPS_KEY = ['groups'] as const;

/** GET /Group: every group of the club (a short list; no paging). */
export function useGroupList() {
  return useQuery({ queryKey: GROUPS_KEY, queryFn: () => api.get<Page<Group>>('/Group') });
}

/** GET /Group/{id} with its schedule rows in list order. */
export function useGroup(id: number | null) {
  return useQuery({
    queryKey: [...GROUPS_KEY, id],
    queryFn: () => api.get<Group>(`/Group/${id}`),
    enabled: id != null,
  });
}

/** POST /Group or PATCH /Group/{id}; the schedule is saved with the group (seed 001 §4). */
export function useSaveGroup() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: GroupInput }) =>
      id == null ? api.post<Group>('/Group', body) : api.patch<Group>(`/Group/${id}`, body),
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
    mutationFn: (id: number) => api.delete<{ ok: true }>(`/Group/${id}`),
    onSuccess: () => void qc.invalidateQueries({ queryKey: GROUPS_KEY }),
  });
}

export type { ScheduleRow };
