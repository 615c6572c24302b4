import { and, eq, inArray, sql } from 'drizzle-orm';
import { UserLevel, type CurrentUser } from '@venue/domain';
import type { Db } from '../../db/index.js';
import { auditLog, clubs, loginFailures, users } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import { verifyPassword } from '../../lib/password.js';
import { effectivePermissions } from '../../lib/access.js';

// A valid hash of a random password: checking against it keeps the time of a
// failed login the same whether or not the user exists.
const DUMMY_HASH = 'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA==$0Jt1m9gE7jN8VQ8mY3g8Yy2b5b1m0wJ7m4gE7jN8VQ8=';

/** Consecutive failures under one user name before the delay starts (docs/security.md "Sign-in"). */
export const LOCKOUT_AFTER_FAILURES = 5;
/** The first delay, in seconds; it doubles with each further failure. */
export const LOCKOUT_FIRST_SECONDS = 60;
/** The longest delay, in seconds. */
export const LOCKOUT_MAX_SECONDS = 15 * 60;
/** Failures older than this (seconds) are forgotten: counting starts again. */
export const LOCKOUT_FORGET_SECONDS = 24 * 3600;

/** Seconds of delay after `failures` consecutive failures: 0 below the threshold, then 60, 120, 240 … up to 900. */
export function lockoutSeconds(failures: number): number {
  if (failures < LOCKOUT_AFTER_FAILURES) return 0;
  return Math.min(LOCKOUT_FIRST_SECONDS * 2 ** (failures - LOCKOUT_AFTER_FAILURES), LOCKOUT_MAX_SECONDS);
}

/** Where a sign-in comes from, for the security log. */
export interface SignInOrigin {
  ip: string;
  /** Called with a security event (a delay begins); the route logs it. */
  onSecurityEvent?: (event: { event: 'login.locked'; key: string; failures: number; seconds: number }) => void;
}

/**
 * Checks a sign-in (seed 000 §3 "Login"). The club is found by its
 * externalClubId; the operator (SuperUser) signs in with any club id.
 *
 * Repeated failures under one user name (in one club) bring a growing delay
 * whatever the caller's address (docs/security.md "Sign-in"): after
 * {@link LOCKOUT_AFTER_FAILURES} failures no sign-in under that name is
 * accepted, even with the right password, for 60 s, doubling with each
 * further failure up to 15 minutes. Names that match no user are counted
 * the same way, so the answer does not tell which names exist. The start of
 * a delay is a security event: an audit row (kept with the audit log) and a
 * warning in the server log.
 * @returns the user row's id and token version
 * @throws AppError INCORRECT_CREDENTIALS_OR_CLUB (401) when the club, the user or the password is wrong
 * @throws AppError LOGIN_LOCKED (429, details {retryAfterSeconds}) while a delay runs
 */
export async function checkCredentials(
  db: Db,
  input: { username: string; password: string; externalClubId: number },
  origin: SignInOrigin = { ip: '' },
): Promise<{ userId: number; tokenVersion: number }> {
  const name = input.username.toLowerCase();
  const key = `${input.externalClubId}|${name}`;
  // The operator signs in with any club id: its failures count under every club at once.
  const operatorKey = `*|${name}`;
  const failures = await db
    .select()
    .from(loginFailures)
    .where(inArray(loginFailures.key, [key, operatorKey]));
  const lockedUntil = Math.max(0, ...failures.map((f) => f.lockedUntil?.getTime() ?? 0));
  if (lockedUntil > Date.now()) {
    const retryAfterSeconds = Math.ceil((lockedUntil - Date.now()) / 1000);
    throw new AppError('LOGIN_LOCKED', 'Too many failed sign-ins', { retryAfterSeconds });
  }
  const [club] = await db
    .select({ id: clubs.id, disabledAt: clubs.disabledAt })
    .from(clubs)
    .where(eq(clubs.externalClubId, input.externalClubId));
  const candidates = await db
    .select()
    .from(users)
    .where(and(sql`lower(${users.username}) = lower(${input.username})`, eq(users.disabled, false)));
  const user =
    candidates.find((u) => club && u.clubId === club.id) ??
    candidates.find((u) => u.level === UserLevel.SuperUser && u.clubId == null);
  const ok = await verifyPassword(input.password, user?.passwordHash ?? DUMMY_HASH);
  if (!user || !ok || (!club && user.level !== UserLevel.SuperUser)) {
    const who = { clubId: club?.id ?? null, userId: user?.id ?? null, origin };
    await recordFailure(db, key, who);
    if (user?.level === UserLevel.SuperUser && user.clubId == null) await recordFailure(db, operatorKey, who);
    throw new AppError('INCORRECT_CREDENTIALS_OR_CLUB', 'Incorrect username or password, or club is not recognized');
  }
  if (failures.length > 0) await db.delete(loginFailures).where(inArray(loginFailures.key, [key, operatorKey]));
  // A club the operator disabled (docs/operator.md): told after the password, so it reveals nothing to a guesser.
  if (club?.disabledAt && user.level !== UserLevel.SuperUser) {
    throw new AppError('CLUB_DISABLED', 'This club is disabled');
  }
  return { userId: user.id, tokenVersion: user.tokenVersion };
}

/** Counts one failure under `key` (atomically, for concurrent attempts) and starts a delay at the threshold. */
async function recordFailure(
  db: Db,
  key: string,
  who: { clubId: number | null; userId: number | null; origin: SignInOrigin },
): Promise<void> {
  const forget = sql`now() - make_interval(secs => ${LOCKOUT_FORGET_SECONDS})`;
  const [row] = await db
    .insert(loginFailures)
    .values({ key, failures: 1 })
    .onConflictDoUpdate({
      target: loginFailures.key,
      set: {
        failures: sql`case when ${loginFailures.lastFailureAt} < ${forget} then 1 else ${loginFailures.failures} + 1 end`,
        lastFailureAt: sql`now()`,
      },
    })
    .returning({ failures: loginFailures.failures });
  const seconds = lockoutSeconds(row.failures);
  if (seconds === 0) return;
  await db
    .update(loginFailures)
    .set({ lockedUntil: sql`now() + make_interval(secs => ${seconds})` })
    .where(eq(loginFailures.key, key));
  // A security event (Privacy Protection (Data Security) Regulations 2017: security records).
  await db.insert(auditLog).values({
    clubId: who.clubId ?? 0, // 0: a name outside any club (audit_log.club_id is never null)
    userId: who.userId,
    action: 'login.locked',
    entity: 'login',
    entityId: key,
    after: { failures: row.failures, seconds },
    ip: who.origin.ip,
  });
  who.origin.onSecurityEvent?.({ event: 'login.locked', key, failures: row.failures, seconds });
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
    dataGridStates: u.dataGridStates ?? {},
    ...effectivePermissions(u),
  };
}
