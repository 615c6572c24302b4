import { useCallback } from 'react';
import { can, type Access } from '@venue/domain';
import { useAuth } from './AuthProvider';

/**
 * The one access policy of `@venue/domain` (`can`) for the signed-in user:
 * `const allowed = useCan(); allowed({ edit: 'clients' })`. The server
 * enforces the same function on every route; the console only mirrors it
 * (DESIGN §6). Before the session has loaded, everything is refused.
 */
export function useCan(): (access: Access) => boolean {
  const { data } = useAuth();
  return useCallback(
    (access: Access) => {
      if (!data) return false;
      const { user, club, capacities } = data;
      return can(
        {
          permissions: user,
          role: user.role,
          level: user.level,
          club: { externalClubId: club.externalClubId, settings: club, capacities: capacities.map((c) => c.capacity) },
        },
        access,
      );
    },
    [data],
  );
}
