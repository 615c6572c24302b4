import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import type { EventBus } from '../lib/event-bus.js';
import { eq } from 'drizzle-orm';
import { can, HELLO_TIMEOUT_SECONDS, LiveAuth, UserLevel, type LiveMessage } from '@venue/domain';
import { clubs } from '../db/schema.js';
import { reachesClub } from '../modules/global-messages/global-messages.service.js';
import { accessContext, effectivePermissions } from '../lib/access.js';
import {
  endSessionRows,
  sessionIdleDeadline,
  sessionOfToken,
  type SessionScope,
  type TokenClaims,
} from '../lib/sessions.js';

/**
 * The console's live feed (docs/live-feed.md): GET /api/live. A browser
 * cannot set headers on a WebSocket, so the route is public to the bearer
 * hook and the first message carries the token: `{type: 'auth', token}`,
 * checked like every request (signature, expiry, disabled user, token
 * version). Then the server pushes the bus events of the user's club only,
 * each kind only when the access policy lets the user see it (`{live: kind}`:
 * entrance rows carry client names, so only to users who may open the
 * dashboard or the entrance report).
 *
 * The socket lives as long as its sign-in session (docs/security.md
 * "Sessions"): it opens only for a session a request would accept (the same
 * check, `sessionOfToken`: not ended or idle, user and club enabled), and it
 * closes (4401 UNAUTHORIZED) the moment the session ends — sign-out, a
 * password change, a disabled user or club, on whichever server instance it
 * happened (the bus's `session-end`) — or its idle timeout or expiry passes
 * (the socket is not activity; requests of the session are).
 */
export async function liveRoutes(app: FastifyInstance): Promise<void> {
  const { database, bus, config } = app.deps;
  const db = database.db;
  const idleSeconds = config.sessionIdleSeconds;

  const open = openSockets(bus);
  app.addHook('onClose', async () => open.off());

  app.get(
    '/api/live',
    { websocket: true, config: { public: true }, schema: { hide: true } },
    (socket: WebSocket, req) => {
      const unsubscribe: (() => void)[] = [];
      let state: 'new' | 'checking' | 'ready' = 'new';
      const send = (m: LiveMessage) => {
        if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(m));
      };
      const reject = (code: string, message: string, wsCode: number) => {
        send({ type: 'error', code, message });
        socket.close(wsCode, code);
      };
      const authTimer = setTimeout(() => {
        if (state !== 'ready') reject('UNAUTHORIZED', 'No auth message received', 4408);
      }, HELLO_TIMEOUT_SECONDS * 1000);
      let idleTimer: NodeJS.Timeout | undefined;

      const auth = async (raw: string) => {
        let parsed;
        try {
          parsed = LiveAuth.safeParse(JSON.parse(raw));
        } catch {
          parsed = null;
        }
        if (!parsed?.success) return reject('VALIDATION_ERROR', 'Expected {type: "auth", token}', 4400);
        let claims: TokenClaims;
        try {
          claims = app.jwt.verify<TokenClaims>(parsed.data.token);
        } catch {
          return reject('UNAUTHORIZED', 'Authentication error', 4401);
        }
        // The same check as every request's (plugins/auth.ts); opening a socket is not activity.
        const session = await sessionOfToken(db, claims, idleSeconds, false);
        if (!session) return reject('UNAUTHORIZED', 'Authentication error', 4401);
        const user = session.user;
        const wanted =
          user.level === UserLevel.SuperUser && parsed.data.clubExternalId != null
            ? eq(clubs.externalClubId, parsed.data.clubExternalId)
            : user.clubId != null
              ? eq(clubs.id, user.clubId)
              : null;
        const [c] = wanted
          ? await db.select({ id: clubs.id, externalClubId: clubs.externalClubId }).from(clubs).where(wanted)
          : [];
        if (!c) return reject('NOT_FOUND', 'club not selected', 4404);
        const clubId = c.id;
        const policy = await accessContext(
          db,
          {
            userId: user.id,
            username: user.username,
            level: user.level,
            role: user.role,
            isAdmin: user.isAdmin,
            permissions: effectivePermissions(user),
            clubId: c.id,
            externalClubId: c.externalClubId,
            ip: req.ip,
          },
          true,
        );
        const sees = {
          entrance: can(policy, { live: 'entrance' }),
          terminal: can(policy, { live: 'terminal' }),
          door: can(policy, { live: 'door' }),
          cash: can(policy, { live: 'cash' }),
          screen: can(policy, { live: 'screen' }),
        };
        if (socket.readyState !== socket.OPEN) return;
        clearTimeout(authTimer);
        state = 'ready';
        const club = clubId;
        unsubscribe.push(...subscribeClub(bus, { id: club, externalClubId: c.externalClubId }, sees, send));
        const me: OpenSocket = {
          userId: user.id,
          userClubId: user.clubId,
          end: (why) => reject('UNAUTHORIZED', why, 4401),
        };
        unsubscribe.push(open.add(session.sessionId, me));
        // Idle timeout and expiry: at the deadline the session is read again (its requests may have renewed it).
        const watch = (deadline: number) => {
          if (socket.readyState !== socket.OPEN) return;
          const ms = Math.min(Math.max(deadline - Date.now(), 0), 2 ** 31 - 1);
          idleTimer = setTimeout(() => {
            sessionIdleDeadline(db, session.sessionId, idleSeconds)
              .then(async (next) => {
                if (next !== null && next > Date.now()) return watch(next);
                if (next !== null) await endSessionRows(db, { sessionId: session.sessionId }, 'idle');
                me.end('Session ended');
              })
              .catch(() => reject('GENERAL_ERROR', 'General error', 1011));
          }, ms);
        };
        watch(Math.min(session.lastSeenAt.getTime() + idleSeconds * 1000, session.expiresAt.getTime()));
        send({ type: 'ready', clubId: club });
      };

      socket.on('message', (data) => {
        // After the auth message the feed is one-way; later messages are ignored.
        if (state !== 'new') return;
        state = 'checking';
        auth(data.toString()).catch(() => reject('GENERAL_ERROR', 'General error', 1011));
      });
      socket.on('close', () => {
        clearTimeout(authTimer);
        clearTimeout(idleTimer);
        for (const off of unsubscribe) off();
      });
    },
  );
}

/** An authenticated socket of this instance, as a `session-end` finds it. */
interface OpenSocket {
  userId: number;
  /** The user's own club (null for the operator, whose sessions a club's disabling does not end). */
  userClubId: number | null;
  /** Sends the error and closes the socket (4401). */
  end: (why: string) => void;
}

/**
 * The open sockets of this instance by session id, closed when a `session-end`
 * of the bus covers them. `add` returns the function that forgets the socket.
 */
function openSockets(bus: EventBus) {
  const bySession = new Map<string, Set<OpenSocket>>();
  const off = bus.subscribe('session-end', (scope) => {
    for (const [sessionId, sockets] of bySession) {
      for (const s of sockets) if (endsSocket(scope, sessionId, s)) s.end('Session ended');
    }
  });
  const add = (sessionId: string, socket: OpenSocket) => {
    const mine = bySession.get(sessionId) ?? new Set<OpenSocket>();
    bySession.set(sessionId, mine.add(socket));
    return () => {
      mine.delete(socket);
      if (mine.size === 0 && bySession.get(sessionId) === mine) bySession.delete(sessionId);
    };
  };
  return { add, off };
}

/** Whether an ended-session scope covers a socket of session `sessionId`. */
function endsSocket(scope: SessionScope, sessionId: string, s: OpenSocket): boolean {
  if ('sessionId' in scope) return scope.sessionId === sessionId;
  if ('userId' in scope) return scope.userId === s.userId && scope.exceptSessionId !== sessionId;
  return s.userClubId === scope.clubId;
}

/** What one socket may see (the access policy's `{live: kind}`, decided when it authenticates). */
type Sees = Record<'entrance' | 'terminal' | 'door' | 'cash' | 'screen', boolean>;

/**
 * Subscribes one authenticated socket to the bus events of its club; returns
 * the unsubscribe functions. A global message is sent when its audience
 * includes the club (docs/messages.md).
 */
function subscribeClub(
  bus: EventBus,
  clubRef: { id: number; externalClubId: number },
  sees: Sees,
  send: (m: LiveMessage) => void,
): (() => void)[] {
  const club = clubRef.id;
  return [
    bus.subscribe('entrance', (e) => {
      if (e.clubId === club && sees.entrance)
        send({ type: 'entrance', row: e.row as Extract<LiveMessage, { type: 'entrance' }>['row'] });
    }),
    bus.subscribe('terminal', (e) => {
      if (e.clubId === club && sees.terminal)
        send({ type: 'terminal', terminalId: e.terminalId, connected: e.connected });
    }),
    bus.subscribe('door', (e) => {
      if (e.clubId === club && sees.door) send({ type: 'door', terminalId: e.terminalId, doorState: e.doorState });
    }),
    bus.subscribe('cash', (e) => {
      if (e.clubId !== club || !sees.cash) return;
      const { terminalId, sessionId, state, inserted, error } = e;
      send({
        type: 'cash',
        terminalId,
        sessionId,
        state: state as Extract<LiveMessage, { type: 'cash' }>['state'],
        inserted,
        ...(error ? { error } : {}),
      });
    }),
    bus.subscribe('screen', (e) => {
      if (e.clubId === club && sees.screen)
        send({ type: 'screen', terminalId: e.terminalId, screen: e.screen, at: e.at, receivedAt: e.receivedAt });
    }),
    // Every user of the club sees the emergency banner (docs/gate-safety.md): no access check.
    bus.subscribe('gate-safety', (e) => {
      if (e.clubId === club && e.state) send({ type: 'safety', state: e.state });
    }),
    bus.subscribe('incident', (e) => {
      if (e.clubId === club) send({ type: 'incident', id: e.incidentId });
    }),
    bus.subscribe('licenses', (e) => {
      if (e.clubId === club) send({ type: 'licenses', requestId: e.requestId, status: e.status });
    }),
    bus.subscribe('global-message', (e) => {
      if (reachesClub(e, clubRef.externalClubId))
        send({
          type: 'message',
          id: e.messageId,
          kind: e.kind as Extract<LiveMessage, { type: 'message' }>['kind'],
        });
    }),
  ];
}
