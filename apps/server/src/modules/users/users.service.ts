import { asc, eq, sql } from 'drizzle-orm';
import type { Actor } from '../../lib/actor.js';
import {
  allPermissions,
  LATEST_TERMS_VERSION,
  PERMISSION_FLAGS,
  type Permissions,
  type User,
  type UserInput,
  type UserPatch,
} from '@venue/domain';
import type { Db, Tx } from '../../db/index.js';
import { users } from '../../db/schema.js';
import { audit } from '../../lib/audit.js';
import { AppError, notFound } from '../../lib/errors.js';
import { scoped } from '../../lib/scoped.js';
import { hashPassword } from '../../lib/password.js';
import { checkCurrentPassword } from '../account/account.service.js';
import { announceSessionEnd, endSessionRows, type SessionScope } from '../../lib/sessions.js';
import type { EventBus } from '../../lib/event-bus.js';
import { assertPositionOfClub } from '../employee-positions/employee-positions.service.js';
import { pgError, validationError } from '../../lib/validation.js';

type UserRow = typeof users.$inferSelect;

/** Stored flags of a user row (every flag present; roleIsAdmin mirrors the admin flag). */
function storedPermissions(r: Pick<UserRow, 'permissions' | 'isAdmin'>): Permissions {
  const p = allPermissions(false);
  const stored = r.permissions ?? {};
  for (const f of PERMISSION_FLAGS) p[f] = stored[f] === true;
  p.roleIsAdmin = r.isAdmin;
  return p;
}

/** Maps a user row to the API shape (seed 001 §3 "User"): never the password hash, the signature or token data. */
export function presentUser(r: UserRow): User {
  return {
    id: r.id,
    username: r.username,
    name: r.name,
    language: r.language,
    isAdmin: r.isAdmin,
    role: r.role,
    employeePositionId: r.employeePositionId,
    permissions: storedPermissions(r),
    disabled: r.disabled,
    termsVersion: r.termsVersion,
    termsAcceptedAt: r.termsAcceptedAt ? r.termsAcceptedAt.toISOString() : null,
    createdAt: r.createdAt.toISOString(),
  };
}

/** The club's staff users by user name (GET /api/User). */
export async function listUsers(db: Db, clubId: number): Promise<{ items: User[]; total: number }> {
  const rows = await db.select().from(users).where(scoped(db, clubId).where(users)).orderBy(asc(users.username));
  return { items: rows.map(presentUser), total: rows.length };
}

/** Id, user name and name of the club's users (GET /api/User/GetUserNames), for filters. */
export async function getUserNames(db: Db, clubId: number) {
  return db
    .select({ id: users.id, username: users.username, name: users.name })
    .from(users)
    .where(scoped(db, clubId).where(users))
    .orderBy(asc(users.username));
}

/** The club's user `id` (locked when `forUpdate`); NOT_FOUND otherwise. */
function userRow(db: Db | Tx, clubId: number, id: number, forUpdate = false): Promise<UserRow> {
  return scoped(db, clubId).one(users, id, 'user', { forUpdate });
}

/**
 * One user of the club (GET /api/User/{id}).
 * @throws AppError NOT_FOUND (404) when the id is not a user of this club
 */
export async function getUser(db: Db, clubId: number, id: number): Promise<User> {
  return presentUser(await userRow(db, clubId, id));
}

function userNameExists(): AppError {
  return new AppError('USER_NAME_EXISTS', 'User name already exists', [
    { path: 'username', message: 'userNameExists' },
  ]);
}

async function assertNameFree(tx: Tx, clubId: number, username: string, exceptId?: number): Promise<void> {
  const [other] = await tx
    .select({ id: users.id })
    .from(users)
    .where(scoped(tx, clubId).where(users, sql`lower(${users.username}) = lower(${username})`));
  if (other && other.id !== exceptId) throw userNameExists();
}

function mapUnique(err: unknown): never {
  const { code, constraint } = pgError(err);
  if (code === '23505' && constraint === 'users_club_username') throw userNameExists();
  throw err;
}

function permissionsOf(isAdmin: boolean, flags: Partial<Permissions>): Permissions {
  const p = { ...allPermissions(false), ...flags };
  p.roleIsAdmin = isAdmin;
  return p;
}

/**
 * Creates a staff user of the caller's club (POST /api/User; seed 001 §3, §6).
 * The password is scrypt-hashed; flags not given are off.
 * @throws AppError USER_NAME_EXISTS (409) when the club has the name already (case-insensitive)
 * @throws AppError VALIDATION_ERROR (400, employeePositionId) when the position is not one of the club's
 */
export async function createUser(db: Db, actor: Actor, input: UserInput): Promise<User> {
  const clubId = actor.clubId;
  const passwordHash = await hashPassword(input.password);
  return db
    .transaction(async (tx) => {
      await assertNameFree(tx, clubId, input.username);
      await assertPositionOfClub(tx, clubId, input.employeePositionId);
      const { password: _p, permissions, ...fields } = input;
      const [row] = await tx
        .insert(users)
        .values({ ...fields, clubId, passwordHash, level: 0, permissions: permissionsOf(input.isAdmin, permissions) })
        .returning();
      const created = presentUser(row);
      await audit(tx, actor, { action: 'create', entity: 'user', entityId: row.id, after: created });
      return created;
    })
    .catch(mapUnique);
}

/**
 * Changes a user (PATCH /api/User/{id}). A new password or disabling the user
 * bumps the token version and ends every session of the user, so every token
 * and live socket of the user stops at once (docs/security.md "Sessions").
 * Callers changing their own password give their current password; their
 * other sessions end, the one making the change goes on. The audit row notes a
 * password change without the password.
 * @throws AppError VALIDATION_ERROR (400, currentPassword `required`) for one's own new password without the current one
 * @throws AppError WRONG_PASSWORD (422) when that current password is wrong (a sign-in failure of the name from the address)
 * @throws AppError LOGIN_LOCKED (429) while the address's sign-in delay runs
 * @throws AppError NOT_FOUND (404) when the id is not a user of this club
 * @throws AppError CANNOT_CHANGE_OWN_ADMIN (422) when admins take their own admin flag or disable themselves
 * @throws AppError USER_NAME_EXISTS (409) for a name another user of the club has
 * @throws AppError VALIDATION_ERROR (400, employeePositionId) when the position is not one of the club's
 */
export async function updateUser(db: Db, bus: EventBus, actor: Actor, id: number, patch: UserPatch): Promise<User> {
  const clubId = actor.clubId;
  const own = id === actor.userId;
  if (own && (patch.isAdmin === false || patch.disabled === true)) {
    throw new AppError('CANNOT_CHANGE_OWN_ADMIN', 'You cannot remove your own admin flag or disable yourself');
  }
  if (own && patch.password) {
    if (!patch.currentPassword) throw validationError([{ path: 'currentPassword', message: 'required' }]);
    const [me] = await db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, id));
    await checkCurrentPassword(db, actor, patch.currentPassword, me?.hash ?? '');
  }
  const passwordHash = patch.password ? await hashPassword(patch.password) : undefined;
  let ended: SessionScope | undefined;
  const saved = await db
    .transaction(async (tx) => {
      const row = await userRow(tx, clubId, id, true);
      const before = presentUser(row);
      if (patch.username && patch.username.toLowerCase() !== row.username.toLowerCase()) {
        await assertNameFree(tx, clubId, patch.username, id);
      }
      await assertPositionOfClub(tx, clubId, patch.employeePositionId);
      const { password: _p, currentPassword: _c, permissions, ...fields } = patch;
      const isAdmin = patch.isAdmin ?? row.isAdmin;
      const disabling = patch.disabled === true && !row.disabled;
      // One's own new password keeps the session that made the change; anything else ends them all.
      const keepOwn = own && passwordHash !== undefined && !disabling;
      const revoke = (passwordHash !== undefined && !keepOwn) || disabling;
      await tx
        .update(users)
        .set({
          ...fields,
          ...(passwordHash ? { passwordHash } : {}),
          permissions: permissionsOf(isAdmin, { ...storedPermissions(row), ...permissions }),
          ...(revoke ? { tokenVersion: row.tokenVersion + 1 } : {}),
        })
        .where(eq(users.id, id));
      if (revoke || keepOwn) {
        ended = keepOwn ? { userId: id, exceptSessionId: actor.sessionId } : { userId: id };
        await endSessionRows(tx, ended, disabling ? 'disabled' : 'password');
      }
      const after = presentUser(await userRow(tx, clubId, id));
      await audit(tx, actor, {
        action: 'update',
        entity: 'user',
        entityId: id,
        before,
        after: { ...after, ...(passwordHash ? { passwordChanged: true } : {}) },
      });
      return after;
    })
    .catch(mapUnique);
  if (ended) announceSessionEnd(bus, ended);
  return saved;
}

/**
 * Stores the caller's data-grid states (PATCH /api/User/UpdateDataGridStates/{id}):
 * column order, widths, visibility, sort and filters per grid key, replaced whole.
 * @throws AppError NOT_FOUND (404) when `id` is not the caller
 */
export async function updateDataGridStates(
  db: Db,
  actor: Actor,
  id: number,
  states: Record<string, unknown> | undefined,
): Promise<{ ok: true }> {
  if (id !== actor.userId) throw notFound('user');
  if (states === undefined) return { ok: true as const };
  await db.update(users).set({ dataGridStates: states }).where(eq(users.id, id));
  return { ok: true as const };
}

/**
 * Records the caller's acceptance of the terms of use with the drawn signature
 * (POST /api/User/UpdateUserTermsVersion; seed 001 §4 "must be confirmed and signed").
 * @throws AppError VALIDATION_ERROR (400) for a version other than LATEST_TERMS_VERSION
 */
export async function acceptTerms(
  db: Db,
  actor: Actor,
  body: { version: number; signature: string },
): Promise<{ termsVersion: number; termsAcceptedAt: string }> {
  if (body.version !== LATEST_TERMS_VERSION)
    throw validationError([{ path: 'version', message: 'unknownTermsVersion' }]);
  return db.transaction(async (tx) => {
    const [u] = await tx
      .update(users)
      .set({ termsVersion: body.version, termsSignature: body.signature, termsAcceptedAt: new Date() })
      .where(eq(users.id, actor.userId))
      .returning();
    if (!u) throw notFound('user');
    await audit(tx, actor, {
      action: 'acceptTerms',
      entity: 'user',
      entityId: u.id,
      after: { termsVersion: u.termsVersion, termsAcceptedAt: u.termsAcceptedAt?.toISOString() },
    });
    return { termsVersion: u.termsVersion, termsAcceptedAt: (u.termsAcceptedAt as Date).toISOString() };
  });
}
