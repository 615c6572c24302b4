import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Club, ClubPatch } from '@venue/domain';
import { api } from '../../app/api/apiClient';
import { SESSION_QUERY_KEY } from '../../app/auth/AuthProvider';

/** GET /Reference/Cities?country=: the city list of a country (reference data of seed 000 §3). */
export function useCities(country: string | undefined) {
  return useQuery({
    queryKey: ['reference', 'cities', country],
    queryFn: () => api.get<string[]>('/Reference/Cities', { country }),
    enabled: !!country,
    staleTime: Infinity,
  });
}

/** GET /Club/GetCurrent, fresh (the session copy may be minutes old). */
export function useClub() {
  return useQuery({ queryKey: ['club', 'current'], queryFn: () => api.get<Club>('/Club/GetCurrent') });
}

/** PATCH /Club/{id} with only the changed settings; the session's club is reloaded after. */
export function useUpdateClub() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: ClubPatch }) => api.patch<Club>(`/Club/${id}`, body),
    onSuccess: (club) => {
      qc.setQueryData(['club', 'current'], club);
      void qc.invalidateQueries({ queryKey: SESSION_QUERY_KEY });
    },
  });
}
