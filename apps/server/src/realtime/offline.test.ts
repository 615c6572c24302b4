import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { EntranceState, EntranceStatus } from '@venue/domain';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { clients, entranceLogs } from '../db/schema.js';
import * as factory from '../../test/factories.js';
import { openTestDatabase, signedInAdmin, type TestContext } from '../../test/harness.js';
import { EventBus } from '../lib/event-bus.js';
import { TerminalClient, type PresentResult } from '../../../terminal/src/client.js';

/**
 * Reliable link (DESIGN §10): terminals keep admitting from
 * their cached valid list while the server is STOPPED, refuse what they
 * cannot decide, and upload their offline decisions when it is RESTARTED —
 * no entrance lost, none counted twice.
 */

let database: Awaited<ReturnType<typeof openTestDatabase>>;
let app: FastifyInstance;
let port = 0;
const config = { ...loadConfig({}), logLevel: 'silent', loginRateLimit: 1000 };

async function start(): Promise<FastifyInstance> {
  const a = await buildApp({ config, database, bus: new EventBus() });
  await a.listen({ port, host: '127.0.0.1' });
  port = (a.server.address() as { port: number }).port;
  return a;
}

const until = async (cond: () => boolean, ms = 15_000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  database = await openTestDatabase();
  app = await start();
});
afterAll(async () => {
  await app?.close();
  await database?.dropAll();
});

describe('offline terminals', () => {
  it('admits from the valid list while the server is stopped, uploads on restart: none lost, none twice', async () => {
    const ctx = { app, database } as unknown as TestContext;
    const { api, club } = await signedInAdmin(ctx);
    const db = database.db;
    const g = await factory.makeGroupWithSchedule(ctx, club.id, {
      name: 'Members',
      entranceState: EntranceState.Opened,
    });
    const valid = ['OFF-1', 'OFF-2', 'OFF-3', 'OFF-4'];
    for (const card of valid) {
      await factory.makeClient(ctx, club.id, {
        firstName: card,
        lastName: '',
        groupId: g.id,
        cardSerial: card,
        ...factory.SUBSCRIBED,
      });
    }
    await factory.makeClient(ctx, club.id, {
      firstName: 'Expired',
      lastName: '',
      groupId: g.id,
      cardSerial: 'OFF-EXPIRED',
      subscriptionStart: '2020-01-01',
      subscriptionEnd: '2021-01-01',
    });

    const terminalIds: number[] = [];
    const clientsOf: TerminalClient[] = [];
    for (let i = 0; i < 3; i++) {
      const t = (await api.post('/api/Terminal', { serial: `OFF-T${i}-${club.id}`, name: `Gate ${i}` })).json();
      await api.patch(`/api/Terminal/${t.id}`, { approved: true });
      terminalIds.push(t.id);
      const tc = new TerminalClient({
        url: `ws://127.0.0.1:${port}`,
        serial: t.serial,
        secret: t.secret,
        heartbeat: false,
        reconnect: true,
        backoffMs: { initial: 100, max: 400 },
        timeoutMs: 3000,
      });
      await tc.connect();
      clientsOf.push(tc);
    }
    await until(() => clientsOf.every((tc) => tc.validList != null));
    expect(clientsOf[0].validList!.entries.some((e) => e.value === 'OFF-EXPIRED')).toBe(false);
    expect(clientsOf[0].validList!.offlineWindowSeconds).toBe(1800);

    // Traffic: every terminal presents a card every 15 ms, valid ones and now and then an expired one.
    const results: { terminal: number; r: PresentResult }[] = [];
    let running = true;
    let k = 0;
    const traffic = clientsOf.map(async (tc, i) => {
      while (running) {
        const card = ++k % 7 === 0 ? 'OFF-EXPIRED' : valid[k % valid.length];
        results.push({ terminal: i, r: await tc.present({ kind: 'card', value: card }) });
        await sleep(15);
      }
    });

    await until(() => results.length >= 30);
    await app.close(); // the server stops in the middle of traffic
    await until(() => clientsOf.every((tc) => !tc.connected));
    const before = results.length;
    await until(() => results.length >= before + 30);
    const offline = results.filter((x) => x.r.offline);
    expect(offline.some((x) => x.r.status === EntranceStatus.Approved)).toBe(true);
    // The expired card is not on the list: the terminal refuses it rather than guess.
    for (const x of offline) {
      const expired = x.r.clientName === undefined && x.r.status !== 1;
      if (expired) expect(x.r.gateOpenSeconds).toBe(0);
    }
    expect(clientsOf.some((tc) => tc.offlineQueue.length > 0)).toBe(true);

    app = await start(); // restarted on the same port and database
    await until(() => clientsOf.every((tc) => tc.connected));
    await until(() => results.length >= before + 60);
    running = false;
    await Promise.all(traffic);
    await until(() => clientsOf.every((tc) => tc.offlineQueue.length === 0));

    const rows = await db
      .select({ eventId: entranceLogs.eventId, offline: entranceLogs.offline, status: entranceLogs.status })
      .from(entranceLogs)
      .where(inArray(entranceLogs.terminalId, terminalIds));
    const presented = results.map((x) => x.r.eventId);
    expect(new Set(presented).size).toBe(presented.length);
    // Exactly one row per presented event: none lost, none counted twice.
    expect(rows.length).toBe(presented.length);
    expect(new Set(rows.map((r) => r.eventId))).toEqual(new Set(presented));
    const offlineRows = rows.filter((r) => r.offline);
    expect(offlineRows.length).toBeGreaterThan(0);
    // An offline decision on an event the server had already decided online is a duplicate, not a second row.
    expect(offlineRows.length).toBeLessThanOrEqual(results.filter((x) => x.r.offline).length);
    const expiredOffline = await db
      .select({ status: entranceLogs.status, reason: entranceLogs.reason, offline: entranceLogs.offline })
      .from(entranceLogs)
      .innerJoin(clients, eq(clients.id, entranceLogs.clientId))
      .where(eq(clients.cardSerial, 'OFF-EXPIRED'));
    // Online the engine decides (a free money entrance may admit); offline the terminal never admits it.
    expect(expiredOffline.filter((r) => r.offline && r.status === EntranceStatus.Approved)).toEqual([]);

    // An upload sent twice records nothing the second time.
    const tc = clientsOf[0];
    const again = await new Promise<{ recorded: string[]; duplicates: string[] }>((resolve) => {
      tc.once('offline-ack', resolve);
      tc.sendRaw(
        JSON.stringify({
          type: 'offline-batch',
          batchId: 'again',
          events: offline
            .filter((x) => x.terminal === 0)
            .slice(0, 3)
            .map((x) => ({
              eventId: x.r.eventId,
              identification: { kind: 'card', value: 'OFF-1' },
              at: new Date().toISOString(),
              status: 1,
            })),
        }),
      );
    });
    expect(again.recorded).toEqual([]);
    expect(again.duplicates.length).toBeGreaterThan(0);
    for (const c of clientsOf) await c.close();
  }, 60_000);

  it('refuses everything offline once the offline window has passed', async () => {
    const tc = new TerminalClient({ url: 'ws://127.0.0.1:1', serial: 'X', secret: 'y', reconnect: true });
    tc.validList = {
      type: 'valid-list',
      generatedAt: new Date().toISOString(),
      offlineWindowSeconds: 60,
      entries: [{ kind: 'card', value: 'C1', until: '2125-01-01T00:00:00.000Z' }],
    };
    tc.offlineSince = new Date(Date.now() - 30_000);
    expect(tc.decideOffline({ kind: 'card', value: 'C1' }, 'e1').status).toBe(1);
    expect(tc.decideOffline({ kind: 'card', value: 'C2' }, 'e2').status).toBe(3);
    tc.offlineSince = new Date(Date.now() - 61_000);
    expect(tc.decideOffline({ kind: 'card', value: 'C1' }, 'e3').status).toBe(3);
    expect(tc.offlineQueue.map((e) => e.eventId)).toEqual(['e1', 'e2', 'e3']);
  });
});
