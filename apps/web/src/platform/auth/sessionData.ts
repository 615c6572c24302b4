import { contract, type Capacity, type Club, type CurrentUser, type Group } from '@venue/domain';
import { api } from '../api/apiClient';

/** What the console reads after sign-in (seed 000 §7 "At startup after login"). */
export interface SessionData {
  user: CurrentUser;
  club: Club;
  capacities: Capacity[];
  groups: Group[];
}

/**
 * What the console reads after sign-in (seed 000 §7 "At startup after login"):
 * user, club, capacities, groups — the four calls at once, not one after the
 * other (none needs another's answer; issue 19 load speed). A failed user or
 * club call fails the whole (AuthProvider then signs out).
 */
export async function loadSessionData(): Promise<SessionData> {
  const [user, club, capacities, groups] = await Promise.all([
    api.call(contract.account.current),
    api.call(contract.club.current),
    api.call(contract.club.capacities).catch(() => [] as Capacity[]),
    // The group list feeds selects; a user without the group permission still works.
    api
      .call(contract.groups.list)
      .then((p) => p.items as Group[])
      .catch(() => [] as Group[]),
  ]);
  return { user, club, capacities, groups };
}
