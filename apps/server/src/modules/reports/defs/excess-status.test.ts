import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Api,
  createTestApp,
  makeUser,
  signedInAdmin,
  TEST_PASSWORD,
  type TestContext,
} from '../../../../test/harness.js';
import { readXlsx } from '../../../../test/upload.js';
import * as factory from '../../../../test/factories.js';
import { at, makeSaraAndAvi, MARCH, sum } from '../test-setup.js';
import type { ReportResult } from '@venue/domain';

type T = 't1' | 't2';
/** Cash sessions of the fixed data set (agorot); settled one minute after they began. */
const SESSIONS: { at: Date; t: T; c: 'c1' | 'c2' | null; due: number; inserted: number; excess: number }[] = [
  { at: at(3, 2), t: 't1', c: 'c1', due: 1000, inserted: 20000, excess: 300 },
  { at: at(3, 12), t: 't1', c: 'c2', due: 1500, inserted: 10000, excess: 200 },
  { at: at(3, 15), t: 't2', c: 'c1', due: 500, inserted: 5000, excess: 500 },
  { at: at(3, 31, 22), t: 't1', c: null, due: 1000, inserted: 20000, excess: 700 },
  { at: at(3, 20), t: 't1', c: 'c1', due: 1000, inserted: 2000, excess: 0 }, // no excess: not listed
  { at: at(4, 1, 1), t: 't1', c: 'c1', due: 1000, inserted: 20000, excess: 100 }, // April
  { at: at(2, 28), t: 't2', c: 'c2', due: 1000, inserted: 20000, excess: 100 }, // February
];
/** Emptyings of the cash box (CreateResetCashLevels). */
const RESETS: { at: Date; t: T }[] = [
  { at: at(3, 1), t: 't2' },
  { at: at(3, 10), t: 't1' },
  { at: at(3, 31), t: 't1' },
];
const settled = (d: Date) => new Date(d.getTime() + 60_000);

/** Expected rows of March, computed from the arrays: the first emptying of the same terminal after the session settled. */
function expected() {
  return SESSIONS.filter((s) => s.excess > 0 && s.at >= at(3, 1, 0) && s.at < at(4, 1, 0)).map((s) => {
    const after = RESETS.filter((r) => r.t === s.t && r.at >= settled(s.at)).map((r) => r.at.getTime());
    const collectedAt = after.length ? new Date(Math.min(...after)).toISOString() : null;
    return { ...s, collectedAt, state: collectedAt ? 2 : 1 };
  });
}

describe('excess status report (POST /Report/GetExcessStatusReport)', () => {
  let ctx: TestContext;
  let api: Api;
  let clubId: number;
  let externalClubId: number;
  const ids = {} as Record<'c1' | 'c2' | T, number>;

  beforeAll(async () => {
    ctx = await createTestApp();
    const a = await signedInAdmin(ctx, { capacities: [{ name: 'pool', capacity: 40 }] });
    api = a.api;
    clubId = a.club.id;
    externalClubId = a.club.externalClubId;
    const { c1, c2 } = await makeSaraAndAvi(ctx, clubId);
    const t1 = await factory.makeTerminal(ctx, clubId, { serial: `EX-${clubId}-1`, name: 'Gate A', secretHash: 'x' });
    const t2 = await factory.makeTerminal(ctx, clubId, { serial: `EX-${clubId}-2`, name: 'Gate B', secretHash: 'x' });
    Object.assign(ids, { c1: c1.id, c2: c2.id, t1: t1.id, t2: t2.id });
    for (const [i, s] of SESSIONS.entries())
      await factory.makeCashSession(
        ctx,
        { id: ids[s.t], clubId },
        {
          sessionId: `ex${i}`,
          clientId: s.c ? ids[s.c] : null,
          amountDue: s.due,
          inserted: s.inserted,
          credited: s.due,
          changeDue: s.inserted - s.due,
          excess: s.excess,
          startedAt: s.at,
          updatedAt: settled(s.at),
        },
      );
    for (const r of RESETS) await factory.makeCashReset(ctx, { id: ids[r.t], clubId }, { at: r.at });
    // Another club: its own excess in March, and an emptying recorded under our terminal's id
    // (must neither show nor mark our sessions collected).
    const other = await signedInAdmin(ctx, { capacities: [{ name: 'pool', capacity: 40 }] });
    const ot = await factory.makeTerminal(ctx, other.club.id, {
      serial: `EX-${other.club.id}-1`,
      name: 'Other',
      secretHash: 'x',
      approved: false,
    });
    await factory.makeCashSession(ctx, ot, {
      sessionId: 'o1',
      inserted: 20000,
      excess: 999,
      startedAt: at(3, 5),
      updatedAt: settled(at(3, 5)),
    });
    await factory.makeCashReset(ctx, { id: ids.t2, clubId: other.club.id }, { at: at(3, 30) });
  });
  afterAll(async () => ctx.close());

  const report = async (body: object, a: Api = api) => {
    const res = await a.post('/api/Report/GetExcessStatusReport', body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as ReportResult;
  };

  it('lists the sessions that kept an excess, with its state and when it was collected; totals and per state', async () => {
    const rows = expected();
    const body = await report(MARCH);
    expect(body.total).toBe(rows.length);
    const inBox = rows.filter((r) => r.state === 1);
    const collected = rows.filter((r) => r.state === 2);
    expect(body.totals).toEqual({
      count: rows.length,
      excess: sum(rows.map((r) => r.excess)),
      inBox: sum(inBox.map((r) => r.excess)),
      collected: sum(collected.map((r) => r.excess)),
      byState: { '1': sum(inBox.map((r) => r.excess)), '2': sum(collected.map((r) => r.excess)) },
    });
    // Newest first.
    const newest = [...rows].sort((a, b) => b.at.getTime() - a.at.getTime());
    expect(
      body.items.map((r) => [r.at, r.terminalName, r.clientId, r.inserted, r.excess, r.excessState, r.collectedAt]),
    ).toEqual(
      newest.map((r) => [
        r.at.toISOString(),
        r.t === 't1' ? 'Gate A' : 'Gate B',
        r.c ? ids[r.c] : null,
        r.inserted,
        r.excess,
        r.state,
        r.collectedAt,
      ]),
    );
    // The data set has both states.
    expect(inBox.length).toBeGreaterThan(0);
    expect(collected.length).toBeGreaterThan(0);
  });

  it('filters by state, terminal and client; sorts by excess', async () => {
    const rows = expected();
    const still = await report({ ...MARCH, status: [1] });
    expect(still.items.map((r) => r.excess)).toEqual(
      rows
        .filter((r) => r.state === 1)
        .sort((a, b) => b.at.getTime() - a.at.getTime())
        .map((r) => r.excess),
    );
    const gone = await report({ ...MARCH, status: [2] });
    expect(gone.totals.excess).toBe(sum(rows.filter((r) => r.state === 2).map((r) => r.excess)));
    const t2 = await report({ ...MARCH, terminalId: ids.t2 });
    expect(t2.total).toBe(rows.filter((r) => r.t === 't2').length);
    const c1 = await report({ ...MARCH, clientId: ids.c1 });
    expect(c1.totals.excess).toBe(sum(rows.filter((r) => r.c === 'c1').map((r) => r.excess)));
    const sorted = await report({ ...MARCH, sort: 'excess', order: 'asc' });
    expect(sorted.items.map((r) => r.excess)).toEqual(rows.map((r) => r.excess).sort((a, b) => a - b));
  });

  it('exports .xlsx with the state as a label', async () => {
    const res = await api.post('/api/Report/GetExcessStatusReport/Export', { ...MARCH, lang: 'en' });
    expect(res.statusCode).toBe(200);
    const rows = await readXlsx(res.rawPayload);
    expect(rows[0]).toEqual(expect.arrayContaining(['Excess state', 'Collected at']));
    expect(rows.flat()).toContain('In the excess box');
    expect(rows.flat()).toContain('Collected');
    expect(rows[1 + expected().length][0]).toBe('Totals');
    const he = await readXlsx(
      (await api.post('/api/Report/GetExcessStatusReport/Export', { ...MARCH, lang: 'he' })).rawPayload,
    );
    expect(he.flat()).toContain('נאסף');
  });

  it('needs no flag beyond sign-in (seed 000 §6 names none); 401 without a token; another club sees only its own', async () => {
    const user = await makeUser(ctx, clubId, { permissions: {} });
    const plain = new Api(ctx.app);
    await plain.login(user.username, TEST_PASSWORD, externalClubId);
    expect((await report(MARCH, plain)).total).toBe(expected().length);
    expect((await new Api(ctx.app).post('/api/Report/GetExcessStatusReport', MARCH)).statusCode).toBe(401);
    const stranger = await signedInAdmin(ctx, { capacities: [{ name: 'pool', capacity: 40 }] });
    expect((await report({ ...MARCH, terminalId: ids.t1 }, stranger.api)).total).toBe(0);
    // Seed 000 §6: shown only where a club capacity is above 0; the server refuses it elsewhere.
    const none = await signedInAdmin(ctx);
    expect((await none.api.post('/api/Report/GetExcessStatusReport', MARCH)).statusCode).toBe(403);
  });
});
