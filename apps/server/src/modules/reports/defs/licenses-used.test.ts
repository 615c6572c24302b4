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

interface Line {
  type: number;
  qty: number;
  price: number;
  expiry?: string;
}
interface Buy {
  at: Date;
  client: 'c1' | 'c2';
  status: number;
  lines: Line[];
  /** Expected in the March report. */
  inMarch: boolean;
}

/** The fixed data set: license lines (type 6) and others, agorot with VAT. */
const BUYS: Buy[] = [
  {
    at: localInstant(TZ, 2025, 3, 1, 0, 0, 30),
    client: 'c1',
    status: 1,
    lines: [{ type: 6, qty: 1, price: 3000, expiry: '2026-03-01' }],
    inMarch: true,
  },
  {
    at: localInstant(TZ, 2025, 3, 10, 12),
    client: 'c2',
    status: 2, // pending counts
    lines: [
      { type: 1, qty: 1, price: 11800 },
      { type: 6, qty: 2, price: 6000, expiry: '2027-03-10' },
    ],
    inMarch: true,
  },
  {
    at: localInstant(TZ, 2025, 3, 20, 9),
    client: 'c1',
    status: 1,
    lines: [{ type: 6, qty: 3, price: 9000, expiry: '2029-03-01' }],
    inMarch: true,
  },
  {
    at: localInstant(TZ, 2025, 3, 21, 9),
    client: 'c2',
    status: 3, // refunded: not used
    lines: [{ type: 6, qty: 1, price: 3000, expiry: '2026-03-21' }],
    inMarch: false,
  },
  {
    at: localInstant(TZ, 2025, 3, 31, 23, 59, 30),
    client: 'c2',
    status: 1,
    lines: [{ type: 10, qty: 1, price: 500 }], // not a license
    inMarch: false,
  },
  {
    at: localInstant(TZ, 2025, 4, 1, 0, 0, 30),
    client: 'c1',
    status: 1,
    lines: [{ type: 6, qty: 1, price: 3000, expiry: '2026-04-01' }],
    inMarch: false,
  },
];

const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);
const licenseLines = (b: Buy) => b.lines.filter((l) => l.type === 6);

describe('licenses used report (POST /Report/GetLicensesUsedReport)', () => {
  let ctx: TestContext;
  let api: Api;
  let clubId: number;
  let externalClubId: number;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    ctx = await createTestApp();
    const admin = await signedInAdmin(ctx);
    api = admin.api;
    clubId = admin.club.id;
    externalClubId = admin.club.externalClubId;
    /** One purchase of `club` (invoice numbers from the club's counter), VAT 18% of each line. */
    const sell = (club: number, b: Buy, clientId: number) =>
      factory.makePurchase(ctx, club, {
        lines: b.lines.map((l) => ({
          itemType: l.type,
          quantity: l.qty,
          unitPrice: l.price / l.qty,
          priceWithVat: l.price,
          expiry: l.expiry ?? null,
        })),
        clientId,
        at: b.at,
        paymentStatus: b.status,
      });
    const cs = await factory.makeClients(ctx, clubId, [
      { number: 1, firstName: 'Dina', lastName: 'Levi' },
      { number: 2, firstName: 'Rivka', lastName: 'Cohen' },
    ]);
    ids.c1 = cs[0].id;
    ids.c2 = cs[1].id;
    for (const b of BUYS) await sell(clubId, b, ids[b.client]);

    const other = await signedInAdmin(ctx);
    const oc = await factory.makeClient(ctx, other.club.id, { number: 1, firstName: 'X' });
    await sell(other.club.id, BUYS[0], oc.id);
  });
  afterAll(async () => ctx.close());

  const report = async (body: object, a: Api = api) => {
    const res = await a.post('/api/Report/GetLicensesUsedReport', body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as ReportResult;
  };

  it('lists the license lines of the period, not refunded, with quantity, expiry and amount; other clubs invisible', async () => {
    const expected = BUYS.filter((b) => b.inMarch).flatMap((b) =>
      licenseLines(b).map((l) => ({ at: b.at.toISOString(), client: b.client, ...l })),
    );
    const body = await report(MARCH);
    expect(body.total).toBe(expected.length);
    expect(body.totals).toEqual({
      count: expected.length,
      quantity: sum(expected.map((l) => l.qty)),
      clients: new Set(expected.map((l) => l.client)).size,
      total: sum(expected.map((l) => l.price)),
    });
    // Newest first by default.
    const newest = [...expected].reverse();
    expect(body.items.map((r) => [r.at, r.clientId, r.quantity, r.licenseExpiry, r.total])).toEqual(
      newest.map((l) => [l.at, ids[l.client], l.qty, l.expiry, l.price]),
    );
    expect(body.items[0].clientName).toBe('Dina Levi');
  });

  it('filters by client and sorts by quantity', async () => {
    const mine = BUYS.filter((b) => b.inMarch && b.client === 'c1').flatMap(licenseLines);
    const byClient = await report({ ...MARCH, clientId: ids.c1 });
    expect(byClient.total).toBe(mine.length);
    expect(byClient.totals.quantity).toBe(sum(mine.map((l) => l.qty)));
    const sorted = await report({ ...MARCH, sort: 'quantity', order: 'asc' });
    const qtys = BUYS.filter((b) => b.inMarch)
      .flatMap(licenseLines)
      .map((l) => l.qty)
      .sort((a, b) => a - b);
    expect(sorted.items.map((r) => r.quantity)).toEqual(qtys);
  });

  it('exports .xlsx with translated headers and a totals row', async () => {
    const res = await api.post('/api/Report/GetLicensesUsedReport/Export', { ...MARCH, lang: 'en', order: 'asc' });
    expect(res.statusCode).toBe(200);
    const rows = await readXlsx(res.rawPayload);
    expect(rows[0]).toContain('License valid until');
    // Dates are date cells (the club's wall clock, docs/reports.md "Formats and exports").
    expect(rows[1].some((v) => v instanceof Date && v.toISOString().startsWith('2026-03-01'))).toBe(true);
    const inMarch = BUYS.filter((b) => b.inMarch).flatMap(licenseLines);
    // Header, the rows, then the totals row (a summary of totals and breakdowns follows it: docs/reports.md).
    expect(rows[1 + inMarch.length]?.[0]).toBe('Totals');
    expect(rows[1 + inMarch.length]).toContain(sum(inMarch.map((l) => l.price)) / 100);
  });

  it('needs no flag beyond sign-in (seed 000 §6 names none); 401 without a token', async () => {
    const user = await makeUser(ctx, clubId, { permissions: {} });
    const plain = new Api(ctx.app);
    await plain.login(user.username, TEST_PASSWORD, externalClubId);
    expect((await report(MARCH, plain)).total).toBe(BUYS.filter((b) => b.inMarch).flatMap(licenseLines).length);
    expect((await new Api(ctx.app).post('/api/Report/GetLicensesUsedReport', MARCH)).statusCode).toBe(401);
  });
});
