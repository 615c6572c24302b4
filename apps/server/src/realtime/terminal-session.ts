import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import {
  HEARTBEAT_INTERVAL_SECONDS,
  HELLO_TIMEOUT_SECONDS,
  safetyMessage,
  LINK_DEAD_SECONDS,
  LINK_PING_SECONDS,
  OFFLINE_UPLOAD_QUEUE,
  type ServerMessage,
  type ServerOfflineAck,
  type ServerValidList,
  type TerminalErrorCode,
} from '@venue/domain';
import type { Db } from '../db/index.js';
import {
  isTerminalApproved,
  markTerminalConnected,
  releaseTerminalLink,
  touchLastConnection,
  lastContactWriter,
  type LinkTerminal,
} from '../modules/terminals/link.service.js';
import { validList, VALID_LIST_TTL_MS } from '../modules/terminals/offline.service.js';
import { safetyNow, type SafetyEntry } from '../modules/gate/safety.service.js';
import type { EventBus } from '../lib/event-bus.js';
import type { TerminalActions } from '../lib/terminal-actions.js';
import type { TerminalScreens } from '../lib/terminal-screens.js';
import type { TerminalRegistry, TerminalSocket } from '../lib/terminal-registry.js';
import { gateWelcomeMessages } from './handlers/gate.js';
import type { UploadLane } from './upload-lane.js';

/**
 * One connected terminal's link (docs/terminal-protocol.md): its socket, the
 * hello timeout, idle and ping/pong liveness, its authenticated state, the
 * offline valid list it was sent, and the ordering rules of its messages.
 * What each message does is in realtime/link-handlers.ts.
 */

/** Entrances of one terminal link decided at once (a gate that floods the link waits for a slot). */
const MAX_ENTRANCES_IN_FLIGHT = 16;
/** last_connection is written at most this often while a terminal stays connected. */
const LAST_CONNECTION_EVERY_MS = 60_000;
/** Pushed messages that carry the club's data, withheld from an unapproved terminal. */
const CLUB_DATA_MESSAGES = new Set(['messages', 'templates', 'valid-list']);

/** What the link of every terminal shares: the database, the bus, this instance's sockets, the action hub. */
export interface LinkDeps {
  db: Db;
  bus: EventBus;
  registry: TerminalRegistry;
  actions: TerminalActions;
  /** The latest screen of each terminal (remote view). */
  screens: TerminalScreens;
  /** Offline batches recorded at once on this instance, all links together (realtime/upload-lane.ts). */
  uploads: UploadLane;
}

/** The state of an authenticated terminal (after a good hello). */
export interface LinkState {
  terminalId: number;
  clubId: number;
  /** The terminal's name (read at hello): an alarm input's audit and the banner name it. */
  name: string;
  registered: TerminalSocket;
  /** When last_connection was last written, ms since the epoch. */
  lastSeenWrite: number;
  /** EntranceState last reported by the terminal or read at hello. */
  doorState: number;
  /**
   * Whether a technician approved the terminal (read at hello and at every
   * list tick). An unapproved terminal gets nothing of the club: no member
   * list, no messages, no templates (docs/terminal-protocol.md "Approval").
   */
  approved: boolean;
}

/**
 * A club's valid list as sent, computed once per list object: its content key (the entries'
 * JSON, which does not change with `generatedAt`) and the whole message as one frame. Every
 * terminal of the club gets the same cached object (modules/terminals/offline.service.ts) and
 * the same bytes: a club of 20 000 members made 50 terminals stringify 20 000 entries each, and
 * with 30 000 members 50 copies of a 4 MB message took the server to 700 MB when the
 * terminals connected together (bench/gate.bench.mjs, BENCH_CLIENTS).
 */
const listFrames = new WeakMap<object, { safety: SafetyEntry; key: string; frame: Buffer }>();
/**
 * The list's frame with the club's emergency mode and lockdown overrides (docs/gate-safety.md: the
 * offline list carries them); made again only when the list or the club's safety entry changed.
 */
function listFrame(list: ServerValidList, safety: SafetyEntry): { key: string; frame: Buffer } {
  let f = listFrames.get(list);
  if (f === undefined || f.safety !== safety) {
    const entries = JSON.stringify(list.entries);
    const extra = { safety: safety.state.mode, lockdownOverrides: safety.overrideCodes };
    const key = `${safety.state.mode}${JSON.stringify(safety.overrideCodes)}${entries}`;
    const { entries: _entries, ...head } = list;
    const frame = Buffer.from(`${JSON.stringify({ ...head, ...extra }).slice(0, -1)},"entries":${entries}}`);
    listFrames.set(list, (f = { safety, key, frame }));
  }
  return f;
}

/**
 * The session of one terminal socket. Messages are handled one after another
 * (`enqueue`), except entrances, decided side by side (`startEntrance`), and
 * offline uploads, one at a time beside the message order (`queueUpload`).
 */
export class TerminalLinkSession {
  /** Set by a good hello; null until then. */
  link: LinkState | null = null;
  /** Whether the socket has closed. */
  closed = false;
  private chain = Promise.resolve();
  private uploads = Promise.resolve();
  /** Offline batches of this link queued or being recorded. */
  private uploadsWaiting = 0;
  private readonly helloTimer: NodeJS.Timeout;
  private idleTimer?: NodeJS.Timeout;
  private readonly pingTimer: NodeJS.Timeout;
  private listTimer?: NodeJS.Timeout;
  private lastHeard = Date.now();
  private lastListKey = '';
  private entrancesRunning = 0;
  private readonly entranceSlots: (() => void)[] = [];
  /** Decisions being made now (a graceful stop sends them before it closes the link). */
  private readonly deciding = new Set<Promise<void>>();
  /** Set when the server stops: new entrances are answered DECIDE_OFFLINE, the link closes with 1001. */
  leaving = false;
  private readonly closedOnce: Promise<void>;
  private markClosed!: () => void;

  constructor(
    readonly socket: WebSocket,
    readonly deps: LinkDeps,
    /** The link's log: the upgrade request's id, and from a good hello the terminal's id and club. */
    public log: FastifyBaseLogger,
    /** Called once when the link closes for a failed hello (realtime/hello-failures.ts). */
    private readonly onHelloFailed: () => void = () => {},
  ) {
    this.closedOnce = new Promise((r) => (this.markClosed = r));
    this.helloTimer = setTimeout(() => {
      if (!this.link) this.closeWith('HELLO_TIMEOUT', 'No hello received', 4408);
    }, HELLO_TIMEOUT_SECONDS * 1000);
    this.touch();
    // Protocol-level liveness: a link whose peer went silent (a cut cable, a silent partition)
    // is ended within LINK_DEAD_SECONDS instead of the idle limit. Anything heard counts — a
    // pong, the terminal's own ping (every TERMINAL_PING_SECONDS), a message — and a link heard
    // from within LINK_PING_SECONDS is not pinged: with thousands of terminals the server then
    // answers their pings instead of adding as many of its own (docs/scaling.md).
    const heard = () => (this.lastHeard = Date.now());
    socket.on('pong', heard);
    socket.on('ping', heard);
    socket.on('message', heard);
    this.pingTimer = setInterval(() => {
      const silent = Date.now() - this.lastHeard;
      if (silent > LINK_DEAD_SECONDS * 1000) return socket.terminate();
      if (silent >= LINK_PING_SECONDS * 1000 && socket.readyState === socket.OPEN) socket.ping();
    }, LINK_PING_SECONDS * 1000);
    this.pingTimer.unref();
    socket.on('close', () => this.onClose());
  }

  get db(): Db {
    return this.deps.db;
  }

  /** Sends a message when the socket is open. */
  send(m: ServerMessage | { type: string }): void {
    if (this.socket.readyState === this.socket.OPEN) this.socket.send(JSON.stringify(m));
  }

  /** Answers an `error` (with the eventId of the message it answers, when there is one); the link stays open. */
  fail(code: TerminalErrorCode, message: string, eventId?: string): void {
    this.send({ type: 'error', code, message, ...(eventId ? { eventId } : {}) });
  }

  /** Answers an `error` and closes the socket with WebSocket close code `wsCode` (reason: the error code). */
  closeWith(code: TerminalErrorCode, message: string, wsCode: number): void {
    // A failed hello (not a busy server's refusal, nor the end of an authenticated link) spends its source's token.
    if (!this.link && !this.closed && code !== 'BUSY') this.onHelloFailed();
    this.fail(code, message);
    this.socket.close(wsCode, code);
  }

  /** Restarts the idle limit: a link silent for 3 heartbeat intervals is closed. */
  touch(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => this.socket.close(4000, 'idle'), 3 * HEARTBEAT_INTERVAL_SECONDS * 1000);
  }

  /** Runs `fn` after the messages before it; a failure is logged and answered GENERAL_ERROR. */
  enqueue(fn: () => Promise<void>): void {
    this.chain = this.chain.then(fn).catch((err: unknown) => {
      this.log.error({ err }, 'terminal message failed');
      this.fail('GENERAL_ERROR', 'General error');
    });
  }

  /**
   * A link's entrances are decided side by side (up to MAX_ENTRANCES_IN_FLIGHT; then the
   * link's next message waits for a slot): its other messages stay in order, and an
   * entrance's answer names its eventId. One at a time, a link could not decide faster than
   * one database round trip per entrance. Resolves once `decide` has started.
   */
  async startEntrance(decide: () => Promise<void>): Promise<void> {
    while (this.entrancesRunning >= MAX_ENTRANCES_IN_FLIGHT) {
      await new Promise<void>((r) => this.entranceSlots.push(r));
    }
    this.entrancesRunning++;
    const running: Promise<void> = decide().finally(() => {
      this.deciding.delete(running);
      this.entrancesRunning--;
      this.entranceSlots.shift()?.();
    });
    this.deciding.add(running);
  }

  /**
   * The server is stopping (docs/operations.md "Shutdown"): the decisions being made are sent
   * (for at most `decideMs`), then the link is closed with 1001 "going away" — the terminal
   * connects to its next server address at once (apps/terminal/src/client.ts). Entrances that
   * arrive meanwhile are answered DECIDE_OFFLINE (the terminal decides by its list and uploads
   * them to the server it moves to). A terminal that does not answer the close within
   * `closeMs` is cut off.
   */
  async goAway(decideMs = 1_000, closeMs = 2_000): Promise<void> {
    if (this.closed) return;
    this.leaving = true;
    let timer: NodeJS.Timeout | undefined;
    const limit = (ms: number) => new Promise<void>((r) => (timer = setTimeout(r, ms)));
    await Promise.race([Promise.all([...this.deciding]), limit(decideMs)]);
    clearTimeout(timer);
    if (this.closed) return;
    this.socket.close(1001, 'server stopping');
    await Promise.race([this.closedOnce, limit(closeMs)]);
    clearTimeout(timer);
    if (!this.closed) this.socket.terminate();
  }

  /**
   * Resolves once the socket has closed and everything the link had started is done: its
   * messages, its uploads and what its close writes (last contact, the instance released).
   */
  async settled(): Promise<void> {
    await this.closedOnce;
    for (;;) {
      const chain = this.chain;
      const uploads = this.uploads;
      await Promise.all([chain, uploads, ...this.deciding]);
      if (chain === this.chain && uploads === this.uploads) return;
    }
  }

  /**
   * Runs an offline upload off the link's message order: live entrances sent meanwhile are
   * decided at once instead of waiting behind the upload; a link's uploads stay one at a time,
   * and the instance records at most `deps.uploads.limit` batches at a time whichever their links
   * (the gate's decisions keep their connections while fifty terminals upload).
   *
   * Back-pressure (docs/terminal-protocol.md "Offline uploads"): a batch beyond
   * OFFLINE_UPLOAD_QUEUE of this link still waiting is answered `UPLOAD_BUSY` at once instead of
   * queued behind them; a batch whose link closed before its turn is dropped unrecorded (its
   * terminal sends it again on its next link); a batch that fails is answered `UPLOAD_FAILED`.
   * Each answer names the batch.
   */
  queueUpload(
    terminalId: number,
    batchId: string,
    upload: () => Promise<ServerOfflineAck>,
    /** Called once when the batch leaves the queue however it ends (the offline backlog gauge). */
    settled: () => void = () => undefined,
  ): void {
    if (this.uploadsWaiting >= OFFLINE_UPLOAD_QUEUE) {
      this.send({ type: 'error', code: 'UPLOAD_BUSY', message: 'Earlier batches are still being recorded', batchId });
      settled();
      return;
    }
    this.uploadsWaiting++;
    this.uploads = this.uploads
      .then(async () => {
        if (this.closed) return;
        const release = await this.deps.uploads.enter();
        try {
          if (!this.closed) this.send(await upload());
        } finally {
          release();
        }
      })
      .catch((err: unknown) => {
        this.log.error({ err, terminalId, batchId }, 'offline upload failed');
        this.send({ type: 'error', code: 'UPLOAD_FAILED', message: 'Offline upload failed; send it again', batchId });
      })
      .finally(() => {
        this.uploadsWaiting--;
        settled();
      });
  }

  /** Writes last_connection, at most once a minute unless `force`. */
  async markSeen(s: LinkState, force = false): Promise<void> {
    const now = Date.now();
    if (!force && now - s.lastSeenWrite < LAST_CONNECTION_EVERY_MS) return;
    s.lastSeenWrite = now;
    // A live link's contact is written with the others' (LastContactWriter); the close writes at once.
    if (force) await touchLastConnection(this.db, s.terminalId, new Date(now));
    else lastContactWriter(this.db).note(s.terminalId, new Date(now));
  }

  /** A hello arrived: the hello timeout is met, however long admission control keeps it waiting (realtime/admission.ts). */
  helloArrived(): void {
    clearTimeout(this.helloTimer);
  }

  /**
   * Makes the session the terminal's link after a good hello: registers it on this instance
   * (a previous link of the same terminal is told `replaced`), records the instance, the
   * devices and the contact, tells the club's console, and sends `welcome` — then, to an
   * approved terminal, its messages and valid list, refreshed every VALID_LIST_TTL_MS.
   */
  async open(t: LinkTerminal, devices: string[] | undefined, softwareVersion?: string): Promise<void> {
    clearTimeout(this.helloTimer);
    this.log = this.log.child({ terminalId: t.id, clubId: t.clubId });
    const { bus, registry } = this.deps;
    const registered: TerminalSocket = {
      terminalId: t.id,
      clubId: t.clubId,
      connectedAt: new Date(),
      send: (msg) => this.deliver(msg),
      sendRaw: (frame) => {
        if (this.socket.readyState === this.socket.OPEN) this.socket.send(frame);
      },
    };
    const s: LinkState = {
      terminalId: t.id,
      clubId: t.clubId,
      name: t.name,
      registered,
      lastSeenWrite: 0,
      doorState: t.doorState,
      approved: t.approved,
    };
    this.link = s;
    registry.register(registered);
    // last_connection is written with the instance: one statement (markSeen's next write is a minute later).
    s.lastSeenWrite = Date.now();
    await markTerminalConnected(this.db, t.id, bus.instanceId, new Date(s.lastSeenWrite), devices, softwareVersion);
    bus.publish('terminal', { clubId: t.clubId, terminalId: t.id, connected: true });
    // The club's emergency travels with the welcome (docs/gate-safety.md): a terminal that was
    // offline when it began or ended acts on it at once. From memory: no query at a reconnect storm.
    const safety = (await safetyNow(this.db, t.clubId)).state;
    const { type: _type, ...safetyNowMsg } = safetyMessage(safety);
    this.send({
      type: 'welcome',
      terminalId: t.id,
      name: t.name,
      approved: t.approved,
      gateOpenSeconds: t.gateOpenSeconds,
      ...(safety.mode !== 'normal' ? { safety: safetyNowMsg } : {}),
    });
    if (s.approved) {
      for (const gm of await gateWelcomeMessages(this.db, s)) this.send(gm);
      await this.sendValidList(s);
    }
    this.listTimer = setInterval(() => void this.listTick(s).catch(() => undefined), VALID_LIST_TTL_MS);
    this.listTimer.unref();
  }

  /** A message from elsewhere on the server (registry, pushes, actions) for this terminal. */
  private deliver(msg: unknown): void {
    const type = (msg as { type?: string }).type;
    // The registry tells a socket it was replaced by a newer connection of the same terminal.
    if (type === 'replaced') return this.closeWith('REPLACED', 'Another connection of this terminal took over', 4409);
    if (type === 'kicked') return this.closeWith('AUTH_FAILED', 'The terminal was deleted', 4401);
    if (!this.link?.approved && CLUB_DATA_MESSAGES.has(type ?? '')) return;
    this.send(msg as ServerMessage);
  }

  /**
   * The offline valid list (docs/terminal-protocol.md "Offline") is re-sent when it changed.
   * Approval given (or withdrawn) while connected takes effect here: an approved terminal
   * then gets its messages and list; a withdrawn one gets nothing more.
   */
  private async listTick(s: LinkState): Promise<void> {
    const was = s.approved;
    s.approved = await isTerminalApproved(this.db, s.terminalId);
    if (!s.approved) return;
    if (!was) for (const gm of await gateWelcomeMessages(this.db, s)) this.send(gm);
    await this.sendValidList(s);
  }

  private async sendValidList(s: LinkState): Promise<void> {
    const [list, safety] = await Promise.all([validList(this.db, s.clubId), safetyNow(this.db, s.clubId)]);
    const { key, frame } = listFrame(list, safety);
    if (key === this.lastListKey) return;
    this.lastListKey = key;
    // A text frame, as every other message.
    if (this.socket.readyState === this.socket.OPEN) this.socket.send(frame, { binary: false });
  }

  /** Stops the timers; an authenticated link is unregistered, and its last contact and instance written. */
  private onClose(): void {
    this.closed = true;
    this.markClosed();
    clearInterval(this.pingTimer);
    clearTimeout(this.helloTimer);
    clearTimeout(this.idleTimer);
    clearInterval(this.listTimer);
    const s = this.link;
    if (!s) return;
    const { bus, registry } = this.deps;
    registry.unregister(s.registered);
    if (!registry.isConnected(s.terminalId)) {
      bus.publish('terminal', { clubId: s.clubId, terminalId: s.terminalId, connected: false });
    }
    this.chain = this.chain
      .then(async () => {
        await this.markSeen(s, true);
        if (!registry.isConnected(s.terminalId)) await releaseTerminalLink(this.db, s.terminalId, bus.instanceId);
      })
      .catch((err: unknown) => this.log.error({ err }, 'terminal last_connection failed'));
  }
}
