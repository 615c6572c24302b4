import { afterEach, describe, expect, it } from 'vitest';
import type { ServerMessage, TerminalActionName } from '@venue/domain';
import { TerminalClient, TerminalError } from './client.js';
import { FakeSocket, welcomedClient } from './test-socket.js';

/**
 * How the simulator's TerminalClient reacts to each server message type
 * (docs/terminal-protocol.md), with a stand-in socket: no server.
 */

const clients: TerminalClient[] = [];
async function connected(opts: Parameters<typeof welcomedClient>[0] = {}) {
  const c = await welcomedClient(opts);
  clients.push(c.client);
  return c;
}
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
});

const until = new Date(Date.now() + 86_400_000).toISOString();
const validList: ServerMessage = {
  type: 'valid-list',
  generatedAt: new Date().toISOString(),
  offlineWindowSeconds: 3600,
  entries: [{ kind: 'card', value: '100001', until, name: 'Dana' }],
};

describe('TerminalClient: connecting', () => {
  it('sends hello on open and resolves with the welcome', async () => {
    const { client, socket } = await connected({ devices: ['card'] });
    // The software version is reported for the operator's fleet view (docs/operator.md).
    expect(socket.sent[0]).toEqual({
      type: 'hello',
      version: 1,
      serial: 'SIM-1',
      secret: 'secret',
      devices: ['card'],
      softwareVersion: '38.0.0',
    });
    expect(client.welcome?.terminalId).toBe(7);
    expect(client.connected).toBe(true);
  });

  it('rejects connect with the code of an error answered before the welcome', async () => {
    const socket = new FakeSocket();
    const client = new TerminalClient({
      url: 'http://x.test',
      serial: 'S',
      secret: 'bad',
      openSocket: (url) => {
        expect(url).toBe('ws://x.test/api/terminal/ws');
        return socket as never;
      },
    });
    const p = client.connect();
    socket.open();
    socket.serverSends({ type: 'error', code: 'AUTH_FAILED', message: 'Unknown serial or wrong secret' });
    await expect(p).rejects.toMatchObject({ code: 'AUTH_FAILED' });
    expect(socket.readyState).toBe(3); // terminated
  });

  it('ignores a message that is not valid protocol', async () => {
    const { client, socket } = await connected();
    socket.serverSends({ type: 'no-such-type' });
    socket.emit('message', Buffer.from('not json'), false);
    expect(client.unsolicited).toEqual([]);
  });
});

describe('TerminalClient: decisions', () => {
  it('resolves a presentation with the decision of its eventId', async () => {
    const { client, socket } = await connected();
    const p = client.present({ kind: 'card', value: '100001' }, { eventId: 'ev-1' });
    expect(socket.last('entrance')).toEqual({
      type: 'entrance',
      eventId: 'ev-1',
      identification: { kind: 'card', value: '100001' },
    });
    socket.serverSends({ type: 'decision', eventId: 'other', status: 1, reason: 0, gateOpenSeconds: 4, message: 'X' });
    socket.serverSends({ type: 'decision', eventId: 'ev-1', status: 2, reason: 5, gateOpenSeconds: 0, message: 'No' });
    await expect(p).resolves.toMatchObject({ eventId: 'ev-1', status: 2, reason: 5 });
    // The decision of no pending presentation is kept as unsolicited.
    expect(client.unsolicited.map((m) => m.type === 'decision' && m.eventId)).toEqual(['other']);
  });

  it('rejects a presentation answered by an error of its eventId', async () => {
    const { client, socket } = await connected();
    const p = client.present({ kind: 'code', value: '12' }, { eventId: 'ev-2' });
    socket.serverSends({ type: 'error', code: 'BAD_MESSAGE', message: 'identification: invalid', eventId: 'ev-2' });
    const err = await p.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TerminalError);
    expect((err as TerminalError).code).toBe('BAD_MESSAGE');
  });

  it('decides offline by its list on DECIDE_OFFLINE, and leaves that state at the next decision', async () => {
    const { client, socket } = await connected();
    client.receive(validList);
    const on = client.present({ kind: 'card', value: '100001' }, { eventId: 'ev-3' });
    socket.serverSends({ type: 'error', code: 'DECIDE_OFFLINE', message: 'decide offline', eventId: 'ev-3' });
    await expect(on).resolves.toMatchObject({ eventId: 'ev-3', status: 1, offline: true, clientName: 'Dana' });
    const off = client.present({ kind: 'card', value: '999' }, { eventId: 'ev-4' });
    client.receive({ type: 'error', code: 'DECIDE_OFFLINE', message: 'decide offline', eventId: 'ev-4' });
    await expect(off).resolves.toMatchObject({ status: 3, reason: 25, offline: true });
    expect(client.cannotDecideSince).toBeInstanceOf(Date);
    expect(client.offlineQueue.map((e) => [e.eventId, e.status])).toEqual([
      ['ev-3', 1],
      ['ev-4', 3],
    ]);
    expect(client.gateOpenUntil).toBeGreaterThan(Date.now());

    // The server decides again: the queue goes up as an offline batch.
    const next = client.present({ kind: 'card', value: '100001' }, { eventId: 'ev-5' });
    client.receive({ type: 'decision', eventId: 'ev-5', status: 1, reason: 0, gateOpenSeconds: 4, message: 'Ok' });
    await expect(next).resolves.toMatchObject({ status: 1 });
    expect(client.cannotDecideSince).toBeNull();
    const batch = socket.last('offline-batch');
    expect(batch?.events.map((e) => e.eventId)).toEqual(['ev-3', 'ev-4']);

    // Acknowledged events leave the queue.
    const uploaded = new Promise((r) => client.once('uploaded', r));
    client.receive({ type: 'offline-ack', batchId: batch!.batchId, recorded: ['ev-3'], duplicates: ['ev-4'] });
    await uploaded;
    expect(client.offlineQueue).toEqual([]);
  });

  it('with reconnect, decides a pending presentation offline when the link drops', async () => {
    const { client, socket } = await connected({ reconnect: true, backoffMs: { initial: 60_000, max: 60_000 } });
    client.receive(validList);
    const p = client.present({ kind: 'card', value: '100001' }, { eventId: 'ev-6' });
    const offline = new Promise((r) => client.once('offline', r));
    socket.close(1006);
    await offline;
    await expect(p).resolves.toMatchObject({ eventId: 'ev-6', status: 1, offline: true });
    expect(client.connected).toBe(false);
    expect(client.offlineSince).toBeInstanceOf(Date);
  });
});

describe('TerminalClient: offline uploads (issue 33 finding 2)', () => {
  const queue = (client: TerminalClient, n: number) => {
    for (let i = 0; i < n; i++) {
      client.offlineQueue.push({
        eventId: `q-${i}`,
        identification: { kind: 'card', value: '100001' },
        at: new Date().toISOString(),
        status: 1,
      });
    }
  };
  const batches = (socket: FakeSocket) => socket.sent.filter((m) => m.type === 'offline-batch');
  const ack = (socket: FakeSocket, batch: { batchId: string; events: { eventId: string }[] }) =>
    socket.serverSends({
      type: 'offline-ack',
      batchId: batch.batchId,
      recorded: batch.events.map((e) => e.eventId),
      duplicates: [],
    });

  it('keeps two batches in flight, never sends one again on the same link, and takes acknowledgements however late', async () => {
    // A server slower than the terminal's time-out: before, a batch unanswered after `timeoutMs` went again
    // under a new id and the late answer of the first was ignored, so the backlog never drained.
    const { client, socket } = await connected({ timeoutMs: 50 });
    queue(client, 250);
    const drained = client.uploadOffline();
    expect(batches(socket).map((b) => b.events.length)).toEqual([100, 100]);
    await new Promise((r) => setTimeout(r, 200));
    expect(batches(socket)).toHaveLength(2);
    // The first answer, four time-outs late: its events leave the queue and the window moves on.
    ack(socket, batches(socket)[0]);
    expect(client.offlineQueue).toHaveLength(150);
    expect(batches(socket).map((b) => b.events.length)).toEqual([100, 100, 50]);
    ack(socket, batches(socket)[2]);
    ack(socket, batches(socket)[1]);
    await drained;
    expect(client.offlineQueue).toEqual([]);
    const sent = batches(socket).flatMap((b) => b.events.map((e) => e.eventId));
    expect(sent).toHaveLength(250);
    expect(new Set(sent).size).toBe(250);
  });

  it('backs off after UPLOAD_BUSY and sends the refused events again, once', async () => {
    const { client, socket } = await connected({ uploadBackoffMs: { initial: 40, max: 40 } });
    queue(client, 150);
    const drained = client.uploadOffline();
    const [first, second] = batches(socket);
    socket.serverSends({ type: 'error', code: 'UPLOAD_BUSY', message: 'busy', batchId: second.batchId });
    ack(socket, first);
    // Backing off: nothing more is sent until the back-off ends (20–40 ms).
    expect(batches(socket)).toHaveLength(2);
    await new Promise((r) => setTimeout(r, 80));
    const third = batches(socket)[2];
    expect(third.events.map((e) => e.eventId)).toEqual(second.events.map((e) => e.eventId));
    ack(socket, third);
    await drained;
    expect(client.offlineQueue).toEqual([]);
    expect(batches(socket)).toHaveLength(3);
  });

  it('sends what was not acknowledged again on the next link', async () => {
    const sockets: FakeSocket[] = [];
    const { client, socket } = await connected({
      reconnect: true,
      backoffMs: { initial: 60_000, max: 60_000 },
      openSocket: () => {
        const s = new FakeSocket();
        sockets.push(s);
        return s as never;
      },
    });
    queue(client, 120);
    const stopped = client.uploadOffline();
    ack(socket, batches(socket)[0]);
    socket.close(1006);
    await stopped;
    expect(client.offlineQueue.map((e) => e.eventId)).toEqual(Array.from({ length: 20 }, (_, i) => `q-${100 + i}`));
    // The next link: the 20 go up again (the server answers a duplicate for any it had recorded).
    const again = client.connect();
    const next = sockets[sockets.length - 1];
    next.open();
    next.serverSends({ type: 'welcome', terminalId: 7, name: 'Gate 1', approved: true, gateOpenSeconds: 4 });
    await again;
    expect(batches(next).map((b) => b.events.length)).toEqual([20]);
    ack(next, batches(next)[0]);
    expect(client.offlineQueue).toEqual([]);
  });
});

describe('TerminalClient: several servers (issue 33 finding 7)', () => {
  /** A client over stand-in sockets; `sockets` lists every socket it opened, with its URL. */
  function cluster(opts: Partial<ConstructorParameters<typeof TerminalClient>[0]> = {}) {
    const sockets: { url: string; socket: FakeSocket }[] = [];
    const client = new TerminalClient({
      url: ['ws://a.test', 'ws://b.test'],
      serial: 'SIM-1',
      secret: 'secret',
      heartbeat: false,
      linkCheckMs: 60_000,
      openSocket: (url) => {
        const socket = new FakeSocket();
        sockets.push({ url, socket });
        return socket as never;
      },
      ...opts,
    });
    clients.push(client);
    const welcome = (socket: FakeSocket) => {
      socket.open();
      socket.serverSends({ type: 'welcome', terminalId: 7, name: 'Gate 1', approved: true, gateOpenSeconds: 4 });
    };
    return { client, sockets, welcome };
  }
  const tick = () => new Promise((r) => setTimeout(r, 0));

  it('tries the next address at once when one cannot be reached, and stays on it', async () => {
    const { client, sockets, welcome } = cluster();
    const connecting = client.connect();
    expect(sockets.map((s) => s.url)).toEqual(['ws://a.test/api/terminal/ws']);
    sockets[0].socket.close(1006);
    await tick();
    expect(sockets.map((s) => s.url)).toEqual(['ws://a.test/api/terminal/ws', 'ws://b.test/api/terminal/ws']);
    welcome(sockets[1].socket);
    await expect(connecting).resolves.toMatchObject({ type: 'welcome' });
    expect(client.server).toBe('ws://b.test/api/terminal/ws');
    expect(client.connected).toBe(true);
  });

  it('tries the next address when one is busy, and stops at a refusal every server would repeat', async () => {
    const { client, sockets } = cluster();
    const connecting = client.connect();
    sockets[0].socket.open();
    sockets[0].socket.serverSends({ type: 'error', code: 'BUSY', message: 'busy' });
    await tick();
    expect(sockets).toHaveLength(2);
    sockets[1].socket.open();
    sockets[1].socket.serverSends({ type: 'error', code: 'AUTH_FAILED', message: 'no' });
    await expect(connecting).rejects.toMatchObject({ code: 'AUTH_FAILED' });
    expect(sockets).toHaveLength(2);
  });

  it('moves to the next server when its server goes away, and backs off between rounds, not between addresses', async () => {
    const { client, sockets, welcome } = cluster({
      reconnect: true,
      backoffMs: { initial: 40, max: 60_000 },
      goingAwayJitterMs: 20,
    });
    const connecting = client.connect();
    welcome(sockets[0].socket);
    await connecting;
    // A graceful stop of server a (close 1001): the next round starts at b, not at a.
    const back = new Promise((r) => client.once('online', r));
    sockets[0].socket.close(1001);
    await new Promise((r) => setTimeout(r, 60));
    expect(sockets.map((s) => s.url)).toEqual(['ws://a.test/api/terminal/ws', 'ws://b.test/api/terminal/ws']);
    welcome(sockets[1].socket);
    await back;
    expect(client.server).toBe('ws://b.test/api/terminal/ws');
    // b crashes (1006) and a is still down: after the first back-off (20–40 ms) one round tries b, then a at
    // once; the next round only after the grown back-off (40–80 ms).
    sockets[1].socket.close(1006);
    await new Promise((r) => setTimeout(r, 60));
    expect(sockets).toHaveLength(3);
    expect(sockets[2].url).toBe('ws://b.test/api/terminal/ws');
    sockets[2].socket.close(1006);
    await tick();
    expect(sockets[3].url).toBe('ws://a.test/api/terminal/ws');
    sockets[3].socket.close(1006);
    await tick();
    expect(sockets).toHaveLength(4);
    await new Promise((r) => setTimeout(r, 120));
    expect(sockets[4].url).toBe('ws://b.test/api/terminal/ws');
  });

  it('connects to every address a host name resolves to, in turn, keeping the name for the server', async () => {
    // A real socket: the name resolves to 127.0.0.2 (nothing listens there) and 127.0.0.1 (the server).
    const { WebSocketServer } = await import('ws');
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise((r) => wss.once('listening', r));
    const port = (wss.address() as { port: number }).port;
    const hosts: string[] = [];
    wss.on('connection', (ws, req) => {
      hosts.push(req.headers.host ?? '');
      ws.on('message', () =>
        ws.send(JSON.stringify({ type: 'welcome', terminalId: 1, name: 'G', approved: true, gateOpenSeconds: 3 })),
      );
    });
    const client = new TerminalClient({
      url: `ws://gates.test:${port}`,
      serial: 'S',
      secret: 's',
      heartbeat: false,
      resolveHost: async (host) => {
        expect(host).toBe('gates.test');
        return [
          { address: '127.0.0.2', family: 4 },
          { address: '127.0.0.1', family: 4 },
        ];
      },
    });
    try {
      await expect(client.connect()).resolves.toMatchObject({ type: 'welcome' });
      expect(client.server).toBe(`ws://gates.test:${port}/api/terminal/ws@127.0.0.1`);
      expect(hosts).toEqual([`gates.test:${port}`]);
    } finally {
      await client.close();
      await new Promise((r) => wss.close(r));
    }
  });
});

describe('TerminalClient: pushed and answered messages', () => {
  it('keeps the valid list', async () => {
    const { client, socket } = await connected();
    socket.serverSends(validList);
    expect(client.validList?.entries[0].value).toBe('100001');
  });

  it('keeps pushed messages, templates and unmatched answers as unsolicited and emits them', async () => {
    const { client } = await connected();
    const seen: string[] = [];
    client.on('message', (m: ServerMessage) => seen.push(m.type));
    client.receive({ type: 'messages', items: [] });
    client.receive({ type: 'templates', changes: [] });
    client.receive({ type: 'enrolled', eventId: 'e', ok: true });
    client.receive({
      type: 'exit-result',
      eventId: 'x',
      outcome: 1,
      message: 'm',
      rewardAmount: 0,
      gateOpenSeconds: 3,
    });
    client.receive({ type: 'purchase-result', eventId: 'p', ok: true });
    client.receive({ type: 'error', code: 'GENERAL_ERROR', message: 'General error' });
    const kinds = ['messages', 'templates', 'enrolled', 'exit-result', 'purchase-result', 'error'];
    expect(seen).toEqual(kinds);
    expect(client.unsolicited.map((m) => m.type)).toEqual(kinds);
  });

  it('resolves a cash step with the cash state of its session', async () => {
    const { client, socket } = await connected();
    const p = client.cashBegin('cs-1', { kind: 'card', value: '100001' }, 1000);
    expect(socket.last('cash-begin')).toMatchObject({ sessionId: 'cs-1', amountDue: 1000 });
    const state = { type: 'cash-state', sessionId: 'cs-1', inserted: 0, due: 1000, credited: 0, unpaid: 0, excess: 0 };
    client.receive({ ...state, sessionId: 'cs-other', state: 'begin' } as ServerMessage);
    client.receive({ ...state, state: 'begin' } as ServerMessage);
    await expect(p).resolves.toMatchObject({ sessionId: 'cs-1', state: 'begin', due: 1000 });
  });
});

describe('TerminalClient: server actions', () => {
  async function act(client: TerminalClient, socket: FakeSocket, actionName: TerminalActionName, data?: unknown) {
    const replied = new Promise((r) => client.once('action', r));
    socket.serverSends({ type: 'action', requestId: `r-${actionName}`, actionName, ...(data ? { data } : {}) });
    await replied;
    return socket.last('action-reply');
  }

  it('opens the simulated gate for the welcome’s seconds', async () => {
    const { client, socket } = await connected();
    const reply = await act(client, socket, 'openGate');
    expect(reply).toEqual({ type: 'action-reply', requestId: 'r-openGate', ok: true, data: { openSeconds: 4 } });
    expect(client.gateOpenUntil).toBeGreaterThan(Date.now() + 3000);
    expect(client.actions.map((a) => a.actionName)).toEqual(['openGate']);
  });

  it('sets the door state and reports it in a heartbeat; refuses a bad door state', async () => {
    const { client, socket } = await connected();
    expect(await act(client, socket, 'setDoorState', { doorState: 4 })).toMatchObject({
      ok: true,
      data: { doorState: 4 },
    });
    expect(client.doorState).toBe(4);
    expect(socket.last('heartbeat')).toMatchObject({ doorState: 4 });
    expect(await act(client, socket, 'setDoorState', { doorState: 5 })).toMatchObject({
      ok: false,
      error: 'bad doorState',
    });
    expect(client.doorState).toBe(4);
  });

  it('answers ping, checkForUpdates and the other actions', async () => {
    const { client, socket } = await connected();
    expect((await act(client, socket, 'ping'))?.data).toHaveProperty('pong');
    expect((await act(client, socket, 'checkForUpdates'))?.data).toEqual({ version: '38.0.0', updateAvailable: false });
    expect(await act(client, socket, 'reboot')).toEqual({ type: 'action-reply', requestId: 'r-reboot', ok: true });
    const slip = (await act(client, socket, 'cashStatusPrint'))?.data as { printedAt: string };
    expect(Number.isNaN(Date.parse(slip.printedAt))).toBe(false);
  });

  it('answers with onAction when given, and a failure of it as not ok', async () => {
    const { client, socket } = await connected({
      onAction: async (a) => {
        if (a.actionName === 'reboot') throw new Error('cannot reboot now');
        return { ok: true, data: { custom: a.actionName } };
      },
    });
    expect((await act(client, socket, 'openGate'))?.data).toEqual({ custom: 'openGate' });
    expect(await act(client, socket, 'reboot')).toMatchObject({ ok: false, error: 'cannot reboot now' });
  });
});
