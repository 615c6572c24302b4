import { EventEmitter } from 'node:events';
import { randomUUID } from 'node:crypto';
import type { SafetyState, TerminalScreenState } from '@venue/domain';
import type { SessionScope } from './sessions.js';

/**
 * Live events of one club, pushed to the console's WebSocket (DESIGN §1 "real
 * time", docs/live-feed.md), plus the internal events that route a remote
 * action to the server instance holding the terminal's link.
 *
 * `EventBus` is in-process (PGlite, tests). `PgEventBus` (DATABASE_URL set)
 * fans every event out to all server instances on the same PostgreSQL
 * database through LISTEN/NOTIFY (DESIGN §12): an event is emitted locally at
 * once and NOTIFYed to the others, which emit it on their own bus.
 */
export interface LiveEvents {
  entrance: { clubId: number; row: unknown };
  /**
   * Internal (gate decisions): the club's terminal messages or biometric
   * templates changed; every instance re-reads them and pushes them to the
   * club's terminals it holds (realtime/gate-push.ts). Ids only: NOTIFY-sized.
   * `location`: the club's location changed; every instance forgets what it
   * derived from the old one (the offline valid list, docs/calendar.md).
   */
  'gate-push':
    | { clubId: number; what: 'messages' }
    | { clubId: number; what: 'templates'; changes: TemplateChange[] }
    | { clubId: number; what: 'location' };
  terminal: { clubId: number; terminalId: number; connected: boolean };
  /**
   * The club's emergency state changed (issue 36, docs/gate-safety.md): with `state`, the new
   * state (every instance caches it, pushes it to the club's terminals and consoles); without,
   * the club's lockdown overrides changed (every instance reads them again). NOTIFY-sized: the
   * reasons are at most 300 characters.
   */
  'gate-safety': { clubId: number; state?: SafetyState };
  /** Internal: the club's occupancy areas changed (docs/gate-safety.md "Occupancy"); every instance reads them again. */
  'gate-areas': { clubId: number };
  /** A terminal's door state changed (heartbeat or setDoorState). */
  door: { clubId: number; terminalId: number; doorState: number };
  /** A cash session changed state at a terminal (amounts in agorot). */
  cash: { clubId: number; terminalId: number; sessionId: string; state: string; inserted: number; error?: string };
  /** Internal: deliver an action to the instance holding the terminal's socket. */
  'terminal-action': { terminalId: number; requestId: string; actionName: string; data?: unknown };
  /** Internal: a terminal answered an action (routed back to the instance that waits). */
  'terminal-action-reply': { requestId: string; ok: boolean; data?: unknown; error?: string };
  /** A global message was published (docs/messages.md): each live socket whose club it reaches tells its console. */
  'global-message': { messageId: number; kind: string; audience: string; externalClubIds: number[] };
  /** An incident was reported or handled in the club (docs/messages.md). */
  incident: { clubId: number; incidentId: number };
  /**
   * The operator changed the club's licenses (docs/operator.md): answered a
   * bank-transfer request (`requestId`, its new `status`) or loaded by hand (both null).
   */
  licenses: { clubId: number; requestId: number | null; status: number | null };
  /**
   * Internal: sessions ended (sign-out, password change, a disabled user or
   * club; lib/sessions.ts): every instance closes the live sockets of those
   * sessions (realtime/live.ts). Ids only: NOTIFY-sized.
   */
  'session-end': SessionScope;
  /** Internal: a terminal was deleted; the instance holding its link closes it. */
  'terminal-kick': { terminalId: number };
  /** A terminal's screen changed (remote view, lib/terminal-screens.ts); every instance keeps the latest. */
  screen: ScreenRecord;
  /** Internal: an instance without a terminal's screen asks the instance holding its link to publish it again. */
  'screen-request': { terminalId: number };
}

/** A terminal's screen as the server keeps it (docs/terminal-protocol.md "Remote view"). */
export interface ScreenRecord {
  clubId: number;
  terminalId: number;
  screen: TerminalScreenState;
  /** When the screen changed, by the terminal's clock (ISO). */
  at: string;
  /** When the server received it (ISO). */
  receivedAt: string;
}

/** A biometric template added or deleted (ids only; the template is read from the database). */
export interface TemplateChange {
  action: 'added' | 'deleted';
  templateId: number;
  kind: 'fingerprint' | 'face';
  clientNumber?: number;
}

export class EventBus {
  protected readonly emitter = new EventEmitter().setMaxListeners(0);
  /** Id of this server instance (stored in terminals.connected_instance). */
  readonly instanceId: string = randomUUID();
  publish<K extends keyof LiveEvents>(type: K, event: LiveEvents[K]): void {
    this.emitter.emit(type, event);
  }
  subscribe<K extends keyof LiveEvents>(type: K, fn: (e: LiveEvents[K]) => void): () => void {
    this.emitter.on(type, fn);
    return () => this.emitter.off(type, fn);
  }
  /** Starts listening (PostgreSQL); nothing to do in-process. */
  async start(): Promise<void> {}
  async close(): Promise<void> {}
}

/** The NOTIFY channel of live events. */
export const NOTIFY_CHANNEL = 'venue_events';
/** PostgreSQL refuses NOTIFY payloads of 8000 bytes or more. */
const MAX_PAYLOAD = 7900;

interface PgClient {
  connect(): Promise<unknown>;
  query(text: string, values?: unknown[]): Promise<unknown>;
  on(event: 'notification', fn: (m: { channel: string; payload?: string }) => void): unknown;
  on(event: 'error', fn: (err: Error) => void): unknown;
  on(event: 'end', fn: () => void): unknown;
  end(): Promise<void>;
}

/** Back-off of the LISTEN connection's reconnection: first and longest wait (ms), each wait jittered to 50–100 %. */
export const LISTEN_RECONNECT_MS = { first: 250, max: 30_000 } as const;

/** How long published events are gathered before one NOTIFY carries them (ms). */
export const NOTIFY_TICK_MS = 5;

/**
 * Fan-out across server instances on one PostgreSQL (LISTEN/NOTIFY). One
 * dedicated connection LISTENs; publishing emits the event locally at once and
 * queues it for the others. Every `NOTIFY_TICK_MS` the queue goes out in one
 * statement (`SELECT pg_notify(...) FROM unnest(...)`) as few notifications
 * as possible: each payload is `<instance id>\n[<event>,<event>,...]`, packed
 * up to `MAX_PAYLOAD` bytes (PostgreSQL refuses 8000). So a burst of
 * entrances costs one round trip and a handful of notifications per tick, not
 * one of each per decision (docs/gate-benchmark.md). An instance recognises
 * its own notifications by the id prefix and skips them without parsing the
 * JSON. A single event too large for NOTIFY stays local (reported by `onDrop`).
 */
export class PgEventBus extends EventBus {
  private client?: PgClient;
  /** Serialised `{"t":type,"e":event}` of the events not sent yet. */
  private queue: string[] = [];
  private timer?: NodeJS.Timeout;
  private flushing?: Promise<void>;
  private closed = false;
  private readonly prefix: string;
  private reconnectTimer?: NodeJS.Timeout;
  private attempts = 0;

  constructor(
    private readonly url: string,
    private readonly onDrop: (reason: string) => void = () => {},
  ) {
    super();
    this.prefix = `${this.instanceId}\n`;
  }

  /** Opens the LISTEN connection; throws when the database cannot be reached at start. */
  override async start(): Promise<void> {
    await this.listen();
  }

  /** True while the LISTEN connection is open (events cross instances). */
  get listening(): boolean {
    return this.client !== undefined;
  }

  /**
   * One LISTEN connection. When PostgreSQL ends it (restart, failover,
   * `pg_terminate_backend`) or the network drops it, it is reopened with
   * jittered exponential back-off (LISTEN_RECONNECT_MS) and LISTENs again
   * (a connection never reopened would fail remote actions for good).
   * Meanwhile events are emitted locally only: one warning per loss,
   * not one per event. Events another instance sent during the gap are lost
   * (a terminal's link survives; docs/operations.md "Database outage").
   */
  private async listen(): Promise<void> {
    const { default: pg } = await import('pg');
    const client = new pg.Client({
      connectionString: this.url,
      connectionTimeoutMillis: 5_000,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    }) as unknown as PgClient;
    let lost = false;
    const drop = (why: string) => {
      if (lost) return;
      lost = true;
      if (this.client === client) this.client = undefined;
      void client.end().catch(() => undefined);
      if (this.closed) return;
      this.onDrop(`listen connection lost (${why}); reconnecting`);
      this.reconnectLater();
    };
    client.on('error', (err) => drop(err.message));
    client.on('end', () => drop('ended'));
    client.on('notification', (m) => {
      if (m.channel !== NOTIFY_CHANNEL || !m.payload) return;
      this.receive(m.payload);
    });
    await client.connect();
    await client.query(`LISTEN ${NOTIFY_CHANNEL}`);
    if (this.closed) return void client.end().catch(() => undefined);
    this.client = client;
    this.attempts = 0;
  }

  private reconnectLater(): void {
    if (this.closed || this.reconnectTimer) return;
    const wait = Math.min(LISTEN_RECONNECT_MS.max, LISTEN_RECONNECT_MS.first * 2 ** this.attempts++);
    this.reconnectTimer = setTimeout(
      () => {
        this.reconnectTimer = undefined;
        this.listen().catch((err: Error) => {
          this.onDrop(`listen reconnection failed: ${err.message}`);
          this.reconnectLater();
        });
      },
      wait * (0.5 + Math.random() / 2),
    );
  }

  /** Emits the events of another instance's notification (ignores this instance's own). */
  private receive(payload: string): void {
    if (payload.startsWith(this.prefix)) return;
    const nl = payload.indexOf('\n');
    let events: { t: keyof LiveEvents; e: unknown }[];
    try {
      events = JSON.parse(payload.slice(nl + 1));
    } catch {
      return;
    }
    if (!Array.isArray(events)) return;
    for (const ev of events) if (ev && typeof ev.t === 'string') this.emitter.emit(ev.t, ev.e);
  }

  override publish<K extends keyof LiveEvents>(type: K, event: LiveEvents[K]): void {
    super.publish(type, event);
    if (!this.client || this.closed) return;
    const item = JSON.stringify({ t: type, e: event });
    if (Buffer.byteLength(item) + this.prefix.length + 2 > MAX_PAYLOAD) {
      return this.onDrop(`${type} event too large for NOTIFY`);
    }
    this.queue.push(item);
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, NOTIFY_TICK_MS);
  }

  /** Packs serialised events into payloads of at most MAX_PAYLOAD bytes. */
  private pack(items: string[]): string[] {
    const payloads: string[] = [];
    let parts: string[] = [];
    let size = this.prefix.length + 2;
    for (const item of items) {
      const bytes = Buffer.byteLength(item) + 1;
      if (parts.length > 0 && size + bytes > MAX_PAYLOAD) {
        payloads.push(`${this.prefix}[${parts.join(',')}]`);
        parts = [];
        size = this.prefix.length + 2;
      }
      parts.push(item);
      size += bytes;
    }
    if (parts.length > 0) payloads.push(`${this.prefix}[${parts.join(',')}]`);
    return payloads;
  }

  private flush(): Promise<void> {
    this.flushing ??= (async () => {
      while (this.queue.length > 0 && this.client) {
        const batch = this.pack(this.queue);
        this.queue = [];
        try {
          await this.client.query('SELECT pg_notify($1, p) FROM unnest($2::text[]) AS p', [NOTIFY_CHANNEL, batch]);
        } catch (err) {
          this.onDrop(`notify failed: ${(err as Error).message}`);
        }
      }
    })().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  override async close(): Promise<void> {
    if (this.closed) return;
    clearTimeout(this.timer);
    clearTimeout(this.reconnectTimer);
    this.timer = undefined;
    await this.flush();
    this.closed = true;
    await this.client?.end().catch(() => undefined);
  }
}
