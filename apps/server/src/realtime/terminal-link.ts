import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import { and, eq } from 'drizzle-orm';
import {
  HEARTBEAT_INTERVAL_SECONDS,
  HELLO_TIMEOUT_SECONDS,
  TERMINAL_PROTOCOL_VERSION,
  TerminalMessage,
  type ServerMessage,
  type TerminalEntrance,
  type TerminalErrorCode,
  type TerminalHello,
} from '@venue/domain';
import { terminals } from '../db/schema.js';
import { processEntrance } from '../engine/entrance.service.js';
import { hashPassword, verifyPassword } from '../lib/password.js';
import type { TerminalSocket } from './terminal-registry.js';

/**
 * The terminal link (DESIGN §8, docs/terminal-protocol.md): one WebSocket per
 * terminal at GET /api/terminal/ws. The route is public to the bearer-token
 * hook because a terminal authenticates in its first message (serial and
 * secret, checked against terminals.secret_hash). Messages of one terminal
 * are handled in order; every message is validated with the zod schemas of
 * packages/domain, and a bad one answers an `error` without closing.
 */

/** How far in the future a terminal's `at` may lie before the server uses its own clock. */
const MAX_CLOCK_SKEW_MS = 5 * 60_000;
/** last_connection is written at most this often while a terminal stays connected. */
const LAST_CONNECTION_EVERY_MS = 60_000;

interface Session {
  terminalId: number;
  clubId: number;
  registered: TerminalSocket;
  lastSeenWrite: number;
}

// A hash to verify against when the serial is unknown, so both cases take the same time.
let dummyHash: Promise<string> | undefined;

export async function terminalLinkRoutes(app: FastifyInstance): Promise<void> {
  const { database, bus, terminals: registry } = app.deps;
  const db = database.db;
  // Secrets already verified by scrypt, per serial: a reconnect storm (50 gates after a network
  // blip) must not cost 50 scrypt runs. Keyed by the stored hash, so a re-issued secret misses.
  const verified = new Map<string, { hash: string; digest: Buffer }>();
  const sha256 = (s: string) => createHash('sha256').update(s).digest();
  const checkSecret = async (serial: string, secret: string, stored: string | undefined): Promise<boolean> => {
    const known = stored ? verified.get(serial) : undefined;
    if (known && known.hash === stored && timingSafeEqual(known.digest, sha256(secret))) return true;
    dummyHash ??= hashPassword('no terminal has this secret');
    const ok = await verifyPassword(secret, stored ?? (await dummyHash));
    if (ok && stored) {
      if (verified.size >= 10_000) verified.clear();
      verified.set(serial, { hash: stored, digest: sha256(secret) });
    }
    return ok && stored != null;
  };

  app.get(
    '/api/terminal/ws',
    { websocket: true, config: { public: true }, schema: { hide: true } },
    (socket: WebSocket, req) => {
      let session: Session | null = null;
      let closed = false;
      let chain = Promise.resolve();

      const send = (m: ServerMessage | { type: string }) => {
        if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(m));
      };
      const fail = (code: TerminalErrorCode, message: string, eventId?: string) =>
        send({ type: 'error', code, message, ...(eventId ? { eventId } : {}) });
      const closeWith = (code: TerminalErrorCode, message: string, wsCode: number) => {
        fail(code, message);
        socket.close(wsCode, code);
      };

      const helloTimer = setTimeout(() => {
        if (!session) closeWith('HELLO_TIMEOUT', 'No hello received', 4408);
      }, HELLO_TIMEOUT_SECONDS * 1000);
      let idleTimer: NodeJS.Timeout | undefined;
      const touch = () => {
        clearTimeout(idleTimer);
        idleTimer = setTimeout(() => socket.close(4000, 'idle'), 3 * HEARTBEAT_INTERVAL_SECONDS * 1000);
      };
      touch();

      const markSeen = async (s: Session, force = false) => {
        const now = Date.now();
        if (!force && now - s.lastSeenWrite < LAST_CONNECTION_EVERY_MS) return;
        s.lastSeenWrite = now;
        await db
          .update(terminals)
          .set({ lastConnection: new Date(now) })
          .where(eq(terminals.id, s.terminalId));
      };

      const hello = async (m: TerminalHello) => {
        if (session) return fail('BAD_MESSAGE', 'Already authenticated');
        const [t] = await db
          .select()
          .from(terminals)
          .where(and(eq(terminals.serial, m.serial), eq(terminals.deleted, false)))
          .limit(1);
        const ok = await checkSecret(m.serial, m.secret, t?.secretHash);
        if (!t || !ok) {
          req.log.warn({ serial: m.serial }, 'terminal authentication failed');
          return closeWith('AUTH_FAILED', 'Unknown serial or wrong secret', 4401);
        }
        if (closed) return;
        clearTimeout(helloTimer);
        const registered: TerminalSocket = {
          terminalId: t.id,
          clubId: t.clubId,
          connectedAt: new Date(),
          send: (msg) => {
            const type = (msg as { type?: string }).type;
            // The registry tells a socket it was replaced by a newer connection of the same terminal.
            if (type === 'replaced')
              return closeWith('REPLACED', 'Another connection of this terminal took over', 4409);
            send(msg as ServerMessage);
          },
        };
        session = { terminalId: t.id, clubId: t.clubId, registered, lastSeenWrite: 0 };
        registry.register(registered);
        await markSeen(session, true);
        bus.publish('terminal', { clubId: t.clubId, terminalId: t.id, connected: true });
        send({
          type: 'welcome',
          terminalId: t.id,
          name: t.name,
          approved: t.approved,
          gateOpenSeconds: t.gateOpenSeconds,
        });
      };

      const entrance = async (s: Session, m: TerminalEntrance) => {
        const now = Date.now();
        let at = m.at ? new Date(m.at) : new Date(now);
        if (at.getTime() > now + MAX_CLOCK_SKEW_MS) at = new Date(now);
        try {
          const r = await processEntrance(db, bus, {
            clubId: s.clubId,
            terminalId: s.terminalId,
            identification: m.identification,
            at,
            eventId: m.eventId,
          });
          send({
            type: 'decision',
            eventId: m.eventId,
            status: r.status,
            reason: r.reason,
            gateOpenSeconds: r.gateOpenSeconds,
            message: r.messageKey,
            ...(r.clientName ? { clientName: r.clientName } : {}),
          });
        } catch (err) {
          req.log.error({ err, terminalId: s.terminalId }, 'entrance failed');
          fail('GENERAL_ERROR', 'General error', m.eventId);
        }
      };

      const handle = async (raw: string) => {
        touch();
        let data: unknown;
        try {
          data = JSON.parse(raw);
        } catch {
          return fail('BAD_MESSAGE', 'Not JSON');
        }
        const obj = (data ?? {}) as { type?: unknown; version?: unknown; eventId?: unknown };
        if (obj.type === 'hello' && obj.version !== TERMINAL_PROTOCOL_VERSION) {
          return closeWith('UNSUPPORTED_VERSION', `Protocol version ${TERMINAL_PROTOCOL_VERSION} only`, 4400);
        }
        const parsed = TerminalMessage.safeParse(data);
        if (!parsed.success) {
          const eventId = typeof obj.eventId === 'string' ? obj.eventId : undefined;
          const issue = parsed.error.issues[0];
          return fail('BAD_MESSAGE', `${issue?.path.join('.') || 'message'}: ${issue?.message ?? 'invalid'}`, eventId);
        }
        const m = parsed.data;
        if (m.type === 'hello') return hello(m);
        if (!session)
          return fail('NOT_AUTHENTICATED', 'Send hello first', m.type === 'entrance' ? m.eventId : undefined);
        if (m.type === 'entrance') return entrance(session, m);
        return markSeen(session);
      };

      socket.on('message', (data, isBinary) => {
        const raw = isBinary ? '' : data.toString();
        chain = chain
          .then(() => handle(raw))
          .catch((err) => {
            req.log.error({ err }, 'terminal message failed');
            fail('GENERAL_ERROR', 'General error');
          });
      });
      socket.on('close', () => {
        closed = true;
        clearTimeout(helloTimer);
        clearTimeout(idleTimer);
        const s = session;
        if (!s) return;
        registry.unregister(s.registered);
        if (!registry.isConnected(s.terminalId)) {
          bus.publish('terminal', { clubId: s.clubId, terminalId: s.terminalId, connected: false });
        }
        chain = chain
          .then(() => markSeen(s, true))
          .catch((err) => req.log.error({ err }, 'terminal last_connection failed'));
      });
    },
  );
}
