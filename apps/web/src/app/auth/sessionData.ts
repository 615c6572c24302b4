import { contract, type Capacity, type Group } from '@venue/domain';
import { api } from '../api/apiClient';
import type { SessionData } from './AuthProvider';

/** What the console reads after sign-in (seed 000 §7 "At startup after login"): user, club, capacities, groups. */
export async function loadSessionData(): Promise<SessionData> {
  const user = await api.call(contract.account.current);
  const club = await api.call(contract.club.current);
  const [capacities, groups] = await Promise.all([
    api.call(contract.club.capacities).catch(() => [] as Capacity[]),
    // The group list feeds selects; a user without the group permission still works.
    api
      .call(contract.groups.list)
      .then((p) => p.items as Group[])
      .catch(() => [] as Group[]),
  ]);
  return { user, club, capacities, groups };
}
