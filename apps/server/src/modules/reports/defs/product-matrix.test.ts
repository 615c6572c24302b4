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

type Prod = 'soap' | 'towel' | 'gone';
type Term = 'gateA' | 'gateB' | null;
interface Line {
  type: number;
  product?: Prod;
  qty: number;
  /** With VAT, agorot. */
  price: number;
  /** Before VAT, agorot (given, so the VAT is what the test states). */
  before: number;
}
interface Buy {
  at: Date;
  terminal: Term;
  status: number;
  lines: Line[];
}

const at = (d: number, h = 12, mo = 3) => localInstant(TZ, 2025, mo, d, h);
/** The fixed data set: products sold at two gates and in the console (terminal null). */
const BUYS: Buy[] = [
  {
    at: at(1, 0),
    terminal: 'gateA',
    status: 1,
    lines: [
      { type: 10, product: 'soap', qty: 2, price: 1180, before: 1000 },
      { type: 10, product: 'towel', qty: 1, price: 2360, before: 2000 },
    ],
  },
  { at: at(5), terminal: 'gateA', status: 2, lines: [{ type: 10, product: 'soap', qty: 1, price: 590, before: 500 }] },
  {
    at: at(6),
    terminal: 'gateB',
    status: 1,
    lines: [{ type: 10, product: 'soap', qty: 3, price: 1770, before: 1500 }],
  },
  {
    at: at(7),
    terminal: null,
    status: 1,
    lines: [
      { type: 10, product: 'towel', qty: 2, price: 4720, before: 4000 },
      { type: 2, qty: 1, price: 10000, before: 8475 }, // a money load: not a product
    ],
  },
  { at: at(8), terminal: 'gateB', status: 1, lines: [{ type: 10, product: 'gone', qty: 1, price: 300, before: 254 }] },
  // Refunded: not counted.
  {
    at: at(9),
    terminal: 'gateB',
    status: 3,
    lines: [{ type: 10, product: 'towel', qty: 5, price: 11800, before: 10000 }],
  },
  // Outside March (local time).
  {
    at: at(31, 23, 2),
    terminal: 'gateA',
    status: 1,
    lines: [{ type: 10, product: 'soap', qty: 9, price: 5310, before: 4500 }],
  },
  {
    at: at(1, 0, 4),
    terminal: 'gateA',
    status: 1,
    lines: [{ type: 10, product: 'soap', qty: 9, price: 5310, before: 4500 }],
  },
];
const NAMES: Record<Prod, string> = { soap: 'Soap', towel: 'Towel', gone: 'Old comb' };
const TERMINALS: Record<'gateA' | 'gateB', string> = { gateA: 'Gate A', gateB: 'Gate B' };

const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);
const inMarch = (b: Buy) => b.at >= at(1, 0) && b.at < localInstant(TZ, 2025, 4, 1, 0) && b.status !== 3;

/** The expected cells, computed from BUYS (not from SQL). */
function expectedCells(keep: (b: Buy) => boolean = () => true) {
  const cells = new Map<
    string,
    { product: Prod; terminal: Term; purchases: Set<number>; qty: number; before: number; total: number }
  >();
  BUYS.forEach((b, n) => {
    if (!inMarch(b) || !keep(b)) return;
    for (const l of b.lines.filter((x) => x.type === 10)) {
      const k = `${l.product}|${b.terminal}`;
      const cell = cells.get(k) ?? {
        product: l.product!,
        terminal: b.terminal,
        purchases: new Set(),
        qty: 0,
        before: 0,
        total: 0,
      };
      cell.purchases.add(n);
      cell.qty += l.qty;
      cell.before += l.before;
      cell.total += l.price;
      cells.set(k, cell);
    }
  });
  return [...cells.values()];
}

describe('product matrix report (POST /Report/GetProductMatrixReport)', () => {
  let ctx: TestContext;
  let api: Api;
  let clubId: number;
  let externalClubId: number;
  const pid = {} as Record<Prod, number>;
  const tid = {} as Record<'gateA' | 'gateB', number>;

  beforeAll(async () => {
    ctx = await createTestApp();
    const admin = await signedInAdmin(ctx, { settings: { isUpsellEnabled: true } });
    api = admin.api;
    clubId = admin.club.id;
    externalClubId = admin.club.externalClubId;
    const ps = [
      await factory.makeProduct(ctx, clubId, { name: NAMES.soap, price: 590 }),
      await factory.makeProduct(ctx, clubId, { name: NAMES.towel, price: 2360 }),
      await factory.makeProduct(ctx, clubId, { name: NAMES.gone, price: 300, deleted: true }),
    ];
    Object.assign(pid, { soap: ps[0].id, towel: ps[1].id, gone: ps[2].id });
    const ts = [
      await factory.makeTerminal(ctx, clubId, { serial: `PM-${clubId}-1`, name: TERMINALS.gateA, secretHash: 'x' }),
      await factory.makeTerminal(ctx, clubId, { serial: `PM-${clubId}-2`, name: TERMINALS.gateB, secretHash: 'x' }),
    ];
    Object.assign(tid, { gateA: ts[0].id, gateB: ts[1].id });

    /** One purchase of `club` (invoice numbers from the club's counter), lines with their own amounts before VAT. */
    const sell = (club: number, b: Buy, terminalId: number | null, productId: (p: Prod) => number) => {
      const total = sum(b.lines.map((l) => l.price));
      const before = sum(b.lines.map((l) => l.before));
      return factory.makePurchase(ctx, club, {
        lines: b.lines.map((l) => ({
          itemType: l.type,
          itemId: l.product ? productId(l.product) : null,
          name: l.product ? NAMES[l.product] : '',
          quantity: l.qty,
          unitPrice: Math.round(l.price / l.qty),
          priceWithVat: l.price,
          amountBeforeVat: l.before,
        })),
        terminalId,
        at: b.at,
        total,
        amountBeforeVat: before,
        vat: total - before,
        paymentStatus: b.status,
      });
    };
    for (const b of BUYS) await sell(clubId, b, b.terminal ? tid[b.terminal] : null, (p) => pid[p]);

    // Another club's sales of the same period must not show.
    const other = await signedInAdmin(ctx, { settings: { isUpsellEnabled: true } });
    const op = await factory.makeProduct(ctx, other.club.id, { name: 'Other soap', price: 100 });
    await sell(other.club.id, BUYS[0], null, () => op.id);
  });
  afterAll(async () => ctx.close());

  const report = async (body: object, a: Api = api) => {
    const res = await a.post('/api/Report/GetProductMatrixReport', body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as ReportResult;
  };

  it('one row per product × terminal: purchases, quantity, before VAT, VAT, total; refunded and other clubs left out', async () => {
    const cells = expectedCells();
    const body = await report(MARCH);
    expect(body.total).toBe(cells.length);
    expect(body.totals).toMatchObject({
      cells: cells.length,
      purchases: new Set(cells.flatMap((c) => [...c.purchases])).size,
      quantity: sum(cells.map((c) => c.qty)),
      amountBeforeVat: sum(cells.map((c) => c.before)),
      vat: sum(cells.map((c) => c.total - c.before)),
      total: sum(cells.map((c) => c.total)),
    });
    const key = (r: { productId: unknown; terminalId: unknown }) => `${String(r.productId)}|${String(r.terminalId)}`;
    const got = new Map(body.items.map((r) => [key(r as never), r]));
    for (const c of cells) {
      const row = got.get(`${pid[c.product]}|${c.terminal ? tid[c.terminal] : null}`);
      expect(row, `${c.product} at ${c.terminal}`).toMatchObject({
        productName: NAMES[c.product],
        terminalName: c.terminal ? TERMINALS[c.terminal] : 'קונסולת הניהול',
        purchases: c.purchases.size,
        quantity: c.qty,
        amountBeforeVat: c.before,
        vat: c.total - c.before,
        total: c.total,
      });
    }
    // Default order: product name, then terminal.
    const names = body.items.map((r) => String(r.productName));
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
    // Total per terminal ('' = the console).
    const byTerminal: Record<string, number> = {};
    for (const c of cells) {
      const k = c.terminal ? TERMINALS[c.terminal] : '';
      byTerminal[k] = (byTerminal[k] ?? 0) + c.total;
    }
    expect(body.totals.byTerminal).toEqual(byTerminal);
  });

  it('filters by terminal and product, sorts by total, pages', async () => {
    const atB = expectedCells((b) => b.terminal === 'gateB');
    const body = await report({ ...MARCH, terminalId: tid.gateB });
    expect(body.total).toBe(atB.length);
    expect(body.totals.total).toBe(sum(atB.map((c) => c.total)));

    const soap = expectedCells().filter((c) => c.product === 'soap');
    const bySoap = await report({ ...MARCH, productId: pid.soap, sort: 'total', order: 'desc' });
    expect(bySoap.items.map((r) => r.total)).toEqual(soap.map((c) => c.total).sort((a, b) => b - a));

    const all = expectedCells();
    const page2 = await report({ ...MARCH, pageSize: 2, page: 2, sort: 'quantity', order: 'asc' });
    expect(page2.total).toBe(all.length);
    expect(page2.items.map((r) => r.quantity)).toEqual(
      all
        .map((c) => c.qty)
        .sort((a, b) => a - b)
        .slice(2, 4),
    );
  });

  it('exports .xlsx with the headers in English and a totals row', async () => {
    const res = await api.post('/api/Report/GetProductMatrixReport/Export', { ...MARCH, lang: 'en' });
    expect(res.statusCode).toBe(200);
    const rows = await readXlsx(res.rawPayload);
    expect(rows[0]).toEqual(
      expect.arrayContaining(['Product', 'Terminal', 'Quantity', 'Before VAT', 'VAT', 'Total incl. VAT']),
    );
    expect(rows.flat()).toContain('Management console');
    const cells = expectedCells();
    // The totals row after the rows (the summary of the totals follows it).
    expect(rows[1 + cells.length][0]).toBe('Totals');
    expect(rows[1 + cells.length]).toContain(sum(cells.map((c) => c.total)) / 100);
  });

  it('needs roleProductsReport (403), 401 without a token', async () => {
    const user = await makeUser(ctx, clubId, { permissions: { roleCashReport: true } });
    const plain = new Api(ctx.app);
    await plain.login(user.username, TEST_PASSWORD, externalClubId);
    expect((await plain.post('/api/Report/GetProductMatrixReport', MARCH)).statusCode).toBe(403);
    const allowed = await makeUser(ctx, clubId, { permissions: { roleProductsReport: true } });
    const ok = new Api(ctx.app);
    await ok.login(allowed.username, TEST_PASSWORD, externalClubId);
    expect((await report(MARCH, ok)).total).toBe(expectedCells().length);
    expect((await new Api(ctx.app).post('/api/Report/GetProductMatrixReport', MARCH)).statusCode).toBe(401);
  });

  it('the products report over the same purchases: one row per product, a purchase with two products counted once', async () => {
    const res = await api.post('/api/Report/GetProductsReport', MARCH);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as ReportResult;
    const cells = expectedCells();
    const perProduct = (['soap', 'towel', 'gone'] as Prod[])
      .map((p) => cells.filter((c) => c.product === p))
      .filter((cs) => cs.length > 0);
    expect(body.total).toBe(perProduct.length);
    // Default order: total, largest first.
    expect(body.items).toEqual(
      perProduct
        .map((cs) => ({
          productId: pid[cs[0].product],
          productName: NAMES[cs[0].product],
          purchases: new Set(cs.flatMap((c) => [...c.purchases])).size,
          quantity: sum(cs.map((c) => c.qty)),
          amountBeforeVat: sum(cs.map((c) => c.before)),
          vat: sum(cs.map((c) => c.total - c.before)),
          total: sum(cs.map((c) => c.total)),
        }))
        .sort((a, b) => b.total - a.total),
    );
    // BUYS[0] sold soap and towel: one purchase in the totals, in both rows.
    const purchasesInRows = sum(body.items.map((r) => r.purchases as number));
    expect(body.totals).toEqual({
      purchases: new Set(cells.flatMap((c) => [...c.purchases])).size,
      quantity: sum(cells.map((c) => c.qty)),
      amountBeforeVat: sum(cells.map((c) => c.before)),
      vat: sum(cells.map((c) => c.total - c.before)),
      total: sum(cells.map((c) => c.total)),
    });
    expect(body.totals.purchases).toBe(purchasesInRows - 1);
    const atA = (
      await api.post('/api/Report/GetProductsReport', { ...MARCH, terminalId: tid.gateA })
    ).json() as ReportResult;
    const cellsA = expectedCells((b) => b.terminal === 'gateA');
    expect(atA.totals).toMatchObject({
      purchases: new Set(cellsA.flatMap((c) => [...c.purchases])).size,
      total: sum(cellsA.map((c) => c.total)),
    });
  });

  it("another club's product id matches nothing", async () => {
    const other = await signedInAdmin(ctx, { settings: { isUpsellEnabled: true } });
    const body = await report({ ...MARCH, productId: pid.soap }, other.api);
    expect(body.total).toBe(0);
    expect(body.totals.total).toBe(0);
  });
});
