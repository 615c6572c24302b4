import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  Api,
  createTestApp,
  makeUser,
  signedInAdmin,
  signedInOperator,
  TEST_PASSWORD,
  type TestContext,
} from '../../../../test/harness.js';
import { users } from '../../../db/schema.js';
import { readXlsx } from '../../../../test/upload.js';
import * as factory from '../../../../test/factories.js';
import { at, makeLicenseRequests, MARCH, sum } from '../test-setup.js';
import { LicenseRequestStatus, UserLevel, type ReportResult } from '@venue/domain';

/** Card orders (getBuyLink): only paid ones loaded licenses. Amounts in agorot. */
const ORDERS = [
  { at: at(3, 1, 0), qty: 10, amount: 30000, status: 'paid', code: 'ORD-1' },
  { at: at(3, 5), qty: 5, amount: 15000, status: 'open', code: 'ORD-2' },
  { at: at(3, 6), qty: 5, amount: 15000, status: 'declined', code: 'ORD-3' },
  { at: at(3, 20), qty: 20, amount: 60000, status: 'paid', code: 'ORD-4' },
  { at: at(4, 1, 0), qty: 1, amount: 3000, status: 'paid', code: 'ORD-5' }, // April
];
/**
 * Bank-transfer requests: only ApprovedLoaded ones loaded licenses, on the day the operator
 * approved them (`decided`, else the request's day for rows stored before decisions were).
 */
const REQUESTS = [
  { at: at(3, 10), qty: 40, price: 3000, status: LicenseRequestStatus.ApprovedLoaded, reference: '778899' },
  { at: at(3, 11), qty: 50, price: 3000, status: LicenseRequestStatus.Pending, reference: '111' },
  { at: at(3, 12), qty: 60, price: 3000, status: LicenseRequestStatus.RejectedByManager, reference: '222' },
  { at: at(3, 31, 23), qty: 45, price: 2800, status: LicenseRequestStatus.ApprovedLoaded, reference: '5566' },
  { at: at(2, 28), qty: 40, price: 3000, status: LicenseRequestStatus.ApprovedLoaded, reference: '333' }, // February
  // Asked in February, approved (loaded) in March: a March row.
  {
    at: at(2, 26),
    decided: at(3, 2),
    qty: 12,
    price: 3000,
    status: LicenseRequestStatus.ApprovedLoaded,
    reference: '444',
  },
  // Asked in March, approved in April: not a March row.
  {
    at: at(3, 28),
    decided: at(4, 1, 9),
    qty: 13,
    price: 3000,
    status: LicenseRequestStatus.ApprovedLoaded,
    reference: '555',
  },
];
const loadedAt = (r: { at: Date; decided?: Date }) => r.decided ?? r.at;
/** Loads by the operator by hand (license_loads, docs/operator.md): no money, the reason as the reference. */
const LOADS = [
  { at: at(3, 15), qty: 7, reason: 'goodwill' },
  { at: at(4, 2), qty: 3, reason: 'April' }, // April
];
/** The operator's name: the club's user who asked for the licenses is 'Test user'. */
const OPERATOR = 'Operator Dana';
const inMarch = (d: Date) => d >= at(3, 1, 0) && d < at(4, 1, 0);

/** The expected rows of March, computed from the arrays. */
function expected() {
  return [
    ...ORDERS.filter((o) => o.status === 'paid' && inMarch(o.at)).map((o) => ({
      at: o.at,
      source: 1,
      qty: o.qty,
      price: o.amount / o.qty,
      amount: o.amount,
      reference: o.code,
      user: null as string | null,
    })),
    ...REQUESTS.filter((r) => r.status === LicenseRequestStatus.ApprovedLoaded && inMarch(loadedAt(r))).map((r) => ({
      at: loadedAt(r),
      source: 2,
      qty: r.qty,
      price: r.price,
      amount: r.qty * r.price,
      reference: r.reference,
      // The operator who approved it; none for a row approved before decisions were stored.
      user: r.decided ? OPERATOR : null,
    })),
    ...LOADS.filter((l) => inMarch(l.at)).map((l) => ({
      at: l.at,
      source: 3,
      qty: l.qty,
      price: null as number | null,
      amount: 0,
      reference: l.reason,
      user: OPERATOR as string | null,
    })),
  ];
}

describe('loaded licenses report (POST /Report/GetLoadedLicensesReport)', () => {
  let ctx: TestContext;
  let api: Api;
  let clubId: number;
  let externalClubId: number;

  beforeAll(async () => {
    ctx = await createTestApp();
    const a = await signedInAdmin(ctx);
    api = a.api;
    clubId = a.club.id;
    externalClubId = a.club.externalClubId;
    /** The orders and requests of ORDERS and REQUESTS, in a club. */
    const operator = await makeUser(ctx, null, { level: UserLevel.SuperUser });
    await ctx.database.db.update(users).set({ name: OPERATOR }).where(eq(users.id, operator.id));
    const insertAll = async (club: number, userId: number) => {
      for (const l of LOADS)
        await factory.makeLicenseLoad(ctx, club, {
          quantity: l.qty,
          reason: l.reason,
          userId: operator.id,
          createdAt: l.at,
        });
      for (const o of ORDERS)
        await factory.makeLicenseOrder(ctx, club, {
          code: `${o.code}-${club}`,
          quantity: o.qty,
          amount: o.amount,
          status: o.status,
          createdAt: o.at,
        });
      const made = await makeLicenseRequests(ctx, club, userId, REQUESTS);
      for (const [i, r] of REQUESTS.entries()) {
        if (r.decided) await factory.setLicenseRequestDecision(ctx, made[i].id, operator.id, r.decided);
      }
    };
    await insertAll(clubId, a.user.id);
    // Another club with the same history: invisible here.
    const other = await signedInAdmin(ctx);
    await insertAll(other.club.id, other.user.id);
    // Order codes are unique: ours carry the club id, so compare without it.
    for (const e of ORDERS) e.code = `${e.code}-${clubId}`;
  });
  afterAll(async () => ctx.close());

  const report = async (body: object, a: Api = api) => {
    const res = await a.post('/api/Report/GetLoadedLicensesReport', body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as ReportResult;
  };

  it('lists paid card orders, approved transfers and operator loads of the period: quantity, price, amount; totals and per source', async () => {
    const rows = expected();
    const body = await report(MARCH);
    expect(body.total).toBe(rows.length);
    expect(body.totals).toEqual({
      count: rows.length,
      quantity: sum(rows.map((r) => r.qty)),
      amount: sum(rows.map((r) => r.amount)),
      bySource: {
        '1': sum(rows.filter((r) => r.source === 1).map((r) => r.qty)),
        '2': sum(rows.filter((r) => r.source === 2).map((r) => r.qty)),
        '3': sum(rows.filter((r) => r.source === 3).map((r) => r.qty)),
      },
    });
    const newest = [...rows].sort((x, y) => y.at.getTime() - x.at.getTime());
    expect(body.items.map((r) => [r.at, r.source, r.quantity, r.price, r.amount, r.reference, r.loadedBy])).toEqual(
      newest.map((r) => [r.at.toISOString(), r.source, r.qty, r.price, r.amount, r.reference, r.user]),
    );
  });

  it("names the operator who approved a transfer, not the club's user who asked for it (the real decision)", async () => {
    const a = await signedInAdmin(ctx);
    const op = await signedInOperator(ctx);
    await ctx.database.db.update(users).set({ name: 'Operator Yossi' }).where(eq(users.id, op.user.id));
    const r = await factory.makeLicenseRequest(ctx, a.club.id, { userId: a.user.id, quantity: 30 });
    const res = await op.api.post(`/api/Operator/LicenseRequest/${r.id}/Decide`, {
      status: LicenseRequestStatus.ApprovedLoaded,
    });
    expect(res.statusCode, res.body).toBe(200);
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const body = await report({ period: 'range', from: day(-1), to: day(1) }, a.api);
    expect(body.items.map((x) => [x.source, x.quantity, x.loadedBy])).toEqual([[2, 30, 'Operator Yossi']]);
  });

  it('filters by source (status filter) and sorts by quantity', async () => {
    const rows = expected();
    const transfers = await report({ ...MARCH, status: [2] });
    expect(transfers.totals.quantity).toBe(sum(rows.filter((r) => r.source === 2).map((r) => r.qty)));
    expect(transfers.items.every((r) => r.source === 2)).toBe(true);
    const sorted = await report({ ...MARCH, sort: 'quantity', order: 'asc' });
    expect(sorted.items.map((r) => r.quantity)).toEqual(rows.map((r) => r.qty).sort((x, y) => x - y));
  });

  it('exports .xlsx with the source as a label', async () => {
    const res = await api.post('/api/Report/GetLoadedLicensesReport/Export', { ...MARCH, lang: 'en' });
    expect(res.statusCode).toBe(200);
    const rows = await readXlsx(res.rawPayload);
    expect(rows[0]).toEqual(expect.arrayContaining(['Source', 'Quantity', 'Reference']));
    expect(rows.flat()).toEqual(expect.arrayContaining(['Credit card', 'Bank transfer', 'Loaded by the operator']));
    // Header, the rows, then the totals row (a summary of totals and breakdowns follows it: docs/reports.md).
    expect(rows[1 + expected().length]).toContain(sum(expected().map((r) => r.amount)) / 100);
  });

  it('needs no flag beyond sign-in (seed 000 §6 names none); 401 without a token; a new club sees nothing', async () => {
    const user = await makeUser(ctx, clubId, { permissions: {} });
    const plain = new Api(ctx.app);
    await plain.login(user.username, TEST_PASSWORD, externalClubId);
    expect((await report(MARCH, plain)).total).toBe(expected().length);
    expect((await new Api(ctx.app).post('/api/Report/GetLoadedLicensesReport', MARCH)).statusCode).toBe(401);
    const stranger = await signedInAdmin(ctx);
    expect((await report(MARCH, stranger.api)).total).toBe(0);
  });
});
