import { and, eq, sql } from 'drizzle-orm';
import { UserLevel, type CurrentUser } from '@venue/domain';
import type { Db } from '../../db/index.js';
import { clubs, users } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import { verifyPassword } from '../../lib/password.js';
import { effectivePermissions } from '../../plugins/auth.js';

// A valid hash of a random password: checking against it keeps the time of a
// failed login the same whether or not the user exists.
const DUMMY_HASH = 'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA==$0Jt1m9gE7jN8VQ8mY3g8Yy2b5b1m0wJ7m4gE7jN8VQ8=';

/**
 * Checks a sign-in (seed 000 §3 "Login"). The club is found by its
 * externalClubId; the operator (SuperUser) signs in with any club id.
 * @returns the user row's id and token version
 * @throws AppError INCORRECT_CREDENTIALS_OR_CLUB (401) when the club, the user or the password is wrong
 */
export async function checkCredentials(
  db: Db,
  input: { username: string; password: string; externalClubId: number },
): Promise<{ userId: number; tokenVersion: number }> {
  const [club] = await db.select({ id: clubs.id }).from(clubs).where(eq(clubs.externalClubId, input.externalClubId));
  const candidates = await db
    .select()
    .from(users)
    .where(and(sql`lower(${users.username}) = lower(${input.username})`, eq(users.disabled, false)));
  const user =
    candidates.find((u) => club && u.clubId === club.id) ??
    candidates.find((u) => u.level === UserLevel.SuperUser && u.clubId == null);
  const ok = await verifyPassword(input.password, user?.passwordHash ?? DUMMY_HASH);
  if (!user || !ok || (!club && user.level !== UserLevel.SuperUser)) {
    throw new AppError('INCORRECT_CREDENTIALS_OR_CLUB', 'Incorrect username or password, or club is not recognized');
  }
  return { userId: user.id, tokenVersion: user.tokenVersion };
}

/** The signed-in user as GET /api/Account/GetCurrent presents it (seed 000 §3 "Current user"). */
export async function currentUser(
  db: Db,
  userId: number,
  clubId: number,
  externalClubId: number,
): Promise<CurrentUser> {
  const [u] = await db.select().from(users).where(eq(users.id, userId));
  if (!u) throw new AppError('UNAUTHORIZED');
  return {
    id: u.id,
    username: u.username,
    name: u.name,
    language: u.language === 'en' ? 'en' : 'he',
    role: u.role,
    level: u.level,
    clubId: clubId || null,
    externalClubId: externalClubId || null,
    termsVersion: u.termsVersion,
    dataGridStates: (u.dataGridStates ?? {}) as Record<string, unknown>,
    ...effectivePermissions(u),
  };
}
