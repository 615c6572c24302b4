import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { contract } from '@venue/domain';
import type { CitiesQuery, ClubPatch } from '@venue/domain';
import { api } from '../../platform/api/apiClient';
import { SESSION_QUERY_KEY } from '../../platform/auth/AuthProvider';

/** GET /Reference/Cities?country=: the city list of a country (reference data of seed 000 §3). */
export function useCities(country: string | undefined) {
  return useQuery({
    queryKey: ['reference', 'cities', country],
    queryFn: () => api.call(contract.reference.cities, { query: { country: country as CitiesQuery['country'] } }),
    enabled: !!country,
    staleTime: Infinity,
  });
}

/** GET /Club/GetCurrent, fresh (the session copy may be minutes old). */
export function useClub() {
  return useQuery({ queryKey: ['club', 'current'], queryFn: () => api.call(contract.club.current) });
}

/** PATCH /Club/{id} with only the changed settings; the session's club is reloaded after. */
export function useUpdateClub() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: ClubPatch }) =>
      api.call(contract.club.update, { params: { id }, body }),
    onSuccess: (club) => {
      qc.setQueryData(['club', 'current'], club);
      void qc.invalidateQueries({ queryKey: SESSION_QUERY_KEY });
      // The retention card and the reports' notice follow the privacy settings (docs/privacy.md).
      void qc.invalidateQueries({ queryKey: ['privacy', 'retention'] });
    },
  });
}
