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
import type { ReportResult } from '@venue/domain';
import { at, MARCH, sum } from '../test-setup.js';

/** Value of an inventory {denomination in agorot: pieces}, computed here independently of the server. */
const value = (inv: Record<string, number>) => sum(Object.entries(inv).map(([d, n]) => Number(d) * n));

type Inv = Record<string, number>;
interface Term {
  key: string;
  name: string;
  deleted?: boolean;
  /** No terminal_cash row when absent (a terminal that never handled cash). */
  cash?: { coins: Inv; bills: Inv; cashBox: Inv; excessAmount: number; excessCount: number; lastResetAt: Date | null };
}
/** The fixed data set: terminals with their inventories now. */
const TERMS: Term[] = [
  {
    key: 'a',
    name: 'Gate A',
    cash: {
      coins: { 10: 25, 50: 10, 100: 40, 500: 12, 1000: 3 },
      bills: { 2000: 6, 5000: 2 },
      cashBox: { 2000: 4, 5000: 7, 10000: 3, 20000: 1 },
      excessAmount: 450,
      excessCount: 2,
      lastResetAt: at(3, 10),
    },
  },
  {
    key: 'b',
    name: 'Gate B',
    cash: { coins: { 200: 5 }, bills: {}, cashBox: { 20000: 2 }, excessAmount: 0, excessCount: 0, lastResetAt: null },
  },
  { key: 'c', name: 'Kiosk' },
  {
    key: 'd',
    name: 'Removed',
    deleted: true,
    cash: { coins: { 100: 1 }, bills: {}, cashBox: { 5000: 1 }, excessAmount: 0, excessCount: 0, lastResetAt: null },
  },
];
/** Cash sessions (what was inserted when). */
const SESSIONS = [
  { t: 'a', at: at(3, 3), inserted: 5000 },
  { t: 'a', at: at(3, 30), inserted: 2000 },
  { t: 'b', at: at(3, 31, 23), inserted: 10000 },
  { t: 'b', at: at(4, 1, 0), inserted: 777 }, // April
  { t: 'a', at: at(2, 28, 23), inserted: 333 }, // February
];

function expected() {
  return TERMS.filter((t) => !t.deleted).map((t) => {
    const c = t.cash;
    const coins = c ? value(c.coins) : 0;
    const bills = c ? value(c.bills) : 0;
    const cashBox = c ? value(c.cashBox) : 0;
    const excess = c?.excessAmount ?? 0;
    return {
      name: t.name,
      coins,
      bills,
      cashBox,
      excess,
      excessCount: c?.excessCount ?? 0,
      cashTotal: coins + bills + cashBox + excess,
      inserted: sum(
        SESSIONS.filter((s) => s.t === t.key && s.at >= at(3, 1, 0) && s.at < at(4, 1, 0)).map((s) => s.inserted),
      ),
      lastResetAt: c?.lastResetAt?.toISOString() ?? null,
    };
  });
}

describe('cash status report (POST /Report/GetCashStatusReport)', () => {
  let ctx: TestContext;
  let api: Api;
  let clubId: number;
  let externalClubId: number;
  const tid: Record<string, number> = {};

  beforeAll(async () => {
    ctx = await createTestApp();
    const a = await signedInAdmin(ctx);
    api = a.api;
    clubId = a.club.id;
    externalClubId = a.club.externalClubId;
    for (const t of TERMS) {
      const row = await factory.makeTerminal(ctx, clubId, {
        serial: `CS-${clubId}-${t.key}`,
        name: t.name,
        secretHash: 'x',
        approved: false,
        deleted: t.deleted ?? false,
      });
      tid[t.key] = row.id;
      if (t.cash) await factory.makeTerminalCash(ctx, row, t.cash);
    }
    for (const [i, s] of SESSIONS.entries())
      await factory.makeCashSession(
        ctx,
        { id: tid[s.t], clubId },
        {
          sessionId: `cs${i}`,
          inserted: s.inserted,
          startedAt: s.at,
          updatedAt: s.at,
        },
      );
    // Another club's terminal with cash, and a session of that club recorded under our terminal's id.
    const other = await signedInAdmin(ctx);
    const ot = await factory.makeTerminal(ctx, other.club.id, {
      serial: `CS-${other.club.id}`,
      name: 'Other gate',
      secretHash: 'x',
      approved: false,
    });
    await factory.makeTerminalCash(ctx, ot, { cashBox: { 20000: 50 } });
    await factory.makeCashSession(
      ctx,
      { id: tid.a, clubId: other.club.id },
      {
        sessionId: 'other',
        inserted: 99999,
        startedAt: at(3, 5),
      },
    );
  });
  afterAll(async () => ctx.close());

  const report = async (body: object, a: Api = api) => {
    const res = await a.post('/api/Report/GetCashStatusReport', body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as ReportResult;
  };

  it('one row per terminal (not deleted) with its inventories now and the cash inserted in the period', async () => {
    const rows = expected();
    const body = await report(MARCH);
    expect(body.total).toBe(rows.length);
    expect(body.totals).toEqual({
      terminals: rows.length,
      coins: sum(rows.map((r) => r.coins)),
      bills: sum(rows.map((r) => r.bills)),
      cashBoxTotal: sum(rows.map((r) => r.cashBox)),
      excessAmount: sum(rows.map((r) => r.excess)),
      excessCount: sum(rows.map((r) => r.excessCount)),
      cashTotal: sum(rows.map((r) => r.cashTotal)),
      insertedInPeriod: sum(rows.map((r) => r.inserted)),
    });
    // By terminal name, ascending.
    const byName = [...rows].sort((x, y) => x.name.localeCompare(y.name));
    expect(
      body.items.map((r) => [
        r.terminalName,
        r.coins,
        r.bills,
        r.cashBoxTotal,
        r.excessAmount,
        r.excessCount,
        r.cashTotal,
        r.insertedInPeriod,
        r.lastResetAt,
      ]),
    ).toEqual(
      byName.map((r) => [
        r.name,
        r.coins,
        r.bills,
        r.cashBox,
        r.excess,
        r.excessCount,
        r.cashTotal,
        r.inserted,
        r.lastResetAt,
      ]),
    );
  });

  it('the period limits only the inserted cash; filters by terminal; sorts by cash box', async () => {
    const april = await report({ period: 'range', from: '2025-04-01', to: '2025-04-30' });
    expect(april.total).toBe(expected().length);
    expect(april.totals.insertedInPeriod).toBe(777);
    expect(april.totals.cashTotal).toBe(sum(expected().map((r) => r.cashTotal)));
    const one = await report({ ...MARCH, terminalId: tid.a });
    expect(one.items).toHaveLength(1);
    expect(one.items[0].cashTotal).toBe(expected().find((r) => r.name === 'Gate A')!.cashTotal);
    const sorted = await report({ ...MARCH, sort: 'cashBoxTotal', order: 'desc' });
    expect(sorted.items.map((r) => r.cashBoxTotal)).toEqual(
      expected()
        .map((r) => r.cashBox)
        .sort((x, y) => y - x),
    );
  });

  it('exports .xlsx in Hebrew with a totals row', async () => {
    const res = await api.post('/api/Report/GetCashStatusReport/Export', { ...MARCH, lang: 'he' });
    expect(res.statusCode).toBe(200);
    const rows = await readXlsx(res.rawPayload);
    expect(rows[0]).toEqual(expect.arrayContaining(['עמדה', 'מטבעות (עודף)', 'שטרות (עודף)']));
    // Header, the rows, then the totals row (a summary of totals and breakdowns follows it: docs/reports.md).
    expect(rows[1 + expected().length]).toContain(sum(expected().map((r) => r.cashTotal)) / 100);
  });

  it('needs roleCashReport (403); another club sees only its own terminals', async () => {
    const user = await makeUser(ctx, clubId, { permissions: { roleProductsReport: true } });
    const plain = new Api(ctx.app);
    await plain.login(user.username, TEST_PASSWORD, externalClubId);
    expect((await plain.post('/api/Report/GetCashStatusReport', MARCH)).statusCode).toBe(403);
    const cashier = await makeUser(ctx, clubId, { permissions: { roleCashReport: true } });
    const ok = new Api(ctx.app);
    await ok.login(cashier.username, TEST_PASSWORD, externalClubId);
    expect((await report(MARCH, ok)).total).toBe(expected().length);
    const stranger = await signedInAdmin(ctx);
    const theirs = await report({ ...MARCH, terminalId: tid.a }, stranger.api);
    expect(theirs.total).toBe(0);
  });
});
