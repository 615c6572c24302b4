import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { contract, type EmployeePositionInput } from '@venue/domain';
import { api } from '../../platform/api/apiClient';

/** Query key of the club's positions (shared with the user form's position select). */
export const POSITIONS_KEY = ['employee-positions'] as const;

/** GET /EmployeePosition: the club's positions by name, each with how many users hold it. */
export function usePositionList() {
  return useQuery({ queryKey: POSITIONS_KEY, queryFn: () => api.call(contract.employeePositions.list) });
}

/** POST /EmployeePosition or PUT /EmployeePosition/{id}. */
export function useSavePosition() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: EmployeePositionInput }) =>
      id == null
        ? api.call(contract.employeePositions.create, { body })
        : api.call(contract.employeePositions.update, { params: { id }, body }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: POSITIONS_KEY }),
  });
}

/** DELETE /EmployeePosition/{id}; POSITION_IN_USE (409) while users hold it. */
export function useDeletePosition() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.call(contract.employeePositions.remove, { params: { id } }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: POSITIONS_KEY }),
  });
}
