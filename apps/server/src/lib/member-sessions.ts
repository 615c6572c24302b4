import { randomBytes } from 'node:crypto';
import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/index.js';
import { clubs, memberSessions } from '../db/schema.js';

/*
 * Member sessions (docs/members.md "Session kind"): the member app's sign-in,
 * a kind apart from staff sessions (lib/sessions.ts). A member token carries
 * `ms` (a row of member_sessions) and no `sid`, so the staff check refuses it
 * (401) and the member check refuses a staff token (401). The row holds the
 * contact the code went to and, once chosen, the club and the member's client.
 */

/** The claims of a member token: `ms` names its member session; `sub` and `tv` are 0 (no staff user). */
export interface MemberTokenClaims {
  sub: 0;
  tv: 0;
  ms: string;
}

/** A member session accepted for a request. */
export interface MemberSession {
  sessionId: string;
  /** E.164 phone or lower-case e-mail the code went to. */
  contact: string;
  /** The chosen club, or null before the member picks one. */
  clubId: number | null;
  /** The member's own client in that club. */
  clientId: number | null;
  ip: string;
}

/** Starts a member session after a right code; returns its id for the token. Forgets this contact's sessions expired a day ago. */
export async function startMemberSession(
  db: Db,
  input: { contact: string; clubId: number | null; clientId: number | null; ip: string; ttlSeconds: number },
): Promise<string> {
  const id = randomBytes(16).toString('base64url');
  await db.insert(memberSessions).values({
    id,
    contact: input.contact,
    clubId: input.clubId,
    clientId: input.clientId,
    ip: input.ip,
    expiresAt: new Date(Date.now() + input.ttlSeconds * 1000),
  });
  await db
    .delete(memberSessions)
    .where(and(eq(memberSessions.contact, input.contact), lt(memberSessions.expiresAt, sql`now() - interval '1 day'`)));
  return id;
}

/**
 * The member session a verified token names, while it may act: not ended,
 * seen within `idleSeconds`, before its expiry, and its club (when chosen)
 * enabled. An idle session is ended. Activity is renewed at most once a minute.
 * @returns the session, or null when the token may not act
 */
export async function memberSessionOf(
  db: Db,
  claims: { ms?: unknown; sid?: unknown },
  idleSeconds: number,
  ip: string,
): Promise<MemberSession | null> {
  if (typeof claims.ms !== 'string' || claims.sid !== undefined) return null;
  const [row] = await db
    .select({ s: memberSessions, disabledAt: clubs.disabledAt })
    .from(memberSessions)
    .leftJoin(clubs, eq(clubs.id, memberSessions.clubId))
    .where(eq(memberSessions.id, claims.ms))
    .limit(1);
  if (!row) return null;
  const { s } = row;
  const now = Date.now();
  if (s.endedAt || s.expiresAt.getTime() <= now || row.disabledAt) return null;
  if (now - s.lastSeenAt.getTime() > idleSeconds * 1000) {
    await endMemberSession(db, s.id, 'idle');
    return null;
  }
  if (now - s.lastSeenAt.getTime() > Math.min(60, idleSeconds / 4) * 1000) {
    await db
      .update(memberSessions)
      .set({ lastSeenAt: sql`now()` })
      .where(and(eq(memberSessions.id, s.id), isNull(memberSessions.endedAt)));
  }
  return { sessionId: s.id, contact: s.contact, clubId: s.clubId, clientId: s.clientId, ip };
}

/** Ends a member session (sign-out, idle). */
export async function endMemberSession(db: Db, sessionId: string, reason: 'signout' | 'idle'): Promise<void> {
  await db
    .update(memberSessions)
    .set({ endedAt: sql`now()`, endReason: reason })
    .where(and(eq(memberSessions.id, sessionId), isNull(memberSessions.endedAt)));
}

/** Binds a member session to a club and the member's client there. */
export async function bindMemberSession(db: Db, sessionId: string, clubId: number, clientId: number): Promise<void> {
  await db.update(memberSessions).set({ clubId, clientId }).where(eq(memberSessions.id, sessionId));
}
