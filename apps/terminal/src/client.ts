import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import {
  HEARTBEAT_INTERVAL_SECONDS,
  ServerMessage,
  TERMINAL_PROTOCOL_VERSION,
  type Identification,
  type ServerDecision,
  type ServerError,
  type ServerWelcome,
  type TerminalMessage,
} from '@venue/domain';

/**
 * A terminal speaking protocol v1 (docs/terminal-protocol.md): used by the
 * simulator CLI, the integration tests and the load benchmark. One instance
 * is one terminal connection. Reconnection and offline queueing are left to
 * a later issue; `present` may be retried with the same `eventId` on a new
 * connection and the server answers the original decision.
 */

export interface TerminalClientOptions {
  /** ws:// or wss:// URL; a bare origin gets the path /api/terminal/ws. */
  url: string;
  serial: string;
  secret: string;
  devices?: string[];
  /** Milliseconds to wait for a welcome or a decision (default 10000). */
  timeoutMs?: number;
  /** Send heartbeats every HEARTBEAT_INTERVAL_SECONDS while connected (default true). */
  heartbeat?: boolean;
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

/** The full terminal URL for a server origin or URL. */
export function terminalUrl(server: string): string {
  const u = new URL(server.replace(/^http/, 'ws'));
  if (u.pathname === '/' || u.pathname === '') u.pathname = '/api/terminal/ws';
  return u.toString();
}

interface Pending {
  resolve(d: ServerDecision): void;
  reject(e: Error): void;
  timer: NodeJS.Timeout;
}

export class TerminalClient {
  private ws?: WebSocket;
  private readonly pending = new Map<string, Pending>();
  private heartbeatTimer?: NodeJS.Timeout;
  /** The server's welcome, once connected. */
  welcome?: ServerWelcome;
  /** Messages the server sent that answer nothing pending (errors without an event id, ...). */
  readonly unsolicited: ServerMessage[] = [];

  constructor(private readonly opts: TerminalClientOptions) {}

  private get timeoutMs(): number {
    return this.opts.timeoutMs ?? 10_000;
  }

  /** Opens the socket, sends hello and resolves with the welcome; rejects on an error reply or timeout. */
  connect(): Promise<ServerWelcome> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(terminalUrl(this.opts.url));
      this.ws = ws;
      let settled = false;
      const done = (err: Error | null, w?: ServerWelcome) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (err) {
          ws.terminate();
          reject(err);
        } else resolve(w!);
      };
      const timer = setTimeout(() => done(new TerminalError('TIMEOUT', 'No welcome from the server')), this.timeoutMs);
      ws.on('open', () => {
        this.send({
          type: 'hello',
          version: TERMINAL_PROTOCOL_VERSION,
          serial: this.opts.serial,
          secret: this.opts.secret,
          ...(this.opts.devices ? { devices: this.opts.devices } : {}),
        });
      });
      ws.on('message', (data) => {
        const parsed = ServerMessage.safeParse(safeJson(data.toString()));
        if (!parsed.success) return;
        const m = parsed.data;
        if (m.type === 'welcome') {
          this.welcome = m;
          if (this.opts.heartbeat !== false) {
            this.heartbeatTimer = setInterval(() => this.heartbeat(), HEARTBEAT_INTERVAL_SECONDS * 1000);
            this.heartbeatTimer.unref();
          }
          return done(null, m);
        }
        if (m.type === 'error' && !settled) return done(new TerminalError(m.code, m.message));
        this.dispatch(m);
      });
      ws.on('error', (err) => done(err));
      ws.on('close', () => {
        clearInterval(this.heartbeatTimer);
        done(new TerminalError('CLOSED', 'Connection closed'));
        for (const [id, p] of this.pending) {
          clearTimeout(p.timer);
          p.reject(new TerminalError('CLOSED', 'Connection closed before the decision'));
          this.pending.delete(id);
        }
      });
    });
  }

  private dispatch(m: ServerMessage): void {
    const eventId = m.type === 'decision' || m.type === 'error' ? m.eventId : undefined;
    const p = eventId ? this.pending.get(eventId) : undefined;
    if (!p || !eventId) {
      this.unsolicited.push(m);
      return;
    }
    this.pending.delete(eventId);
    clearTimeout(p.timer);
    if (m.type === 'decision') p.resolve(m);
    else p.reject(new TerminalError((m as ServerError).code, (m as ServerError).message));
  }

  /**
   * Presents an identification and resolves with the server's decision.
   * `eventId` defaults to a new UUID; pass the same one to resend an event.
   * `at` (an instant) is for events handled offline.
   */
  present(identification: Identification, opts: { eventId?: string; at?: Date } = {}): Promise<ServerDecision> {
    const eventId = opts.eventId ?? randomUUID();
    return new Promise((resolve, reject) => {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
        reject(new TerminalError('CLOSED', 'Not connected'));
        return;
      }
      const timer = setTimeout(() => {
        this.pending.delete(eventId);
        reject(new TerminalError('TIMEOUT', 'No decision from the server'));
      }, this.timeoutMs);
      this.pending.set(eventId, { resolve, reject, timer });
      this.send({ type: 'entrance', eventId, identification, ...(opts.at ? { at: opts.at.toISOString() } : {}) });
    });
  }

  /** Sends a heartbeat, optionally with the door state (EntranceState). */
  heartbeat(doorState?: 1 | 2 | 3 | 4 | 6 | 7): void {
    if (this.ws?.readyState === WebSocket.OPEN) this.send({ type: 'heartbeat', ...(doorState ? { doorState } : {}) });
  }

  /** Sends a raw message (tests use it for malformed input). */
  sendRaw(text: string): void {
    this.ws?.send(text);
  }

  private send(m: TerminalMessage): void {
    this.ws?.send(JSON.stringify(m));
  }

  /** Closes the connection and waits for the close. */
  close(): Promise<void> {
    clearInterval(this.heartbeatTimer);
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
