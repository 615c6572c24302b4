import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, makeOpenGate, signedInAdmin, type TestContext } from '../../test/harness.js';
import { TerminalClient } from '../../../terminal/src/client.js';

/**
 * Issue 12 finding 8: a silently dead link (a partition: no FIN, no RST, no
 * data) between terminal and server. Through a TCP proxy that stops
 * forwarding, the terminal takes the link for dead within a few seconds by
 * its WebSocket pings, decides offline at once from its valid list, and
 * counts the offline window from its last contact with the server.
 */
let ctx: TestContext;
let port: number;
const SECRET = 'dead-link-secret';

/** A TCP proxy whose `blackhole()` keeps both sockets open but forwards nothing more. */
async function proxy(targetPort: number) {
  const pairs: [net.Socket, net.Socket][] = [];
  let dead = false;
  const server = net.createServer((a) => {
    const b = net.connect(targetPort, '127.0.0.1');
    pairs.push([a, b]);
    a.on('data', (d) => !dead && b.write(d));
    b.on('data', (d) => !dead && a.write(d));
    const end = () => {
      a.destroy();
      b.destroy();
    };
    a.on('error', end).on('close', () => !dead && end());
    b.on('error', end).on('close', () => !dead && end());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as net.AddressInfo).port,
    blackhole: () => (dead = true),
    close: () => {
      for (const [a, b] of pairs) {
        a.destroy();
        b.destroy();
      }
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

beforeAll(async () => {
  ctx = await createTestApp();
  const base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  port = Number(new URL(base).port);
});
afterAll(async () => ctx?.close());

describe('dead links', () => {
  it('detects a silent partition within seconds and decides offline at once, the window from the last contact', async () => {
    const { club } = await signedInAdmin(ctx);
    await makeOpenGate(ctx, club.id, { card: 'DL-1', serial: `DL-${club.id}`, secret: SECRET });
    const p = await proxy(port);
    const tc = new TerminalClient({
      url: `http://127.0.0.1:${p.port}`,
      serial: `DL-${club.id}`,
      secret: SECRET,
      heartbeat: false,
      reconnect: true,
      timeoutMs: 10_000,
      linkCheckMs: 500,
      backoffMs: { initial: 60_000, max: 60_000 },
    });
    try {
      await tc.connect();
      await new Promise<void>((r) => (tc.validList ? r() : tc.once('valid-list', () => r())));
      expect((await tc.present({ kind: 'card', value: 'DL-1' })).status).toBe(1);
      const lastContact = Date.now();
      p.blackhole();
      const offline = new Promise<number>((r) => tc.once('offline', () => r(Date.now())));
      // A presentation on the dead link: decided offline when the link is found dead, not after 10 s.
      const started = Date.now();
      const r = await tc.present({ kind: 'card', value: 'DL-1' });
      const waited = Date.now() - started;
      expect(r).toMatchObject({ status: 1, offline: true });
      expect(waited).toBeLessThan(5_000);
      expect((await offline) - lastContact).toBeLessThan(5_000);
      // The window counts from the last contact, not from when the loss was noticed.
      expect(tc.offlineSince!.getTime()).toBeLessThanOrEqual(lastContact + 600);
      const after = tc.decideOffline({ kind: 'card', value: 'DL-1' }, 'late-1', new Date(lastContact + 1801_000));
      expect(after.status).toBe(3);
    } finally {
      await tc.close();
      await p.close();
    }
  }, 30_000);
});
