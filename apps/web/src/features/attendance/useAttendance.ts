import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  contract,
  type AttendanceLogInput,
  type AttendanceLogQuery,
  type EmployeePositionAssignment,
} from '@venue/domain';
import { api } from '../../platform/api/apiClient';

const ATTENDANCE_KEY = ['attendance'] as const;

/** POST /AttendanceLog/GetAttendanceLogs with the screen's filter (days, employee, page). */
export function useAttendanceList(filter: Partial<AttendanceLogQuery>) {
  return useQuery({
    queryKey: [...ATTENDANCE_KEY, 'list', filter],
    queryFn: () => api.call(contract.attendance.list, { body: filter }),
  });
}

/** Who is in now: the open shifts (entry, no exit), refreshed every minute. */
export function usePresentNow() {
  return useQuery({
    queryKey: [...ATTENDANCE_KEY, 'present'],
    queryFn: () => api.call(contract.attendance.list, { body: { openOnly: true, pageSize: 500 } }),
    refetchInterval: 60_000,
  });
}

/** GET /AttendanceLog/GetEmployees: the employee picker. */
export function useEmployees() {
  return useQuery({
    queryKey: [...ATTENDANCE_KEY, 'employees'],
    queryFn: () => api.call(contract.attendance.employees),
  });
}

/** POST CreateAttendanceLog or PUT UpdateAttendanceLog. */
export function useSaveAttendance() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: AttendanceLogInput }) =>
      id == null
        ? api.call(contract.attendance.create, { body })
        : api.call(contract.attendance.update, { body: { ...body, id } }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ATTENDANCE_KEY }),
  });
}

/** PUT SetEmployeePosition: an employee's position (the payroll rate). */
export function useSetEmployeePosition() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: EmployeePositionAssignment) => api.call(contract.attendance.setPosition, { body }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ATTENDANCE_KEY }),
  });
}
