import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { openDatabase, type Database } from '../db/index.js';
import { entranceLogs, terminals } from '../db/schema.js';
import * as factory from '../../test/factories.js';
import { openTestDatabase, signedInAdmin, TEST_DB, type TestContext } from '../../test/harness.js';
import { TerminalClient, type PresentResult } from '../../../terminal/src/client.js';

/**
 * Issue 33 findings 6 and 7 on PostgreSQL, two server instances and no
 * balancer in front:
 * - a graceful stop (what SIGTERM runs: `app.close()`, then the pool) tells
 *   each terminal to go (close 1001), writes what its link leaves behind —
 *   the last contact, the instance released — before the pool closes, and
 *   logs no error; before, those writes ran after the pool had ended
 *   ("Cannot use a pool after calling end") and the other instance's console
 *   showed the terminal connected for minutes;
 * - a terminal given both addresses moves to the other instance when its
 *   own stops, within the jitter, and every presentation made meanwhile is
 *   recorded exactly once (decided there, or decided offline and uploaded).
 *
 * PGlite is one process's database: two instances cannot share it.
 */
const onPostgres = TEST_DB === 'postgres';
const config = { ...loadConfig({}), logLevel: 'info', loginRateLimit: 1000 };

/** An instance on its own pool over the shared database, its log lines kept. */
async function instance(url: string) {
  const lines: { level: number; msg: string; err?: { message?: string } }[] = [];
  const logStream = new Writable({
    write(chunk, _enc, cb) {
      for (const l of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(l));
      cb();
    },
  });
  const database = await openDatabase({ databaseUrl: url, poolSize: 4 });
  const app = await buildApp({ config, database, logStream });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  /** What SIGTERM runs (main.ts): the app, then the pool last. */
  const stop = async () => {
    await app.close();
    await database.close();
  };
  const errors = () => lines.filter((l) => l.level >= 50);
  return { app, database, base, stop, lines, errors };
}

describe.skipIf(!onPostgres)('graceful stop and failover between two instances (PostgreSQL)', () => {
  let shared: Database & { dropAll(): Promise<void> };
  let console_: FastifyInstance;
  beforeAll(async () => {
    shared = await openTestDatabase();
    // The console the operator watches: a third instance that is never stopped.
    console_ = await buildApp({ config: { ...config, logLevel: 'silent' }, database: shared });
    await console_.ready();
  });
  afterAll(async () => {
    await console_?.close();
    await shared?.dropAll();
  });

  async function club(cards: number) {
    const ctx = { app: console_, database: shared } as unknown as TestContext;
    const admin = await signedInAdmin(ctx);
    const { group } = await factory.makeOpenGate(ctx, admin.club.id, {
      card: `GS-${admin.club.id}-0`,
      serial: `GS-${admin.club.id}-0`,
      secret: 'gs-secret',
    });
    for (let i = 1; i < cards; i++) {
      await factory.makeClient(ctx, admin.club.id, {
        number: 10 + i,
        firstName: 'Stop',
        lastName: `${i}`,
        groupId: group.id,
        cardSerial: `GS-${admin.club.id}-${i}`,
        subscriptionStart: '2020-01-01',
        subscriptionEnd: '2125-01-01',
      });
    }
    return { ctx, ...admin };
  }
  const terminalRow = async (id: number) => (await shared.db.select().from(terminals).where(eq(terminals.id, id)))[0];

  it('tells every terminal to go, releases their links before the pool closes and logs no error', async () => {
    const { ctx, api, club: c } = await club(1);
    const a = await instance(shared.url!);
    const serials = [`GS-${c.id}-0`];
    for (let i = 1; i < 20; i++) {
      await factory.makeTerminal(ctx, c.id, { serial: `GS-${c.id}-T${i}`, secret: 'gs-secret' });
      serials.push(`GS-${c.id}-T${i}`);
    }
    const links = serials.map(
      (serial) =>
        new TerminalClient({
          url: a.base,
          serial,
          secret: 'gs-secret',
          heartbeat: false,
          timeoutMs: 30_000,
          reconnect: true,
          backoffMs: { initial: 60_000, max: 60_000 },
        }),
    );
    try {
      await Promise.all(links.map((tc) => tc.connect()));
      const ids = links.map((tc) => tc.welcome!.terminalId);
      expect((await api.get(`/api/Terminal/${ids[0]}`)).json().connected).toBe(true);
      const codes: number[] = [];
      for (const tc of links) {
        (tc as unknown as { ws: { once(e: 'close', f: (c: number) => void): void } }).ws.once('close', (code) =>
          codes.push(code),
        );
      }
      await a.stop();
      // The console of the instance still running: no terminal is connected anywhere.
      const rows = await shared.db.select().from(terminals).where(inArray(terminals.id, ids));
      expect(rows.filter((r) => r.connectedInstance != null).map((r) => r.serial)).toEqual([]);
      expect((await api.get(`/api/Terminal/${ids[0]}`)).json().connected).toBe(false);
      expect(a.errors().map((l) => l.err?.message ?? l.msg)).toEqual([]);
      // Told to go ("going away"), not merely dropped.
      expect(codes).toEqual(links.map(() => 1001));
    } finally {
      await Promise.all(links.map((tc) => tc.close()));
    }
  });

  it('moves a terminal with both addresses to the other instance; every presentation recorded once', async () => {
    const { api, club: c } = await club(20);
    const a = await instance(shared.url!);
    const b = await instance(shared.url!);
    const tc = new TerminalClient({
      url: [a.base, b.base],
      serial: `GS-${c.id}-0`,
      secret: 'gs-secret',
      heartbeat: false,
      reconnect: true,
      backoffMs: { initial: 60_000, max: 60_000 },
    });
    const results: PresentResult[] = [];
    let presenting = true;
    try {
      await tc.connect();
      expect(tc.server).toBe(`${a.base.replace('http', 'ws')}/api/terminal/ws`);
      const id = tc.welcome!.terminalId;
      const loop = (async () => {
        for (let i = 0; presenting; i++) {
          results.push(await tc.present({ kind: 'card', value: `GS-${c.id}-${i % 20}` }));
          await new Promise((r) => setTimeout(r, 10));
        }
      })();
      await new Promise((r) => setTimeout(r, 500));
      const moved = new Promise<void>((r) => tc.once('online', () => r()));
      const stopped = Date.now();
      await a.stop();
      await moved;
      const movedMs = Date.now() - stopped;
      expect(tc.server).toBe(`${b.base.replace('http', 'ws')}/api/terminal/ws`);
      await new Promise((r) => setTimeout(r, 500));
      presenting = false;
      await loop;
      await tc.uploadOffline();
      expect(tc.offlineQueue).toEqual([]);

      // Decided on B after the move; the instance that holds the link is B.
      expect(results.at(-1)?.offline).toBeUndefined();
      expect((await terminalRow(id)).connectedInstance).toBe(b.app.deps.bus.instanceId);
      expect((await api.get(`/api/Terminal/${id}`)).json().connected).toBe(true);
      const rows = await shared.db
        .select({ eventId: entranceLogs.eventId })
        .from(entranceLogs)
        .where(
          inArray(
            entranceLogs.eventId,
            results.map((r) => r.eventId),
          ),
        );
      expect(rows).toHaveLength(results.length);
      expect(new Set(rows.map((r) => r.eventId)).size).toBe(results.length);
      expect(a.errors()).toEqual([]);
      // Within the stop's own time (decisions in flight ≤ 1 s) and the half-second jitter; the back-off is a minute.
      expect(movedMs).toBeLessThan(10_000);
    } finally {
      presenting = false;
      await tc.close();
      await b.stop();
    }
  });
});
