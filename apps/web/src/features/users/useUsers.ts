import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { contract } from '@venue/domain';
import type { UserInput, UserPatch } from '@venue/domain';
import { api } from '../../platform/api/apiClient';
import { POSITIONS_KEY } from '../employee-positions/useEmployeePositions';

const USERS_KEY = ['users'] as const;

/** GET /User: the club's staff users (admins only). */
export function useUserList() {
  return useQuery({ queryKey: USERS_KEY, queryFn: () => api.call(contract.users.list) });
}

/** POST /User or PATCH /User/{id}. */
export function useSaveUser() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: UserInput | UserPatch }) =>
      id == null
        ? api.call(contract.users.create, { body: body as UserInput })
        : api.call(contract.users.update, { params: { id }, body }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: USERS_KEY }),
  });
}

/** GET /EmployeePosition, for the user form's position select (the positions screen's query, shared). */
export function useEmployeePositions() {
  return useQuery({
    queryKey: POSITIONS_KEY,
    queryFn: () => api.call(contract.employeePositions.list),
    select: (d) => d.items,
  });
}
