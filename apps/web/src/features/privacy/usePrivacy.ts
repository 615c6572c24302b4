import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { contract } from '@venue/domain';
import { api } from '../../platform/api/apiClient';

/** API hooks of privacy (issue 39, docs/privacy.md): retention status, who opened a record, erasure. */
export const useRetention = () =>
  useQuery({ queryKey: ['privacy', 'retention'], queryFn: () => api.call(contract.privacy.retention, {}) });

export const useClientAccess = (id: number) =>
  useQuery({
    queryKey: ['privacy', 'access', id],
    queryFn: () => api.call(contract.privacy.accessOfClient, { params: { id } }),
  });

export function useRunRetention() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api.call(contract.privacy.runRetention, { body: {} }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['privacy', 'retention'] }),
  });
}

export function useEraseClient(id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (confirmNumber: number) =>
      api.call(contract.privacy.erase, { params: { id }, body: { confirmNumber } }),
    onSuccess: () => qc.invalidateQueries(),
  });
}
