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
/** Bank-transfer requests: only ApprovedLoaded ones loaded licenses. */
const REQUESTS = [
  { at: at(3, 10), qty: 40, price: 3000, status: LicenseRequestStatus.ApprovedLoaded, reference: '778899' },
  { at: at(3, 11), qty: 50, price: 3000, status: LicenseRequestStatus.Pending, reference: '111' },
  { at: at(3, 12), qty: 60, price: 3000, status: LicenseRequestStatus.RejectedByManager, reference: '222' },
  { at: at(3, 31, 23), qty: 45, price: 2800, status: LicenseRequestStatus.ApprovedLoaded, reference: '5566' },
  { at: at(2, 28), qty: 40, price: 3000, status: LicenseRequestStatus.ApprovedLoaded, reference: '333' }, // February
];
/** Loads by the operator by hand (license_loads, docs/operator.md): no money, the reason as the reference. */
const LOADS = [
  { at: at(3, 15), qty: 7, reason: 'goodwill' },
  { at: at(4, 2), qty: 3, reason: 'April' }, // April
];
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
    ...REQUESTS.filter((r) => r.status === LicenseRequestStatus.ApprovedLoaded && inMarch(r.at)).map((r) => ({
      at: r.at,
      source: 2,
      qty: r.qty,
      price: r.price,
      amount: r.qty * r.price,
      reference: r.reference,
      user: 'Test user' as string | null,
    })),
    ...LOADS.filter((l) => inMarch(l.at)).map((l) => ({
      at: l.at,
      source: 3,
      qty: l.qty,
      price: null as number | null,
      amount: 0,
      reference: l.reason,
      user: 'Test user' as string | null,
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
      await makeLicenseRequests(ctx, club, userId, REQUESTS);
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
    expect(body.items.map((r) => [r.at, r.source, r.quantity, r.price, r.amount, r.reference, r.userName])).toEqual(
      newest.map((r) => [r.at.toISOString(), r.source, r.qty, r.price, r.amount, r.reference, r.user]),
    );
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
