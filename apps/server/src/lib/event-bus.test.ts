import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, TEST_DB } from '../../test/harness.js';
import { PgEventBus, type LiveEvents } from './event-bus.js';

/**
 * PgEventBus batching (docs/gate-benchmark.md): events published in one tick
 * travel in as few NOTIFYs as fit under PostgreSQL's 8000-byte payload limit,
 * arrive at the other instance complete and in order, and are not emitted
 * twice on the publishing instance. Runs only on PostgreSQL (LISTEN/NOTIFY).
 */
const onPostgres = TEST_DB === 'postgres';

let shared: Awaited<ReturnType<typeof openTestDatabase>>;
let a: PgEventBus;
let b: PgEventBus;
const dropped: string[] = [];

beforeAll(async () => {
  if (!onPostgres) return;
  shared = await openTestDatabase();
  a = new PgEventBus(shared.url!, (reason) => dropped.push(reason));
  b = new PgEventBus(shared.url!);
  await a.start();
  await b.start();
});
afterAll(async () => {
  if (!onPostgres) return;
  await a?.close();
  await b?.close();
  await shared?.dropAll();
});

const until = async (cond: () => boolean, ms = 5000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe.skipIf(!onPostgres)('PgEventBus on PostgreSQL (skipped on PGlite: no LISTEN/NOTIFY between instances)', () => {
  it('delivers a burst of events in order across instances, once each, split under the payload limit', async () => {
    const atA: LiveEvents['entrance'][] = [];
    const atB: LiveEvents['entrance'][] = [];
    const offA = a.subscribe('entrance', (e) => atA.push(e));
    const offB = b.subscribe('entrance', (e) => atB.push(e));
    // 300 rows of ~250 bytes: about 75 KB, ten times what one NOTIFY may carry.
    for (let i = 0; i < 300; i++) {
      a.publish('entrance', { clubId: 7, row: { id: i, clientName: `לקוח ${i} ${'x'.repeat(200)}` } });
    }
    await until(() => atB.length >= 300);
    await new Promise((r) => setTimeout(r, 100));
    expect(atB.map((e) => (e.row as { id: number }).id)).toEqual(Array.from({ length: 300 }, (_, i) => i));
    expect(atB[5]).toEqual({ clubId: 7, row: { id: 5, clientName: `לקוח 5 ${'x'.repeat(200)}` } });
    // The publisher emitted each event locally once and skipped its own notifications.
    expect(atA).toHaveLength(300);
    offA();
    offB();
  });

  it('keeps an event too large for NOTIFY local and reports it', async () => {
    const atA: unknown[] = [];
    const atB: unknown[] = [];
    const offA = a.subscribe('entrance', (e) => atA.push(e));
    const offB = b.subscribe('entrance', (e) => atB.push(e));
    a.publish('entrance', { clubId: 7, row: { big: 'y'.repeat(9000) } });
    a.publish('entrance', { clubId: 7, row: { small: true } });
    await until(() => atB.length >= 1);
    await new Promise((r) => setTimeout(r, 100));
    expect(atA).toHaveLength(2);
    expect(atB).toEqual([{ clubId: 7, row: { small: true } }]);
    expect(dropped).toEqual(['entrance event too large for NOTIFY']);
    offA();
    offB();
  });
});
