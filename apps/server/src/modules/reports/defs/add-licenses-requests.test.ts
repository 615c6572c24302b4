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
import { at, makeLicenseRequests, MARCH, sum } from '../test-setup.js';
import { allPermissions, LicenseRequestStatus as S, type ReportResult } from '@venue/domain';

/** Bank-transfer license requests of the fixed data set (price and amount in agorot). */
const REQUESTS = [
  { at: at(3, 1, 0), qty: 40, price: 3000, status: S.Pending, transfer: '2025-02-27', reference: '1001', bank: '12' },
  {
    at: at(3, 4),
    qty: 50,
    price: 3000,
    status: S.ApprovedLoaded,
    transfer: '2025-03-03',
    reference: '1002',
    bank: '10',
  },
  {
    at: at(3, 9),
    qty: 60,
    price: 2800,
    status: S.RejectedByManager,
    transfer: '2025-03-08',
    reference: '1003',
    bank: '20',
  },
  {
    at: at(3, 15),
    qty: 45,
    price: 3000,
    status: S.CancelledByCustomer,
    transfer: '2025-03-15',
    reference: '1004',
    bank: '12',
  },
  {
    at: at(3, 20),
    qty: 100,
    price: 2500,
    status: S.ApprovedLoaded,
    transfer: '2025-03-19',
    reference: '1005',
    bank: '11',
  },
  { at: at(3, 31, 23), qty: 41, price: 3000, status: S.Pending, transfer: '2025-03-31', reference: '1006', bank: '12' },
  { at: at(4, 1, 0), qty: 40, price: 3000, status: S.Pending, transfer: '2025-03-31', reference: '1007', bank: '12' }, // April
  {
    at: at(2, 28),
    qty: 40,
    price: 3000,
    status: S.ApprovedLoaded,
    transfer: '2025-02-27',
    reference: '1008',
    bank: '12',
  }, // February
];
/** English names of the banks used above (the report answers in the body's `lang`, default he; the test asks en). */
const BANK_EN: Record<string, string> = { '10': 'Leumi', '11': 'Discount', '12': 'Hapoalim', '20': 'Mizrahi-Tefahot' };
const inMarch = (d: Date) => d >= at(3, 1, 0) && d < at(4, 1, 0);
const expected = () => REQUESTS.filter((r) => inMarch(r.at));

describe('add-licenses requests report (POST /Report/GetAddLicensesRequestReport)', () => {
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
    const insertAll = (club: number, userId: number) => makeLicenseRequests(ctx, club, userId, REQUESTS);
    await insertAll(clubId, a.user.id);
    // Another club with the same requests: invisible here.
    const other = await signedInAdmin(ctx);
    await insertAll(other.club.id, other.user.id);
  });
  afterAll(async () => ctx.close());

  const report = async (body: object, a: Api = api) => {
    const res = await a.post('/api/Report/GetAddLicensesRequestReport', body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as ReportResult;
  };

  it('lists every request of the period with its status; totals, pending, loaded, per status', async () => {
    const rows = expected();
    const body = await report({ ...MARCH, lang: 'en' });
    expect(body.total).toBe(rows.length);
    const byStatus: Record<string, number> = {};
    for (const r of rows) byStatus[String(r.status)] = (byStatus[String(r.status)] ?? 0) + 1;
    expect(body.totals).toEqual({
      count: rows.length,
      quantity: sum(rows.map((r) => r.qty)),
      amount: sum(rows.map((r) => r.qty * r.price)),
      pending: rows.filter((r) => r.status === S.Pending).length,
      loaded: sum(rows.filter((r) => r.status === S.ApprovedLoaded).map((r) => r.qty)),
      byStatus,
    });
    const newest = [...rows].sort((x, y) => y.at.getTime() - x.at.getTime());
    expect(
      body.items.map((r) => [
        r.at,
        r.quantity,
        r.price,
        r.amount,
        r.transferDate,
        r.reference,
        r.bank,
        r.status,
        r.userName,
      ]),
    ).toEqual(
      newest.map((r) => [
        r.at.toISOString(),
        r.qty,
        r.price,
        r.qty * r.price,
        r.transfer,
        r.reference,
        `${r.bank} · ${BANK_EN[r.bank]}`,
        r.status,
        'Test user',
      ]),
    );
  });

  it('filters by status and sorts by transfer date and quantity', async () => {
    const rows = expected();
    const open = await report({ ...MARCH, status: [S.Pending] });
    expect(open.items.map((r) => r.reference)).toEqual(
      rows
        .filter((r) => r.status === S.Pending)
        .sort((x, y) => y.at.getTime() - x.at.getTime())
        .map((r) => r.reference),
    );
    // Default language Hebrew: the bank's Hebrew name.
    expect(open.items.map((r) => r.bank)).toEqual(['12 · בנק הפועלים', '12 · בנק הפועלים']);
    expect(open.totals.quantity).toBe(sum(rows.filter((r) => r.status === S.Pending).map((r) => r.qty)));
    const byTransfer = await report({ ...MARCH, sort: 'transferDate', order: 'asc' });
    expect(byTransfer.items.map((r) => r.transferDate)).toEqual(rows.map((r) => r.transfer).sort());
    const byQty = await report({ ...MARCH, sort: 'quantity', order: 'desc' });
    expect(byQty.items.map((r) => r.quantity)).toEqual(rows.map((r) => r.qty).sort((x, y) => y - x));
  });

  it('exports .xlsx with the status as a label', async () => {
    const res = await api.post('/api/Report/GetAddLicensesRequestReport/Export', { ...MARCH, lang: 'en' });
    expect(res.statusCode).toBe(200);
    const rows = await readXlsx(res.rawPayload);
    expect(rows[0]).toEqual(expect.arrayContaining(['Quantity', 'Transfer date', 'Reference', 'Status']));
    expect(rows.flat()).toEqual(
      expect.arrayContaining(['Pending', 'Approved and loaded', 'Rejected by manager', 'Cancelled by customer']),
    );
    // Header, the rows, then the totals row (a summary of totals and breakdowns follows it: docs/reports.md).
    expect(rows[1 + expected().length]).toContain(sum(expected().map((r) => r.qty * r.price)) / 100);
  });

  it('needs roleViewGeneralSettings (403 without it, 401 without a token); a new club sees nothing', async () => {
    const without = await makeUser(ctx, clubId, {
      permissions: { ...allPermissions(true), roleViewGeneralSettings: false },
    });
    const denied = new Api(ctx.app);
    await denied.login(without.username, TEST_PASSWORD, externalClubId);
    expect((await denied.post('/api/Report/GetAddLicensesRequestReport', MARCH)).statusCode).toBe(403);
    const only = await makeUser(ctx, clubId, { permissions: { roleViewGeneralSettings: true } });
    const allowed = new Api(ctx.app);
    await allowed.login(only.username, TEST_PASSWORD, externalClubId);
    expect((await report(MARCH, allowed)).total).toBe(expected().length);
    expect((await new Api(ctx.app).post('/api/Report/GetAddLicensesRequestReport', MARCH)).statusCode).toBe(401);
    const stranger = await signedInAdmin(ctx);
    expect((await report(MARCH, stranger.api)).total).toBe(0);
  });
});
