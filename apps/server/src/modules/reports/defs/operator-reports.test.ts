import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import * as XLSX from '@e965/xlsx';
import { EntranceStatus, LicenseRequestStatus, UserLevel, type ReportResult } from '@venue/domain';
import {
  Api,
  createTestApp,
  makeClub,
  makeUser,
  signedInAdmin,
  TEST_DB,
  TEST_PASSWORD,
  type TestContext,
} from '../../../../test/harness.js';
import { readXlsx } from '../../../../test/upload.js';
import * as factory from '../../../../test/factories.js';
import { clubs } from '../../../db/schema.js';
import { at, makeLicenseRequests, MARCH, sum } from '../test-setup.js';

/**
 * The operator's cross-club reports (issue 17; docs/operator.md "Cross-club
 * reports"). A fixed data set in three clubs of the three classes of seed
 * 000 §1; the expected figures are computed here from the arrays.
 */
type Key = 'reg' | 'usa' | 'kala';
const CLUBS: Record<Key, { ext: number; licenses: number; cls: number }> = {
  reg: { ext: 1501, licenses: 5, cls: 1 },
  usa: { ext: 4501, licenses: 50, cls: 2 },
  kala: { ext: 7501, licenses: 2, cls: 3 },
};
type Prod = 'Soap' | 'Towel';
/** Purchases: product lines (type 10) and license lines (type 6); status 3 = refunded. Agorot with VAT. */
const BUYS: {
  club: Key;
  at: Date;
  status: number;
  lines: { type: number; product?: Prod; qty: number; price: number }[];
}[] = [
  { club: 'reg', at: at(3, 2), status: 1, lines: [{ type: 10, product: 'Soap', qty: 2, price: 1180 }] },
  { club: 'reg', at: at(3, 3), status: 3, lines: [{ type: 10, product: 'Soap', qty: 1, price: 590 }] },
  { club: 'reg', at: at(3, 4), status: 1, lines: [{ type: 6, qty: 2, price: 6000 }] },
  { club: 'usa', at: at(3, 5), status: 1, lines: [{ type: 10, product: 'Soap', qty: 3, price: 1770 }] },
  { club: 'usa', at: at(3, 6), status: 1, lines: [{ type: 10, product: 'Towel', qty: 1, price: 2360 }] },
  { club: 'kala', at: at(3, 7), status: 1, lines: [{ type: 10, product: 'Towel', qty: 2, price: 4720 }] },
  { club: 'kala', at: at(4, 1, 1), status: 1, lines: [{ type: 10, product: 'Towel', qty: 9, price: 9000 }] }, // April
];
/** Entrances: approved (1) or refused (2). */
const ENTRANCES: { club: Key; at: Date; status: number }[] = [
  { club: 'reg', at: at(2, 10), status: 1 },
  { club: 'reg', at: at(2, 11), status: 1 },
  { club: 'reg', at: at(3, 1, 0), status: 1 },
  { club: 'reg', at: at(3, 9), status: 1 },
  { club: 'reg', at: at(3, 31, 23), status: 1 },
  { club: 'reg', at: at(3, 10), status: EntranceStatus.SubscriptionExpired },
  { club: 'usa', at: at(3, 12), status: 1 },
];
const FEB_MAR = { period: 'range', from: '2025-02-01', to: '2025-03-31', pageSize: 100 };
const inMarch = (d: Date) => d >= at(3, 1, 0) && d < at(4, 1, 0);
const monthOf = (d: Date) => (d < at(3, 1, 0) ? '2025-02' : d < at(4, 1, 0) ? '2025-03' : '2025-04');

describe(`operator cross-club reports (${TEST_DB})`, () => {
  let ctx: TestContext;
  let operator: Api;
  let admin: Api;
  const id = {} as Record<Key, number>;
  let anyClub: { id: number; externalClubId: number; licensesAmount: number };

  beforeAll(async () => {
    ctx = await createTestApp();
    const a = await signedInAdmin(ctx, { externalClubId: 1200, licensesAmount: 100 });
    admin = a.api;
    anyClub = a.club;
    const op = await makeUser(ctx, null, { level: UserLevel.SuperUser, isAdmin: true });
    operator = new Api(ctx.app);
    expect((await operator.login(op.username, TEST_PASSWORD, anyClub.externalClubId)).statusCode).toBe(200);
    for (const k of Object.keys(CLUBS) as Key[]) {
      const c = await makeClub(ctx, { externalClubId: CLUBS[k].ext, licensesAmount: CLUBS[k].licenses });
      id[k] = c.id;
    }
    // A disabled regular club low on licenses: not in the low-license report.
    const off = await makeClub(ctx, { externalClubId: 1502, licensesAmount: 1 });
    await ctx.database.db.update(clubs).set({ disabledAt: new Date() }).where(eq(clubs.id, off.id));
    const productId = {} as Record<string, number>;
    for (const b of BUYS) {
      const lines = [];
      for (const l of b.lines) {
        let itemId: number | undefined;
        if (l.product) {
          const k = `${b.club}:${l.product}`;
          productId[k] ??= (await factory.makeProduct(ctx, id[b.club], { name: l.product })).id;
          itemId = productId[k];
        }
        lines.push({ itemType: l.type, itemId, quantity: l.qty, unitPrice: l.price / l.qty, priceWithVat: l.price });
      }
      await factory.makePurchase(ctx, id[b.club], { at: b.at, paymentStatus: b.status, lines });
    }
    for (const e of ENTRANCES) await factory.makeEntrance(ctx, id[e.club], { at: e.at, status: e.status });
    // Licenses of the regular club: an operator load and an approved transfer in March, one pending;
    // of the USA club a paid card order.
    await factory.makeLicenseLoad(ctx, id.reg, { quantity: 5, userId: op.id, createdAt: at(3, 15) });
    await makeLicenseRequests(ctx, id.reg, op.id, [
      { qty: 40, price: 3000, reference: '1', status: LicenseRequestStatus.ApprovedLoaded, at: at(3, 16) },
      { qty: 50, price: 3000, reference: '2', status: LicenseRequestStatus.Pending, at: at(3, 17) },
    ]);
    await factory.makeLicenseOrder(ctx, id.usa, {
      code: 'OP-1',
      quantity: 10,
      amount: 30000,
      status: 'paid',
      createdAt: at(3, 18),
    });
  });
  afterAll(async () => ctx.close());

  const report = async (call: string, body: object) => {
    const res = await operator.post(`/api/Report/${call}`, body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as ReportResult;
  };

  function productCells(classes?: number[]) {
    const cells = new Map<string, { ext: number; product: Prod; purchases: number; qty: number; total: number }>();
    for (const b of BUYS) {
      if (!inMarch(b.at) || b.status === 3 || (classes && !classes.includes(CLUBS[b.club].cls))) continue;
      for (const l of b.lines.filter((x) => x.type === 10)) {
        const k = `${b.club}:${l.product}`;
        const c = cells.get(k) ?? { ext: CLUBS[b.club].ext, product: l.product!, purchases: 0, qty: 0, total: 0 };
        c.purchases++;
        c.qty += l.qty;
        c.total += l.price;
        cells.set(k, c);
      }
    }
    return [...cells.values()].sort((x, y) => x.ext - y.ext || x.product.localeCompare(y.product));
  }

  it('product purchases by clubs: club × product of the period, refunds left out; by class', async () => {
    const cells = productCells();
    const all = await report('GetClubsProductPurchasesReport', MARCH);
    expect(all.items.map((r) => [r.externalClubId, r.productName, r.purchases, r.quantity, r.total])).toEqual(
      cells.map((c) => [c.ext, c.product, c.purchases, c.qty, c.total]),
    );
    expect(all.totals).toEqual({
      cells: cells.length,
      quantity: sum(cells.map((c) => c.qty)),
      total: sum(cells.map((c) => c.total)),
    });
    const usa = await report('GetClubsProductPurchasesReport', { ...MARCH, status: [2] });
    expect(usa.items.map((r) => [r.externalClubId, r.productName])).toEqual(
      productCells([2]).map((c) => [c.ext, c.product]),
    );
    const regKala = await report('GetClubsProductPurchasesReport', {
      ...MARCH,
      status: [1, 3],
      sort: 'total',
      order: 'desc',
    });
    expect(regKala.items.map((r) => r.total)).toEqual(
      productCells([1, 3])
        .map((c) => c.total)
        .sort((x, y) => y - x),
    );
  });

  it('entrances and income by club per month', async () => {
    const rows = new Map<string, { ext: number; month: string; entrances: number; income: number }>();
    const cell = (k: Key, m: string) => {
      const key = `${k}:${m}`;
      const r = rows.get(key) ?? { ext: CLUBS[k].ext, month: m, entrances: 0, income: 0 };
      rows.set(key, r);
      return r;
    };
    const inRange = (d: Date) => d >= at(2, 1, 0) && d < at(4, 1, 0);
    for (const e of ENTRANCES) if (inRange(e.at) && e.status === 1) cell(e.club, monthOf(e.at)).entrances++;
    for (const b of BUYS)
      if (inRange(b.at) && b.status !== 3) cell(b.club, monthOf(b.at)).income += sum(b.lines.map((l) => l.price));
    const expected = [...rows.values()].sort((x, y) => x.ext - y.ext || x.month.localeCompare(y.month));
    const body = await report('GetClubsEntrancesAndIncomeReport', { ...FEB_MAR, sort: 'club', order: 'asc' });
    expect(body.items.map((r) => [r.externalClubId, r.month, r.entrances, r.income])).toEqual(
      expected.map((r) => [r.ext, r.month, r.entrances, r.income]),
    );
    expect(body.totals).toEqual({
      entrances: sum(expected.map((r) => r.entrances)),
      income: sum(expected.map((r) => r.income)),
    });
  });

  it('licenses by club and clubs with low licenses', async () => {
    const body = await report('GetClubsLicensesReport', MARCH);
    const byExt = new Map(body.items.map((r) => [r.externalClubId, r]));
    expect(byExt.get(CLUBS.reg.ext)).toMatchObject({ licensesLeft: 5, loaded: 45, used: 2, pending: 50, low: true });
    expect(byExt.get(CLUBS.usa.ext)).toMatchObject({ licensesLeft: 50, loaded: 10, used: 0, pending: 0, low: false });
    // A kala club (≥ 7000) is never "low" (seed 000 §9).
    expect(byExt.get(CLUBS.kala.ext)).toMatchObject({ licensesLeft: 2, low: false });
    expect(byExt.get(anyClub.externalClubId)).toMatchObject({ licensesLeft: 100, loaded: 0, used: 0 });
    expect(body.totals).toMatchObject({ clubs: 5, loaded: 55, used: 2, licensesLeft: 5 + 50 + 2 + 100 + 1 });
    const low = await report('GetClubsLowLicensesReport', MARCH);
    expect(low.items.map((r) => [r.externalClubId, r.licensesLeft, r.pending, r.lastLoadAt])).toEqual([
      [CLUBS.reg.ext, 5, 50, at(3, 16).toISOString()],
    ]);
    expect((await report('GetClubsLowLicensesReport', { ...MARCH, status: [2, 3] })).total).toBe(0);
  });

  it('exports .xlsx in the language asked; 422 with no rows', async () => {
    const res = await operator.post('/api/Report/GetClubsProductPurchasesReport/Export', { ...MARCH, lang: 'en' });
    expect(res.statusCode, res.body).toBe(200);
    const rows = await readXlsx(res.rawPayload);
    expect(rows[0]).toEqual(['Club number', 'Club', 'Product', 'Purchases', 'Quantity', 'Total incl. VAT']);
    // Header, one row per cell, then the totals row (a summary of totals and breakdowns follows it).
    const totalsRow = rows[1 + productCells().length];
    expect(totalsRow).toContain(sum(productCells().map((c) => c.total)) / 100);
    const he = await operator.post('/api/Report/GetClubsLicensesReport/Export', { ...MARCH, lang: 'he' });
    expect((await readXlsx(he.rawPayload))[0]).toContain('רישיונות שנותרו');
    // Club numbers are identifiers: number cells without a thousands separator (SheetJS reads the format).
    const sheet = XLSX.read(he.rawPayload, { cellNF: true });
    const clubCell = sheet.Sheets[sheet.SheetNames[0]!]!.A2!;
    expect(clubCell.t).toBe('n');
    expect(clubCell.z).toBe('0');
    const none = await operator.post('/api/Report/GetClubsProductPurchasesReport/Export', {
      period: 'range',
      from: '2020-01-01',
      to: '2020-01-31',
    });
    expect(none.statusCode).toBe(422);
  });

  it('answers 403 to a club admin on every cross-club report and export', async () => {
    for (const call of [
      'GetClubsProductPurchasesReport',
      'GetClubsLicensesReport',
      'GetClubsEntrancesAndIncomeReport',
      'GetClubsLowLicensesReport',
    ]) {
      expect((await admin.post(`/api/Report/${call}`, MARCH)).statusCode).toBe(403);
      expect((await admin.post(`/api/Report/${call}/Export`, MARCH)).statusCode).toBe(403);
    }
  });
});
