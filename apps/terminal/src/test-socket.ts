import { EventEmitter } from 'node:events';
import WebSocket from 'ws';
import type { ServerMessage, TerminalMessage } from '@venue/domain';
import { TerminalClient, type TerminalClientOptions } from './client.js';

/**
 * A stand-in for the terminal's WebSocket in unit tests: no server, no
 * network. It records what the terminal sends; the test plays the server by
 * emitting `open`, `message` and `close`.
 */
export class FakeSocket extends EventEmitter {
  readyState: number = WebSocket.CONNECTING;
  /** Messages the terminal sent, parsed. */
  readonly sent: TerminalMessage[] = [];
  pings = 0;

  send(data: string): void {
    this.sent.push(JSON.parse(data) as TerminalMessage);
  }
  ping(): void {
    this.pings++;
  }
  terminate(): void {
    this.close(1006);
  }
  close(code = 1000): void {
    if (this.readyState === WebSocket.CLOSED) return;
    this.readyState = WebSocket.CLOSED;
    this.emit('close', code);
  }
  /** The server accepts the connection. */
  open(): void {
    this.readyState = WebSocket.OPEN;
    this.emit('open');
  }
  /** The server sends a message (as a text frame). */
  serverSends(m: ServerMessage | Record<string, unknown>): void {
    this.emit('message', Buffer.from(JSON.stringify(m)), false);
  }
  /** The last message the terminal sent of a type. */
  last<T extends TerminalMessage['type']>(type: T): Extract<TerminalMessage, { type: T }> | undefined {
    return this.sent.filter((m) => m.type === type).pop() as Extract<TerminalMessage, { type: T }> | undefined;
  }
}

/** A TerminalClient on a FakeSocket, connected and welcomed (approved, gate open 4 s). */
export async function welcomedClient(
  opts: Partial<TerminalClientOptions> = {},
): Promise<{ client: TerminalClient; socket: FakeSocket }> {
  const sockets: FakeSocket[] = [];
  const client = new TerminalClient({
    url: 'ws://terminal.test',
    serial: 'SIM-1',
    secret: 'secret',
    heartbeat: false,
    linkCheckMs: 60_000,
    timeoutMs: 2_000,
    ...opts,
    // A test's own openSocket (to reach later sockets) still hands the first one here.
    openSocket: (url) => {
      const s = opts.openSocket ? (opts.openSocket(url) as unknown as FakeSocket) : new FakeSocket();
      sockets.push(s);
      return s as unknown as WebSocket;
    },
  });
  const welcome = client.connect();
  const socket = sockets[0];
  socket.open();
  socket.serverSends({ type: 'welcome', terminalId: 7, name: 'Gate 1', approved: true, gateOpenSeconds: 4 });
  await welcome;
  return { client, socket };
}
