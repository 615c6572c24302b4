import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import { EntranceState } from '@venue/domain';
import { createTestApp, signedInAdmin, type TestContext } from '../../test/harness.js';
import { eq, sql } from 'drizzle-orm';
import * as factory from '../../test/factories.js';
import { entranceLogs } from '../db/schema.js';
import { runInteractive } from '../../../terminal/src/interactive.js';
import { runTraffic } from '../../../terminal/src/traffic.js';

/** The simulator's interactive and traffic modes against the real server. */

let ctx: TestContext;
let base: string;
beforeAll(async () => {
  ctx = await createTestApp();
  base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => ctx?.close());

async function setup() {
  const { api, club } = await signedInAdmin(ctx);
  const g = await factory.makeGroupWithSchedule(ctx, club.id, { name: 'G' }, [
    { entranceState: EntranceState.FreeOpen },
  ]);
  for (let i = 1; i <= 5; i++) {
    await factory.makeClient(ctx, club.id, {
      number: i,
      firstName: `Sim${i}`,
      lastName: '',
      groupId: g.id,
      cardSerial: `SIM-${club.id}-${i}`,
    });
  }
  const terminals = [];
  for (let i = 0; i < 3; i++) {
    const t = (
      await api.post('/api/Terminal', { serial: `SIM-${club.id}-T${i}`, name: `Sim gate ${i}`, isCash: true })
    ).json();
    await api.patch(`/api/Terminal/${t.id}`, { approved: true });
    terminals.push(t);
  }
  return { api, club, terminals };
}

describe('simulator modes', () => {
  it('interactive: presents a card, pays in cash with change and shows the display', async () => {
    const { api, club, terminals } = await setup();
    await api.post(`/api/Terminal/LoadCash/${terminals[0].id}`, { coins: { 500: 4 } });
    const input = new PassThrough();
    const output = new PassThrough();
    let text = '';
    output.on('data', (d) => (text += d.toString()));
    const run = runInteractive({ url: base, serial: terminals[0].serial, secret: terminals[0].secret, input, output });
    const card = `SIM-${club.id}-1`;
    for (const line of [`card ${card}`, `pay card ${card} 30`, 'bill 50', 'done', 'card nobody', 'bogus', 'quit']) {
      input.write(`${line}\n`);
    }
    input.end();
    expect(await run).toBe(0);
    expect(text).toContain('WELCOME Sim1');
    expect(text).toContain('cash startPayout: inserted 50.00 ₪, due 30.00 ₪, change 20.00 ₪');
    expect(text).toContain('cash closed');
    expect(text).toContain('REFUSED');
    expect(text).toContain('unknown command: bogus');
  });

  it('traffic: several terminals at a rate, every decision counted with latency percentiles', async () => {
    const { club, terminals } = await setup();
    const r = await runTraffic({
      url: base,
      terminals: terminals.map((t) => ({ serial: t.serial, secret: t.secret })),
      identifications: [1, 2, 3, 4, 5].map((i) => ({ kind: 'card' as const, value: `SIM-${club.id}-${i}` })),
      rate: 10,
      durationSeconds: 2,
    });
    expect(r.terminals).toBe(3);
    expect(r.errors).toBe(0);
    // No timed expectation (the machine is shared): the count must be positive and
    // every decision the terminals received must be one log row on the server.
    expect(r.decisions).toBeGreaterThan(0);
    expect(Object.values(r.byStatus).reduce((a, b) => a + b, 0)).toBe(r.decisions);
    const [{ n }] = await ctx.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(entranceLogs)
      .where(eq(entranceLogs.clubId, club.id));
    expect(n).toBeGreaterThanOrEqual(r.decisions);
    expect(r.latencyMs.p50).toBeGreaterThan(0);
    expect(r.latencyMs.p99).toBeGreaterThanOrEqual(r.latencyMs.p50);
  });
});
