import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Api,
  createTestApp,
  makeUser,
  signedInAdmin,
  TEST_PASSWORD,
  type TestContext,
} from '../../../../test/harness.js';
import { localInstant } from '../../../../test/time.js';
import { readXlsx } from '../../../../test/upload.js';
import * as factory from '../../../../test/factories.js';
import type { ReportResult } from '@venue/domain';
import { MARCH, TZ } from '../test-setup.js';

type ProductKey = 'soap' | 'towel' | 'shampoo' | 'old' | 'gone';
interface Line {
  product: ProductKey;
  qty: number;
  unit: number;
}
interface Buy {
  at: Date;
  status: number;
  atTerminal?: boolean;
  lines: Line[];
  inMarch: boolean;
}

const CATALOGUE: Record<ProductKey, { name: string; price: number; active: boolean; deleted: boolean }> = {
  soap: { name: 'Soap', price: 1000, active: true, deleted: false },
  towel: { name: 'Towel', price: 1500, active: false, deleted: false },
  shampoo: { name: 'Shampoo', price: 2500, active: true, deleted: false }, // never sold: a zero row
  old: { name: 'Old robe', price: 4000, active: true, deleted: true }, // deleted but sold in March: shown
  gone: { name: 'Gone', price: 300, active: true, deleted: true }, // deleted, not sold: hidden
};

const BUYS: Buy[] = [
  {
    at: localInstant(TZ, 2025, 3, 1, 0, 0, 30),
    status: 1,
    lines: [{ product: 'soap', qty: 2, unit: 1000 }],
    inMarch: true,
  },
  {
    at: localInstant(TZ, 2025, 3, 10, 12),
    status: 2,
    atTerminal: true,
    lines: [
      { product: 'soap', qty: 1, unit: 1000 },
      { product: 'towel', qty: 1, unit: 1500 },
    ],
    inMarch: true,
  },
  { at: localInstant(TZ, 2025, 3, 11, 12), status: 1, lines: [{ product: 'old', qty: 1, unit: 4000 }], inMarch: true },
  {
    at: localInstant(TZ, 2025, 3, 12, 12),
    status: 3,
    lines: [{ product: 'soap', qty: 5, unit: 1000 }],
    inMarch: false,
  },
  {
    at: localInstant(TZ, 2025, 4, 1, 0, 0, 30),
    status: 1,
    lines: [{ product: 'gone', qty: 1, unit: 300 }],
    inMarch: false,
  },
  {
    at: localInstant(TZ, 2025, 2, 28, 23, 59, 30),
    status: 1,
    lines: [{ product: 'shampoo', qty: 1, unit: 2500 }],
    inMarch: false,
  },
];

const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);
const beforeVat = (v: number) => Math.round(v / 1.18);

/** Expected rows, from the arrays above (not from SQL). */
function expected(filter: (b: Buy) => boolean) {
  const lines = BUYS.filter((b) => b.inMarch && filter(b)).flatMap((b) => b.lines);
  const sold = (k: ProductKey) => BUYS.some((b) => b.inMarch && filter(b) && b.lines.some((l) => l.product === k));
  const keys = (Object.keys(CATALOGUE) as ProductKey[]).filter((k) => !CATALOGUE[k].deleted || sold(k));
  return keys.map((k) => {
    const mine = lines.filter((l) => l.product === k);
    const total = sum(mine.map((l) => l.qty * l.unit));
    const before = sum(mine.map((l) => beforeVat(l.qty * l.unit)));
    return {
      productName: CATALOGUE[k].name,
      price: CATALOGUE[k].price,
      active: CATALOGUE[k].active && !CATALOGUE[k].deleted,
      purchases: BUYS.filter((b) => b.inMarch && filter(b) && b.lines.some((l) => l.product === k)).length,
      quantity: sum(mine.map((l) => l.qty)),
      amountBeforeVat: before,
      vat: total - before,
      total,
    };
  });
}

describe('product summary report (POST /Report/GetProductSummaryReport)', () => {
  let ctx: TestContext;
  let api: Api;
  let clubId: number;
  let externalClubId: number;
  let terminalId: number;

  beforeAll(async () => {
    ctx = await createTestApp();
    const admin = await signedInAdmin(ctx);
    api = admin.api;
    clubId = admin.club.id;
    externalClubId = admin.club.externalClubId;
    const ids = {} as Record<ProductKey, number>;
    for (const k of Object.keys(CATALOGUE) as ProductKey[]) {
      const p = CATALOGUE[k];
      const row = await factory.makeProduct(ctx, clubId, {
        name: p.name,
        price: p.price,
        active: p.active,
        deleted: p.deleted,
      });
      ids[k] = row.id;
    }
    const t = await factory.makeTerminal(ctx, clubId, { name: 'Gate', serial: `PS-${clubId}`, secretHash: 'x' });
    terminalId = t.id;
    /** One purchase of `club` (invoice numbers from the club's counter), VAT 18% of each line. */
    const sell = (club: number, b: Buy, productId: (k: ProductKey) => number) =>
      factory.makePurchase(ctx, club, {
        lines: b.lines.map((l) => ({
          itemType: 10,
          itemId: productId(l.product),
          name: CATALOGUE[l.product].name,
          quantity: l.qty,
          unitPrice: l.unit,
        })),
        at: b.at,
        paymentStatus: b.status,
        source: b.atTerminal ? 'terminal' : 'console',
        terminalId: b.atTerminal ? terminalId : null,
      });
    for (const b of BUYS) await sell(clubId, b, (k) => ids[k]);

    // Another club sells "its" soap in March: invisible here.
    const other = await signedInAdmin(ctx);
    const foreign = await factory.makeProduct(ctx, other.club.id, { name: 'Foreign', price: 900 });
    await sell(other.club.id, BUYS[0], () => foreign.id);
  });
  afterAll(async () => ctx.close());

  const report = async (body: object, a: Api = api) => {
    const res = await a.post('/api/Report/GetProductSummaryReport', body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as ReportResult;
  };
  const strip = (items: ReportResult['items']) =>
    items
      .map(({ productId: _id, ...rest }) => rest)
      .sort((a, b) => String(a.productName).localeCompare(String(b.productName)));
  const byName = <T extends { productName: string }>(xs: T[]) =>
    [...xs].sort((a, b) => a.productName.localeCompare(b.productName));

  it('one row per catalogue product with what it sold in the period (zero when nothing), totals over all', async () => {
    const want = expected(() => true);
    const body = await report(MARCH);
    expect(body.total).toBe(want.length);
    expect(strip(body.items)).toEqual(byName(want));
    expect(body.items.map((r) => r.productName)).toEqual(['Old robe', 'Soap', 'Towel', 'Shampoo']); // by total, desc
    expect(body.totals).toEqual({
      products: want.length,
      sold: want.filter((r) => r.quantity > 0).length,
      quantity: sum(want.map((r) => r.quantity)),
      amountBeforeVat: sum(want.map((r) => r.amountBeforeVat)),
      vat: sum(want.map((r) => r.vat)),
      total: sum(want.map((r) => r.total)),
    });
  });

  it('the terminal filter limits the sales, not the catalogue; sorts by name', async () => {
    const want = expected((b) => b.atTerminal === true);
    const body = await report({ ...MARCH, terminalId, sort: 'productName', order: 'asc' });
    expect(body.items.map((r) => r.productName)).toEqual(byName(want).map((r) => r.productName));
    expect(strip(body.items)).toEqual(byName(want));
    expect(body.totals.quantity).toBe(2);
  });

  it('exports .xlsx with headers and a totals row; 403 without roleProductsReport', async () => {
    const res = await api.post('/api/Report/GetProductSummaryReport/Export', { ...MARCH, lang: 'en' });
    expect(res.statusCode).toBe(200);
    const rows = await readXlsx(res.rawPayload);
    expect(rows[0]).toContain('Price');
    // Header, the rows, then the totals row (a summary of totals and breakdowns follows it: docs/reports.md).
    expect(rows[1 + expected(() => true).length]?.[0]).toBe('Totals');
    const user = await makeUser(ctx, clubId, { permissions: { roleEntrancesReport: true } });
    const denied = new Api(ctx.app);
    await denied.login(user.username, TEST_PASSWORD, externalClubId);
    expect((await denied.post('/api/Report/GetProductSummaryReport', MARCH)).statusCode).toBe(403);
  });
});
