import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { isoDate, localParts } from '@venue/domain';
import { createTestApp, signedInAdmin, type Api, type TestContext } from '../../../test/harness.js';
import { bankReturnFile, masavClientBuying, multipartFile } from '../../../test/masav-bank.js';
import { readMovein, sumsByAccount } from '../../../test/movein-reader.js';
import { debts, purchaseDocuments, purchases } from '../../db/schema.js';

/**
 * A MASAV sale ends in exactly one way (docs/money.md "MASAV: rejected, then
 * paid another way"): collected (its document), or rejected and then paid at
 * the desk (the sale is Cancelled; the desk's document takes the money, so
 * income and VAT count once), or written off (Cancelled, never income). The
 * expected sums are worked here from the amounts paid, and MOVEIN is read back
 * with the independent reader of the published layout.
 */
const today = () => isoDate(localParts(new Date(), 'Asia/Jerusalem'));
const ACCOUNTS = {
  cashAccount: '1000',
  creditAccount: '1100',
  incomeAccount: '4000',
  vatAccount: '2200',
  masavAccount: '1300',
  bankAccount: '1500',
  branch: '7',
};
const PRICE = 5900;
/** VAT inside a price with 18% VAT (DOMAIN-FACTS), rounded to the agora. */
const vatOf = (withVat: number) => withVat - Math.round(withVat / 1.18);
let seq = 0;

describe('a MASAV sale rejected by the bank, then paid at the desk or written off', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => ctx.close());

  async function club() {
    const s = await signedInAdmin(ctx);
    expect((await s.api.patch(`/api/Club/UpdateHasavshevetDetails/${s.club.id}`, ACCOUNTS)).statusCode).toBe(200);
    const put = await s.api.request('PUT', '/api/MasavFile/Settings', {
      institutionCode: '12345678',
      sendingInstitution: '54321',
      institutionName: 'Settled',
    });
    expect(put.statusCode, put.body).toBe(200);
    return s;
  }

  /** A client with a MASAV authorization who bought a towel by MASAV: the sale and its debt. */
  async function masavSale(api: Api, n: number) {
    const sale = await masavClientBuying(api, n, PRICE);
    const [debt] = await ctx.database.db.select().from(debts).where(eq(debts.clientId, sale.clientId));
    return { ...sale, debtId: debt.id };
  }

  /** Sends a real MASAV file and reads the bank's return, rejecting the given amounts. */
  async function sendAndReturn(api: Api, rejected: number[]) {
    const file = await api.post('/api/MasavFile?testMode=false');
    expect(file.statusCode, file.body).toBe(200);
    const sent = (await api.get(`/api/MasavFile/Download/${file.json().id}`)).rawPayload;
    return async () => {
      const up = multipartFile(
        'return.msv',
        bankReturnFile(
          sent,
          rejected.map((amount) => ({ amount, reason: '2' })),
        ),
      );
      const r = await api.request('POST', '/api/MasavFile/Return', up.body, up.headers);
      expect(r.statusCode, r.body).toBe(200);
    };
  }

  const payDebt = (api: Api, clientId: number, debtId: number, amount: number) =>
    api.post('/api/Client/AdminPurchase', {
      clientId,
      purchaseItems: [{ itemType: 5, itemId: debtId, unitPrice: amount }],
      payments: [{ method: 0, amount }],
      idempotencyKey: `settled-pay-${++seq}`,
    });

  const row = async (id: number) => (await ctx.database.db.select().from(purchases).where(eq(purchases.id, id)))[0];
  const documentsOf = (id: number) =>
    ctx.database.db
      .select()
      .from(purchaseDocuments)
      .where(and(eq(purchaseDocuments.purchaseId, id)));

  it('paid at the desk after the rejection: the MASAV sale is cancelled, income and VAT count once in the reports and in MOVEIN', async () => {
    const { api } = await club();
    const sale = await masavSale(api, 1);
    const read = await sendAndReturn(api, [PRICE]);
    // While the bank holds the debit, the desk neither takes nor writes off the debt: the client would pay twice.
    const early = await payDebt(api, sale.clientId, sale.debtId, PRICE);
    expect(early.statusCode).toBe(400);
    expect(early.json().details[0].message).toBe('debtInCollection');
    const del = await api.patch(`/api/Debts/Delete/${sale.debtId}`, {});
    expect(del.statusCode).toBe(400);
    expect(del.json().details[0].message).toBe('debtInCollection');
    await read();
    // Part of a rejected MASAV debit is refused (the sale would be neither collected nor paid); nothing changes.
    const part = await payDebt(api, sale.clientId, sale.debtId, 1000);
    expect(part.statusCode).toBe(400);
    expect(part.json().details[0].message).toBe('masavDebtPayInFull');
    expect((await row(sale.purchaseId)).paymentStatus).toBe(2);
    // Paid in full at the desk, in cash.
    const desk = await payDebt(api, sale.clientId, sale.debtId, PRICE);
    expect(desk.statusCode, desk.body).toBe(200);
    const deskId = desk.json().id as number;

    const masav = await row(sale.purchaseId);
    expect(masav).toMatchObject({ paymentStatus: 4, invoiceNumber: null });
    expect(await documentsOf(sale.purchaseId)).toEqual([]);
    expect((await documentsOf(deskId)).length + Number((await row(deskId)).invoiceNumber != null)).toBeGreaterThan(0);

    // The financial report: the money once (the desk's PayDebt line), not the sale and its payment both.
    const fin = (await api.post('/api/Report/GetFinancialReport', { period: 'day', anchor: today() })).json();
    const vat = vatOf(PRICE);
    expect(fin.totals.amountBeforeVat + fin.totals.vat).toBe(PRICE);
    expect(fin.totals.vat).toBe(vat);
    expect(fin.totals.byMethod).toEqual({ '0': PRICE });
    // The payments report: received in cash; no MASAV money.
    const pays = (await api.post('/api/Report/GetPaymentsReport', { period: 'day', anchor: today() })).json();
    expect(pays.totals).toMatchObject({ count: 1, amount: PRICE });
    expect(pays.items.map((r: { method: number }) => r.method)).toEqual([0]);
    // MOVEIN: income and VAT credited once; the MASAV account is never left with a debit.
    const dat = await api.post('/api/Report/WriteMoveinDat', { from: today(), to: today() });
    expect(dat.statusCode, dat.body).toBe(200);
    const prm = await api.get('/api/Report/MoveinPrm');
    const { debit, credit } = sumsByAccount(readMovein(dat.rawPayload, prm.rawPayload));
    expect(credit).toEqual({ '4000': PRICE - vat, '2200': vat });
    expect(debit).toEqual({ '1000': PRICE });
    // The debt is settled: the next file does not debit it again.
    const [d] = await ctx.database.db.select().from(debts).where(eq(debts.id, sale.debtId));
    expect(d.paid).toBe(d.amount);
    const next = await api.post('/api/MasavFile?testMode=true');
    expect(next.json().count ?? 0).toBe(0);
  });

  it('written off after the rejection: the MASAV sale is cancelled and never income', async () => {
    const { api } = await club();
    const sale = await masavSale(api, 2);
    await (
      await sendAndReturn(api, [PRICE])
    )();
    const del = await api.patch(`/api/Debts/Delete/${sale.debtId}`, {});
    expect(del.statusCode, del.body).toBe(200);
    expect((await row(sale.purchaseId)).paymentStatus).toBe(4);
    const fin = (await api.post('/api/Report/GetFinancialReport', { period: 'day', anchor: today() })).json();
    expect(fin.totals.amountBeforeVat + fin.totals.vat).toBe(0);
    // The amount of a MASAV sale's debt is the sale's price: not edited down.
    const other = await masavSale(api, 3);
    const edit = await api.patch(`/api/Debts/${other.debtId}`, { amount: 100 });
    expect(edit.statusCode).toBe(400);
    expect(edit.json().details[0].message).toBe('masavDebtAmount');
  });

  it('collected by the next file after a rejection: one document, the sale paid, nothing cancelled', async () => {
    const { api } = await club();
    const sale = await masavSale(api, 4);
    await (
      await sendAndReturn(api, [PRICE])
    )();
    await (
      await sendAndReturn(api, [])
    )();
    const p = await row(sale.purchaseId);
    expect(p.paymentStatus).toBe(1);
    expect(p.invoiceNumber).toBeGreaterThan(0);
    expect(await documentsOf(sale.purchaseId)).toHaveLength(1);
    const fin = (await api.post('/api/Report/GetFinancialReport', { period: 'day', anchor: today() })).json();
    expect(fin.totals.amountBeforeVat + fin.totals.vat).toBe(PRICE);
  });

  it('a debt without a sale collected by a MASAV file: a debt-payment sale with its document, income and VAT once, in MOVEIN', async () => {
    const { api } = await club();
    // A client with a MASAV authorization and a debt registered at the desk (no sale behind it).
    const { clientId } = await masavSale(api, 5);
    await (
      await sendAndReturn(api, [])
    )(); // the towel sale collected first: its own document
    const owes = 12345;
    const reg = await api.post('/api/Debts', { clientId, amount: owes, description: 'Late fee' });
    expect(reg.statusCode, reg.body).toBe(200);
    const before = (await api.post('/api/Report/GetFinancialReport', { period: 'day', anchor: today() })).json();
    await (
      await sendAndReturn(api, [])
    )();
    const [debt] = await ctx.database.db.select().from(debts).where(eq(debts.id, reg.json().id));
    expect(debt.paid).toBe(owes);
    // The collection is a sale: one PayDebt line paid by MASAV, an invoice number and one document.
    const sales = await ctx.database.db
      .select()
      .from(purchases)
      .where(and(eq(purchases.clientId, clientId), eq(purchases.source, 'masav')));
    expect(sales).toHaveLength(1);
    const vat = vatOf(owes);
    expect(sales[0]).toMatchObject({ total: owes, vat, amountBeforeVat: owes - vat, paymentStatus: 1 });
    expect(sales[0].invoiceNumber).toBeGreaterThan(0);
    expect(await documentsOf(sales[0].id)).toHaveLength(1);
    // The financial report counts it once, as MASAV money.
    const fin = (await api.post('/api/Report/GetFinancialReport', { period: 'day', anchor: today() })).json();
    expect(fin.totals.amountBeforeVat + fin.totals.vat - (before.totals.amountBeforeVat + before.totals.vat)).toBe(
      owes,
    );
    expect(fin.totals.vat - before.totals.vat).toBe(vat);
    // MOVEIN (read by the independent reader): the towel and the debt, each income and VAT once; the
    // bank received both; the MASAV account clears.
    const dat = await api.post('/api/Report/WriteMoveinDat', { from: today(), to: today() });
    expect(dat.statusCode, dat.body).toBe(200);
    const prm = await api.get('/api/Report/MoveinPrm');
    const { debit, credit } = sumsByAccount(readMovein(dat.rawPayload, prm.rawPayload));
    expect(credit['4000']).toBe(PRICE - vatOf(PRICE) + owes - vat);
    expect(credit['2200']).toBe(vatOf(PRICE) + vat);
    expect(debit['1500']).toBe(PRICE + owes);
    expect((debit['1300'] ?? 0) - (credit['1300'] ?? 0)).toBe(0);
  });
});
