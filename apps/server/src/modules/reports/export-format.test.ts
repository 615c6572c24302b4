import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as XLSX from '@e965/xlsx';
import { createTestApp, signedInAdmin, type Api, type TestContext } from '../../../test/harness.js';
import * as factory from '../../../test/factories.js';
import { at, MARCH } from './test-setup.js';

/**
 * The report exports read back with a spreadsheet reader the product does not
 * write with (SheetJS; the product writes with exceljs): date cells, number
 * formats, words instead of codes, a totals row with counts and sums
 * (docs/reports.md "Formats and exports"). And the client search of the
 * entrance, payments, purchases and activities reports (issue 19).
 */
describe('report exports read by another reader, and the client search', () => {
  let ctx: TestContext;
  let api: Api;
  let clubId: number;

  beforeAll(async () => {
    ctx = await createTestApp();
    const a = await signedInAdmin(ctx);
    api = a.api;
    clubId = a.club.id;
    const [sara, avi] = await factory.makeClients(ctx, clubId, [
      { number: 2001, firstName: 'Sara', lastName: 'Zilber', personalId: '012345674', cardSerial: 'CARD-77' },
      { number: 2002, firstName: 'Avi', lastName: 'Cohen', personalId: '000000018' },
    ]);
    // Another club's client with the same name and number: never found.
    const other = await signedInAdmin(ctx);
    const [ghost] = await factory.makeClients(ctx, other.club.id, [
      { number: 2001, firstName: 'Sara', lastName: 'Zilber' },
    ]);
    await factory.makeEntrances(ctx, other.club.id, [{ at: at(3, 5), clientId: ghost.id, amount: 999 }]);
    await factory.makeEntrances(ctx, clubId, [
      // 10:07 local on 5 March 2025 (Jerusalem, UTC+2).
      { at: new Date('2025-03-05T08:07:00Z'), status: 1, reason: 2, clientId: sara.id, amount: 123456 },
      { at: at(3, 6), status: 4, reason: 18, clientId: avi.id, amount: 0 },
      { at: at(3, 7), status: 1, reason: 1, clientId: avi.id, amount: 2550 },
    ]);
    await factory.makePurchase(ctx, clubId, {
      clientId: sara.id,
      at: at(3, 8),
      lines: [{ itemType: 3, name: '', unitPrice: 1000 }],
      payments: [[0, 1000]],
    });
    await factory.makePurchase(ctx, clubId, {
      clientId: avi.id,
      at: at(3, 9),
      lines: [{ itemType: 2, name: '', unitPrice: 5000 }],
      payments: [[1, 5000]],
    });
  });
  afterAll(() => ctx.close());

  const exportOf = async (call: string, body: Record<string, unknown>) => {
    const res = await api.post(`/api/Report/${call}/Export`, { ...MARCH, ...body });
    expect(res.statusCode).toBe(200);
    return XLSX.read(res.rawPayload, { type: 'buffer', cellNF: true, cellDates: false });
  };
  const sheetRows = (wb: XLSX.WorkBook) =>
    XLSX.utils.sheet_to_json<unknown[]>(wb.Sheets[wb.SheetNames[0]], { header: 1, raw: true, blankrows: true });
  const cell = (wb: XLSX.WorkBook, ref: string) => wb.Sheets[wb.SheetNames[0]][ref] as XLSX.CellObject;

  it('writes dates as date cells in the club time, money as numbers with the currency format, codes as words', async () => {
    const wb = await exportOf('GetEnteracesReport', { lang: 'he', sort: 'at', order: 'asc' });
    expect(wb.SheetNames[0]).toBe('כניסות');
    const rows = sheetRows(wb);
    // at, client number, client, group, terminal, status, reason, amount
    expect(rows[0]).toEqual(['תאריך ושעה', 'מס׳ לקוח', 'לקוח', 'קבוצה', 'עמדה', 'סטטוס', 'סיבה', 'סכום']);
    const date = cell(wb, 'A2');
    expect(date.t).toBe('n');
    expect(date.z).toBe('dd/mm/yyyy hh:mm');
    // The serial is the club's wall clock: 5 March 2025 10:07.
    const parsed = XLSX.SSF.parse_date_code(date.v as number);
    expect([parsed.y, parsed.m, parsed.d, parsed.H, parsed.M]).toEqual([2025, 3, 5, 10, 7]);
    expect(XLSX.SSF.format(date.z as string, date.v)).toBe('05/03/2025 10:07');
    // The client number without a thousands separator.
    expect(cell(wb, 'B2')).toMatchObject({ t: 'n', v: 2001, z: '0' });
    expect(XLSX.SSF.format('0', 2001)).toBe('2001');
    // Words, not codes.
    expect(cell(wb, 'F2')).toMatchObject({ t: 's', v: 'כניסה אושרה' });
    expect(cell(wb, 'G2')).toMatchObject({ t: 's', v: 'כניסה מיתרה כספית' });
    expect(cell(wb, 'F3')).toMatchObject({ t: 's', v: 'סגור לקבוצת הלקוח' });
    expect(cell(wb, 'G3')).toMatchObject({ t: 's', v: 'סגור לקבוצה' });
    // Money in shekels, a number with the currency format.
    const money = cell(wb, 'H2');
    expect(money).toMatchObject({ t: 'n', v: 1234.56 });
    expect(money.z).toContain('"₪"#,##0.00');
    expect(XLSX.SSF.format(money.z as string, money.v)).toBe('₪1,234.56');
    // The totals row under the rows, then every total as label and value.
    expect(rows[4][0]).toBe('סה"כ');
    expect(rows[4][7]).toBe(1260.06);
    expect(cell(wb, 'H5').z).toContain('"₪"');
    const summary = Object.fromEntries(rows.slice(6).map((r) => [r[0], r[1]]));
    expect(summary).toMatchObject({ 'מספר רשומות': 3, אושרו: 2, נכשלו: 1, סכום: 1260.06 });
    expect(summary['לפי סטטוס: כניסה אושרה']).toBe(2);
    expect(summary['לפי סטטוס: סגור לקבוצת הלקוח']).toBe(1);
  });

  it('writes the English words and the payment methods in English', async () => {
    const wb = await exportOf('GetPaymentsReport', { lang: 'en', sort: 'at', order: 'asc' });
    const rows = sheetRows(wb);
    expect(rows[0]).toContain('Payment method');
    expect(rows[1]).toContain('Cash');
    expect(rows[2]).toContain('Credit card');
    const summary = Object.fromEntries(rows.slice(4).map((r) => [r[0], r[1]]));
    expect(rows[3][0]).toBe('Totals');
    expect(summary).toMatchObject({ Rows: 2, Amount: 60 });
    expect(summary['By payment method: Cash']).toBe(10);
  });

  it('finds one client by name, number, ID number or card on the four reports, never another club', async () => {
    const count = async (call: string, client: string) =>
      ((await api.post(`/api/Report/${call}`, { ...MARCH, client })).json() as { total: number }).total;
    for (const term of ['Zilber', 'sara zil', '2001', '012345674', '12345674', 'card-77']) {
      expect(await count('GetEnteracesReport', term), term).toBe(1);
      expect(await count('GetPaymentsReport', term), term).toBe(1);
      expect(await count('GetPurchases', term), term).toBe(1);
      expect(await count('GetEnteraceAndPayments', term), term).toBe(2);
    }
    expect(await count('GetEnteracesReport', 'Cohen')).toBe(2);
    expect(await count('GetEnteracesReport', 'nobody')).toBe(0);
    const totals = (await api.post('/api/Report/GetEnteracesReport', { ...MARCH, client: 'Cohen' })).json() as {
      totals: Record<string, number>;
    };
    expect(totals.totals).toMatchObject({ count: 2, approved: 1, failed: 1, amount: 2550 });
    const bad = await api.post('/api/Report/GetEnteracesReport', { ...MARCH, client: 'x'.repeat(61) });
    expect(bad.statusCode).toBe(400);
  });
});
