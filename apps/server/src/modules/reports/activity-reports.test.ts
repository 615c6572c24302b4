import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, createTestApp, makeUser, signedInAdmin, TEST_PASSWORD, type TestContext } from '../../../test/harness.js';
import { localInstant } from '../../../test/time.js';
import { readXlsx } from '../../../test/upload.js';
import * as factory from '../../../test/factories.js';
import { makeSaraAndAvi, MARCH, sum, TZ } from './test-setup.js';
import type { ReportResult } from '@venue/domain';

const at = (d: number, h: number, mi = 0, mo = 3) => localInstant(TZ, 2025, mo, d, h, mi);

/** Quick exits of the fixed data set: outcome, stay in minutes, reward (agorot). */
const EXITS = [
  { d: 3, type: 1, minutes: 12, reward: 1000 },
  { d: 4, type: 2, minutes: 20, reward: 500 },
  { d: 5, type: 7, minutes: 2, reward: 0 },
  { d: 6, type: 8, minutes: 95, reward: 0 },
  { d: 1, type: 1, minutes: 10, reward: 1000, mo: 4 },
];

describe('quick exit, activities, a client’s entrances, manager activity', () => {
  let ctx: TestContext;
  let api: Api;
  let clubId: number;
  let externalClubId: number;
  let adminId: number;
  let otherClientId: number;
  const ids = {} as Record<'c1' | 'c2' | 't1', number>;

  beforeAll(async () => {
    ctx = await createTestApp();
    const a = await signedInAdmin(ctx, { settings: { isQuickExitEnabled: true } });
    api = a.api;
    clubId = a.club.id;
    adminId = a.user.id;
    externalClubId = a.club.externalClubId;
    const { c1, c2 } = await makeSaraAndAvi(ctx, clubId);
    const t1 = await factory.makeTerminal(ctx, clubId, { serial: `Q-${clubId}`, name: 'Exit gate', secretHash: 'x' });
    Object.assign(ids, { c1: c1.id, c2: c2.id, t1: t1.id });
    const other = await signedInAdmin(ctx, { settings: { isQuickExitEnabled: true } });
    const oc = await factory.makeClient(ctx, other.club.id, { number: 1, firstName: 'O', lastName: 'Ther' });
    otherClientId = oc.id;

    // Entrances: c1 three (approved, approved paid 1500, failed), c2 one approved; one of another club.
    const entrances = await factory.makeEntrances(ctx, clubId, [
      { clientId: c1.id, terminalId: t1.id, at: at(3, 8), status: 1 },
      { clientId: c1.id, terminalId: t1.id, at: at(4, 8), status: 1, reason: 2, amount: 1500 },
      { clientId: c1.id, at: at(5, 8), status: 2, reason: 17 },
      { clientId: c2.id, at: at(6, 8), status: 1 },
      { clientId: c1.id, at: at(1, 8, 0, 4), status: 1 },
      { clubId: other.club.id, clientId: oc.id, at: at(3, 9), status: 1 },
    ]);
    for (const [i, x] of EXITS.entries())
      await factory.makeQuickExit(ctx, clubId, {
        clientId: i % 2 ? c2.id : c1.id,
        entranceId: entrances[i % 4].id + 1000 * (i + 1),
        terminalId: t1.id,
        type: x.type,
        entranceAt: at(x.d, 8, 0, x.mo ?? 3),
        exitAt: at(x.d, 8, x.minutes, x.mo ?? 3),
        durationMinutes: x.minutes,
        rewardAmount: x.reward,
      });
    // A terminal and an entrance that do not exist: the report reads the quick exit row alone.
    await factory.makeQuickExit(ctx, other.club.id, {
      clientId: oc.id,
      entranceId: 999999,
      terminalId: 999999,
      entranceAt: at(3, 9),
      exitAt: at(3, 9, 10),
      durationMinutes: 10,
      rewardAmount: 777,
    });
    await factory.makePurchase(ctx, clubId, {
      lines: [{ itemType: 3, quantity: 3, unitPrice: 1000 }],
      clientId: c2.id,
      at: at(6, 7),
      paidCash: 3000,
    });
    const manager = await makeUser(ctx, clubId, { permissions: { roleEditClients: true } });
    await factory.makeAuditEntries(ctx, clubId, [
      { userId: adminId, action: 'create', entity: 'client', entityId: String(c1.id), at: at(2, 10) },
      { userId: adminId, action: 'update', entity: 'client', entityId: String(c1.id), at: at(2, 11) },
      { userId: manager.id, action: 'create', entity: 'group', entityId: '5', at: at(9, 11), ip: '10.0.0.9' },
      { userId: manager.id, action: 'create', entity: 'group', entityId: '6', at: at(1, 11, 0, 4) },
      { clubId: other.club.id, userId: other.user.id, action: 'create', entity: 'client', at: at(2, 10) },
    ]);
  });
  afterAll(async () => ctx.close());

  const report = async (call: string, body: object) => {
    const res = await api.post(`/api/Report/${call}`, body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as ReportResult;
  };

  it('quick exit: exits of the period with stay, outcome and reward; totals and per outcome', async () => {
    const march = EXITS.filter((x) => !x.mo);
    const body = await report('GetQuickExitsReport', MARCH);
    expect(body.totals).toEqual({
      count: march.length,
      rewarded: march.filter((x) => x.reward > 0).length,
      rewardAmount: sum(march.map((x) => x.reward)),
      averageMinutes: Math.round(sum(march.map((x) => x.minutes)) / march.length),
      byType: { '1': 1, '2': 1, '7': 1, '8': 1 },
    });
    expect(body.items[0]).toMatchObject({ type: 8, durationMinutes: 95, rewardAmount: 0, terminalName: 'Exit gate' });
    expect(body.items[3]).toMatchObject({ type: 1, clientName: 'Sara Zilber', rewardAmount: 1000 });
    expect((await report('GetQuickExitsReport', { ...MARCH, status: [1, 2] })).totals.rewardAmount).toBe(1500);
    const en = await readXlsx(
      (await api.post('/api/Report/GetQuickExitsReport/Export', { ...MARCH, lang: 'en', order: 'asc' })).rawPayload,
    );
    expect(en[1][4]).toBe('By subscription');
  });

  it('activities: entrances and purchases on one timeline with their own totals', async () => {
    const body = await report('GetEnteraceAndPayments', MARCH);
    expect(body.total).toBe(5);
    expect(body.totals).toEqual({
      entrances: 4,
      approved: 3,
      entranceAmount: 1500,
      purchases: 1,
      purchaseTotal: 3000,
    });
    expect(body.items.map((r) => r.kind)).toEqual([1, 2, 1, 1, 1]);
    expect(body.items[1]).toMatchObject({ clientName: 'Avi Cohen', amount: 3000, detail: '3 × מגבת', status: null });
    expect(body.items[0]).toMatchObject({ clientName: 'Avi Cohen', status: 1, detail: null });
    const c1 = await report('GetEnteraceAndPayments', { ...MARCH, clientId: ids.c1 });
    expect(c1.totals).toMatchObject({ entrances: 3, purchases: 0, entranceAmount: 1500 });
  });

  it('a client’s entrances: needs clientId (400); another club’s client is 404', async () => {
    const body = await report('GetClienstEnteraces', { ...MARCH, clientId: ids.c1 });
    expect(body.totals).toEqual({ count: 3, approved: 2, failed: 1, amount: 1500 });
    expect(body.items.map((r) => r.status)).toEqual([2, 1, 1]);
    expect((await api.post('/api/Report/GetClienstEnteraces', MARCH)).statusCode).toBe(400);
    const foreign = await api.post('/api/Report/GetClienstEnteraces', { ...MARCH, clientId: otherClientId });
    expect(foreign.statusCode).toBe(404);
    const year = await report('GetClienstEnteraces', { period: 'year', anchor: '2025-06-01', clientId: ids.c1 });
    expect(year.total).toBe(4);
  });

  it('manager activity: the club’s audit rows of the period, by user', async () => {
    const body = await report('GetManagerActivityReport', MARCH);
    expect(body.totals).toEqual({ count: 3, users: 2, byEntity: { client: 2, group: 1 } });
    expect(body.items[0]).toMatchObject({ action: 'create', entity: 'group', entityId: '5', ip: '10.0.0.9' });
    expect((await report('GetManagerActivityReport', { ...MARCH, userId: adminId })).total).toBe(2);
  });

  it('permissions: activities need roleEntrancesPaymentsReport, manager activity roleIsAdmin', async () => {
    const user = await makeUser(ctx, clubId, { permissions: { roleEntrancesReport: true, roleViewClientsList: true } });
    const other = new Api(ctx.app);
    await other.login(user.username, TEST_PASSWORD, externalClubId);
    expect((await other.post('/api/Report/GetQuickExitsReport', MARCH)).statusCode).toBe(200);
    expect((await other.post('/api/Report/GetClienstEnteraces', { ...MARCH, clientId: ids.c2 })).statusCode).toBe(200);
    expect((await other.post('/api/Report/GetEnteraceAndPayments', MARCH)).statusCode).toBe(403);
    expect((await other.post('/api/Report/GetManagerActivityReport', MARCH)).statusCode).toBe(403);
  });
});
