import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { contract, type AreaInput, type AreaPatch } from '@venue/domain';
import { api } from '../../platform/api/apiClient';
import { useLiveMessages } from '../../platform/live/LiveProvider';

/** API hooks of live occupancy (docs/gate-safety.md "Occupancy"); the entries are `contract.occupancy`. */
export const OCCUPANCY_KEY = ['occupancy'] as const;

/** Refetches the occupancy views a second after entrances arrive on the live feed (bursts coalesced). */
function useRefreshOnEntrances() {
  const queryClient = useQueryClient();
  useLiveMessages((m) => {
    if (m.type === 'entrance') void queryClient.invalidateQueries({ queryKey: OCCUPANCY_KEY });
  });
}

/** Inside now per area, in all, and the day's curve (also refreshed every 30 s: exits are not on the feed). */
export function useOccupancyNow(enabled = true) {
  useRefreshOnEntrances();
  return useQuery({
    queryKey: [...OCCUPANCY_KEY, 'now'],
    enabled,
    refetchInterval: 30_000,
    queryFn: () => api.call(contract.occupancy.now),
  });
}

/** Everyone inside now (names only with the permission to see clients). */
export function useInside() {
  useRefreshOnEntrances();
  return useQuery({
    queryKey: [...OCCUPANCY_KEY, 'inside'],
    refetchInterval: 30_000,
    queryFn: () => api.call(contract.occupancy.inside),
  });
}

/** The club's areas. */
export function useAreas() {
  return useQuery({ queryKey: [...OCCUPANCY_KEY, 'areas'], queryFn: () => api.call(contract.occupancy.areas) });
}

/** The attendant checks a client out. */
export function useCheckOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (clientId: number) => api.call(contract.occupancy.checkOut, { params: { id: clientId } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: OCCUPANCY_KEY }),
  });
}

/** Creates, changes or deletes an area. */
export function useAreaEdit() {
  const queryClient = useQueryClient();
  const done = () => queryClient.invalidateQueries({ queryKey: OCCUPANCY_KEY });
  return {
    create: useMutation({
      mutationFn: (body: AreaInput) => api.call(contract.occupancy.createArea, { body }),
      onSuccess: done,
    }),
    update: useMutation({
      mutationFn: ({ id, body }: { id: number; body: AreaPatch }) =>
        api.call(contract.occupancy.updateArea, { params: { id }, body }),
      onSuccess: done,
    }),
    remove: useMutation({
      mutationFn: (id: number) => api.call(contract.occupancy.deleteArea, { params: { id } }),
      onSuccess: done,
    }),
  };
}
