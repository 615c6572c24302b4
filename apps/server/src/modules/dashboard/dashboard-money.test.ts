import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { localParts } from '@venue/domain';
import { Api, createTestApp, makeUser, signedInAdmin, TEST_PASSWORD, type TestContext } from '../../../test/harness.js';
import { localInstant } from '../../../test/time.js';
import * as factory from '../../../test/factories.js';
import { clubs } from '../../db/schema.js';

const NY = 'America/New_York';
const CALLS = [
  'GetMonthlyIncome',
  'GetExpiredLicensesCount',
  'GetValidLicensesCount',
  'GetLastWeekArrivalsCount',
  'GetChartPaymentData',
  'GetChartDataByItemType',
  'GetChartDataQtyByItemType',
  'GetChartDataByProduct',
  'GetChartDataQtyByProduct',
  'GetChartEntranceByGroup',
] as const;

type Point = { key: string; value: number };

/** Sums `value` per key of a list of [key, value] pairs, as a key → value object. */
function sumBy(pairs: [string, number][]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of pairs) out[k] = (out[k] ?? 0) + v;
  return out;
}
const asObject = (points: Point[]) => Object.fromEntries(points.map((p) => [p.key, p.value]));

/** This month in New York and the months around it, with Intl (not the server's SQL). */
function months() {
  const now = localParts(new Date(), NY);
  const y = now.year;
  const m = now.month;
  const prev = m === 1 ? { y: y - 1, m: 12 } : { y, m: m - 1 };
  const next = m === 12 ? { y: y + 1, m: 1 } : { y, m: m + 1 };
  const lastOfPrev = new Date(Date.UTC(y, m - 1, 0)).getUTCDate();
  return { now, y, m, prev, next, lastOfPrev };
}

describe('dashboard money, licenses and groups (POST /Dashboard/...)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => ctx.close());

  async function nyClub() {
    const admin = await signedInAdmin(ctx);
    await ctx.database.db
      .update(clubs)
      .set({ location: { name: 'New York', latitude: 40.7, longitude: -74, elevation: 10, timeZone: NY, il: false } })
      .where(eq(clubs.id, admin.club.id));
    return admin;
  }

  it('income, item types and products of this month, without refunds, other months or clubs', async () => {
    const { club, api } = await nyClub();
    const other = await signedInAdmin(ctx);
    const { y, m, prev, next, lastOfPrev } = months();
    const soap = await factory.makeProduct(ctx, club.id, { name: 'Soap', price: 1000 });
    const towel = await factory.makeProduct(ctx, club.id, { name: 'Towel', price: 1500 });
    const foreign = await factory.makeProduct(ctx, other.club.id, { name: 'Foreign', price: 700 });

    type Line = { type: number; itemId?: number; name?: string; qty: number; unit: number };
    type Buy = { clubId: number; at: Date; status: number; lines: Line[]; pays: [number, number][]; counts: boolean };
    const buys: Buy[] = [
      {
        clubId: club.id,
        at: localInstant(NY, y, m, 1, 0, 0, 30),
        status: 1,
        lines: [
          { type: 10, itemId: soap.id, name: 'old soap name', qty: 2, unit: 1000 },
          { type: 2, qty: 1, unit: 5000 },
        ],
        pays: [
          [0, 3000],
          [1, 4000],
        ],
        counts: true,
      },
      {
        clubId: club.id,
        at: localInstant(NY, y, m, 2, 18),
        status: 2, // pending counts
        lines: [
          { type: 10, itemId: towel.id, qty: 1, unit: 1500 },
          { type: 10, itemId: soap.id, qty: 1, unit: 1000 },
          { type: 10, itemId: 987654, name: 'Gone product', qty: 3, unit: 200 },
          { type: 1, qty: 1, unit: 12000 },
        ],
        pays: [
          [2, 11000],
          [3, 4100],
        ],
        counts: true,
      },
      {
        clubId: club.id,
        at: localInstant(NY, y, m, 2, 19),
        status: 3, // refunded
        lines: [{ type: 10, itemId: soap.id, qty: 5, unit: 1000 }],
        pays: [[0, 5000]],
        counts: false,
      },
      {
        clubId: club.id,
        at: localInstant(NY, prev.y, prev.m, lastOfPrev, 23, 59, 30),
        status: 1,
        lines: [{ type: 10, itemId: towel.id, qty: 1, unit: 1500 }],
        pays: [[0, 1500]],
        counts: false,
      },
      {
        clubId: club.id,
        at: localInstant(NY, next.y, next.m, 1, 0, 0, 30),
        status: 1,
        lines: [{ type: 4, qty: 1, unit: 3000 }],
        pays: [[1, 3000]],
        counts: false,
      },
      {
        clubId: other.club.id,
        at: localInstant(NY, y, m, 1, 12),
        status: 1,
        lines: [{ type: 10, itemId: foreign.id, qty: 4, unit: 700 }],
        pays: [[0, 2800]],
        counts: false,
      },
    ];
    for (const b of buys) {
      await factory.makePurchase(ctx, b.clubId, {
        at: b.at,
        paymentStatus: b.status,
        lines: b.lines.map((l) => ({
          itemType: l.type,
          itemId: l.itemId,
          name: l.name,
          quantity: l.qty,
          unitPrice: l.unit,
        })),
        payments: b.pays,
      });
    }

    const counted = buys.filter((b) => b.counts);
    const lines = counted.flatMap((b) => b.lines);
    const productName = (l: Line) => (l.itemId === soap.id ? 'Soap' : l.itemId === towel.id ? 'Towel' : (l.name ?? ''));
    const income = lines.reduce((s, l) => s + l.qty * l.unit, 0);
    const byType = sumBy(lines.map((l) => [String(l.type), l.qty * l.unit]));
    const qtyByType = sumBy(lines.map((l) => [String(l.type), l.qty]));
    const productLines = lines.filter((l) => l.type === 10);
    const byProduct = sumBy(productLines.map((l) => [productName(l), l.qty * l.unit]));
    const qtyByProduct = sumBy(productLines.map((l) => [productName(l), l.qty]));

    expect((await api.post('/api/Dashboard/GetMonthlyIncome', {})).json()).toEqual({ value: income });
    expect(income).toBe(7000 + 15100); // the fixture itself: each purchase's payments equal its total
    for (const b of buys)
      expect(b.pays.reduce((s, [, v]) => s + v, 0)).toBe(b.lines.reduce((s, l) => s + l.qty * l.unit, 0));

    // Purchases are not entrances: "entries by payment type" stays empty.
    expect((await api.post('/api/Dashboard/GetChartPaymentData', {})).json()).toEqual([]);

    const types = (await api.post('/api/Dashboard/GetChartDataByItemType', {})).json() as Point[];
    expect(asObject(types)).toEqual(byType);
    expect(types.map((p) => Number(p.key))).toEqual([1, 2, 10]);
    expect(asObject((await api.post('/api/Dashboard/GetChartDataQtyByItemType', {})).json() as Point[])).toEqual(
      qtyByType,
    );

    const prods = (await api.post('/api/Dashboard/GetChartDataByProduct', {})).json() as Point[];
    expect(asObject(prods)).toEqual(byProduct);
    expect(prods.map((p) => p.key)).toEqual(['Soap', 'Towel', 'Gone product']); // largest first
    const qty = (await api.post('/api/Dashboard/GetChartDataQtyByProduct', {})).json() as Point[];
    expect(asObject(qty)).toEqual(qtyByProduct);
    expect(qty.map((p) => p.key)).toEqual(['Gone product', 'Soap', 'Towel']);
  });

  it('counts clients whose license expired before today, and those still valid, in the club time zone', async () => {
    const { club, api } = await nyClub();
    const other = await signedInAdmin(ctx);
    const { now } = months();
    const day = (offset: number) =>
      new Date(Date.UTC(now.year, now.month - 1, now.day + offset)).toISOString().slice(0, 10);
    const rows: { clubId: number; licenseExpiry: string | null; status: number; expired: boolean }[] = [
      { clubId: club.id, licenseExpiry: day(-1), status: 1, expired: true },
      { clubId: club.id, licenseExpiry: day(-400), status: 2, expired: true }, // inactive clients count
      { clubId: club.id, licenseExpiry: day(0), status: 1, expired: false }, // valid through today
      { clubId: club.id, licenseExpiry: day(30), status: 1, expired: false },
      { clubId: club.id, licenseExpiry: null, status: 1, expired: false }, // never had one
      { clubId: club.id, licenseExpiry: day(-5), status: 3, expired: false }, // deleted
      { clubId: other.club.id, licenseExpiry: day(-1), status: 1, expired: false },
    ];
    for (const [i, r] of rows.entries())
      await factory.makeClient(ctx, r.clubId, {
        number: i + 1,
        firstName: `L${i}`,
        licenseExpiry: r.licenseExpiry,
        status: r.status,
      });
    const expected = rows.filter((r) => r.expired).length;
    expect((await api.post('/api/Dashboard/GetExpiredLicensesCount', {})).json()).toEqual({ value: expected });
    // Valid: today (valid through its expiry day) and day(30); not the client without one, the deleted or another club's.
    expect((await api.post('/api/Dashboard/GetValidLicensesCount', {})).json()).toEqual({ value: 2 });
  });

  it('counts approved entrances of this month per group, largest first', async () => {
    const { club, api } = await nyClub();
    const other = await signedInAdmin(ctx);
    const { y, m, prev, lastOfPrev } = months();
    const men = await factory.makeGroup(ctx, club.id, { name: 'גברים' });
    const women = await factory.makeGroup(ctx, club.id, { name: 'Women' });
    const foreign = await factory.makeGroup(ctx, other.club.id, { name: 'Foreign' });
    const row = (at: Date, status: number, groupId: number | null, clubId = club.id) => ({
      clubId,
      groupId,
      at,
      status,
    });
    const inMonth = localInstant(NY, y, m, 1, 10);
    await factory.makeEntrances(ctx, club.id, [
      row(localInstant(NY, y, m, 1, 0, 0, 30), 1, men.id),
      row(inMonth, 1, men.id),
      row(inMonth, 1, men.id),
      row(inMonth, 1, women.id),
      row(inMonth, 1, null),
      row(inMonth, 4, women.id), // refused
      row(localInstant(NY, prev.y, prev.m, lastOfPrev, 23, 59, 30), 1, women.id),
      row(inMonth, 1, foreign.id, other.club.id),
    ]);
    expect((await api.post('/api/Dashboard/GetChartEntranceByGroup', {})).json()).toEqual([
      { key: 'גברים', value: 3 },
      { key: '', value: 1 },
      { key: 'Women', value: 1 },
    ]);
  });

  it('counts approved entrances of this month per payment type (entries by payment type)', async () => {
    const { club, api } = await nyClub();
    const other = await signedInAdmin(ctx);
    const { y, m, prev, lastOfPrev } = months();
    const row = (at: Date, status: number, reason: number, paymentType: number, clubId = club.id) => ({
      clubId,
      at,
      status,
      reason,
      paymentType,
    });
    const inMonth = localInstant(NY, y, m, 1, 10);
    await factory.makeEntrances(ctx, club.id, [
      row(localInstant(NY, y, m, 1, 0, 0, 30), 1, 0, 1), // subscription, first minute of the month
      row(inMonth, 1, 5, 1), // parent's subscription
      row(inMonth, 1, 2, 2), // money
      row(inMonth, 1, 6, 2), // parent's money
      row(inMonth, 1, 2, 2),
      row(inMonth, 1, 3, 3), // free open
      row(inMonth, 1, 4, 4), // manager
      row(inMonth, 1, 1, 5), // bonus
      row(inMonth, 1, 7, 0), // paid at the terminal: logged as None, counted as 6
      row(inMonth, 1, 7, 0),
      row(inMonth, 9999, 9, 0), // a payment row, not an entrance
      row(inMonth, 4, 24, 0), // refused
      row(localInstant(NY, prev.y, prev.m, lastOfPrev, 23, 59, 30), 1, 0, 1), // last month
      row(inMonth, 1, 0, 1, other.club.id),
    ]);
    expect((await api.post('/api/Dashboard/GetChartPaymentData', {})).json()).toEqual([
      { key: '1', value: 2 },
      { key: '2', value: 3 },
      { key: '3', value: 1 },
      { key: '4', value: 1 },
      { key: '5', value: 1 },
      { key: '6', value: 2 },
    ]);
  });

  it('counts approved entrances of the last 7 × 24 hours (arrivals last week)', async () => {
    const { club, api } = await signedInAdmin(ctx);
    const other = await signedInAdmin(ctx);
    const ago = (hours: number) => new Date(Date.now() - hours * 3_600_000);
    const row = (at: Date, status: number, clubId = club.id) => ({ clubId, at, status });
    await factory.makeEntrances(ctx, club.id, [
      row(ago(1), 1),
      row(ago(24 * 3), 1),
      row(ago(24 * 7 - 1), 1),
      row(ago(2), 4), // refused
      row(ago(24 * 7 + 1), 1), // older than a week
      row(ago(1), 1, other.club.id),
    ]);
    expect((await api.post('/api/Dashboard/GetLastWeekArrivalsCount', {})).json()).toEqual({ value: 3 });
  });

  it('answers zeros and empty charts for an empty club, also without a body', async () => {
    const { api } = await signedInAdmin(ctx);
    expect((await api.post('/api/Dashboard/GetMonthlyIncome')).json()).toEqual({ value: 0 });
    expect((await api.post('/api/Dashboard/GetExpiredLicensesCount')).json()).toEqual({ value: 0 });
    expect((await api.post('/api/Dashboard/GetValidLicensesCount')).json()).toEqual({ value: 0 });
    expect((await api.post('/api/Dashboard/GetLastWeekArrivalsCount')).json()).toEqual({ value: 0 });
    for (const call of CALLS.slice(4)) expect((await api.post(`/api/Dashboard/${call}`)).json(), call).toEqual([]);
  });

  it('answers 403 without roleViewDashboard and 401 without a token, for every call', async () => {
    const { club } = await signedInAdmin(ctx);
    const user = await makeUser(ctx, club.id, { permissions: { roleEntrancesReport: true } });
    const api = new Api(ctx.app);
    await api.login(user.username, TEST_PASSWORD, club.externalClubId);
    const allowedUser = await makeUser(ctx, club.id, { permissions: { roleViewDashboard: true } });
    const allowed = new Api(ctx.app);
    await allowed.login(allowedUser.username, TEST_PASSWORD, club.externalClubId);
    for (const call of CALLS) {
      const url = `/api/Dashboard/${call}`;
      expect((await api.post(url, {})).statusCode, call).toBe(403);
      expect((await new Api(ctx.app).post(url, {})).statusCode, call).toBe(401);
      expect((await allowed.post(url, {})).statusCode, call).toBe(200);
    }
  });
});
