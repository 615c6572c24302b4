import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { openDatabase, type Database } from '../db/index.js';
import { entranceLogs } from '../db/schema.js';
import { EventBus } from '../lib/event-bus.js';
import * as factory from '../../test/factories.js';
import { createTestApp, signedInAdmin, TEST_DB, type TestContext } from '../../test/harness.js';
import { latencyProxy } from '../../test/latency-proxy.js';
import { TerminalClient } from '../../../terminal/src/client.js';

/**
 * Backlogs that always drain (issue 33 finding 2): after a crash, terminals
 * upload what they decided offline to a server that is slow — here every
 * database round trip of the server takes 300 ms (a TCP proxy in front of
 * PostgreSQL), so a batch takes longer than the terminal used to wait for its
 * answer. Before, the terminal sent the batch again under a new id after its
 * time-out and ignored the late answer of the first, the server recorded
 * copies behind copies, and the queues never emptied (9,842 events still
 * queued 120 s after the reconnect). Now each batch is sent once per link,
 * late answers count, and the server records a batch in a few statements:
 * every queue drains, every event exactly once.
 *
 * PostgreSQL only: the slow link is a TCP proxy in front of the database.
 */
const onPostgres = TEST_DB === 'postgres';
const TERMINALS = 4;
const EACH = 250;

describe.skipIf(!onPostgres)('offline uploads to a slow server (PostgreSQL)', () => {
  let ctx: TestContext;
  let proxy: Awaited<ReturnType<typeof latencyProxy>>;
  let slowDb: Database;
  let slow: FastifyInstance;
  let base = '';
  beforeAll(async () => {
    ctx = await createTestApp();
    const url = new URL(ctx.database.url!);
    proxy = await latencyProxy({ host: url.hostname, port: Number(url.port || 5432) }, 0);
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    slowDb = await openDatabase({ databaseUrl: url.toString(), poolSize: 5 });
    const config = { ...loadConfig({}), logLevel: 'silent', loginRateLimit: 1000 };
    slow = await buildApp({ config, database: slowDb, bus: new EventBus() });
    base = await slow.listen({ port: 0, host: '127.0.0.1' });
  }, 60_000);
  afterAll(async () => {
    await slow?.close();
    await slowDb?.close();
    await proxy?.close();
    await ctx?.close();
  });

  it('drains every terminal’s backlog exactly once although each batch takes longer than the terminal’s time-out', async () => {
    const { club } = await signedInAdmin(ctx);
    const { group } = await factory.makeOpenGate(ctx, club.id, {
      card: 'UP-0',
      serial: `UP-${club.id}-0`,
      secret: 's-0',
    });
    for (let i = 1; i <= 20; i++) {
      await factory.makeClient(ctx, club.id, {
        number: 100 + i,
        firstName: 'Up',
        lastName: `${i}`,
        groupId: group.id,
        cardSerial: `UP-${i}`,
        subscriptionStart: '2020-01-01',
        subscriptionEnd: '2125-01-01',
      });
    }
    const serials = [`UP-${club.id}-0`];
    for (let t = 1; t < TERMINALS; t++) {
      const serial = `UP-${club.id}-${t}`;
      await factory.makeTerminal(ctx, club.id, { serial, name: `Gate ${t}`, secret: `s-${t}` });
      serials.push(serial);
    }
    const terminals = serials.map(
      (serial, t) =>
        new TerminalClient({
          url: base,
          serial,
          secret: `s-${t}`,
          heartbeat: false,
          // The time-out the terminal used to send a batch again after: each batch here takes longer.
          timeoutMs: 5_000,
        }),
    );
    await Promise.all(terminals.map((tc) => tc.connect()));
    // The server turns slow: every round trip to its database now takes 300 ms.
    proxy.setDelay(150);
    const at = new Date().toISOString();
    const expected = new Set<string>();
    terminals.forEach((tc, t) => {
      for (let i = 0; i < EACH; i++) {
        const eventId = `t${t}-e${i}`;
        expected.add(`${tc.welcome!.terminalId}:${eventId}`);
        tc.offlineQueue.push({ eventId, identification: { kind: 'card', value: `UP-${(i % 20) + 1}` }, at, status: 1 });
      }
    });
    const acks: number[] = terminals.map(() => 0);
    terminals.forEach((tc, t) => tc.on('uploaded', () => acks[t]++));
    const drained = Promise.all(terminals.map((tc) => tc.uploadOffline()));
    const timedOut = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 90_000).unref());
    expect(await Promise.race([drained.then(() => 'drained' as const), timedOut])).toBe('drained');
    expect(terminals.map((tc) => tc.offlineQueue.length)).toEqual(terminals.map(() => 0));

    const ids = terminals.map((tc) => tc.welcome!.terminalId);
    const rows = await ctx.database.db
      .select({ terminalId: entranceLogs.terminalId, eventId: entranceLogs.eventId, offline: entranceLogs.offline })
      .from(entranceLogs)
      .where(inArray(entranceLogs.terminalId, ids));
    expect(rows).toHaveLength(TERMINALS * EACH);
    expect(new Set(rows.map((r) => `${r.terminalId}:${r.eventId}`))).toEqual(expected);
    expect(rows.every((r) => r.offline)).toBe(true);
    // One answer per batch sent: nothing was sent twice (a batch of 100 events, three per terminal).
    expect(acks).toEqual(terminals.map(() => Math.ceil(EACH / 100)));
    await Promise.all(terminals.map((tc) => tc.close()));
  }, 120_000);
});
