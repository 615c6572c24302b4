import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { contract } from '@venue/domain';
import type { GeneralScheduleInput } from '@venue/domain';
import { api } from '../../platform/api/apiClient';

export const SCHEDULES_KEY = ['schedules'] as const;

/** GET /Schedule/GetGeneral: general rows with the groups they are linked to. */
export function useGeneralSchedules() {
  return useQuery({
    queryKey: [...SCHEDULES_KEY, 'general'],
    queryFn: () => api.call(contract.schedules.general),
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
        ? api.call(contract.schedules.create, { body })
        : api.call(contract.schedules.update, { params: { id }, body }),
    onSuccess: done,
  });
}

/** DELETE /Schedule/{id} (with its links). */
export function useDeleteSchedule() {
  const done = useInvalidate();
  return useMutation({
    mutationFn: (id: number) => api.call(contract.schedules.remove, { params: { id } }),
    onSuccess: done,
  });
}

/** POST /ScheduleToGroup and DELETE /ScheduleToGroup/{id}. */
export function useLinkSchedule() {
  const done = useInvalidate();
  return useMutation({
    mutationFn: (body: { scheduleId: number; groupId: number }) => api.call(contract.schedules.link, { body }),
    onSuccess: done,
  });
}
export function useUnlinkSchedule() {
  const done = useInvalidate();
  return useMutation({
    mutationFn: (linkId: number) => api.call(contract.schedules.unlink, { params: { id: linkId } }),
    onSuccess: done,
  });
}
