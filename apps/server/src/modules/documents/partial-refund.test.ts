import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { isoDate, localParts, planRefund, type RefundableState } from '@venue/domain';
import { Api, createTestApp, makeUser, signedInAdmin, TEST_PASSWORD, type TestContext } from '../../../test/harness.js';
import { SANDBOX_CARDS } from '../../integrations/clearing/sandbox.js';
import { pdfText } from './pdf-text.test-helper.js';

/**
 * Partial refunds (issue 18; docs/money.md "Refunds"): lines or amounts, several until nothing is
 * left, each with its credit document (read back with pdf.js) for exactly its amount and VAT; the
 * money back per payment; refusals that change nothing; the financial report = sales − refunds.
 */
const card = { number: SANDBOX_CARDS.approve, expiry: '12/39', cvv: '123' };
let seq = 0;
const key = () => `partial-${Date.now()}-${++seq}`;
const today = () => isoDate(localParts(new Date(), 'Asia/Jerusalem'));
const ISRAEL = { country: 'Israel', companyNumber: '514123454' };
const rows = <T>(r: unknown) => (r as { rows: T[] }).rows;

describe('partial refunds', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => ctx.close());

  async function setup(settings: object = ISRAEL) {
    const s = await signedInAdmin(ctx, { settings });
    const client = (await s.api.post('/api/Client', { firstName: 'רות', lastName: 'Levi' })).json();
    return { ...s, client };
  }
  const buy = async (api: Api, clientId: number, items: object[], payments: object[]) => {
    const res = await api.post('/api/Client/AdminPurchase', {
      clientId,
      purchaseItems: items,
      payments,
      idempotencyKey: key(),
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const state = async (api: Api, id: number): Promise<RefundableState> => {
    const r = await api.get(`/api/Purchase/Refundable/${id}`);
    expect(r.statusCode, r.body).toBe(200);
    return r.json();
  };
  const refund = (api: Api, id: number, body: object) =>
    api.post(`/api/Purchase/Refund/${id}`, { idempotencyKey: key(), ...body });
  const pdfOf = async (api: Api, documentId: number) => {
    const res = await api.get(`/api/Document/Pdf/${documentId}`);
    expect(res.statusCode).toBe(200);
    return pdfText(res.rawPayload);
  };
  const money = (agorot: number) => `${(agorot / 100).toFixed(2)}`;

  it('refunds part of a card line: its own credit invoice for exactly the amount and its VAT, the card refunded that much', async () => {
    const { api, client } = await setup();
    const p = await buy(
      api,
      client.id,
      [
        { itemType: 10, quantity: 2, unitPrice: 3000, name: 'מגבת גדולה' },
        { itemType: 4, quantity: 1, unitPrice: 4000 },
      ],
      [{ method: 1, amount: 10000, card }],
    );
    const s0 = await state(api, p.id);
    expect(s0).toMatchObject({ canRefund: true, total: 10000, refunded: 0, refundable: 10000 });
    const product = s0.lines[0];
    // The console's preview and the server use the same rule.
    const preview = planRefund(s0.lines, s0.payments, { lines: [{ key: product.key, amount: 2500 }] });
    if ('refusal' in preview) throw new Error('refused');
    const r = await refund(api, p.id, { lines: [{ key: product.key, amount: 2500 }], reason: 'פגם' });
    expect(r.statusCode, r.body).toBe(200);
    const { purchase, document, refund: made } = r.json();
    expect(made).toMatchObject({ total: 2500, vat: preview.vat, beforeVat: 2500 - preview.vat });
    // 18% VAT: the line's VAT in proportion (the line 6,000 carries 915 → 2,500 carries 381).
    expect(made.vat).toBe(Math.round((product.vat * 2500) / 6000));
    expect(made.payments).toEqual([{ method: 1, amount: 2500, lastFour: '4242' }]);
    expect(purchase).toMatchObject({ paymentStatus: 1, refunded: 2500 });
    expect(document).toMatchObject({ kind: 330, purchaseId: p.id });
    const charge = rows<{ status: string; refunded: number }>(
      await ctx.database.db.execute(sql`select status, refunded from charges where purchase_id = ${p.id}`),
    )[0];
    expect(charge).toEqual({ status: 'approved', refunded: 2500 });
    const pdf = await pdfOf(api, document.id);
    expect(pdf.text).toContain(`חשבונית מס זיכוי מס׳ ${document.number}`);
    expect(pdf.text).toContain(`זיכוי עבור חשבונית מס קבלה מס׳ ${p.invoiceNumber}`);
    expect(pdf.text).toContain('מגבת גדולה');
    expect(pdf.items).toContain(`${money(2500)} ₪`);
    expect(pdf.items).toContain(money(made.vat));
    expect(pdf.items).toContain(money(2500 - made.vat));
    expect(pdf.text).not.toContain(money(10000));
    expect(pdf.text).toContain('****4242');
    // The refund is listed with its document.
    const s1 = await state(api, p.id);
    expect(s1.refundable).toBe(7500);
    expect(s1.refunds).toMatchObject([{ total: 2500, documentId: document.id, documentNumber: document.number }]);
  });

  it('several partial refunds up to the whole: numbered credit documents, the VAT sums to the sale, then Refunded', async () => {
    const { api, client } = await setup({
      ...ISRAEL,
      creditChargeFeeType: 2,
      creditChargeFeeValue: 250,
      entranceCreditFeeType: 0,
      entranceCreditFeeValue: 0,
    });
    const p = await buy(
      api,
      client.id,
      [{ itemType: 2, quantity: 1, unitPrice: 10000 }],
      [{ method: 1, amount: 10250, card }],
    );
    expect(p.fee).toBe(250);
    const s0 = await state(api, p.id);
    expect(s0.lines.map((l) => l.key)).toEqual([p.items[0].id, 0]);
    expect(s0.lines.reduce((a, l) => a + l.vat, 0)).toBe(p.vat);
    const a = (await refund(api, p.id, { amount: 3000 })).json();
    const b = (await refund(api, p.id, { lines: [{ key: 0 }] })).json();
    expect(b.refund).toMatchObject({ total: 250 - Math.round(250 * (3000 / 10250)) });
    const c = await refund(api, p.id, {});
    expect(c.statusCode, c.body).toBe(200);
    const last = c.json();
    expect(last.purchase).toMatchObject({ paymentStatus: 3, refunded: 10250 });
    const made = [a.refund, b.refund, last.refund];
    expect(made.reduce((x, r) => x + r.total, 0)).toBe(10250);
    expect(made.reduce((x, r) => x + r.vat, 0)).toBe(p.vat);
    expect([a.document.number, b.document.number, last.document.number]).toEqual([1, 2, 3]);
    // The money load was taken back from the balance, each part a ledger row.
    const bal = (await api.get(`/api/getBalance/${client.id}`)).json();
    expect(bal.balance).toBe(0);
    expect(bal.ledger.filter((l: { source: string }) => l.source === 'refund').length).toBe(2);
    const charge = rows<{ status: string; refunded: number }>(
      await ctx.database.db.execute(sql`select status, refunded from charges where purchase_id = ${p.id}`),
    )[0];
    expect(charge).toEqual({ status: 'refunded', refunded: 10250 });
    const pdf = await pdfOf(api, last.document.id);
    expect(pdf.items).toContain(`${money(last.refund.total)} ₪`);
    expect(pdf.text).toContain(`חשבונית מס זיכוי מס׳ 3`);
    // Nothing is left: a new refund is refused.
    const again = await refund(api, p.id, { amount: 1 });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'REFUND_NOT_POSSIBLE', details: { reason: 'refunded' } });
  });

  it('over-refunds, bad amounts and unknown lines are refused with a clear error and change nothing', async () => {
    const { api, client } = await setup();
    const p = await buy(api, client.id, [{ itemType: 4, quantity: 1, unitPrice: 5000 }], [{ method: 0, amount: 5000 }]);
    expect((await refund(api, p.id, { amount: 2000 })).statusCode).toBe(200);
    const count = async () =>
      rows<{ n: number }>(
        await ctx.database.db.execute(
          sql`select (select count(*) from purchase_documents where purchase_id = ${p.id})::int
              + (select count(*) from purchase_refunds where purchase_id = ${p.id})::int as n`,
        ),
      )[0].n;
    const before = await count();
    const over = await refund(api, p.id, { amount: 3001 });
    expect(over.statusCode).toBe(409);
    expect(over.json()).toMatchObject({
      code: 'REFUND_NOT_POSSIBLE',
      details: { reason: 'overRefund', refundable: 3000 },
    });
    const overLine = await refund(api, p.id, { lines: [{ key: p.items[0].id, amount: 3500 }] });
    expect(overLine.json()).toMatchObject({ details: { reason: 'overRefund', key: p.items[0].id } });
    const unknown = await refund(api, p.id, { lines: [{ key: 999999 }] });
    expect(unknown.json()).toMatchObject({ details: { reason: 'unknownLine' } });
    const mismatch = await refund(api, p.id, { lines: [{ key: p.items[0].id, amount: 100 }], amount: 200 });
    expect(mismatch.json()).toMatchObject({ details: { reason: 'badAmount' } });
    for (const amount of [0, -5, 12.5, 'ten']) {
      const bad = await refund(api, p.id, { amount });
      expect(bad.statusCode, String(amount)).toBe(400);
      expect(bad.json().code).toBe('VALIDATION_ERROR');
    }
    expect(await count()).toBe(before);
    expect((await api.get(`/api/Purchase/${p.id}`)).json()).toMatchObject({ refunded: 2000, paymentStatus: 1 });
  });

  it('is idempotent: the same key answers the first refund and gives the money back once', async () => {
    const { api, client } = await setup();
    const p = await buy(api, client.id, [{ itemType: 2, quantity: 1, unitPrice: 8000 }], [{ method: 0, amount: 8000 }]);
    const body = { idempotencyKey: key(), amount: 3000 };
    const [one, two] = await Promise.all([
      api.post(`/api/Purchase/Refund/${p.id}`, body),
      api.post(`/api/Purchase/Refund/${p.id}`, body),
    ]);
    expect([one.statusCode, two.statusCode]).toEqual([200, 200]);
    expect(two.json().refund.id).toBe(one.json().refund.id);
    expect(two.json().document.id).toBe(one.json().document.id);
    const bal = (await api.get(`/api/getBalance/${client.id}`)).json();
    expect(bal.balance).toBe(5000);
    const ledgerSum = bal.ledger
      .filter((l: { kind: string }) => l.kind === 'money')
      .reduce((a: number, l: { delta: number }) => a + l.delta, 0);
    expect(ledgerSum).toBe(5000);
    // The key names one purchase: used for another it is refused.
    const p2 = await buy(
      api,
      client.id,
      [{ itemType: 4, quantity: 1, unitPrice: 1000 }],
      [{ method: 0, amount: 1000 }],
    );
    const other = await api.post(`/api/Purchase/Refund/${p2.id}`, body);
    expect(other.json()).toMatchObject({ code: 'REFUND_NOT_POSSIBLE', details: { reason: 'idempotencyKey' } });
  });

  it('money goes back to each payment in proportion: the balance it came from and the cash', async () => {
    const { api, client } = await setup();
    await buy(api, client.id, [{ itemType: 2, quantity: 1, unitPrice: 4000 }], [{ method: 0, amount: 4000 }]);
    const p = await buy(
      api,
      client.id,
      [{ itemType: 4, quantity: 1, unitPrice: 6000 }],
      [
        { method: 7, amount: 3000 },
        { method: 0, amount: 3000 },
      ],
    );
    const r = (await refund(api, p.id, { amount: 2000 })).json();
    expect(r.refund.payments).toEqual([
      { method: 7, amount: 1000, lastFour: '' },
      { method: 0, amount: 1000, lastFour: '' },
    ]);
    expect((await api.get(`/api/getBalance/${client.id}`)).json().balance).toBe(1000 + 1000);
  });

  it('a subscription with kala immersions: immersions back in proportion, the validity ends only with the whole line', async () => {
    const { api, client } = await setup({ ...ISRAEL, isKalaSubscriptionEnabled: true, subscriptionTvilotKalaQty: 10 });
    const p = await buy(
      api,
      client.id,
      [{ itemType: 1, quantity: 1, unitPrice: 12000, subscription: { period: 'year', kala: true, immersions: 10 } }],
      [{ method: 0, amount: 12000 }],
    );
    const bal0 = (await api.get(`/api/getBalance/${client.id}`)).json();
    expect(bal0.subscriptionBalance).toBe(10);
    expect(bal0.subscriptionEnd).not.toBeNull();
    await refund(api, p.id, { amount: 3000 });
    const bal1 = (await api.get(`/api/getBalance/${client.id}`)).json();
    expect(bal1.subscriptionBalance).toBe(10 - 2); // floor(10 × 3,000 / 12,000)
    expect(bal1.subscriptionEnd).toBe(bal0.subscriptionEnd);
    await refund(api, p.id, {});
    const bal2 = (await api.get(`/api/getBalance/${client.id}`)).json();
    expect(bal2.subscriptionBalance).toBe(0);
    expect(bal2.subscriptionEnd < bal0.subscriptionStart).toBe(true);
  });

  it('the product reports (summary and lines) and the dashboard’s product charts count products less what partial refunds took of them', async () => {
    const { api, client } = await setup();
    const soap = (await api.post('/api/Product', { name: 'Soap', price: 1500 })).json();
    const p = await buy(
      api,
      client.id,
      [
        { itemType: 10, itemId: soap.id, quantity: 2, unitPrice: 1500 },
        { itemType: 4, quantity: 1, unitPrice: 2000 },
      ],
      [{ method: 0, amount: 5000 }],
    );
    const line = p.items.find((i: { itemType: number }) => i.itemType === 10);
    const r = (await refund(api, p.id, { lines: [{ key: line.id, amount: 1000 }] })).json().refund;
    const products = await api.post('/api/Report/GetProductsReport', { period: 'day', anchor: today() });
    expect(products.statusCode, products.body).toBe(200);
    expect(products.json().items).toMatchObject([
      {
        productId: soap.id,
        purchases: 1,
        quantity: 2,
        total: 2000,
        vat: line.priceWithVat - line.amountBeforeVat - r.vat,
      },
    ]);
    const summary = await api.post('/api/Report/GetProductSummaryReport', { period: 'day', anchor: today() });
    expect(summary.statusCode, summary.body).toBe(200);
    expect(summary.json().items.find((x: { productId: number }) => x.productId === soap.id)).toMatchObject({
      quantity: 2,
      total: 2000,
    });
    // The dashboard's product charts (product_daily less the refunds) agree with the summary report,
    // which reads the purchase lines themselves.
    const chart = async (name: string) =>
      ((await api.post(`/api/Dashboard/${name}`, {})).json() as { key: string; value: number }[]).find(
        (x) => x.key === 'Soap',
      );
    expect(await chart('GetChartDataByProduct')).toEqual({ key: 'Soap', value: 2000 });
    expect(await chart('GetChartDataQtyByProduct')).toEqual({ key: 'Soap', value: 2 });
    // The rest of the line, refunded whole: the products given back leave the count.
    await refund(api, p.id, { lines: [{ key: line.id }] });
    const after = (await api.post('/api/Report/GetProductsReport', { period: 'day', anchor: today() })).json();
    expect(after.totals).toMatchObject({ quantity: 0, total: 0 });
    const summaryAfter = (
      await api.post('/api/Report/GetProductSummaryReport', { period: 'day', anchor: today() })
    ).json();
    const soapAfter = summaryAfter.items.find((x: { productId: number }) => x.productId === soap.id);
    expect(soapAfter).toMatchObject({ quantity: 0, total: 0 });
    expect(await chart('GetChartDataByProduct')).toEqual({ key: 'Soap', value: soapAfter.total });
    expect(await chart('GetChartDataQtyByProduct')).toEqual({ key: 'Soap', value: soapAfter.quantity });
  });

  it('needs the money permission (403); another club’s purchase is not found (404)', async () => {
    const { api, client, club } = await setup();
    const p = await buy(api, client.id, [{ itemType: 4, quantity: 1, unitPrice: 1000 }], [{ method: 0, amount: 1000 }]);
    const viewer = await makeUser(ctx, club.id, { permissions: { roleViewClientsList: true } });
    const vapi = new Api(ctx.app);
    await vapi.login(viewer.username, TEST_PASSWORD, club.externalClubId);
    expect((await vapi.get(`/api/Purchase/Refundable/${p.id}`)).statusCode).toBe(200);
    expect((await refund(vapi, p.id, { amount: 100 })).statusCode).toBe(403);
    const other = await setup();
    expect((await refund(other.api, p.id, { amount: 100 })).statusCode).toBe(404);
    expect((await other.api.get(`/api/Purchase/Refundable/${p.id}`)).statusCode).toBe(404);
    expect((await api.get(`/api/Purchase/${p.id}`)).json().refunded).toBe(0);
  });

  it('the financial report equals sales minus refunds (summary and item-type filter), and the dashboard’s income', async () => {
    const { api, client } = await setup();
    const a = await buy(
      api,
      client.id,
      [
        { itemType: 10, quantity: 1, unitPrice: 5900, name: 'סבון' },
        { itemType: 4, quantity: 1, unitPrice: 4100 },
      ],
      [{ method: 1, amount: 10000, card }],
    );
    const b = await buy(api, client.id, [{ itemType: 4, quantity: 1, unitPrice: 3000 }], [{ method: 0, amount: 3000 }]);
    const c = await buy(api, client.id, [{ itemType: 4, quantity: 1, unitPrice: 2000 }], [{ method: 0, amount: 2000 }]);
    const r1 = (await refund(api, a.id, { lines: [{ key: a.items[0].id, amount: 1234 }] })).json().refund;
    const r2 = (await refund(api, a.id, { amount: 999 })).json().refund;
    const r3 = (await refund(api, b.id, { amount: 700 })).json().refund;
    expect((await refund(api, c.id, {})).statusCode).toBe(200);
    const refunds = [r1, r2, r3];
    const sale = [a, b];
    const fin = await api.post('/api/Report/GetFinancialReport', { period: 'day', anchor: today() });
    expect(fin.statusCode, fin.body).toBe(200);
    const t = fin.json().totals;
    const sum = (xs: { total: number }[]) => xs.reduce((s, x) => s + x.total, 0);
    expect(t.total + t.fee).toBe(sum(sale) - sum(refunds));
    expect(t.vat).toBe(sale.reduce((s, x) => s + x.vat, 0) - refunds.reduce((s, x) => s + x.vat, 0));
    expect(t.byMethod['1']).toBe(10000 - r1.total - r2.total);
    expect(t.byMethod['0']).toBe(3000 - r3.total);
    const entrances = fin.json().items.find((x: { itemType: number }) => x.itemType === 4);
    const r2Entrance = r2.lines.find((l: { itemType: number }) => l.itemType === 4)?.amount ?? 0;
    expect(entrances.total).toBe(4100 + 3000 - r2Entrance - 700);
    // The item-type filter reads the lines themselves: the same figures for that type.
    const filtered = await api.post('/api/Report/GetFinancialReport', {
      period: 'day',
      anchor: today(),
      itemType: [4],
    });
    expect(filtered.statusCode, filtered.body).toBe(200);
    expect(filtered.json().items.find((x: { itemType: number }) => x.itemType === 4).total).toBe(entrances.total);
    // The dashboard's income of the month is net of refunds too.
    const income = (await api.post('/api/Dashboard/GetMonthlyIncome', {})).json();
    expect(income.value).toBe(sum(sale) - sum(refunds));
  });
});
