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
import { clubs, users } from '../db/schema.js';
import type { Db } from '../db/index.js';

/*
 * Who the caller is, for the sign-in hook (plugins/auth.ts), the console's
 * live socket (realtime/live.ts) and the services that answer with the
 * caller's rights (account, terminals).
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
 * The user a verified token's claims name, or null when the user is gone,
 * disabled, or the token's version was revoked (DESIGN §10). Shared by the
 * request hook and the console's live socket (realtime/live.ts).
 */
export async function userOfToken(
  db: Db,
  claims: { sub: number; tv: number },
): Promise<typeof users.$inferSelect | null> {
  const [u] = await db.select().from(users).where(eq(users.id, claims.sub)).limit(1);
  if (!u || u.disabled || u.tokenVersion !== claims.tv) return null;
  return u;
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
