import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, createTestApp, makeUser, signedInAdmin, TEST_PASSWORD, type TestContext } from '../../../test/harness.js';
import { readXlsx } from '../../../test/upload.js';
import * as factory from '../../../test/factories.js';
import { at, makeSaraAndAvi, MARCH, sum } from './test-setup.js';
import type { ReportResult } from '@venue/domain';

/** Cash sessions of the fixed data set (agorot). */
const SESSIONS = [
  {
    mo: 3,
    d: 2,
    t: 't1',
    c: 'c1',
    state: 'closed',
    due: 1500,
    inserted: 2000,
    credited: 0,
    change: 500,
    unpaid: 0,
    excess: 0,
  },
  {
    mo: 3,
    d: 9,
    t: 't2',
    c: 'c2',
    state: 'closed',
    due: 1500,
    inserted: 1700,
    credited: 0,
    change: 200,
    unpaid: 200,
    excess: 0,
  },
  {
    mo: 3,
    d: 20,
    t: 't1',
    c: null,
    state: 'closed',
    due: null,
    inserted: 5000,
    credited: 5000,
    change: 0,
    unpaid: 0,
    excess: 30,
  },
  {
    mo: 4,
    d: 1,
    t: 't1',
    c: 'c1',
    state: 'closed',
    due: 100,
    inserted: 100,
    credited: 0,
    change: 0,
    unpaid: 0,
    excess: 0,
  },
] as const;
const RESETS = [
  { mo: 3, d: 10, t: 't1', total: 123400, excessAmount: 50, excessCount: 1 },
  { mo: 3, d: 25, t: 't2', total: 8800, excessAmount: 0, excessCount: 0 },
  { mo: 3, d: 31, t: 't1', total: 1000, excessAmount: 130, excessCount: 3 },
  { mo: 2, d: 27, t: 't1', total: 999, excessAmount: 0, excessCount: 0 },
] as const;
const RENEWALS = [
  { mo: 3, d: 1, c: 'c1', success: true, amount: 11800, error: null },
  { mo: 3, d: 1, c: 'c2', success: false, amount: 11800, error: 'CARD_DECLINED' },
  { mo: 3, d: 31, c: 'c2', success: true, amount: 9000, error: null },
  { mo: 4, d: 1, c: 'c1', success: true, amount: 11800, error: null },
] as const;

describe('cash transactions, cash management and automatic renewal reports', () => {
  let ctx: TestContext;
  let api: Api;
  let clubId: number;
  let externalClubId: number;
  const ids = {} as Record<'c1' | 'c2' | 't1' | 't2', number>;

  beforeAll(async () => {
    ctx = await createTestApp();
    const a = await signedInAdmin(ctx);
    api = a.api;
    clubId = a.club.id;
    externalClubId = a.club.externalClubId;
    const { c1, c2 } = await makeSaraAndAvi(ctx, clubId);
    const t1 = await factory.makeTerminal(ctx, clubId, { serial: `C-${clubId}-1`, name: 'Gate A', secretHash: 'x' });
    const t2 = await factory.makeTerminal(ctx, clubId, { serial: `C-${clubId}-2`, name: 'Gate B', secretHash: 'x' });
    Object.assign(ids, { c1: c1.id, c2: c2.id, t1: t1.id, t2: t2.id });
    const other = await signedInAdmin(ctx);
    // Rows of another club at a terminal that does not exist (and, for the renewal, with this club's client id).
    const foreignTerminal = { id: 999999, clubId: other.club.id };

    for (const [i, s] of SESSIONS.entries())
      await factory.makeCashSession(
        ctx,
        { id: ids[s.t], clubId },
        {
          sessionId: `s${i}`,
          clientId: s.c ? ids[s.c] : null,
          state: s.state,
          amountDue: s.due,
          inserted: s.inserted,
          credited: s.credited,
          changeDue: s.change,
          unpaid: s.unpaid,
          excess: s.excess,
          startedAt: at(s.mo, s.d),
        },
      );
    await factory.makeCashSession(ctx, foreignTerminal, { sessionId: 'x', inserted: 777, startedAt: at(3, 5) });
    for (const r of RESETS)
      await factory.makeCashReset(
        ctx,
        { id: ids[r.t], clubId },
        {
          userId: a.user.id,
          at: at(r.mo, r.d),
          cashBoxTotal: r.total,
          excessAmount: r.excessAmount,
          excessCount: r.excessCount,
        },
      );
    await factory.makeCashReset(ctx, foreignTerminal, { at: at(3, 5), cashBoxTotal: 5555 });
    for (const r of RENEWALS)
      await factory.makeAutoRenewLog(
        ctx,
        { id: ids[r.c], clubId },
        {
          at: at(r.mo, r.d, 3),
          success: r.success,
          amount: r.amount,
          error: r.error,
          startDate: r.success ? '2025-03-01' : null,
          endDate: r.success ? '2025-03-31' : null,
        },
      );
    await factory.makeAutoRenewLog(ctx, { id: c1.id, clubId: other.club.id }, { at: at(3, 5), amount: 4444 });
  });
  afterAll(async () => ctx.close());

  const report = async (call: string, body: object) => {
    const res = await api.post(`/api/Report/${call}`, body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as ReportResult;
  };

  it('cash transactions: sessions of the period with inserted, credited, change, unpaid and excess totals', async () => {
    const march = SESSIONS.filter((s) => s.mo === 3);
    const body = await report('getCashTransactions', MARCH);
    expect(body.totals).toEqual({
      count: march.length,
      inserted: sum(march.map((s) => s.inserted)),
      credited: sum(march.map((s) => s.credited)),
      changeDue: sum(march.map((s) => s.change)),
      unpaid: sum(march.map((s) => s.unpaid)),
      excess: sum(march.map((s) => s.excess)),
    });
    expect(body.items[0]).toMatchObject({ terminalName: 'Gate A', clientName: null, inserted: 5000, credited: 5000 });
    expect(body.items[1]).toMatchObject({ terminalName: 'Gate B', clientName: 'Avi Cohen', unpaid: 200 });
    const en = await readXlsx(
      (await api.post('/api/Report/getCashTransactions/Export', { ...MARCH, lang: 'en', order: 'asc' })).rawPayload,
    );
    expect(en[0].slice(1, 5)).toEqual(['Terminal', 'Client no.', 'Client', 'State']);
    expect(en[1].slice(1, 5)).toEqual(['Gate A', 1, 'Sara Zilber', 'Completed']);
    const t1 = await report('getCashTransactions', { ...MARCH, terminalId: ids.t1 });
    expect(t1.totals.inserted).toBe(sum(march.filter((s) => s.t === 't1').map((s) => s.inserted)));
  });

  it('payout errors: only sessions whose change was not paid out', async () => {
    const body = await report('GetPayoutErrorPurchases', MARCH);
    const march = SESSIONS.filter((s) => s.mo === 3 && s.unpaid > 0);
    expect(body.totals).toEqual({
      count: march.length,
      inserted: sum(march.map((s) => s.inserted)),
      unpaid: sum(march.map((s) => s.unpaid)),
    });
    expect(body.items[0]).toMatchObject({ terminalName: 'Gate B', clientName: 'Avi Cohen', unpaid: 200 });
  });

  it('cash management: box resets of the period, totals and per terminal', async () => {
    const march = RESETS.filter((r) => r.mo === 3);
    const body = await report('getResetCashLevels', MARCH);
    expect(body.totals).toEqual({
      count: 3,
      cashBoxTotal: sum(march.map((r) => r.total)),
      excessAmount: sum(march.map((r) => r.excessAmount)),
      excessCount: sum(march.map((r) => r.excessCount)),
      byTerminal: {
        'Gate A': sum(march.filter((r) => r.t === 't1').map((r) => r.total)),
        'Gate B': 8800,
      },
    });
    expect(body.items.map((r) => r.cashBoxTotal)).toEqual([1000, 8800, 123400]);
    expect(body.items[0]).toMatchObject({ userName: 'Test user', terminalName: 'Gate A' });
    const sorted = await report('getResetCashLevels', { ...MARCH, sort: 'cashBoxTotal', order: 'asc' });
    expect(sorted.items.map((r) => r.cashBoxTotal)).toEqual([1000, 8800, 123400]);
  });

  it('automatic renewal history: attempts with success and error; amount of successes', async () => {
    const march = RENEWALS.filter((r) => r.mo === 3);
    const body = await report('GetAutoRenewSubscriptionLogs', MARCH);
    expect(body.totals).toEqual({
      count: 3,
      succeeded: 2,
      failed: 1,
      amount: sum(march.filter((r) => r.success).map((r) => r.amount)),
    });
    expect(body.items[0]).toMatchObject({
      clientName: 'Avi Cohen',
      success: true,
      amount: 9000,
      startDate: '2025-03-01',
      endDate: '2025-03-31',
    });
    const failed = await report('GetAutoRenewSubscriptionLogs', { ...MARCH, success: false });
    expect(failed.items).toHaveLength(1);
    expect(failed.items[0]).toMatchObject({ error: 'CARD_DECLINED', startDate: null, clientId: ids.c2 });
    const he = await readXlsx((await api.post('/api/Report/GetAutoRenewSubscriptionLogs/Export', MARCH)).rawPayload);
    expect(he[0][0]).toBe('תאריך ושעה');
    // Header, 3 rows, the totals row, then the summary of the totals.
    expect(he[4][0]).toBe('סה"כ');
  });

  it('each report needs its own permission (403)', async () => {
    const user = await makeUser(ctx, clubId, { permissions: { roleCashReport: true } });
    const other = new Api(ctx.app);
    await other.login(user.username, TEST_PASSWORD, externalClubId);
    expect((await other.post('/api/Report/getCashTransactions', MARCH)).statusCode).toBe(200);
    expect((await other.post('/api/Report/getResetCashLevels', MARCH)).statusCode).toBe(403);
    expect((await other.post('/api/Report/GetAutoRenewSubscriptionLogs', MARCH)).statusCode).toBe(403);
  });
});
