import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import { and, eq } from 'drizzle-orm';
import {
  HEARTBEAT_INTERVAL_SECONDS,
  HELLO_TIMEOUT_SECONDS,
  LINK_DEAD_SECONDS,
  LINK_PING_SECONDS,
  TERMINAL_PROTOCOL_VERSION,
  TerminalMessage,
  type ServerMessage,
  type ServerValidList,
  type TerminalEntrance,
  type TerminalErrorCode,
  type TerminalHello,
  type TerminalHeartbeat,
} from '@venue/domain';
import { terminals } from '../db/schema.js';
import { processEntrance } from '../engine/entrance.service.js';
import { hashTerminalSecret, terminalKey, verifyTerminalSecret } from '../modules/terminals/terminal-secret.js';
import {
  cashBegin,
  cashCancel,
  cashComplete,
  cashInsert,
  cashPayoutDone,
  publishCash,
} from '../modules/terminals/cash.service.js';
import { isDatabaseUnavailable } from '../lib/error-handler.js';
import { ingestOfflineBatch, validList, VALID_LIST_TTL_MS } from '../modules/terminals/offline.service.js';
import { terminalActions } from './terminal-actions.js';
import type { TerminalSocket } from './terminal-registry.js';
import { gateWelcomeMessages, handleEnroll, handleExit } from './handlers/gate.js';
import { handlePurchase } from './handlers/purchase.js';

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
/** Entrances of one terminal link decided at once (a gate that floods the link waits for a slot). */
const MAX_ENTRANCES_IN_FLIGHT = 16;
/** last_connection is written at most this often while a terminal stays connected. */
const LAST_CONNECTION_EVERY_MS = 60_000;

interface Session {
  terminalId: number;
  clubId: number;
  registered: TerminalSocket;
  lastSeenWrite: number;
  doorState: number;
  /**
   * Whether a technician approved the terminal (read at hello and at every
   * list tick). An unapproved terminal gets nothing of the club: no member
   * list, no messages, no templates (docs/terminal-protocol.md "Approval").
   */
  approved: boolean;
}

/** Pushed messages that carry the club's data, withheld from an unapproved terminal. */
const CLUB_DATA_MESSAGES = new Set(['messages', 'templates', 'valid-list']);

/** Compared against when the serial is unknown, so both cases take the same time. */
const UNKNOWN_SERIAL_HASH = `hmac$${'A'.repeat(43)}`;

/**
 * A club's valid list as sent, computed once per list object: its content key (the entries'
 * JSON, which does not change with `generatedAt`) and the whole message as one frame. Every
 * terminal of the club gets the same cached object (modules/terminals/offline.service.ts) and
 * the same bytes: a club of 20 000 members made 50 terminals stringify 20 000 entries each, and
 * with 30 000 members 50 copies of a 4 MB message took the server to 700 MB when the
 * terminals connected together (bench/gate.bench.mjs, BENCH_CLIENTS).
 */
const listFrames = new WeakMap<object, { key: string; frame: Buffer }>();
function listFrame(list: ServerValidList): { key: string; frame: Buffer } {
  let f = listFrames.get(list);
  if (f === undefined) {
    const key = JSON.stringify(list.entries);
    const { entries: _entries, ...head } = list;
    const frame = Buffer.from(`${JSON.stringify(head).slice(0, -1)},"entries":${key}}`);
    listFrames.set(list, (f = { key, frame }));
  }
  return f;
}

export async function terminalLinkRoutes(app: FastifyInstance): Promise<void> {
  const { database, bus, terminals: registry } = app.deps;
  const db = database.db;
  const actions = terminalActions(registry, bus);
  // A deleted terminal's link is closed at once, on whichever instance holds it.
  bus.subscribe('terminal-kick', (e) => registry.get(e.terminalId)?.send({ type: 'kicked' }));
  /**
   * Checks a hello's secret (modules/terminals/terminal-secret.ts: keyed HMAC; a legacy scrypt
   * hash is verified once and re-stored as HMAC). Unknown serials are checked against a dummy.
   */
  const checkSecret = async (id: number | undefined, secret: string, stored: string | undefined): Promise<boolean> => {
    const key = await terminalKey(db);
    const ok = await verifyTerminalSecret(key, secret, stored ?? UNKNOWN_SERIAL_HASH);
    if (ok && id != null && stored?.startsWith('scrypt$')) {
      await db
        .update(terminals)
        .set({ secretHash: hashTerminalSecret(key, secret) })
        .where(eq(terminals.id, id));
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
      let uploads = Promise.resolve();

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
      // Protocol-level liveness: a link whose peer stopped answering pings (a cut cable, a
      // silent partition) is ended within LINK_DEAD_SECONDS instead of the idle limit.
      let lastPong = Date.now();
      socket.on('pong', () => (lastPong = Date.now()));
      const pingTimer = setInterval(() => {
        if (Date.now() - lastPong > LINK_DEAD_SECONDS * 1000) return socket.terminate();
        if (socket.readyState === socket.OPEN) socket.ping();
      }, LINK_PING_SECONDS * 1000);
      pingTimer.unref();

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
        const ok = await checkSecret(t?.id, m.secret, t?.secretHash);
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
            if (type === 'kicked') return closeWith('AUTH_FAILED', 'The terminal was deleted', 4401);
            if (!session?.approved && CLUB_DATA_MESSAGES.has(type ?? '')) return;
            send(msg as ServerMessage);
          },
        };
        session = {
          terminalId: t.id,
          clubId: t.clubId,
          registered,
          lastSeenWrite: 0,
          doorState: t.doorState,
          approved: t.approved,
        };
        registry.register(registered);
        await db
          .update(terminals)
          .set({
            connectedInstance: bus.instanceId,
            ...(m.devices ? { devices: m.devices, devicesReportedAt: new Date() } : {}),
          })
          .where(eq(terminals.id, t.id));
        await markSeen(session, true);
        bus.publish('terminal', { clubId: t.clubId, terminalId: t.id, connected: true });
        send({
          type: 'welcome',
          terminalId: t.id,
          name: t.name,
          approved: t.approved,
          gateOpenSeconds: t.gateOpenSeconds,
        });
        if (session.approved) {
          for (const gm of await gateWelcomeMessages(db, session)) send(gm);
          await sendValidList(session);
        }
        listTimer = setInterval(() => void listTick(session!).catch(() => undefined), VALID_LIST_TTL_MS);
        listTimer.unref();
      };

      // The offline valid list (docs/terminal-protocol.md "Offline"): after welcome, then whenever it changes.
      let listTimer: NodeJS.Timeout | undefined;
      let lastListKey = '';
      // Approval given (or withdrawn) while connected takes effect at the next tick: an approved
      // terminal then gets its messages and list; a withdrawn one gets nothing more.
      const listTick = async (s: Session) => {
        const [row] = await db
          .select({ approved: terminals.approved })
          .from(terminals)
          .where(eq(terminals.id, s.terminalId));
        const was = s.approved;
        s.approved = row?.approved === true;
        if (!s.approved) return;
        if (!was) for (const gm of await gateWelcomeMessages(db, s)) send(gm);
        await sendValidList(s);
      };
      const sendValidList = async (s: Session) => {
        const { key, frame } = listFrame(await validList(db, s.clubId));
        if (key === lastListKey) return;
        lastListKey = key;
        // A text frame, as every other message.
        if (socket.readyState === socket.OPEN) socket.send(frame, { binary: false });
      };

      const heartbeat = async (s: Session, m: TerminalHeartbeat) => {
        const set: Partial<typeof terminals.$inferInsert> = {};
        if (m.devices) Object.assign(set, { devices: m.devices, devicesReportedAt: new Date() });
        if (m.doorState != null && m.doorState !== s.doorState) {
          set.doorState = m.doorState;
          s.doorState = m.doorState;
          bus.publish('door', { clubId: s.clubId, terminalId: s.terminalId, doorState: m.doorState });
        }
        if (Object.keys(set).length > 0) await db.update(terminals).set(set).where(eq(terminals.id, s.terminalId));
        await markSeen(s);
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
            ...(r.paymentRequired ? { paymentRequired: { amount: r.paymentRequired } } : {}),
          });
        } catch (err) {
          if (isDatabaseUnavailable(err)) {
            // Issue 12 finding 5: nobody got in during an outage. The terminal decides by its list.
            req.log.warn({ terminalId: s.terminalId }, 'database unavailable: terminal decides offline');
            return fail('DECIDE_OFFLINE', 'The server cannot decide now; decide offline', m.eventId);
          }
          req.log.error({ err, terminalId: s.terminalId }, 'entrance failed');
          fail('GENERAL_ERROR', 'General error', m.eventId);
        }
      };

      // A link's entrances are decided side by side (up to MAX_ENTRANCES_IN_FLIGHT; then the link's
      // next message waits for a slot): its other messages stay in order, and an entrance's answer
      // names its eventId. One at a time, a link could not decide faster than one database round
      // trip per entrance.
      let entrancesRunning = 0;
      const entranceSlots: (() => void)[] = [];
      const startEntrance = async (s: Session, m: TerminalEntrance) => {
        while (entrancesRunning >= MAX_ENTRANCES_IN_FLIGHT) await new Promise<void>((r) => entranceSlots.push(r));
        entrancesRunning++;
        void entrance(s, m).finally(() => {
          entrancesRunning--;
          entranceSlots.shift()?.();
        });
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
        if (m.type === 'entrance') return startEntrance(session, m);
        if (m.type === 'heartbeat') return heartbeat(session, m);
        if (m.type === 'enroll') return send(await handleEnroll(db, bus, session, m, req.log));
        if (m.type === 'exit') return send(await handleExit(db, session, m, req.log));
        if (m.type === 'purchase') return send(await handlePurchase(db, bus, session, m, req.log));
        if (m.type === 'action-reply') {
          const { requestId, ok, data: replyData, error } = m;
          return actions.reply({
            requestId,
            ok,
            ...(replyData !== undefined ? { data: replyData } : {}),
            ...(error ? { error } : {}),
          });
        }
        if (m.type === 'offline-batch') {
          // Off the link's message order (issue 12 finding 9): live entrances sent meanwhile are
          // decided at once instead of waiting behind the upload; uploads stay one at a time.
          const s = session;
          uploads = uploads
            .then(async () => send(await ingestOfflineBatch(db, bus, s, m)))
            .catch((err: unknown) => {
              req.log.error({ err, terminalId: s.terminalId }, 'offline upload failed');
              fail('GENERAL_ERROR', 'Offline upload failed');
            });
          return;
        }
        if (
          m.type === 'cash-begin' ||
          m.type === 'cash-insert' ||
          m.type === 'cash-complete' ||
          m.type === 'cash-cancel' ||
          m.type === 'cash-payout-done'
        ) {
          const link = { clubId: session.clubId, terminalId: session.terminalId };
          const state =
            m.type === 'cash-begin'
              ? await cashBegin(db, link, m)
              : m.type === 'cash-insert'
                ? await cashInsert(db, link, m)
                : m.type === 'cash-complete'
                  ? await cashComplete(db, link, m)
                  : m.type === 'cash-cancel'
                    ? await cashCancel(db, link, m)
                    : await cashPayoutDone(db, link, m);
          send(state);
          return publishCash(bus, link, state);
        }
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
        clearInterval(pingTimer);
        clearTimeout(helloTimer);
        clearTimeout(idleTimer);
        clearInterval(listTimer);
        const s = session;
        if (!s) return;
        registry.unregister(s.registered);
        if (!registry.isConnected(s.terminalId)) {
          bus.publish('terminal', { clubId: s.clubId, terminalId: s.terminalId, connected: false });
        }
        chain = chain
          .then(async () => {
            await markSeen(s, true);
            if (!registry.isConnected(s.terminalId)) {
              await db
                .update(terminals)
                .set({ connectedInstance: null })
                .where(and(eq(terminals.id, s.terminalId), eq(terminals.connectedInstance, bus.instanceId)));
            }
          })
          .catch((err) => req.log.error({ err }, 'terminal last_connection failed'));
      });
    },
  );
}
