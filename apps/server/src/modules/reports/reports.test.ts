import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { Api, createTestApp, makeUser, signedInAdmin, TEST_PASSWORD, type TestContext } from '../../../test/harness.js';
import { localInstant } from '../../../test/time.js';
import * as factory from '../../../test/factories.js';
import { clubs } from '../../db/schema.js';
import type { EntranceReport } from '@venue/domain';

const TZ = 'Asia/Jerusalem';
const URL = '/api/Report/GetEnteracesReport';

describe('entrance report (POST /Report/GetEnteracesReport)', () => {
  let ctx: TestContext;
  let api: Api;
  let clubId: number;
  let externalClubId: number;
  const ids = {} as Record<'t1' | 't2' | 'g1' | 'g2' | 'c1' | 'c2', number>;

  beforeAll(async () => {
    ctx = await createTestApp();
    const a = await signedInAdmin(ctx);
    api = a.api;
    clubId = a.club.id;
    externalClubId = a.club.externalClubId;
    const [t1, t2] = [
      await factory.makeTerminal(ctx, clubId, { serial: `R-${clubId}-1`, name: 'Gate A', secretHash: 'x' }),
      await factory.makeTerminal(ctx, clubId, { serial: `R-${clubId}-2`, name: 'Gate B', secretHash: 'x' }),
    ];
    const g1 = await factory.makeGroup(ctx, clubId, { name: 'Women' });
    const g2 = await factory.makeGroup(ctx, clubId, { name: 'Men' });
    const [c1, c2] = await factory.makeClients(ctx, clubId, [
      { number: 1, firstName: 'Sara', lastName: 'Zilber', groupId: g1.id },
      { number: 2, firstName: 'Avi', lastName: 'Cohen', groupId: g2.id },
    ]);
    Object.assign(ids, { t1: t1.id, t2: t2.id, g1: g1.id, g2: g2.id, c1: c1.id, c2: c2.id });

    // Another club with a row inside the same week: must never appear.
    const other = await signedInAdmin(ctx);
    const at = (d: number, h: number, mi = 0, s = 0) => localInstant(TZ, 2025, 3, d, h, mi, s);
    await factory.makeEntrance(ctx, other.club.id, { at: at(25, 12), amount: 999 });
    await factory.makeEntrances(ctx, clubId, [
      // The week of Wednesday 2025-03-26 is Sunday 23 to Saturday 29; Israel moved
      // to summer time on Friday 28 at 02:00, so Saturday midnight is 21:00 UTC.
      { at: at(22, 23, 59, 30), status: 1, clientId: c1.id },
      {
        at: at(23, 0, 0, 30),
        status: 1,
        clientId: c1.id,
        terminalId: t1.id,
        groupId: g1.id,
      },
      {
        at: at(25, 10),
        status: 2,
        reason: 17,
        clientId: c2.id,
        terminalId: t2.id,
        groupId: g2.id,
      },
      {
        at: at(26, 9),
        status: 1,
        reason: 2,
        clientId: c1.id,
        terminalId: t1.id,
        groupId: g1.id,
        amount: 1500,
        paymentType: 2,
      },
      { at: at(27, 12), status: 8, reason: 25, terminalId: t1.id },
      {
        at: at(28, 3, 30),
        status: 1,
        reason: 2,
        clientId: c2.id,
        terminalId: t1.id,
        groupId: g2.id,
        amount: 3000,
        paymentType: 2,
      },
      {
        at: at(29, 23, 59, 30),
        status: 5,
        reason: 24,
        clientId: c1.id,
        terminalId: t2.id,
        groupId: g1.id,
      },
      { at: at(30, 0, 0, 10), status: 1, clientId: c1.id },
    ]);
  });
  afterAll(async () => ctx.close());

  it('answers the week containing the anchor, Sunday to Saturday, with totals computed from the rows', async () => {
    const res = await api.post(URL, { period: 'week', anchor: '2025-03-26', pageSize: 100 });
    expect(res.statusCode).toBe(200);
    const body = res.json() as EntranceReport;
    expect(body.range).toEqual({ from: '2025-03-23', to: '2025-03-29' });
    expect(body.total).toBe(6);
    expect(body.totals).toEqual({
      count: 6,
      approved: 3,
      failed: 3,
      amount: 4500,
      byStatus: { '1': 3, '2': 1, '5': 1, '8': 1 },
    });
    // Default order: newest first.
    expect(body.items.map((r) => r.at)).toEqual([
      localInstant(TZ, 2025, 3, 29, 23, 59, 30).toISOString(),
      localInstant(TZ, 2025, 3, 28, 3, 30).toISOString(),
      localInstant(TZ, 2025, 3, 27, 12).toISOString(),
      localInstant(TZ, 2025, 3, 26, 9).toISOString(),
      localInstant(TZ, 2025, 3, 25, 10).toISOString(),
      localInstant(TZ, 2025, 3, 23, 0, 0, 30).toISOString(),
    ]);
    expect(body.items[1]).toMatchObject({
      clientId: ids.c2,
      clientNumber: 2,
      clientName: 'Avi Cohen',
      groupName: 'Men',
      terminalId: ids.t1,
      terminalName: 'Gate A',
      status: 1,
      reason: 2,
      amount: 3000,
      paymentType: 2,
      identificationKind: 'card',
    });
    // The unknown card has no client and no group.
    expect(body.items[2]).toMatchObject({
      clientId: null,
      clientName: null,
      clientNumber: null,
      groupName: null,
      status: 8,
    });
  });

  it('converts local midnights in the club time zone (a club in New York sees other days)', async () => {
    await ctx.database.db
      .update(clubs)
      .set({
        location: {
          name: 'New York',
          latitude: 40.7,
          longitude: -74,
          elevation: 10,
          timeZone: 'America/New_York',
          il: false,
        },
      })
      .where(eq(clubs.id, clubId));
    try {
      // 2025-03-29 23:59:30 in Jerusalem is 17:59:30 on the 29th in New York;
      // 2025-03-30 00:00:10 in Jerusalem is 18:00:10 on the 29th in New York.
      const res = await api.post(URL, { period: 'day', anchor: '2025-03-29' });
      expect(res.json().total).toBe(2);
      expect(res.json().totals.byStatus).toEqual({ '1': 1, '5': 1 });
    } finally {
      await ctx.database.db.update(clubs).set({ location: null }).where(eq(clubs.id, clubId));
    }
  });

  it('filters by terminal, group, client and statuses', async () => {
    const base = { period: 'range', from: '2025-03-01', to: '2025-03-31', pageSize: 100 };
    const count = async (f: object) => {
      const res = await api.post(URL, { ...base, ...f });
      expect(res.statusCode).toBe(200);
      return (res.json() as EntranceReport).total;
    };
    expect(await count({})).toBe(8);
    expect(await count({ terminalId: ids.t1 })).toBe(4);
    expect(await count({ terminalId: ids.t2 })).toBe(2);
    expect(await count({ groupId: ids.g1 })).toBe(3);
    expect(await count({ clientId: ids.c1 })).toBe(5);
    expect(await count({ clientId: ids.c2, status: [1] })).toBe(1);
    expect(await count({ status: [2, 5, 8] })).toBe(3);
    const res = await api.post(URL, { ...base, status: [1], terminalId: ids.t1 });
    expect(res.json().totals).toEqual({ count: 3, approved: 3, failed: 0, amount: 4500, byStatus: { '1': 3 } });
  });

  it('sorts by status, client and terminal and pages on the server', async () => {
    const week = { period: 'week', anchor: '2025-03-26' };
    const byStatus = await api.post(URL, { ...week, sort: 'status', order: 'asc', pageSize: 100 });
    expect(byStatus.json().items.map((r: { status: number }) => r.status)).toEqual([1, 1, 1, 2, 5, 8]);
    const byClient = await api.post(URL, { ...week, sort: 'client', order: 'asc', pageSize: 100 });
    // Cohen before Zilber; the row without a client sorts last (NULLS LAST in ascending order).
    expect(byClient.json().items.map((r: { clientName: string | null }) => r.clientName)).toEqual([
      'Avi Cohen',
      'Avi Cohen',
      'Sara Zilber',
      'Sara Zilber',
      'Sara Zilber',
      null,
    ]);
    const byTerminal = await api.post(URL, { ...week, sort: 'terminal', order: 'desc', pageSize: 100 });
    expect(byTerminal.json().items.map((r: { terminalName: string }) => r.terminalName)).toEqual([
      'Gate B',
      'Gate B',
      'Gate A',
      'Gate A',
      'Gate A',
      'Gate A',
    ]);
    const page2 = await api.post(URL, { ...week, order: 'asc', page: 2, pageSize: 4 });
    expect(page2.json().total).toBe(6);
    expect(page2.json().items.map((r: { at: string }) => r.at)).toEqual([
      localInstant(TZ, 2025, 3, 28, 3, 30).toISOString(),
      localInstant(TZ, 2025, 3, 29, 23, 59, 30).toISOString(),
    ]);
    const page3 = await api.post(URL, { ...week, page: 3, pageSize: 4 });
    expect(page3.json()).toMatchObject({ items: [], total: 6 });
  });

  it('resolves day, month and year periods and defaults the anchor to today', async () => {
    const day = await api.post(URL, { period: 'day', anchor: '2025-03-23' });
    expect(day.json()).toMatchObject({ total: 1, range: { from: '2025-03-23', to: '2025-03-23' } });
    const month = await api.post(URL, { period: 'month', anchor: '2025-03-15' });
    expect(month.json()).toMatchObject({ total: 8, range: { from: '2025-03-01', to: '2025-03-31' } });
    const year = await api.post(URL, { period: 'year', anchor: '2025-07-01' });
    expect(year.json()).toMatchObject({ total: 8, range: { from: '2025-01-01', to: '2025-12-31' } });
    const today = await api.post(URL, {});
    expect(today.statusCode).toBe(200);
    const p = new Intl.DateTimeFormat('en-CA', {
      timeZone: TZ,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    }).format(new Date());
    expect(today.json().range).toEqual({ from: p, to: p });
  });

  it('refuses a range without dates, reversed or longer than three years (400)', async () => {
    for (const body of [
      { period: 'range' },
      { period: 'range', from: '2025-01-01' },
      { period: 'range', from: '2025-02-01', to: '2025-01-01' },
      { period: 'range', from: '2020-01-01', to: '2024-01-01' },
      { period: 'range', from: '2025-13-01', to: '2025-12-01' },
    ]) {
      const res = await api.post(URL, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().code).toBe('VALIDATION_ERROR');
    }
    const ok = await api.post(URL, { period: 'range', from: '2023-01-01', to: '2025-12-31' });
    expect(ok.statusCode).toBe(200);
  });

  it('answers 403 without roleEntrancesReport and 401 without a token', async () => {
    const user = await makeUser(ctx, clubId, { permissions: { roleViewDashboard: true } });
    const other = new Api(ctx.app);
    await other.login(user.username, TEST_PASSWORD, externalClubId);
    const res = await other.post(URL, { period: 'day' });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('NOT_AUTHORIZED');
    const allowed = await makeUser(ctx, clubId, { permissions: { roleEntrancesReport: true } });
    const ok = new Api(ctx.app);
    await ok.login(allowed.username, TEST_PASSWORD, externalClubId);
    expect((await ok.post(URL, { period: 'week', anchor: '2025-03-26' })).json().total).toBe(6);
    expect((await new Api(ctx.app).post(URL, { period: 'day' })).statusCode).toBe(401);
  });
});
