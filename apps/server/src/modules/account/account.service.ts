import { and, eq, inArray, sql } from 'drizzle-orm';
import { UserLevel, type CurrentUser } from '@venue/domain';
import type { Db } from '../../db/index.js';
import { auditLog, clubs, loginFailures, users } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import { verifyPassword } from '../../lib/password.js';
import { DEMO_EXTERNAL_CLUB_ID, DEMO_PASSWORD } from '../../lib/demo-credentials.js';
import { effectivePermissions } from '../../lib/access.js';

// A valid hash of a random password: checking against it keeps the time of a
// failed login the same whether or not the user exists.
const DUMMY_HASH = 'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA==$0Jt1m9gE7jN8VQ8mY3g8Yy2b5b1m0wJ7m4gE7jN8VQ8=';

/** Consecutive failures under one user name from one address before that address's delay starts (docs/security.md "Sign-in"). */
export const LOCKOUT_AFTER_FAILURES = 5;
/** The first delay, in seconds; it doubles with each further failure. */
export const LOCKOUT_FIRST_SECONDS = 60;
/** The longest delay, in seconds. */
export const LOCKOUT_MAX_SECONDS = 15 * 60;
/** Failures older than this (seconds) are forgotten: counting starts again. */
export const LOCKOUT_FORGET_SECONDS = 24 * 3600;
/**
 * Failures under one user name from all addresses together at which the name
 * is under sustained attempts: from then on an address is delayed at its first
 * failure (not its fifth), and the operator is told (at 50, 100, 200, …).
 * Addresses without a failure are never refused.
 */
export const ACCOUNT_CEILING = 50;

/**
 * Seconds of delay for one address after `failures` consecutive failures of
 * it under one name: 0 below `threshold` (5, or 1 when the name is under
 * sustained attempts), then 60, 120, 240 … up to 900.
 */
export function lockoutSeconds(failures: number, threshold = LOCKOUT_AFTER_FAILURES): number {
  if (failures < threshold) return 0;
  return Math.min(LOCKOUT_FIRST_SECONDS * 2 ** (failures - threshold), LOCKOUT_MAX_SECONDS);
}

/** True when the name's count across addresses reaches a notice point: the ceiling, then each doubling of it. */
export function isAttackNotice(accountFailures: number): boolean {
  if (accountFailures < ACCOUNT_CEILING || accountFailures % ACCOUNT_CEILING !== 0) return false;
  const multiple = accountFailures / ACCOUNT_CEILING;
  return (multiple & (multiple - 1)) === 0;
}

/** A security event of sign-in, for the server log (the route logs it as a warning). */
export type SignInSecurityEvent =
  | { event: 'login.locked'; key: string; failures: number; seconds: number }
  | { event: 'login.attack'; key: string; failures: number };

/** Where a sign-in comes from, for the security log. */
export interface SignInOrigin {
  ip: string;
  /** Called with a security event (an address's delay begins; a name under sustained attempts); the route logs it. */
  onSecurityEvent?: (event: SignInSecurityEvent) => void;
}

/** The counters a sign-in touches: the name's (all addresses) and the name's from this address, each also under the operator's keys. */
function failureKeys(externalClubId: number, name: string, ip: string) {
  const account = `${externalClubId}|${name}`;
  // The operator signs in with any club id: its failures count under every club at once.
  const operatorAccount = `*|${name}`;
  return { account, pair: `${account}|${ip}`, operatorAccount, operatorPair: `${operatorAccount}|${ip}` };
}

/**
 * Checks a sign-in (seed 000 §3 "Login"). The club is found by its
 * externalClubId; the operator (SuperUser) signs in with any club id.
 *
 * Failures are throttled by name *and* address (docs/security.md "Sign-in";
 * OWASP Authentication Cheat Sheet: no hard lock of an account from
 * anywhere): after {@link LOCKOUT_AFTER_FAILURES} failures under a name from
 * one address, that address may not sign in under that name, even with the
 * right password, for 60 s, doubling with each further failure up to 15
 * minutes; another address signs in as usual. Once the name has
 * {@link ACCOUNT_CEILING} failures from all addresses, an address is delayed
 * at its first failure. Names that match no user are counted the same way, so
 * the answer does not tell which names exist. Every failure is an audit row
 * (`login.failed`); the start of an address's delay (`login.locked`) and a
 * name under sustained attempts (`login.attack`, at 50, 100, 200 … failures)
 * are also warnings in the server log.
 * @returns the user row's id and token version
 * @throws AppError INCORRECT_CREDENTIALS_OR_CLUB (401) when the club, the user or the password is wrong
 * @throws AppError LOGIN_LOCKED (429, details {retryAfterSeconds}) while this address's delay runs
 */
export async function checkCredentials(
  db: Db,
  input: { username: string; password: string; externalClubId: number },
  origin: SignInOrigin = { ip: '' },
): Promise<{ userId: number; tokenVersion: number }> {
  const name = input.username.toLowerCase();
  const keys = failureKeys(input.externalClubId, name, origin.ip);
  const pairs = await db
    .select()
    .from(loginFailures)
    .where(inArray(loginFailures.key, [keys.pair, keys.operatorPair]));
  const lockedUntil = Math.max(0, ...pairs.map((f) => f.lockedUntil?.getTime() ?? 0));
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
    await db.insert(auditLog).values({
      clubId: who.clubId ?? 0, // 0: a name outside any club (audit_log.club_id is never null)
      userId: who.userId,
      action: 'login.failed',
      entity: 'login',
      entityId: keys.account,
      ip: origin.ip,
    });
    await recordFailure(db, keys.account, keys.pair, who);
    if (user?.level === UserLevel.SuperUser && user.clubId == null) {
      await recordFailure(db, keys.operatorAccount, keys.operatorPair, who);
    }
    throw new AppError('INCORRECT_CREDENTIALS_OR_CLUB', 'Incorrect username or password, or club is not recognized');
  }
  // A success forgets this address's failures; the name's count across addresses stays (until 24 hours of quiet).
  if (pairs.length > 0)
    await db.delete(loginFailures).where(inArray(loginFailures.key, [keys.pair, keys.operatorPair]));
  // A club the operator disabled (docs/operator.md): told after the password, so it reveals nothing to a guesser.
  if (club?.disabledAt && user.level !== UserLevel.SuperUser) {
    throw new AppError('CLUB_DISABLED', 'This club is disabled');
  }
  if (user.level === UserLevel.SuperUser && input.password === DEMO_PASSWORD)
    await refuseDemoOperatorBeyondDemo(db, user.id);
  return { userId: user.id, tokenVersion: user.tokenVersion };
}

/**
 * Checks a signed-in user's current password before the user changes it
 * (docs/security.md "Sessions"), under the same throttle as a sign-in of the
 * name from the address (docs/security.md "Sign-in"): a wrong password is a
 * sign-in failure (audited, counted), so a token left on a shared computer
 * cannot be used to guess the password either.
 * @throws AppError LOGIN_LOCKED (429, details {retryAfterSeconds}) while this address's delay runs
 * @throws AppError WRONG_PASSWORD (422) when the password is wrong
 */
export async function checkCurrentPassword(
  db: Db,
  who: { userId: number; username: string; clubId: number; externalClubId: number; ip: string },
  password: string,
  passwordHash: string,
): Promise<void> {
  const keys = failureKeys(who.externalClubId, who.username.toLowerCase(), who.ip);
  const [pair] = await db.select().from(loginFailures).where(eq(loginFailures.key, keys.pair));
  const lockedUntil = pair?.lockedUntil?.getTime() ?? 0;
  if (lockedUntil > Date.now()) {
    const retryAfterSeconds = Math.ceil((lockedUntil - Date.now()) / 1000);
    throw new AppError('LOGIN_LOCKED', 'Too many failed sign-ins', { retryAfterSeconds });
  }
  if (await verifyPassword(password, passwordHash)) return;
  await db.insert(auditLog).values({
    clubId: who.clubId,
    userId: who.userId,
    action: 'login.failed',
    entity: 'login',
    entityId: keys.account,
    ip: who.ip,
  });
  await recordFailure(db, keys.account, keys.pair, { clubId: who.clubId, userId: who.userId, origin: { ip: who.ip } });
  throw new AppError('WRONG_PASSWORD', 'The current password is wrong');
}

/** Adds one failure to `key` (atomically, for concurrent attempts; forgotten after 24 hours of quiet); returns the count. */
async function countFailure(db: Db, key: string): Promise<number> {
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
  return row.failures;
}

/**
 * Refuses while one of `pairKeys` (a name from one address) is in its delay:
 * the check before a sign-in, shared by the member app's codes (docs/members.md "Limits").
 * @throws AppError LOGIN_LOCKED (429, details {retryAfterSeconds})
 */
export async function refuseWhileDelayed(db: Db, pairKeys: string[]): Promise<void> {
  const pairs = await db.select().from(loginFailures).where(inArray(loginFailures.key, pairKeys));
  const lockedUntil = Math.max(0, ...pairs.map((f) => f.lockedUntil?.getTime() ?? 0));
  if (lockedUntil > Date.now()) {
    const retryAfterSeconds = Math.ceil((lockedUntil - Date.now()) / 1000);
    throw new AppError('LOGIN_LOCKED', 'Too many failed sign-ins', { retryAfterSeconds });
  }
}

/** Forgets the failures of a name from one address after a success (the name's count across addresses stays). */
export async function forgetPairFailures(db: Db, pairKeys: string[]): Promise<void> {
  await db.delete(loginFailures).where(inArray(loginFailures.key, pairKeys));
}

/**
 * Counts one failure under the name (all addresses) and under the name from
 * this address; starts the address's delay at its threshold, and tells the
 * operator when the name's count reaches a notice point. The staff sign-in's
 * policy, which the member app's codes share (docs/members.md "Limits").
 */
export async function recordFailure(
  db: Db,
  accountKey: string,
  pairKey: string,
  who: { clubId: number | null; userId: number | null; origin: SignInOrigin },
): Promise<void> {
  const accountFailures = await countFailure(db, accountKey);
  const failures = await countFailure(db, pairKey);
  // Security events (Privacy Protection (Data Security) Regulations 2017: security records).
  const event = (action: 'login.locked' | 'login.attack', after: object) =>
    db.insert(auditLog).values({
      clubId: who.clubId ?? 0,
      userId: who.userId,
      action,
      entity: 'login',
      entityId: accountKey,
      after,
      ip: who.origin.ip,
    });
  if (isAttackNotice(accountFailures)) {
    await event('login.attack', { failures: accountFailures });
    who.origin.onSecurityEvent?.({ event: 'login.attack', key: accountKey, failures: accountFailures });
  }
  const threshold = accountFailures >= ACCOUNT_CEILING ? 1 : LOCKOUT_AFTER_FAILURES;
  const seconds = lockoutSeconds(failures, threshold);
  if (seconds === 0) return;
  await db
    .update(loginFailures)
    .set({ lockedUntil: sql`now() + make_interval(secs => ${seconds})` })
    .where(eq(loginFailures.key, pairKey));
  await event('login.locked', { failures, seconds, accountFailures });
  who.origin.onSecurityEvent?.({ event: 'login.locked', key: pairKey, failures, seconds });
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

/**
 * The published demo password opens an operator account only while the installation holds no
 * club but the demo club and those this account created itself (docs/security.md "Demo
 * credentials"): the demo operator controls every club, and on an install that also serves clubs
 * made another way (`npm run create-operator -- --club`, another operator) a password printed in
 * the README would control them too. The operator of such an install makes its own account.
 * @throws AppError DEMO_OPERATOR_OFF (403)
 */
async function refuseDemoOperatorBeyondDemo(db: Db, userId: number): Promise<void> {
  const [other] = await db
    .select({ id: clubs.id })
    .from(clubs)
    .where(
      sql`${clubs.externalClubId} <> ${DEMO_EXTERNAL_CLUB_ID} and not exists (
        select 1 from audit_log a where a.club_id = ${clubs.id} and a.entity = 'club' and a.action = 'create'
           and a.entity_id = ${clubs.id}::text and a.user_id = ${userId})`,
    )
    .limit(1);
  if (other) throw new AppError('DEMO_OPERATOR_OFF', 'The demo operator is only for the demo installation');
}
