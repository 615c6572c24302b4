import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { GeneralScheduleInput, ScheduleWithLinks } from '@venue/domain';

interface ScheduleLink {
  id: number;
  scheduleId: number;
  groupId: number;
}
import { api } from '../../app/api/apiClient';

export const SCHEDULES_KEY = ['schedules'] as const;

/** GET /Schedule/GetGeneral: general rows with the groups they are linked to. */
export function useGeneralSchedules() {
  return useQuery({
    queryKey: [...SCHEDULES_KEY, 'general'],
    queryFn: () => api.get<ScheduleWithLinks[]>('/Schedule/GetGeneral'),
  });
}

function useInvalidate() {
  const qc = useQueryClient();
  return () => {
    void qc.invalidateQueries({ queryKey: SCHEDULES_KEY });
    void qc.invalidateQueries({ queryKey: ['groups'] });
  };
}

/** POST /Schedule or PATCH /Schedule/{id} (whole row). */
export function useSaveSchedule() {
  const done = useInvalidate();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: GeneralScheduleInput }) =>
      id == null
        ? api.post<ScheduleWithLinks>('/Schedule', body)
        : api.patch<ScheduleWithLinks>(`/Schedule/${id}`, body),
    onSuccess: done,
  });
}

/** DELETE /Schedule/{id} (with its links). */
export function useDeleteSchedule() {
  const done = useInvalidate();
  return useMutation({ mutationFn: (id: number) => api.delete<{ ok: true }>(`/Schedule/${id}`), onSuccess: done });
}

/** POST /ScheduleToGroup and DELETE /ScheduleToGroup/{id}. */
export function useLinkSchedule() {
  const done = useInvalidate();
  return useMutation({
    mutationFn: (body: { scheduleId: number; groupId: number }) => api.post<ScheduleLink>('/ScheduleToGroup', body),
    onSuccess: done,
  });
}
export function useUnlinkSchedule() {
  const done = useInvalidate();
  return useMutation({
    mutationFn: (linkId: number) => api.delete<{ ok: true }>(`/ScheduleToGroup/${linkId}`),
    onSuccess: done,
  });
}
