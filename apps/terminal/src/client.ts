import { randomUUID } from 'node:crypto';
import { lookup as dnsLookup } from 'node:dns/promises';
import { EventEmitter } from 'node:events';
import { isIP, type LookupFunction } from 'node:net';
import WebSocket from 'ws';
import {
  HEARTBEAT_INTERVAL_SECONDS,
  OFFLINE_BATCH_EVENTS,
  OFFLINE_UPLOAD_WINDOW,
  ServerMessage,
  TerminalAction,
  TERMINAL_PING_SECONDS,
  TERMINAL_PROTOCOL_VERSION,
  type Identification,
  type Inventory,
  type OfflineEvent,
  type ServerAction,
  type ServerCashState,
  type ServerDecision,
  type ServerError,
  type ServerOfflineAck,
  type ServerValidList,
  type ServerWelcome,
  type AlarmInput,
  type SafetyMode,
  type ServerAlarmAck,
  type ServerSafety,
  type TerminalAlarm,
  type TerminalMessage,
  type TerminalScreen,
} from '@venue/domain';

/**
 * A terminal speaking protocol v1 (docs/terminal-protocol.md): used by the
 * simulator CLI, the integration tests and the load benchmark. One instance
 * is one terminal.
 *
 * Reliable link (DESIGN §10), when `reconnect` is on:
 * - a lost connection is re-opened with exponential backoff (with jitter);
 * - while the server is unreachable, `present` decides on its own from the
 *   server's last valid list, for at most the list's `offlineWindowSeconds`
 *   after the link was lost: a card or code on the list (valid until later
 *   than now) is admitted (status 1), anything else refused (status 3, the
 *   terminal cannot decide);
 * - every offline decision keeps its eventId and is queued; when the link
 *   returns the queue is uploaded (`offline-batch`) and dropped only for the
 *   event ids the server acknowledged (recorded or duplicate), so each is
 *   counted exactly once even when the link breaks mid-upload;
 * - an entrance sent just before the link broke, whose decision never came,
 *   is decided offline with the same eventId: if the server had decided it,
 *   the upload is a duplicate and nothing is counted twice.
 * Server actions (open gate, set door state, ...) are answered by `onAction`
 * (default: carried out on the simulated gate and answered ok).
 */

/** The simulator's software version (seed 000 §1 app version), reported in hello. */
export const TERMINAL_SOFTWARE_VERSION = '38.0.0';

export interface TerminalClientOptions {
  /**
   * The server: a ws://, wss:// or http(s):// URL (a bare origin gets the path /api/terminal/ws),
   * or several, tried in order with failover (docs/terminal-protocol.md "Several servers"); a host
   * name that resolves to several addresses counts as that many.
   */
  url: string | string[];
  serial: string;
  secret: string;
  devices?: string[];
  /** The software version reported in hello (default TERMINAL_SOFTWARE_VERSION). */
  softwareVersion?: string;
  /** Milliseconds to wait for a welcome or a decision (default 10000). */
  timeoutMs?: number;
  /** Milliseconds for the TCP connection and the WebSocket upgrade to one address before the next is tried (default 3000). */
  openTimeoutMs?: number;
  /** Milliseconds over which a terminal whose server went away (close 1001/1012) spreads its reconnect (default 500). */
  goingAwayJitterMs?: number;
  /** Send heartbeats every HEARTBEAT_INTERVAL_SECONDS while connected (default true). */
  heartbeat?: boolean;
  /** Re-open a lost connection and decide offline from the valid list meanwhile (default false). */
  reconnect?: boolean;
  /**
   * With `reconnect`: milliseconds a member waits for the server's decision before the terminal
   * decides by its valid list (default 3000; the server itself answers DECIDE_OFFLINE within about
   * 750 ms when its database stalls — docs/terminal-protocol.md "Database outage").
   */
  decisionTimeoutMs?: number;
  /**
   * Milliseconds between the terminal's WebSocket pings (default
   * TERMINAL_PING_SECONDS). A link silent for 3 of them is taken for dead:
   * closed at once, and with `reconnect` the terminal decides offline.
   */
  linkCheckMs?: number;
  /**
   * Backoff of reconnect attempts, milliseconds: first delay, ceiling (default 250 and 5000: a gate is back
   * within 5 s of its server answering again, issue 33 "gates back in < 10 s" after a crash; bench/restart.bench.mjs).
   */
  backoffMs?: { initial: number; max: number };
  /** Offline events per uploaded batch (default OFFLINE_BATCH_EVENTS, 100). */
  uploadBatchEvents?: number;
  /** Offline batches sent and not yet answered at once (default OFFLINE_UPLOAD_WINDOW, 2). */
  uploadWindow?: number;
  /** Backoff after `UPLOAD_BUSY` or `UPLOAD_FAILED`, milliseconds: first delay, ceiling (default 500 and 30000). */
  uploadBackoffMs?: { initial: number; max: number };
  /** Answers a server action; default: carry it out on the simulated gate and answer ok. */
  onAction?: (a: ServerAction, client: TerminalClient) => Promise<{ ok: boolean; data?: unknown; error?: string }>;
  /** Resolves a host name to its addresses (default: the system resolver, every A and AAAA answer); tests pass their own. */
  resolveHost?: (host: string) => Promise<{ address: string; family: number }[]>;
  /** Opens the socket to `url` (default: a `ws` WebSocket); unit tests pass a stand-in. */
  openSocket?: (url: string) => WebSocket;
}

/** An `error` message from the server, thrown by `connect` and `present`. */
export class TerminalError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(`${code}: ${message}`);
  }
}

/** Refusals every server instance would repeat (they share the database): a round stops at them. */
const FINAL_REFUSALS = new Set(['AUTH_FAILED', 'UNSUPPORTED_VERSION']);

/** One address to try: a terminal URL and, for a resolved host name, one of its addresses. */
interface Endpoint {
  url: string;
  address?: string;
  family?: number;
  /** The URL, with `@address` when resolved: which server the terminal is on. */
  key: string;
}

/** The host of a URL, without the brackets of an IPv6 literal. */
function hostOf(url: string): string {
  return new URL(url).hostname.replace(/^\[|\]$/g, '');
}

/** A lookup that answers one fixed address (the socket connects to it; the URL keeps the name). */
function fixedLookup(address: string, family: number): LookupFunction {
  return ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as LookupFunction;
}

/**
 * The terminal URLs of a server list as an operator writes it: one or several origins or URLs
 * separated by commas (`--server`, TERMINAL_SERVER). Throws on a malformed one.
 */
export function serverList(value: string): string[] {
  const list = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map(terminalUrl);
  if (list.length === 0) throw new TypeError('No server address');
  return list;
}

/** The full terminal URL for a server origin or URL. */
export function terminalUrl(server: string): string {
  const u = new URL(server.replace(/^http/, 'ws'));
  if (u.pathname === '/' || u.pathname === '') u.pathname = '/api/terminal/ws';
  return u.toString();
}

/** A decision as `present` returns it: the server's, or the terminal's own when offline. */
export type PresentResult = ServerDecision & { offline?: boolean };

interface Pending {
  identification: Identification;
  at: Date;
  resolve(d: PresentResult): void;
  reject(e: Error): void;
  timer: NodeJS.Timeout;
}

type DoorState = 1 | 2 | 3 | 4 | 6 | 7;

export class TerminalClient extends EventEmitter {
  private ws?: WebSocket;
  private readonly pending = new Map<string, Pending>();
  private heartbeatTimer?: NodeJS.Timeout;
  private linkTimer?: NodeJS.Timeout;
  /** When the server was last heard from (a message or a pong), ms since the epoch. */
  private lastContact = Date.now();
  private reconnectTimer?: NodeJS.Timeout;
  /** Connection rounds failed in a row (the back-off's step). */
  private attempts = 0;
  /** The endpoint last tried or connected to (Endpoint.key). */
  private endpointKey?: string;
  /** The endpoint that welcomed the terminal last: each round starts there (or after it, see `leaveEndpoint`). */
  private servedBy?: string;
  /** The next round starts after `servedBy` (its server went away). */
  private leaveEndpoint = false;
  private closing = false;
  /** Offline batches sent on this link and not yet answered: batch id → its event ids. */
  private readonly uploadsInFlight = new Map<string, string[]>();
  /** Event ids sent on this link and not yet answered (never sent twice on one link). */
  private readonly sentOnLink = new Set<string>();
  private uploadRetryTimer?: NodeJS.Timeout;
  private uploadAttempts = 0;
  private readonly uploadWaiters: (() => void)[] = [];
  /** The server's welcome, once connected. */
  welcome?: ServerWelcome;
  /** Messages the server sent that answer nothing pending (errors without an event id, pushed messages, ...). */
  readonly unsolicited: ServerMessage[] = [];
  /** The last valid list the server sent (for offline decisions). */
  validList?: ServerValidList;
  /** Since when the connected server answers DECIDE_OFFLINE (its database is out of reach), or null. */
  cannotDecideSince: Date | null = null;
  /** When the link was lost (null while connected or before the first connection). */
  offlineSince: Date | null = null;
  /** Offline decisions not yet acknowledged by the server, oldest first. */
  readonly offlineQueue: OfflineEvent[] = [];
  /** The simulated gate: open until this instant; the door state the terminal is in; actions received. */
  gateOpenUntil = 0;
  doorState: DoorState = 2;
  readonly actions: ServerAction[] = [];
  /**
   * The club's emergency as this terminal acts on it (docs/gate-safety.md): the server's state
   * (pushed, in the welcome, in the valid list), or the terminal's own after an alarm input it has
   * not yet had answered. `openAll`: the gate is held open; `lockdown`: only the list's lockdown
   * overrides pass offline.
   */
  safety: { mode: SafetyMode; since: string | null; reason: string | null; local: boolean } = {
    mode: 'normal',
    since: null,
    reason: null,
    local: false,
  };
  /** Alarm inputs not yet answered by the server (sent on every welcome until acknowledged). */
  readonly pendingAlarms: TerminalAlarm[] = [];
  private readonly cashWaiters = new Map<string, ((s: ServerCashState) => void)[]>();
  /** Settles the `connect` in progress (welcome or refusal), until it settles. */
  private connecting?: (err: Error | null, w?: ServerWelcome) => void;

  constructor(private readonly opts: TerminalClientOptions) {
    super();
  }

  private get timeoutMs(): number {
    return this.opts.timeoutMs ?? 10_000;
  }

  /** Whether the socket is open and welcomed. */
  get connected(): boolean {
    return this.ws?.readyState === WebSocket.OPEN && this.welcome != null && this.offlineSince == null;
  }

  /**
   * Connects to the first server address that welcomes the terminal and resolves with the
   * welcome: the addresses are tried in order (each configured URL, each address its host name
   * resolves to), starting with the one that served last — or the one after it when that server
   * said it was going away — and the next is tried at once when one refuses, is busy or cannot
   * be reached. Rejects with the last failure when none welcomed, at once on a refusal every
   * server would repeat (a bad secret, another protocol version). With `reconnect`, a failed
   * round and a later loss of the link are retried in the background after a jittered back-off.
   */
  connect(): Promise<ServerWelcome> {
    this.closing = false;
    const round = this.connectRound();
    round.catch(() => {
      if (!this.opts.reconnect || this.closing) return;
      this.offlineSince ??= new Date(this.lastContact);
      this.scheduleReconnect();
    });
    return round;
  }

  /** The server addresses, as WebSocket URLs (`url` given as one or several). */
  get serverUrls(): string[] {
    return (Array.isArray(this.opts.url) ? this.opts.url : [this.opts.url]).map(terminalUrl);
  }

  /** The address the terminal is connected to, or tried last (a URL, with the resolved address after `@`). */
  get server(): string | undefined {
    return this.endpointKey;
  }

  private async connectRound(): Promise<ServerWelcome> {
    // Resolved every round: a name's addresses may change. Without a host name to resolve the first
    // socket opens at once (the unit tests' stand-in socket relies on it).
    const list = this.literalEndpoints() ?? (await this.resolveEndpoints());
    const at = list.findIndex((e) => e.key === this.servedBy);
    const start = at < 0 ? 0 : this.leaveEndpoint ? at + 1 : at;
    this.leaveEndpoint = false;
    let last: Error = new TerminalError('CLOSED', 'No server address');
    for (let i = 0; i < list.length && !this.closing; i++) {
      const e = list[(start + i) % list.length];
      this.endpointKey = e.key;
      try {
        const w = await this.attempt(e);
        this.servedBy = e.key;
        return w;
      } catch (err) {
        last = err as Error;
        // The same refusal from every server (they share one database): stop.
        if (err instanceof TerminalError && FINAL_REFUSALS.has(err.code)) {
          this.closing = true;
          break;
        }
      }
    }
    throw last;
  }

  /** The endpoints when no host name needs resolving (IP literals, or a stand-in socket); else undefined. */
  private literalEndpoints(): Endpoint[] | undefined {
    const urls = this.serverUrls;
    if (!this.opts.openSocket && !urls.every((u) => isIP(hostOf(u)))) return undefined;
    return urls.map((url) => ({ url, key: url }));
  }

  /** Every configured URL, once per address its host name resolves to (A and AAAA, the resolver's order). */
  private async resolveEndpoints(): Promise<Endpoint[]> {
    const out: Endpoint[] = [];
    for (const url of this.serverUrls) {
      const host = hostOf(url);
      if (isIP(host)) {
        out.push({ url, key: url });
        continue;
      }
      try {
        const resolve = this.opts.resolveHost ?? ((h: string) => dnsLookup(h, { all: true }));
        for (const a of await resolve(host)) {
          out.push({ url, address: a.address, family: a.family, key: `${url}@${a.address}` });
        }
      } catch {
        // The resolver failed: the socket resolves by itself (and fails the same way, counted as one address).
        out.push({ url, key: url });
      }
    }
    return out;
  }

  /**
   * One try at one address: opens the socket (the TCP connection and the upgrade within
   * `openTimeoutMs`), sends hello and resolves with the welcome (within `timeoutMs`); rejects on
   * an error reply, a close or a time-out. The socket that welcomed becomes the link: its loss
   * later is `onLinkLost`.
   */
  private attempt(e: Endpoint): Promise<ServerWelcome> {
    return new Promise((resolve, reject) => {
      const ws = this.opts.openSocket
        ? this.opts.openSocket(e.url)
        : new WebSocket(e.url, {
            handshakeTimeout: this.opts.openTimeoutMs ?? 3_000,
            // The resolved address of this endpoint, the URL's name kept for the Host header and TLS.
            ...(e.address ? { lookup: fixedLookup(e.address, e.family ?? 4) } : {}),
          });
      this.ws = ws;
      let settled = false;
      let welcomed = false;
      const done = (err: Error | null, w?: ServerWelcome) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (this.connecting === done) this.connecting = undefined;
        if (err) {
          ws.terminate();
          reject(err);
        } else {
          welcomed = true;
          resolve(w!);
        }
      };
      this.connecting = done;
      const timer = setTimeout(() => done(new TerminalError('TIMEOUT', 'No welcome from the server')), this.timeoutMs);
      ws.on('open', () => {
        this.send({
          type: 'hello',
          version: TERMINAL_PROTOCOL_VERSION,
          serial: this.opts.serial,
          secret: this.opts.secret,
          ...(this.opts.devices ? { devices: this.opts.devices } : {}),
          softwareVersion: this.opts.softwareVersion ?? TERMINAL_SOFTWARE_VERSION,
        });
      });
      ws.on('pong', () => (this.lastContact = Date.now()));
      ws.on('message', (data) => {
        this.lastContact = Date.now();
        const parsed = ServerMessage.safeParse(safeJson(data.toString()));
        if (parsed.success) this.receive(parsed.data);
      });
      ws.on('error', (err) => done(err));
      ws.on('close', (code) => {
        if (this.ws === ws) {
          clearInterval(this.heartbeatTimer);
          clearInterval(this.linkTimer);
        }
        done(new TerminalError(code === 1013 ? 'BUSY' : 'CLOSED', `Connection closed (${code})`));
        if (welcomed && this.ws === ws) this.onLinkLost(code);
      });
    });
  }

  /**
   * The link closed: refused (4401 bad secret or deleted terminal), bad version (4400) or
   * replaced by a newer connection (4409) stops for good. A server going away (1001, 1012: a
   * graceful stop) is left for the next address at once, after a short jitter. Otherwise, with
   * `reconnect`, the terminal goes offline (pending decisions are decided offline under their event
   * ids) and retries; without it, pending decisions fail with CLOSED.
   */
  private onLinkLost(code: number): void {
    if (code === 4400 || code === 4401 || code === 4409) this.closing = true;
    // Batches not answered on this link go again on the next one (the server records each event id once).
    this.uploadsInFlight.clear();
    this.sentOnLink.clear();
    this.settleUploadWaiters();
    const wasOnline = this.welcome != null && this.offlineSince == null;
    if (this.opts.reconnect && !this.closing) {
      // The offline window runs from the last contact, by the terminal's own clock.
      if (wasOnline || this.offlineSince == null) this.offlineSince = new Date(this.lastContact);
      // Decisions that never came: decide them offline with the same event ids (a duplicate upload is harmless).
      for (const [eventId, p] of this.pending) {
        clearTimeout(p.timer);
        this.pending.delete(eventId);
        p.resolve(this.decideOffline(p.identification, eventId, p.at));
      }
      if (wasOnline) this.emit('offline');
      if (code === 1001 || code === 1012) {
        // A graceful stop: the next address at once (spread over half a second: a whole instance's
        // terminals move together), the back-off starting afresh.
        this.leaveEndpoint = true;
        this.attempts = 0;
        this.scheduleReconnect(Math.random() * (this.opts.goingAwayJitterMs ?? 500));
      } else this.scheduleReconnect();
    } else {
      for (const [id, p] of this.pending) {
        clearTimeout(p.timer);
        p.reject(new TerminalError('CLOSED', 'Connection closed before the decision'));
        this.pending.delete(id);
      }
    }
  }

  /** Schedules the next connection round: after `delay` ms, else after the jittered back-off of the rounds failed so far. */
  private scheduleReconnect(delay?: number): void {
    if (this.reconnectTimer || this.closing) return;
    const { initial, max } = this.opts.backoffMs ?? { initial: 250, max: 5_000 };
    // "Equal jitter" (uniform between half the exponential ceiling and all of it): after a server restart
    // thousands of terminals spread their reconnects over each step's window instead of arriving
    // together (docs/scaling.md "Reconnect storm"). One step is one round over every address: within a
    // round the next address is tried at once.
    const ceiling = Math.min(max, initial * 2 ** this.attempts);
    const wait = delay ?? ceiling / 2 + Math.random() * (ceiling / 2);
    this.attempts++;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      this.connect().catch(() => {
        // connect() schedules the next round itself; a refusal every server would repeat stops.
      });
    }, wait);
    this.reconnectTimer.unref?.();
  }

  /**
   * Handles one message of the server (the socket's message handler calls it with every
   * valid message; tests feed it directly). Each message type has its handler in `handlers`.
   */
  receive(m: ServerMessage): void {
    (this.handlers[m.type] as (m: ServerMessage) => void)(m);
  }

  /** What the terminal does with each server message type (a new type without a handler does not compile). */
  private readonly handlers: { [K in ServerMessage['type']]: (m: Extract<ServerMessage, { type: K }>) => void } = {
    welcome: (m) => this.onWelcome(m),
    decision: (m) => this.answerPending(m),
    error: (m) => {
      // An error before the welcome refuses the connection (bad secret, bad version, ...).
      if (this.connecting) return this.connecting(new TerminalError(m.code, m.message));
      if (m.batchId) return this.onUploadRefused({ ...m, batchId: m.batchId });
      this.answerPending(m);
    },
    'valid-list': (m) => {
      this.validList = m;
      if (m.safety && m.safety !== this.safety.mode && !(m.safety === 'normal' && this.safety.local)) {
        this.applySafety({ mode: m.safety, since: null, reason: null });
      }
      this.emit('valid-list', m);
    },
    action: (m) => {
      this.actions.push(m);
      void this.answerAction(m);
    },
    'offline-ack': (m) => this.onOfflineAck(m),
    'cash-state': (m) => {
      const q = this.cashWaiters.get(m.sessionId);
      const fn = q?.shift();
      if (q && q.length === 0) this.cashWaiters.delete(m.sessionId);
      if (fn) fn(m);
      this.emit('cash', m);
    },
    enrolled: (m) => this.unsolicitedMessage(m),
    'exit-result': (m) => this.unsolicitedMessage(m),
    'attendance-result': (m) => this.unsolicitedMessage(m),
    'purchase-result': (m) => this.unsolicitedMessage(m),
    'incident-reported': (m) => this.unsolicitedMessage(m),
    templates: (m) => this.unsolicitedMessage(m),
    messages: (m) => this.unsolicitedMessage(m),
    safety: (m) => this.applySafety(m),
    'alarm-ack': (m) => this.onAlarmAck(m),
  };

  /** Whether the simulated gate is held open by the club's open-all (or the terminal's own fire input). */
  get gateHeldOpen(): boolean {
    return this.safety.mode === 'openAll';
  }

  /**
   * The server's emergency state. While an alarm of this terminal waits for its answer, a
   * `normal` from the server (a welcome before the alarm went up) does not undo it.
   */
  private applySafety(m: Omit<ServerSafety, 'type'>): void {
    if (m.mode === 'normal' && this.pendingAlarms.length > 0 && this.safety.local) return;
    const changed = m.mode !== this.safety.mode;
    this.safety = { mode: m.mode, since: m.since, reason: m.reason, local: false };
    if (m.mode === 'openAll') this.gateOpenUntil = Number.POSITIVE_INFINITY;
    else if (changed && this.gateOpenUntil === Number.POSITIVE_INFINITY) this.gateOpenUntil = 0;
    if (changed) this.emit('safety', this.safety);
  }

  /**
   * An alarm input fired at this terminal (docs/terminal-protocol.md "Emergency"): it acts at
   * once, by itself — `fire-alarm` holds the gate open, `panic` locks it — whether or not the
   * server can be reached, then tells the server (now, or on the next welcome), which starts the
   * club's open-all or lockdown and pushes it to every terminal of the club.
   */
  raiseAlarm(input: AlarmInput, eventId: string = randomUUID()): TerminalAlarm {
    const mode: SafetyMode = input === 'fire-alarm' ? 'openAll' : 'lockdown';
    // Open-all wins: a panic input does not lock a gate held open for a fire.
    if (!(mode === 'lockdown' && this.safety.mode === 'openAll')) {
      this.safety = { mode, since: new Date().toISOString(), reason: input, local: true };
      if (mode === 'openAll') this.gateOpenUntil = Number.POSITIVE_INFINITY;
      this.emit('safety', this.safety);
    }
    const alarm: TerminalAlarm = { type: 'alarm', eventId, input, at: new Date().toISOString() };
    this.pendingAlarms.push(alarm);
    if (this.connected) this.send(alarm);
    return alarm;
  }

  /** The server answered an alarm: it leaves the queue (the state itself arrives as `safety`). */
  private onAlarmAck(m: ServerAlarmAck): void {
    const i = this.pendingAlarms.findIndex((a) => a.eventId === m.eventId);
    if (i >= 0) this.pendingAlarms.splice(i, 1);
    this.emit('alarm-ack', m);
  }

  /** Welcomed: online again; heartbeats and the link check start, queued offline decisions are uploaded. */
  private onWelcome(m: ServerWelcome): void {
    const ws = this.ws;
    this.welcome = m;
    this.offlineSince = null;
    this.attempts = 0;
    // The club's emergency as it is now (absent: normal); then alarms not yet answered go up.
    this.applySafety(m.safety ?? { mode: 'normal', since: null, reason: null });
    for (const a of this.pendingAlarms) this.send(a);
    if (this.opts.heartbeat !== false) {
      clearInterval(this.heartbeatTimer);
      this.heartbeatTimer = setInterval(() => this.heartbeat(), HEARTBEAT_INTERVAL_SECONDS * 1000);
      this.heartbeatTimer.unref();
    }
    const every = this.opts.linkCheckMs ?? TERMINAL_PING_SECONDS * 1000;
    clearInterval(this.linkTimer);
    this.linkTimer = setInterval(() => {
      if (!ws || this.ws !== ws || ws.readyState !== WebSocket.OPEN) return;
      if (Date.now() - this.lastContact > 3 * every) ws.terminate();
      else ws.ping();
    }, every);
    this.linkTimer.unref();
    this.connecting?.(null, m);
    this.emit('online', m);
    void this.uploadOffline();
  }

  /** A message that answers nothing pending: kept in `unsolicited` and emitted as `message` (gate.ts, kiosk.ts listen). */
  private unsolicitedMessage(m: ServerMessage): void {
    this.unsolicited.push(m);
    this.emit('message', m);
  }

  /**
   * A decision or error naming the eventId of a pending `present`: a decision resolves it (the
   * server decides again: the cannot-decide state ends, queued offline decisions go up);
   * DECIDE_OFFLINE decides it by the offline rules; any other error rejects it.
   */
  private answerPending(m: ServerDecision | ServerError): void {
    const eventId = m.eventId;
    const p = eventId ? this.pending.get(eventId) : undefined;
    if (!p || !eventId) return this.unsolicitedMessage(m);
    this.pending.delete(eventId);
    clearTimeout(p.timer);
    if (m.type === 'error' && m.code === 'DECIDE_OFFLINE') {
      // The server is up but cannot decide (database outage): the offline rules, the window
      // counted from the first such answer; uploaded once the server decides again.
      this.cannotDecideSince ??= new Date();
      p.resolve(this.decideOffline(p.identification, eventId, p.at));
      return;
    }
    if (m.type === 'decision') {
      this.cannotDecideSince = null;
      if (this.offlineQueue.length > 0) void this.uploadOffline();
      p.resolve(m);
    } else p.reject(new TerminalError(m.code, m.message));
  }

  private async answerAction(a: ServerAction): Promise<void> {
    let reply: { ok: boolean; data?: unknown; error?: string };
    try {
      reply = this.opts.onAction ? await this.opts.onAction(a, this) : this.carryOut(a);
    } catch (err) {
      reply = { ok: false, error: (err as Error).message };
    }
    this.emit('action', a, reply);
    this.send({ type: 'action-reply', requestId: a.requestId, ...reply });
  }

  /** What the simulated gate does with an action (its data typed by TerminalAction); a bad setDoorState is refused. */
  private carryOut(a: ServerAction): { ok: boolean; data?: unknown; error?: string } {
    const parsed = TerminalAction.safeParse(a);
    // Only setDoorState's data has a shape to fail.
    if (!parsed.success) return { ok: false, error: 'bad doorState' };
    const action = parsed.data;
    switch (action.actionName) {
      case 'openGate': {
        const seconds = this.welcome?.gateOpenSeconds ?? 5;
        this.gateOpenUntil = Date.now() + seconds * 1000;
        return { ok: true, data: { openSeconds: seconds } };
      }
      case 'setDoorState':
        this.doorState = action.data.doorState as DoorState;
        this.heartbeat(this.doorState);
        return { ok: true, data: { doorState: this.doorState } };
      case 'ping':
        return { ok: true, data: { pong: new Date().toISOString() } };
      case 'checkForUpdates':
        return { ok: true, data: { version: TERMINAL_SOFTWARE_VERSION, updateAvailable: false } };
      case 'cashStatusPrint':
        // The simulated printer "prints" the slip: the reply says when.
        return { ok: true, data: { printedAt: new Date().toISOString() } };
      case 'reboot':
      case 'reloadDisplay':
        return { ok: true };
    }
  }

  /**
   * Presents an identification and resolves with the decision. `eventId`
   * defaults to a new UUID; pass the same one to resend an event. `at` (an
   * instant) is for events handled offline. With `reconnect`, a terminal
   * without its server decides on its own (`offline: true` in the result).
   */
  present(identification: Identification, opts: { eventId?: string; at?: Date } = {}): Promise<PresentResult> {
    // Every decision shown is emitted (`decision`): the screen report (screen.ts) follows it.
    return this.decide(identification, opts).then((d) => {
      this.emit('decision', d);
      return d;
    });
  }

  private decide(identification: Identification, opts: { eventId?: string; at?: Date }): Promise<PresentResult> {
    const eventId = opts.eventId ?? randomUUID();
    const at = opts.at ?? new Date();
    return new Promise((resolve, reject) => {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN || this.offlineSince != null || !this.welcome) {
        if (this.opts.reconnect) return resolve(this.decideOffline(identification, eventId, at));
        reject(new TerminalError('CLOSED', 'Not connected'));
        return;
      }
      const timer = setTimeout(
        () => {
          this.pending.delete(eventId);
          if (this.opts.reconnect) resolve(this.decideOffline(identification, eventId, at));
          else reject(new TerminalError('TIMEOUT', 'No decision from the server'));
        },
        this.opts.reconnect ? (this.opts.decisionTimeoutMs ?? 3_000) : this.timeoutMs,
      );
      this.pending.set(eventId, { identification, at, resolve, reject, timer });
      this.send({ type: 'entrance', eventId, identification, ...(opts.at ? { at: opts.at.toISOString() } : {}) });
    });
  }

  /**
   * The terminal's own decision without its server: admit a card or code on
   * the valid list, within the offline window; refuse anything else. Queued
   * for upload either way.
   */
  decideOffline(identification: Identification, eventId: string, at = new Date()): PresentResult {
    const emergency = this.decideOfflineInEmergency(identification, eventId, at);
    if (emergency) return emergency;
    const list = this.validList;
    // A decision that timed out on a link not yet known dead counts from the last contact too.
    const since = this.offlineSince ?? this.cannotDecideSince ?? new Date(Math.min(this.lastContact, at.getTime()));
    const inWindow = list != null && at.getTime() - since.getTime() <= list.offlineWindowSeconds * 1000;
    const entry =
      inWindow && (identification.kind === 'card' || identification.kind === 'code')
        ? list!.entries.find(
            (e) =>
              e.kind === identification.kind && e.value === identification.value && Date.parse(e.until) > at.getTime(),
          )
        : undefined;
    const status = entry ? 1 : 3;
    if (!this.offlineQueue.some((e) => e.eventId === eventId)) {
      this.offlineQueue.push({ eventId, identification, at: at.toISOString(), status });
    }
    if (entry) this.gateOpenUntil = Date.now() + (this.welcome?.gateOpenSeconds ?? 5) * 1000;
    return {
      type: 'decision',
      eventId,
      status,
      reason: entry ? 0 : 25,
      gateOpenSeconds: entry ? (this.welcome?.gateOpenSeconds ?? 5) : 0,
      message: entry ? 'EntryBySubscription' : 'OfflineCannotDecide',
      ...(entry?.name ? { clientName: entry.name } : {}),
      offline: true,
    };
  }

  /**
   * Offline in an emergency (docs/gate-safety.md): open-all admits everyone (reason 32
   * EntryEmergencyOpen); lockdown admits only the list's lockdown overrides (reason 31) and
   * refuses the rest (reason 30 Lockdown, status 14); each uploaded with its status and reason. Null when normal.
   */
  private decideOfflineInEmergency(identification: Identification, eventId: string, at: Date): PresentResult | null {
    const mode = this.safety.mode;
    if (mode === 'normal') return null;
    const overrides = this.validList?.lockdownOverrides ?? [];
    const pass =
      mode === 'openAll' || overrides.some((o) => o.kind === identification.kind && o.value === identification.value);
    const reason = mode === 'openAll' ? 32 : pass ? 31 : 30;
    if (!this.offlineQueue.some((e) => e.eventId === eventId)) {
      this.offlineQueue.push({ eventId, identification, at: at.toISOString(), status: pass ? 1 : 14, reason });
    }
    const seconds = this.welcome?.gateOpenSeconds ?? 5;
    if (pass && mode !== 'openAll') this.gateOpenUntil = Date.now() + seconds * 1000;
    return {
      type: 'decision',
      eventId,
      status: pass ? 1 : 14,
      reason,
      gateOpenSeconds: pass ? seconds : 0,
      message: mode === 'openAll' ? 'EntryEmergencyOpen' : pass ? 'EntryLockdownOverride' : 'Lockdown',
      offline: true,
    };
  }

  /**
   * Uploads the queued offline decisions and resolves once the queue is empty or the link is lost
   * (the next welcome goes on). Safe to call any time; the upload runs by itself after every
   * welcome and every server decision.
   *
   * Flow control (docs/terminal-protocol.md "Offline uploads", issue 33 finding 2): batches of at
   * most `uploadBatchEvents`, at most `uploadWindow` of them sent and not yet answered; a batch is
   * sent once per link — never again on a timer — and every acknowledgement is taken, however
   * late, for the event ids it names (whichever batch named them). A server that answers
   * `UPLOAD_BUSY` or `UPLOAD_FAILED` for a batch gets its events again after a jittered back-off;
   * a lost link sends what was not acknowledged on the next one (the server records each event id
   * once). Before, a batch not acknowledged within 10 s was sent again under a new id and the late
   * acknowledgement of the first ignored: a server slower than that never caught up.
   */
  uploadOffline(): Promise<void> {
    this.pumpUploads();
    if (this.offlineQueue.length === 0 || !this.connected) return Promise.resolve();
    return new Promise((resolve) => this.uploadWaiters.push(resolve));
  }

  /** Fills the upload window from the queue (nothing while backing off or without a link). */
  private pumpUploads(): void {
    if (this.connected && !this.uploadRetryTimer) {
      const size = this.opts.uploadBatchEvents ?? OFFLINE_BATCH_EVENTS;
      const window = this.opts.uploadWindow ?? OFFLINE_UPLOAD_WINDOW;
      while (this.uploadsInFlight.size < window) {
        const events: OfflineEvent[] = [];
        for (const e of this.offlineQueue) {
          if (events.length >= size) break;
          if (!this.sentOnLink.has(e.eventId)) events.push(e);
        }
        if (events.length === 0) break;
        const batchId = randomUUID();
        const ids = events.map((e) => e.eventId);
        this.uploadsInFlight.set(batchId, ids);
        for (const id of ids) this.sentOnLink.add(id);
        this.send({ type: 'offline-batch', batchId, events });
        this.emit('offline-batch', batchId, ids.length);
      }
    }
    if (this.offlineQueue.length === 0 || !this.connected) this.settleUploadWaiters();
  }

  /** An acknowledgement, of any batch and however late: the event ids it names leave the queue. */
  private onOfflineAck(a: ServerOfflineAck): void {
    // Rejected events (a time out of range) are never sent again.
    const done = new Set([...a.recorded, ...a.duplicates, ...(a.rejected ?? []).map((r) => r.eventId)]);
    for (let i = this.offlineQueue.length - 1; i >= 0; i--) {
      if (done.has(this.offlineQueue[i].eventId)) this.offlineQueue.splice(i, 1);
    }
    // What the batch carried and the server did not name goes again in a later batch.
    for (const id of this.uploadsInFlight.get(a.batchId) ?? []) this.sentOnLink.delete(id);
    for (const id of done) this.sentOnLink.delete(id);
    this.uploadsInFlight.delete(a.batchId);
    this.uploadAttempts = 0;
    this.emit('offline-ack', a);
    this.emit('uploaded', a);
    this.pumpUploads();
  }

  /** The server refused or failed a batch (`UPLOAD_BUSY`, `UPLOAD_FAILED`): its events again after the back-off. */
  private onUploadRefused(m: ServerError & { batchId: string }): void {
    const ids = this.uploadsInFlight.get(m.batchId);
    if (!ids) return this.unsolicitedMessage(m);
    this.uploadsInFlight.delete(m.batchId);
    for (const id of ids) this.sentOnLink.delete(id);
    if (this.uploadRetryTimer) return;
    const { initial, max } = this.opts.uploadBackoffMs ?? { initial: 500, max: 30_000 };
    const ceiling = Math.min(max, initial * 2 ** this.uploadAttempts++);
    this.uploadRetryTimer = setTimeout(
      () => {
        this.uploadRetryTimer = undefined;
        this.pumpUploads();
      },
      ceiling / 2 + Math.random() * (ceiling / 2),
    );
    this.uploadRetryTimer.unref?.();
  }

  private settleUploadWaiters(): void {
    for (const w of this.uploadWaiters.splice(0)) w();
  }

  // ---------------------------------------------------------------- cash

  private cash(m: TerminalMessage & { sessionId: string }): Promise<ServerCashState> {
    return new Promise((resolve, reject) => {
      if (!this.connected) return reject(new TerminalError('CLOSED', 'Not connected'));
      const timer = setTimeout(() => reject(new TerminalError('TIMEOUT', 'No cash state')), this.timeoutMs);
      const q = this.cashWaiters.get(m.sessionId) ?? [];
      q.push((s) => {
        clearTimeout(timer);
        resolve(s);
      });
      this.cashWaiters.set(m.sessionId, q);
      this.send(m);
    });
  }
  /** Starts a cash session for a client; `amountDue` in agorot (absent: load what is inserted). */
  cashBegin(sessionId: string, identification: Identification, amountDue?: number): Promise<ServerCashState> {
    return this.cash({
      type: 'cash-begin',
      sessionId,
      identification,
      ...(amountDue != null ? { amountDue } : {}),
    });
  }
  /** A coin or bill (denomination in agorot) goes into the acceptor. */
  cashInsert(
    sessionId: string,
    kind: 'coin' | 'bill',
    denomination: number,
    eventId: string = randomUUID(),
  ): Promise<ServerCashState> {
    return this.cash({
      type: 'cash-insert',
      sessionId,
      eventId,
      kind,
      denomination: denomination as 10,
    });
  }
  cashComplete(sessionId: string): Promise<ServerCashState> {
    return this.cash({ type: 'cash-complete', sessionId });
  }
  cashCancel(sessionId: string): Promise<ServerCashState> {
    return this.cash({ type: 'cash-cancel', sessionId });
  }
  /** Reports the change actually paid out (pieces per denomination). */
  cashPayoutDone(sessionId: string, coins: Inventory, bills: Inventory): Promise<ServerCashState> {
    return this.cash({ type: 'cash-payout-done', sessionId, coins, bills });
  }

  /** Sends a heartbeat, optionally with the door state (EntranceState). */
  heartbeat(doorState?: DoorState): void {
    if (this.ws?.readyState === WebSocket.OPEN) {
      this.send({
        type: 'heartbeat',
        ...(doorState ? { doorState } : {}),
        ...(this.opts.devices ? { devices: this.opts.devices } : {}),
      });
    }
  }

  /** Reports the screen (remote view, screen.ts); dropped while the link is down (the screen is sent again on welcome). */
  sendScreen(m: TerminalScreen): void {
    if (this.connected) this.send(m);
  }

  /** Sends a raw message (tests use it for malformed input). */
  sendRaw(text: string): void {
    this.ws?.send(text);
  }

  private send(m: TerminalMessage): void {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(m));
  }

  /** Closes the connection for good (no reconnect) and waits for the close. */
  close(): Promise<void> {
    this.closing = true;
    clearInterval(this.heartbeatTimer);
    clearInterval(this.linkTimer);
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
    clearTimeout(this.uploadRetryTimer);
    this.uploadRetryTimer = undefined;
    const ws = this.ws;
    if (!ws || ws.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      ws.once('close', () => resolve());
      ws.close();
    });
  }
}

function safeJson(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return null;
  }
}
