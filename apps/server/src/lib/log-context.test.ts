import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EntranceState } from '@venue/domain';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { EventBus } from './event-bus.js';
import { gatePoolOf } from '../db/index.js';
import { openTestDatabase, signedInAdmin, TEST_PASSWORD, type TestContext } from '../../test/harness.js';
import * as factory from '../../test/factories.js';
import { parseScrape, sumOf } from '../../test/prometheus.js';
import { TerminalClient } from '../../../terminal/src/client.js';

/**
 * Every log line says whose it is (docs/operations.md "Logs"): a request's lines carry its id
 * (the caller's X-Request-Id when it is a plain token, answered back), and from sign-in on the
 * club and the user; a terminal link's lines carry the terminal and its club. Secrets stay out.
 */
describe('log lines carry the request or terminal, and the club', () => {
  let ctx: TestContext;
  const lines: Record<string, unknown>[] = [];
  const TOKEN = 'metrics-token-for-log-tests-0123456789abcdef';

  beforeAll(async () => {
    const database = await openTestDatabase();
    const logStream = new PassThrough();
    let rest = '';
    logStream.on('data', (d: Buffer) => {
      rest += d.toString('utf8');
      const parts = rest.split('\n');
      rest = parts.pop() ?? '';
      for (const p of parts) if (p.trim()) lines.push(JSON.parse(p) as Record<string, unknown>);
    });
    const bus = new EventBus();
    const config = { ...loadConfig({}), logLevel: 'info', loginRateLimit: 1000, metricsToken: TOKEN };
    const app = await buildApp({ config, database, bus, logStream });
    await app.ready();
    ctx = {
      app,
      database,
      bus,
      close: async () => {
        await app.close();
        await database.dropAll();
      },
    };
  });
  afterAll(async () => ctx?.close());

  const settle = () => new Promise((r) => setTimeout(r, 50));

  it("answers the request's id, keeps a caller's plain one, and replaces one that is not", async () => {
    const a = await ctx.app.inject({ url: '/api/health' });
    expect(a.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const b = await ctx.app.inject({ url: '/api/health', headers: { 'x-request-id': 'lb-7f3a.2' } });
    expect(b.headers['x-request-id']).toBe('lb-7f3a.2');
    const c = await ctx.app.inject({ url: '/api/health', headers: { 'x-request-id': 'evil\u2028"} {"x' } });
    expect(c.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    await settle();
    expect(lines.some((l) => l.reqId === 'lb-7f3a.2')).toBe(true);
  });

  it("names the club and the user on a signed-in request's lines, and every line its request", async () => {
    const admin = await signedInAdmin(ctx);
    const res = await admin.api.request('GET', '/api/Client', undefined, { 'x-request-id': 'console-call-1' });
    expect(res.statusCode).toBe(200);
    await settle();
    const mine = lines.filter((l) => l.reqId === 'console-call-1');
    expect(mine.length).toBeGreaterThanOrEqual(2);
    // The request's completion is logged after sign-in: it names the club and the user.
    const done = mine.find((l) => l.msg === 'request completed');
    expect(done).toMatchObject({ clubId: admin.club.id, userId: admin.user.id });
    const log = lines.map((l) => JSON.stringify(l)).join('\n');
    expect(log).not.toContain(admin.api.token!);
    expect(log).not.toContain(TEST_PASSWORD);
    // Every line of a request has its id; lines without one are the process's own (start, jobs).
    for (const l of lines.filter((x) => x.req || x.res)) expect(l.reqId).toBeTruthy();
  });

  it("names the terminal and its club on a link's lines, and counts the gate's database faults", async () => {
    const base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const admin = await signedInAdmin(ctx);
    const group = await factory.makeGroupWithSchedule(
      ctx,
      admin.club.id,
      { name: 'Open', entranceState: EntranceState.Closed },
      [{ entranceState: EntranceState.Opened }],
    );
    const member = await factory.makeClient(ctx, admin.club.id, { groupId: group.id, ...factory.SUBSCRIBED });
    const terminal = await factory.makeTerminal(ctx, admin.club.id, { serial: 'LOG-1', secret: 'log-secret-1' });
    const tc = new TerminalClient({ url: base, serial: 'LOG-1', secret: 'log-secret-1', timeoutMs: 5000 });
    await tc.connect();
    const scrape = async () =>
      parseScrape((await ctx.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).body);
    const before = await scrape();
    // The database stops answering the gate's statements (connection terminated, SQLSTATE 57P01): every
    // way in refuses — a statement (PGlite, a pg pool's query) and a pooled connection (pg's connect).
    // On PostgreSQL the gate has a pool of its own (db/index.ts gatePoolOf).
    type Way = (...a: unknown[]) => Promise<unknown>;
    type Client = Record<string, Way | undefined>;
    const client = (ctx.database.db as unknown as { $client: Client }).$client;
    const pools = [client, gatePoolOf(ctx.database.db) as Client | undefined].filter((x) => x != null);
    const ways = pools.flatMap((c) =>
      ['query', 'connect', 'transaction'].filter((k) => typeof c[k] === 'function').map((k) => [c, k] as const),
    );
    const saved = ways.map(([c, k]) => [c, k, c[k]] as const);
    for (const [c, k] of ways)
      c[k] = () =>
        Promise.reject(
          Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
        );
    try {
      const d = await tc.present({ kind: 'card', value: member.cardSerial });
      expect(d.offline).toBe(true);
    } finally {
      for (const [c, k, f] of saved) c[k] = f;
    }
    await tc.close();
    await settle();
    const gateLine = lines.find((l) => l.msg === 'database unavailable: terminal decides offline');
    expect(gateLine).toMatchObject({ terminalId: terminal.id, clubId: admin.club.id });
    expect(gateLine?.reqId).toBeTruthy();
    const after = await scrape();
    const delta = (name: string, where: Record<string, string>) =>
      sumOf(after, name, where) - sumOf(before, name, where);
    expect(delta('venue_database_unavailable_total', { path: 'gate' })).toBe(1);
    expect(delta('venue_gate_decision_seconds_count', { outcome: 'offline' })).toBe(1);
    expect(delta('venue_gate_decisions_total', { status: 'offline' })).toBe(1);
  });
});
