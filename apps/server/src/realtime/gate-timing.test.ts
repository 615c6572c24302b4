import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EntranceState } from '@venue/domain';
import { createTestApp, signedInAdmin, type TestContext } from '../../test/harness.js';
import * as factory from '../../test/factories.js';
import { TerminalClient } from '../../../terminal/src/client.js';
import { decisionTimes, recordDecisionTime } from './gate-timing.js';

/** The server's own decision times (realtime/gate-timing.ts; read by bench/many-terminals.bench.mjs). */

describe('decision times', () => {
  it('answers count and percentiles in milliseconds, and resets when asked', () => {
    decisionTimes(true);
    for (let i = 1; i <= 100; i++) recordDecisionTime(i);
    const t = decisionTimes(true);
    expect(t.count).toBe(100);
    // HDR histogram buckets: within 1 % of the recorded values.
    expect(t.p50).toBeGreaterThanOrEqual(49.5);
    expect(t.p50).toBeLessThanOrEqual(51);
    expect(t.p99).toBeGreaterThanOrEqual(98);
    expect(t.p99).toBeLessThanOrEqual(100.5);
    expect(t.max).toBeGreaterThanOrEqual(99.5);
    expect(decisionTimes()).toEqual({ count: 0, p50: 0, p99: 0, max: 0 });
  });
});

describe('decisions over a terminal link', () => {
  let ctx: TestContext;
  let tc: TerminalClient;
  let card: string;

  beforeAll(async () => {
    ctx = await createTestApp();
    const base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const admin = await signedInAdmin(ctx);
    const group = await factory.makeGroupWithSchedule(
      ctx,
      admin.club.id,
      { name: 'Open', entranceState: EntranceState.Closed },
      [{ entranceState: EntranceState.Opened }],
    );
    const client = await factory.makeClient(ctx, admin.club.id, { groupId: group.id, ...factory.SUBSCRIBED });
    card = client.cardSerial;
    await factory.makeTerminal(ctx, admin.club.id, { serial: 'GT-1', secret: 'gate-timing-secret' });
    tc = new TerminalClient({
      url: base,
      serial: 'GT-1',
      secret: 'gate-timing-secret',
      timeoutMs: 5000,
      heartbeat: false,
    });
    await tc.connect();
  });

  afterAll(async () => {
    await tc?.close().catch(() => undefined);
    await ctx?.close();
  });

  it('records one time per decision sent back, a refusal included', async () => {
    decisionTimes(true);
    const d = await tc.present({ kind: 'card', value: card });
    expect(d.status).toBe(1);
    await tc.present({ kind: 'card', value: 'no-such-card' });
    const t = decisionTimes(true);
    expect(t.count).toBe(2);
    expect(t.max).toBeGreaterThan(0);
    expect(t.max).toBeLessThan(5000);
  });
});
