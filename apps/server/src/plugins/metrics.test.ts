import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EntranceState } from '@venue/domain';
import { createTestApp, signedInAdmin, type TestContext } from '../../test/harness.js';
import * as factory from '../../test/factories.js';
import { parseScrape, sumOf, type Scrape } from '../../test/prometheus.js';
import { TerminalClient } from '../../../terminal/src/client.js';
import { startMetricsServer } from './metrics.js';
import { gateStatusLabel } from '../lib/metrics.js';

/**
 * `/metrics` (plugins/metrics.ts, lib/metrics.ts; docs/operations.md "Metrics"): never open by
 * default, behind its token on the public port or on a port of its own, and what it counts agrees
 * with what happened — every gate decision in the histogram and the status counter, HTTP requests
 * by route pattern, terminals connected, the pools.
 */

const TOKEN = 'metrics-token-for-tests-0123456789abcdef';

describe('/metrics is never open by default', () => {
  it('answers 404 on the public port without a token configured, even with a bearer', async () => {
    const ctx = await createTestApp();
    try {
      for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }]) {
        const res = await ctx.app.inject({ method: 'GET', url: '/metrics', headers });
        expect(res.statusCode).toBe(404);
        expect(res.body).not.toContain('venue_');
      }
    } finally {
      await ctx.close();
    }
  });
});

describe('/metrics during gate traffic', () => {
  let ctx: TestContext;
  let base: string;
  const terminals: TerminalClient[] = [];
  let cards: string[];
  let admin: Awaited<ReturnType<typeof signedInAdmin>>;

  const scrape = async (): Promise<Scrape> => {
    const res = await ctx.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    return parseScrape(res.body);
  };

  beforeAll(async () => {
    ctx = await createTestApp({ metricsToken: TOKEN });
    base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    admin = await signedInAdmin(ctx);
    const group = await factory.makeGroupWithSchedule(
      ctx,
      admin.club.id,
      { name: 'Open', entranceState: EntranceState.Closed },
      [{ entranceState: EntranceState.Opened }],
    );
    cards = [];
    for (let i = 0; i < 3; i++) {
      const c = await factory.makeClient(ctx, admin.club.id, { groupId: group.id, ...factory.SUBSCRIBED });
      cards.push(c.cardSerial);
    }
    for (let i = 1; i <= 3; i++) {
      await factory.makeTerminal(ctx, admin.club.id, { serial: `MT-${i}`, secret: `metrics-secret-${i}` });
      const tc = new TerminalClient({
        url: base,
        serial: `MT-${i}`,
        secret: `metrics-secret-${i}`,
        timeoutMs: 10_000,
        heartbeat: false,
      });
      await tc.connect();
      terminals.push(tc);
    }
  });

  afterAll(async () => {
    for (const t of terminals) await t.close().catch(() => undefined);
    await ctx?.close();
  });

  it('refuses a wrong token with 404, as if there were no such page', async () => {
    for (const authorization of ['Bearer wrong', `Bearer ${TOKEN}x`, `Basic ${TOKEN}`, TOKEN]) {
      const res = await ctx.app.inject({ method: 'GET', url: '/metrics', headers: { authorization } });
      expect(res.statusCode).toBe(404);
    }
  });

  it('counts every decision made, by outcome and status, while traffic runs and scrapes come', async () => {
    const before = await scrape();
    const count = (s: Scrape, outcome?: string) =>
      sumOf(s, 'venue_gate_decision_seconds_count', outcome ? { outcome } : {});
    const byStatus = new Map<number, number>();
    const mid: number[] = [];
    // Three terminals at once, members and strangers mixed, scraping while they present.
    const scraping = (async () => {
      for (let i = 0; i < 5; i++) {
        mid.push(count(await scrape()) - count(before));
        await new Promise((r) => setTimeout(r, 30));
      }
    })();
    await Promise.all(
      terminals.map(async (tc, t) => {
        for (let i = 0; i < 40; i++) {
          const member = (i + t) % 4 !== 0;
          const d = await tc.present({ kind: 'card', value: member ? cards[i % cards.length] : `stranger-${t}-${i}` });
          byStatus.set(d.status, (byStatus.get(d.status) ?? 0) + 1);
        }
      }),
    );
    await scraping;
    const after = await scrape();
    const made = [...byStatus.values()].reduce((a, b) => a + b, 0);
    const entries = byStatus.get(1) ?? 0;
    expect(made).toBe(120);
    expect(entries).toBeGreaterThan(0);
    expect(byStatus.get(8)).toBe(30); // the strangers: customer not found
    // The histogram's count is the decisions made, neither more nor fewer; each outcome apart.
    expect(count(after) - count(before)).toBe(made);
    expect(count(after, 'entry') - count(before, 'entry')).toBe(entries);
    expect(count(after, 'refused') - count(before, 'refused')).toBe(made - entries);
    expect(sumOf(after, 'venue_gate_decision_seconds_bucket', { le: '+Inf' })).toBe(count(after));
    // The status counter agrees, status by status.
    for (const [st, n] of byStatus) {
      const label = gateStatusLabel(st);
      const delta =
        sumOf(after, 'venue_gate_decisions_total', { status: label }) -
        sumOf(before, 'venue_gate_decisions_total', { status: label });
      expect(delta, label).toBe(n);
    }
    // The scrapes during traffic saw a count that only grows, never past the end.
    for (let i = 1; i < mid.length; i++) expect(mid[i]).toBeGreaterThanOrEqual(mid[i - 1]);
    expect(Math.max(...mid)).toBeLessThanOrEqual(made);
    expect(
      sumOf(after, 'venue_gate_decision_seconds_sum') - sumOf(before, 'venue_gate_decision_seconds_sum'),
    ).toBeGreaterThan(0);
  });

  it('shows the terminals connected, the pools and the database up', async () => {
    const s = await scrape();
    expect(sumOf(s, 'venue_terminals_connected')).toBe(3);
    expect(sumOf(s, 'venue_database_up')).toBe(1);
    const pools = s.samples.filter((x) => x.name === 'venue_db_pool_max').map((x) => x.labels.pool);
    expect(pools.length).toBeGreaterThan(0);
    expect(pools.every((p) => ['main', 'gate', 'replica', 'pglite'].includes(p))).toBe(true);
    for (const name of ['venue_db_pool_in_use', 'venue_db_pool_waiting', 'venue_db_pool_idle']) {
      expect(s.types.get(name)).toBe('gauge');
      expect(s.samples.some((x) => x.name === name)).toBe(true);
    }
    await terminals[2].close();
    await expect.poll(async () => sumOf(await scrape(), 'venue_terminals_connected')).toBe(2);
  });

  it('times HTTP requests by route pattern and status class, never by raw URL', async () => {
    const before = await scrape();
    const clientId = 987_654_321;
    const res = await admin.api.get(`/api/Client/${clientId}?search=secret-word`);
    expect(res.statusCode).toBe(404);
    await admin.api.get('/api/Client');
    const after = await scrape();
    const n = (s: Scrape, where: Record<string, string>) =>
      sumOf(s, 'venue_http_request_duration_seconds_count', where);
    expect(
      n(after, { route: '/api/Client/:id', method: 'GET', status: '4xx' }) -
        n(before, { route: '/api/Client/:id', method: 'GET', status: '4xx' }),
    ).toBe(1);
    expect(
      n(after, { route: '/api/Client', method: 'GET', status: '2xx' }) -
        n(before, { route: '/api/Client', method: 'GET', status: '2xx' }),
    ).toBe(1);
    const text = (
      await ctx.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })
    ).body;
    expect(text).not.toContain(String(clientId));
    expect(text).not.toContain('secret-word');
    // A path no route matches is one series, whatever the path.
    await ctx.app.inject({ method: 'GET', url: '/api/no-such-thing/12345' });
    expect(
      (await ctx.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).body,
    ).not.toContain('no-such-thing');
  });

  it('serves the same text on a port of its own, and only /metrics there', async () => {
    const server = await startMetricsServer(0, '127.0.0.1');
    try {
      const res = await fetch(`http://127.0.0.1:${server.port}/metrics`);
      expect(res.status).toBe(200);
      const s = parseScrape(await res.text());
      expect(s.types.get('venue_gate_decision_seconds')).toBe('histogram');
      expect((await fetch(`http://127.0.0.1:${server.port}/`)).status).toBe(404);
      expect((await fetch(`http://127.0.0.1:${server.port}/metrics`, { method: 'POST' })).status).toBe(404);
    } finally {
      await server.close();
    }
  });
});
