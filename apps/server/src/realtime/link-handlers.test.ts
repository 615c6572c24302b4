import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TerminalMessage } from '@venue/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import { handleFrame, linkHandlers } from './link-handlers.js';
import { TerminalLinkSession, type LinkDeps } from './terminal-session.js';

/**
 * The terminal link's dispatch without a server or a database: what a
 * session answers to malformed frames, to messages before hello, and which
 * handler each message type reaches.
 */

class FakeSocket extends EventEmitter {
  readonly OPEN = 1;
  readyState = 1;
  readonly sent: Record<string, unknown>[] = [];
  closedWith?: { code: number; reason: string };
  send(data: string | Buffer): void {
    this.sent.push(JSON.parse(data.toString()) as Record<string, unknown>);
  }
  ping(): void {}
  terminate(): void {
    this.close(1006, '');
  }
  close(code: number, reason: string): void {
    if (this.readyState === 3) return;
    this.closedWith = { code, reason };
    this.readyState = 3;
    this.emit('close');
  }
}

const log = { warn: vi.fn(), error: vi.fn() } as unknown as FastifyBaseLogger;
const sockets: FakeSocket[] = [];
afterEach(() => {
  for (const s of sockets.splice(0)) s.close(1000, 'test over');
});

function session(deps: Partial<LinkDeps> = {}) {
  const socket = new FakeSocket();
  sockets.push(socket);
  const s = new TerminalLinkSession(socket as unknown as WebSocket, deps as LinkDeps, log);
  return { s, socket };
}

describe('terminal link dispatch', () => {
  it('has one handler for every message type of the protocol', () => {
    const types = TerminalMessage.options.map((o) => o.shape.type.value).sort();
    expect(Object.keys(linkHandlers).sort()).toEqual(types);
  });

  it('answers BAD_MESSAGE to what is not JSON or not a valid message, naming a string eventId', async () => {
    const { s, socket } = session();
    await handleFrame(s, 'not json');
    await handleFrame(s, JSON.stringify({ type: 'no-such-type' }));
    await handleFrame(s, JSON.stringify({ type: 'entrance', eventId: 'ev-1', identification: { kind: 'x' } }));
    expect(socket.sent.map((m) => [m.type, m.code, m.eventId])).toEqual([
      ['error', 'BAD_MESSAGE', undefined],
      ['error', 'BAD_MESSAGE', undefined],
      ['error', 'BAD_MESSAGE', 'ev-1'],
    ]);
    expect(socket.sent[0].message).toBe('Not JSON');
    expect(socket.closedWith).toBeUndefined();
  });

  it('closes with 4400 on a hello of another protocol version', async () => {
    const { s, socket } = session();
    await handleFrame(s, JSON.stringify({ type: 'hello', version: 2, serial: 'S', secret: 'x' }));
    expect(socket.sent[0]).toMatchObject({ type: 'error', code: 'UNSUPPORTED_VERSION' });
    expect(socket.closedWith).toEqual({ code: 4400, reason: 'UNSUPPORTED_VERSION' });
  });

  it('answers NOT_AUTHENTICATED before hello, with the eventId of an entrance', async () => {
    const { s, socket } = session();
    const card = { kind: 'card', value: '100001' };
    await handleFrame(s, JSON.stringify({ type: 'entrance', eventId: 'ev-2', identification: card }));
    await handleFrame(s, JSON.stringify({ type: 'heartbeat' }));
    await handleFrame(s, JSON.stringify({ type: 'cash-complete', sessionId: 'c1' }));
    expect(socket.sent.map((m) => [m.code, m.eventId])).toEqual([
      ['NOT_AUTHENTICATED', 'ev-2'],
      ['NOT_AUTHENTICATED', undefined],
      ['NOT_AUTHENTICATED', undefined],
    ]);
  });

  it('hands an action-reply of an authenticated terminal to the action hub', async () => {
    const reply = vi.fn();
    const { s, socket } = session({
      actions: { reply } as unknown as LinkDeps['actions'],
      // On close the link is unregistered; another connection of it is still here, so nothing is written.
      registry: { unregister: () => undefined, isConnected: () => true } as unknown as LinkDeps['registry'],
      db: {} as LinkDeps['db'],
    });
    s.link = {
      terminalId: 3,
      clubId: 1,
      name: 'T3',
      registered: { terminalId: 3, clubId: 1, connectedAt: new Date(), send: () => undefined },
      lastSeenWrite: 0,
      doorState: 2,
      approved: true,
    };
    await handleFrame(s, JSON.stringify({ type: 'action-reply', requestId: 'r1', ok: true, data: { pong: 1 } }));
    await handleFrame(s, JSON.stringify({ type: 'action-reply', requestId: 'r2', ok: false, error: 'busy' }));
    expect(reply.mock.calls).toEqual([
      [{ requestId: 'r1', ok: true, data: { pong: 1 } }],
      [{ requestId: 'r2', ok: false, error: 'busy' }],
    ]);
    await handleFrame(s, JSON.stringify({ type: 'hello', version: 1, serial: 'S', secret: 'x' }));
    expect(socket.sent).toEqual([{ type: 'error', code: 'BAD_MESSAGE', message: 'Already authenticated' }]);
  });
});
