import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { contract, type OperatorClubInput, type OperatorClubListQuery } from '@venue/domain';
import { api } from '../../app/api/apiClient';

/** Query key of the operator's club list (every filter below it). */
const CLUBS_KEY = ['operatorClubs'] as const;

/** GET /Operator/Club with the filter (docs/operator.md). */
export function useOperatorClubs(filter: OperatorClubListQuery) {
  return useQuery({
    queryKey: [...CLUBS_KEY, filter],
    queryFn: () => api.call(contract.operatorClubs.list, { query: filter }),
  });
}

/** POST /Operator/Club: the new club and its admin's one-time password. */
export function useCreateClub() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: OperatorClubInput) => api.call(contract.operatorClubs.create, { body }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: CLUBS_KEY }),
  });
}

/** POST /Operator/Club/{id}/Disable or /Enable. */
export function useSetClubDisabled() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { id: number; disabled: boolean }) =>
      api.call(v.disabled ? contract.operatorClubs.disable : contract.operatorClubs.enable, {
        params: { id: v.id },
      }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: CLUBS_KEY }),
  });
}
