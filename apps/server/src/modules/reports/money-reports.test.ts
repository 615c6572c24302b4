import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, createTestApp, makeUser, signedInAdmin, TEST_PASSWORD, type TestContext } from '../../../test/harness.js';
import { localInstant } from '../../../test/time.js';
import { readXlsx } from '../../../test/upload.js';
import * as factory from '../../../test/factories.js';
import { makeSaraAndAvi, MARCH, sum, TZ } from './test-setup.js';
import type { ReportResult } from '@venue/domain';

interface Item {
  type: number;
  name: string;
  qty: number;
  price: number;
  beforeVat: number;
  itemId?: number;
}
interface Pay {
  method: number;
  amount: number;
}
interface Fixture {
  key: string;
  day: [number, number, number];
  client: 'c1' | 'c2';
  status: number;
  fee?: number;
  items: Item[];
  pays: Pay[];
  terminal?: boolean;
}

/** The fixed data set: amounts in agorot, VAT 18% on money received (not on balance payments). */
const FIXTURE: Fixture[] = [
  {
    key: 'p1',
    day: [3, 10, 10],
    client: 'c1',
    status: 1,
    terminal: true,
    items: [{ type: 1, name: 'Monthly', qty: 1, price: 11800, beforeVat: 10000 }],
    pays: [{ method: 0, amount: 11800 }],
  },
  {
    key: 'p2',
    day: [3, 12, 12],
    client: 'c2',
    status: 1,
    fee: 100,
    items: [
      { type: 2, name: 'Load', qty: 1, price: 5000, beforeVat: 4237 },
      { type: 10, name: 'Soap', qty: 2, price: 2000, beforeVat: 1695, itemId: 77 },
    ],
    pays: [
      { method: 1, amount: 5000 },
      { method: 2, amount: 2100 },
    ],
  },
  {
    key: 'p3',
    day: [3, 15, 9],
    client: 'c1',
    status: 1,
    items: [{ type: 4, name: '', qty: 1, price: 1500, beforeVat: 1500 }],
    pays: [{ method: 7, amount: 1500 }],
  },
  {
    key: 'p4',
    day: [3, 20, 18],
    client: 'c2',
    status: 3,
    items: [{ type: 1, name: 'Monthly', qty: 1, price: 11800, beforeVat: 10000 }],
    pays: [{ method: 1, amount: 11800 }],
  },
  {
    key: 'p5',
    day: [4, 2, 11],
    client: 'c1',
    status: 1,
    items: [{ type: 10, name: 'Soap', qty: 1, price: 1000, beforeVat: 847, itemId: 77 }],
    pays: [{ method: 0, amount: 1000 }],
  },
];

const totalOf = (f: Fixture) => sum(f.items.map((i) => i.price)) + (f.fee ?? 0);
const vatOf = (f: Fixture) => sum(f.items.map((i) => i.price - i.beforeVat));
const inMarch = FIXTURE.filter((f) => f.day[0] === 3);

describe('money reports: payments, purchases, debts, financial', () => {
  let ctx: TestContext;
  let api: Api;
  let clubId: number;
  let externalClubId: number;
  const ids = {} as Record<'c1' | 'c2' | 't1', number>;

  beforeAll(async () => {
    ctx = await createTestApp();
    const a = await signedInAdmin(ctx);
    api = a.api;
    clubId = a.club.id;
    externalClubId = a.club.externalClubId;
    const { c1, c2 } = await makeSaraAndAvi(ctx, clubId);
    const t1 = await factory.makeTerminal(ctx, clubId, { serial: `M-${clubId}`, name: 'Kiosk', secretHash: 'x' });
    Object.assign(ids, { c1: c1.id, c2: c2.id, t1: t1.id });

    /** One fixture as a purchase of `club` (invoice numbers from the club's counter: 1, 2, …). */
    const sell = async (club: number, f: Fixture, clientId: number) => {
      const total = totalOf(f);
      const vat = vatOf(f);
      const paid = (ms: number[]) => sum(f.pays.filter((p) => ms.includes(p.method)).map((p) => p.amount));
      await factory.makePurchase(ctx, club, {
        lines: f.items.map((i) => ({
          itemType: i.type,
          itemId: i.itemId ?? null,
          name: i.name,
          quantity: i.qty,
          unitPrice: i.price / i.qty,
          amountBeforeVat: i.beforeVat,
        })),
        payments: f.pays.map((x) => [x.method, x.amount]),
        clientId,
        at: localInstant(TZ, 2025, ...f.day),
        total,
        amountBeforeVat: total - vat,
        vat,
        paymentStatus: f.status,
        paidCash: paid([0]),
        paidCredit: paid([1, 2, 4]),
        paidBeats: paid([7]),
        paidTemp: paid([3]),
        paidOther: paid([5, 6]),
        fee: f.fee ?? 0,
        userId: club === clubId ? a.user.id : null,
        terminalId: f.terminal && club === clubId ? t1.id : null,
      });
    };
    for (const f of FIXTURE) await sell(clubId, f, ids[f.client]);

    // Another club, same month: never visible.
    const other = await signedInAdmin(ctx);
    const oc = await factory.makeClient(ctx, other.club.id, { number: 1, firstName: 'X', lastName: 'Y' });
    await sell(other.club.id, { ...FIXTURE[1], key: 'o1' }, oc.id);
    const march = (d: number) => localInstant(TZ, 2025, 3, d, 10);
    await factory.makeDebt(ctx, c1, { amount: 5000, paid: 0, description: 'Towel', createdAt: march(5) });
    await factory.makeDebt(ctx, c2, { amount: 3000, paid: 3000, createdAt: march(6) });
    await factory.makeDebt(ctx, c1, { amount: 2000, paid: 500, createdAt: march(7) });
    await factory.makeDebt(ctx, c1, { amount: 9999, deleted: true, createdAt: march(8) });
    await factory.makeDebt(ctx, c1, { amount: 7777, createdAt: localInstant(TZ, 2025, 4, 1, 10) });
    await factory.makeDebt(ctx, oc, { amount: 4444, createdAt: march(5) });
  });
  afterAll(async () => ctx.close());

  const report = async (call: string, body: object) => {
    const res = await api.post(`/api/Report/${call}`, body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as ReportResult;
  };

  it('payments: one row per payment line of the period, amount per method, other clubs invisible', async () => {
    const body = await report('GetPaymentsReport', MARCH);
    const lines = inMarch.flatMap((f) => f.pays);
    expect(body.total).toBe(lines.length);
    const byMethod: Record<string, number> = {};
    for (const l of lines) byMethod[String(l.method)] = (byMethod[String(l.method)] ?? 0) + l.amount;
    expect(body.totals).toEqual({ count: lines.length, amount: sum(lines.map((l) => l.amount)), byMethod });
    expect(body.items[0]).toMatchObject({ invoiceNumber: 4, clientName: 'Avi Cohen', method: 1, amount: 11800 });
    const cash = await report('GetPaymentsReport', { ...MARCH, paymentMethod: [0] });
    expect(cash.totals).toMatchObject({ count: 1, amount: 11800 });
    expect(cash.items[0]).toMatchObject({ terminalName: 'Kiosk', clientId: ids.c1 });
    const sorted = await report('GetPaymentsReport', { ...MARCH, sort: 'amount', order: 'asc' });
    expect(sorted.items.map((r) => r.amount)).toEqual(lines.map((l) => l.amount).sort((x, y) => x - y));
  });

  it('purchases: rows with VAT and totals per payment kind; filters by item type, product, method, status', async () => {
    const body = await report('GetPurchases', MARCH);
    expect(body.total).toBe(inMarch.length);
    const paid = (ms: number[]) =>
      sum(inMarch.flatMap((f) => f.pays.filter((p) => ms.includes(p.method)).map((p) => p.amount)));
    expect(body.totals).toEqual({
      count: 4,
      total: sum(inMarch.map(totalOf)),
      vat: sum(inMarch.map(vatOf)),
      amountBeforeVat: sum(inMarch.map((f) => totalOf(f) - vatOf(f))),
      paidCash: paid([0]),
      paidCredit: paid([1, 2, 4]),
      paidBeats: paid([7]),
      paidTemp: 0,
      paidOther: 0,
      refundedAmount: sum(inMarch.filter((f) => f.status === 3).map(totalOf)),
    });
    const p2 = body.items.find((r) => r.invoiceNumber === 2)!;
    expect(p2).toMatchObject({ items: 'Load, 2 × Soap', total: 7100, vat: 763 + 305, amountBeforeVat: 7100 - 1068 });
    // An item without a name shows its type, in the caller's language.
    expect(body.items.find((r) => r.invoiceNumber === 3)!.items).toBe('כניסה');
    const en = await report('GetPurchases', { ...MARCH, lang: 'en' });
    expect(en.items.find((r) => r.invoiceNumber === 3)!.items).toBe('Entrance');
    expect((await report('GetPurchases', { ...MARCH, itemType: [1] })).total).toBe(2);
    expect((await report('GetPurchases', { ...MARCH, productId: 77 })).total).toBe(1);
    expect((await report('GetPurchases', { ...MARCH, paymentMethod: [7] })).items[0].invoiceNumber).toBe(3);
    expect((await report('GetPurchases', { ...MARCH, status: [3] })).totals.total).toBe(11800);
    expect((await report('GetPurchases', { period: 'month', anchor: '2025-04-10' })).totals.total).toBe(1000);
  });

  it('financial: per item type before VAT, VAT and total; money per method; refunds excluded; fee apart', async () => {
    const body = await report('GetFinancialReport', MARCH);
    const counted = inMarch.filter((f) => f.status !== 3);
    const types = [...new Set(counted.flatMap((f) => f.items.map((i) => i.type)))].sort((x, y) => x - y);
    expect(body.total).toBe(types.length);
    expect(body.items).toEqual(
      types.map((t) => {
        const items = counted.flatMap((f) => f.items.filter((i) => i.type === t));
        return {
          itemType: t,
          purchases: counted.filter((f) => f.items.some((i) => i.type === t)).length,
          quantity: sum(items.map((i) => i.qty)),
          amountBeforeVat: sum(items.map((i) => i.beforeVat)),
          vat: sum(items.map((i) => i.price - i.beforeVat)),
          total: sum(items.map((i) => i.price)),
        };
      }),
    );
    const byMethod: Record<string, number> = {};
    for (const p of counted.flatMap((f) => f.pays))
      byMethod[String(p.method)] = (byMethod[String(p.method)] ?? 0) + p.amount;
    expect(body.totals).toEqual({
      purchases: counted.length,
      quantity: sum(counted.flatMap((f) => f.items.map((i) => i.qty))),
      amountBeforeVat: sum(counted.flatMap((f) => f.items.map((i) => i.beforeVat))),
      vat: sum(counted.map(vatOf)),
      total: sum(counted.flatMap((f) => f.items.map((i) => i.price))),
      fee: 100,
      byMethod,
    });
    // Items total + fees = what the purchases cost; methods sum to the same.
    expect((body.totals.total as number) + (body.totals.fee as number)).toBe(sum(counted.map(totalOf)));
    expect(sum(Object.values(byMethod))).toBe(sum(counted.map(totalOf)));
    const sorted = await report('GetFinancialReport', { ...MARCH, sort: 'total', order: 'desc' });
    expect(sorted.items.map((r) => r.itemType)).toEqual([1, 2, 10, 4]);
  });

  it('products: product lines per product, not refunded, with VAT', async () => {
    const body = await report('GetProductsReport', { period: 'year', anchor: '2025-06-01' });
    const lines = FIXTURE.filter((f) => f.status !== 3).flatMap((f) => f.items.filter((i) => i.type === 10));
    expect(body.items).toEqual([
      {
        productId: 77,
        productName: 'Soap',
        purchases: 2,
        quantity: sum(lines.map((i) => i.qty)),
        amountBeforeVat: sum(lines.map((i) => i.beforeVat)),
        vat: sum(lines.map((i) => i.price - i.beforeVat)),
        total: sum(lines.map((i) => i.price)),
      },
    ]);
    expect(body.totals).toMatchObject({ quantity: 3, total: 3000 });
    expect((await report('GetProductsReport', MARCH)).totals).toMatchObject({ quantity: 2, total: 2000 });
  });

  it('debts: registered in the period, not deleted; open amounts; open/paid filter', async () => {
    const body = await report('GetDebts', MARCH);
    expect(body.totals).toEqual({ count: 3, amount: 10000, paid: 3500, open: 6500 });
    expect(body.items.map((r) => r.open)).toEqual([1500, 0, 5000]);
    expect((await report('GetDebts', { ...MARCH, status: [1] })).totals).toMatchObject({ count: 2, open: 6500 });
    expect((await report('GetDebts', { ...MARCH, status: [2] })).totals).toMatchObject({ count: 1, paid: 3000 });
    expect((await report('GetDebts', { ...MARCH, clientId: ids.c2 })).total).toBe(1);
  });

  it('exports .xlsx with translated headers and a totals row; 422 NO_DATA_TO_EXPORT when empty', async () => {
    const res = await api.post('/api/Report/GetPurchases/Export', { ...MARCH, lang: 'en', order: 'asc' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain('purchases-2025-03-01-2025-03-31.xlsx');
    const rows = await readXlsx(res.rawPayload);
    expect(rows[0].slice(0, 4)).toEqual(['Date and time', 'Invoice', 'Client no.', 'Client']);
    // Header, 4 rows, the totals row, then the summary of the totals (export-format.test.ts).
    expect(rows[5][0]).toBe('Totals');
    // A date cell holding the club's wall clock (its UTC fields).
    expect(rows[1].slice(0, 2)).toEqual([new Date('2025-03-10T10:00:00Z'), 1]);
    const last = rows[5];
    expect(last[0]).toBe('Totals');
    expect(last[7]).toBe(sum(inMarch.map(totalOf)) / 100);
    const he = await readXlsx((await api.post('/api/Report/GetFinancialReport/Export', MARCH)).rawPayload);
    expect(he[0][0]).toBe('סוג פריט');
    expect(he[1][0]).toBe('מנוי');
    const debtsEn = await readXlsx(
      (await api.post('/api/Report/GetDebts/Export', { ...MARCH, lang: 'en' })).rawPayload,
    );
    expect(debtsEn[0].slice(3, 5)).toEqual(['Description', 'Source']);
    expect(debtsEn[1][4]).toBe('Manual');
    const none = await api.post('/api/Report/GetDebts/Export', { period: 'day', anchor: '2020-01-01' });
    expect(none.statusCode).toBe(422);
    expect(none.json().code).toBe('NO_DATA_TO_EXPORT');
  });

  it('refuses an unknown sort key (400) and answers 403 without the report permission', async () => {
    const bad = await api.post('/api/Report/GetPurchases', { ...MARCH, sort: 'secret' });
    expect(bad.statusCode).toBe(400);
    const user = await makeUser(ctx, clubId, { permissions: { rolePaymentesReport: true } });
    const other = new Api(ctx.app);
    await other.login(user.username, TEST_PASSWORD, externalClubId);
    expect((await other.post('/api/Report/GetPaymentsReport', MARCH)).statusCode).toBe(200);
    for (const call of ['GetPurchases', 'GetDebts', 'GetFinancialReport', 'GetPurchases/Export']) {
      const res = await other.post(`/api/Report/${call}`, MARCH);
      expect(res.statusCode, call).toBe(403);
    }
  });
});
