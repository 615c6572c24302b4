import { useEffect } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { contract, type SafetyCommand, type SafetyState } from '@venue/domain';
import { api } from '../../platform/api/apiClient';
import { useLiveMessages, useLiveStatus } from '../../platform/live/LiveProvider';

/** API hooks of the gate in an emergency (docs/gate-safety.md); the entries are `contract.gateSafety`. */
export const SAFETY_KEY = ['gate-safety'] as const;
const STATE_KEY = [...SAFETY_KEY, 'state'] as const;

/**
 * The club's emergency state, live: read once, then replaced by every `safety` message of the
 * live feed (a change made at any console or terminal reaches this screen at once), and read
 * again whenever the live link comes back (a change missed while it was down).
 */
export function useSafetyState() {
  const queryClient = useQueryClient();
  const status = useLiveStatus();
  const query = useQuery({ queryKey: STATE_KEY, queryFn: () => api.call(contract.gateSafety.state) });
  useLiveMessages((m) => {
    if (m.type === 'safety') queryClient.setQueryData<SafetyState>(STATE_KEY, m.state);
  });
  useEffect(() => {
    if (status === 'open') void queryClient.invalidateQueries({ queryKey: STATE_KEY });
  }, [status, queryClient]);
  return query;
}

/** The four emergency steps, by name. */
export type SafetyStepName = 'openAll' | 'releaseOpenAll' | 'lockdown' | 'releaseLockdown';

/** Starts or releases open-all or lockdown (the reason and the second step's confirmation in the body). */
export function useSafetyStep() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ step, body }: { step: SafetyStepName; body: SafetyCommand }) =>
      api.call(contract.gateSafety[step], { body }),
    onSuccess: (state) => queryClient.setQueryData<SafetyState>(STATE_KEY, state),
  });
}

/** The clients who pass a lockdown. */
export function useOverrides(enabled: boolean) {
  return useQuery({
    queryKey: [...SAFETY_KEY, 'overrides'],
    enabled,
    queryFn: () => api.call(contract.gateSafety.overrides),
  });
}

/** Grants or withdraws a client's lockdown override. */
export function useSetOverride() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ clientId, granted }: { clientId: number; granted: boolean }) =>
      api.call(granted ? contract.gateSafety.grantOverride : contract.gateSafety.withdrawOverride, {
        params: { id: clientId },
      }),
    onSuccess: (list) => queryClient.setQueryData([...SAFETY_KEY, 'overrides'], list),
  });
}
