import { randomBytes } from 'node:crypto';
import { and, eq, inArray, isNull, lt, ne, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/index.js';
import { clubs, sessions, users } from '../db/schema.js';
import type { EventBus } from './event-bus.js';

/*
 * Sign-in sessions (docs/security.md "Sessions"). Every sign-in is a row of
 * `sessions`; its token carries the row's id (`sid`). A request, and the
 * console's live socket when it authenticates, is accepted only while the row
 * is not ended, has seen a request within the idle timeout and is before its
 * absolute expiry, its user is enabled (and of the token's version) and, for a
 * club's user, the club is enabled — one indexed lookup (the session joined
 * with its user and the user's club) per request, and a write at most once a
 * minute to renew the session's activity.
 *
 * The database is the only state: a session ended on one server instance is
 * refused by every instance at its next request. Open live sockets are closed
 * through the event bus (`session-end`), which reaches every instance on
 * PostgreSQL (LISTEN/NOTIFY) — realtime/live.ts.
 */

/** Activity is written at most once per this many seconds of a session (or a quarter of a shorter idle timeout). */
export const SESSION_TOUCH_SECONDS = 60;

/** Why a session ended (the `end_reason` column). */
export type SessionEndReason = 'signout' | 'password' | 'disabled' | 'clubDisabled' | 'idle';

/** Which sessions end: one, every one of a user (but perhaps the caller's own), or every one of a club's users. */
export type SessionScope = { sessionId: string } | { userId: number; exceptSessionId?: string } | { clubId: number };

/** The claims of a console token: the user, the user's token version and the session. */
export interface TokenClaims {
  sub: number;
  tv: number;
  sid?: string;
  /** A member token's member session (lib/member-sessions.ts): such a token has no `sid` and reaches no staff route. */
  ms?: string;
}

/** A session accepted for a request: its user row, and the user's own club (null for the operator). */
export interface LiveSession {
  sessionId: string;
  user: typeof users.$inferSelect;
  /** When the session last saw a request (before this one). */
  lastSeenAt: Date;
  expiresAt: Date;
  club: { externalClubId: number; disabledAt: Date | null } | null;
}

/**
 * Starts a session for a successful sign-in; returns its id for the token.
 * Also forgets the user's sessions that expired more than a day ago (the
 * table keeps no more than a day of history beyond each token's life).
 */
export async function startSession(db: Db, input: { userId: number; ip: string; ttlSeconds: number }): Promise<string> {
  const id = randomBytes(16).toString('base64url');
  await db.insert(sessions).values({
    id,
    userId: input.userId,
    ip: input.ip,
    expiresAt: new Date(Date.now() + input.ttlSeconds * 1000),
  });
  await db
    .delete(sessions)
    .where(and(eq(sessions.userId, input.userId), lt(sessions.expiresAt, sql`now() - interval '1 day'`)));
  return id;
}

/**
 * The session a verified token names, when it may still act: not ended, a
 * request within `idleSeconds`, before its expiry, the user enabled and of the
 * token's version, a club user's club enabled. A session found idle is ended
 * (`idle`) so that later activity cannot revive it. Renews the session's
 * activity when it is older than {@link SESSION_TOUCH_SECONDS} (or a quarter of
 * a shorter idle timeout), unless `touch` is false: the live socket is not activity.
 * @returns the session, or null when the token may not act
 */
export async function sessionOfToken(
  db: Db,
  claims: TokenClaims,
  idleSeconds: number,
  touch = true,
): Promise<LiveSession | null> {
  if (typeof claims.sid !== 'string') return null;
  const [row] = await db
    .select({
      s: sessions,
      u: users,
      c: { externalClubId: clubs.externalClubId, disabledAt: clubs.disabledAt },
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(clubs, eq(clubs.id, users.clubId))
    .where(eq(sessions.id, claims.sid))
    .limit(1);
  if (!row) return null;
  const { s, u } = row;
  const now = Date.now();
  if (s.userId !== claims.sub || s.endedAt || s.expiresAt.getTime() <= now) return null;
  if (u.disabled || u.tokenVersion !== claims.tv) return null;
  if (now - s.lastSeenAt.getTime() > idleSeconds * 1000) {
    await endSessionRows(db, { sessionId: s.id }, 'idle');
    return null;
  }
  const club = row.c?.externalClubId != null ? row.c : null;
  // A disabled club's users lose their sessions too (docs/operator.md); the operator keeps acting on it.
  if (u.clubId != null && club?.disabledAt) return null;
  if (touch && now - s.lastSeenAt.getTime() > Math.min(SESSION_TOUCH_SECONDS, idleSeconds / 4) * 1000) {
    await db
      .update(sessions)
      .set({ lastSeenAt: sql`now()` })
      .where(and(eq(sessions.id, s.id), isNull(sessions.endedAt)));
  }
  return { sessionId: s.id, user: u, lastSeenAt: s.lastSeenAt, expiresAt: s.expiresAt, club };
}

/**
 * When a session's idle timeout runs out, for a socket that waits for it: the
 * moment in ms, or null when the session has ended (or is gone).
 */
export async function sessionIdleDeadline(db: Db, sessionId: string, idleSeconds: number): Promise<number | null> {
  const [s] = await db
    .select({ lastSeenAt: sessions.lastSeenAt, endedAt: sessions.endedAt, expiresAt: sessions.expiresAt })
    .from(sessions)
    .where(eq(sessions.id, sessionId))
    .limit(1);
  if (!s || s.endedAt) return null;
  return Math.min(s.lastSeenAt.getTime() + idleSeconds * 1000, s.expiresAt.getTime());
}

/**
 * Ends the sessions of `scope` that have not ended (inside the caller's
 * transaction when given one). Call {@link announceSessionEnd} after the
 * transaction commits, so open sockets close.
 * @returns how many sessions ended
 */
export async function endSessionRows(db: Db | Tx, scope: SessionScope, reason: SessionEndReason): Promise<number> {
  const which =
    'sessionId' in scope
      ? eq(sessions.id, scope.sessionId)
      : 'userId' in scope
        ? and(
            eq(sessions.userId, scope.userId),
            scope.exceptSessionId ? ne(sessions.id, scope.exceptSessionId) : undefined,
          )
        : inArray(sessions.userId, db.select({ id: users.id }).from(users).where(eq(users.clubId, scope.clubId)));
  const ended = await db
    .update(sessions)
    .set({ endedAt: sql`now()`, endReason: reason })
    .where(and(which, isNull(sessions.endedAt)))
    .returning({ id: sessions.id });
  return ended.length;
}

/** Tells every server instance (the event bus) that the sessions of `scope` ended: their live sockets close. */
export function announceSessionEnd(bus: EventBus, scope: SessionScope): void {
  bus.publish('session-end', scope);
}

/** Ends the sessions of `scope` and closes their live sockets on every instance. */
export async function endSessions(
  db: Db,
  bus: EventBus,
  scope: SessionScope,
  reason: SessionEndReason,
): Promise<number> {
  const n = await endSessionRows(db, scope, reason);
  announceSessionEnd(bus, scope);
  return n;
}
