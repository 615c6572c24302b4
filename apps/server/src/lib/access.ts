import { eq } from 'drizzle-orm';
import {
  allPermissions,
  ClubSettings,
  PERMISSION_FLAGS,
  type AccessContext,
  type Capacity,
  type Permissions,
} from '@venue/domain';
import type { Actor } from './actor.js';
import { clubs } from '../db/schema.js';
import type { Db } from '../db/index.js';

/*
 * What the caller may do, for the sign-in hook (plugins/auth.ts), the
 * console's live socket (realtime/live.ts) and the services that answer with
 * the caller's rights (account, terminals). Who the caller is comes from the
 * session (lib/sessions.ts `sessionOfToken`).
 */

/** Effective permission flags of a user row. */
export function effectivePermissions(u: { isAdmin: boolean; permissions: unknown }): Permissions {
  if (u.isAdmin) return allPermissions(true);
  const stored = (u.permissions ?? {}) as Partial<Permissions>;
  const p = allPermissions(false);
  for (const f of PERMISSION_FLAGS) p[f] = stored[f] === true;
  return p;
}

/**
 * The caller as the access policy sees it; with `withClub`, also the club's
 * class, settings (seed 000 §3 defaults applied) and capacities that the
 * navigation rules read — one query.
 */
export async function accessContext(db: Db, auth: Actor, withClub: boolean): Promise<AccessContext> {
  const ctx: AccessContext = { permissions: auth.permissions, role: auth.role, level: auth.level };
  if (!withClub || !auth.clubId) return ctx;
  const [c] = await db
    .select({ settings: clubs.settings, capacities: clubs.capacities })
    .from(clubs)
    .where(eq(clubs.id, auth.clubId))
    .limit(1);
  if (!c) return ctx;
  const settings = ClubSettings.parse(c.settings ?? {});
  ctx.club = {
    externalClubId: auth.externalClubId,
    settings,
    capacities: ((c.capacities as Capacity[] | null) ?? []).map((x) => x.capacity),
  };
  return ctx;
}
