import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isoDate, localParts } from '@venue/domain';
import { SANDBOX_CARDS } from '../../integrations/clearing/sandbox.js';
import { createTestApp, signedInAdmin, validPersonalId, type Api, type TestContext } from '../../../test/harness.js';
import { readMovein, readPrm, sumsByAccount } from '../../../test/movein-reader.js';
import { bankReturnFile, multipartFile } from '../../../test/masav-bank.js';

const today = () => isoDate(localParts(new Date(), 'Asia/Jerusalem'));
const card = { number: SANDBOX_CARDS.approve, expiry: '12/39', cvv: '123' };
const ACCOUNTS = {
  cashAccount: '1000',
  creditAccount: '1100',
  incomeAccount: '4000',
  vatAccount: '2200',
  masavAccount: '1300',
  bankAccount: '1500',
  branch: '7',
};
let seq = 0;

async function setAccounts(api: Api, clubId: number, over: Partial<typeof ACCOUNTS> = {}) {
  const r = await api.patch(`/api/Club/UpdateHasavshevetDetails/${clubId}`, { ...ACCOUNTS, ...over });
  expect(r.statusCode, r.body).toBe(200);
}

async function authorize(api: Api, clientId: number, n: number) {
  const pm = await api.post('/api/CreditCard', {
    kind: 'masav',
    clientId,
    bankCode: '12',
    branch: '571',
    account: '041116',
    ownerId: validPersonalId(n),
    ownerName: `Owner ${n}`,
  });
  expect(pm.statusCode, pm.body).toBe(200);
}

async function buy(api: Api, clientId: number, price: number, payments: object[]) {
  const r = await api.post('/api/Client/AdminPurchase', {
    clientId,
    purchaseItems: [{ itemType: 10, name: 'Towel', unitPrice: price }],
    payments,
    idempotencyKey: `acc-${Date.now()}-${++seq}`,
  });
  expect(r.statusCode, r.body).toBe(200);
  return r.json() as { id: number; invoiceNumber: number; vat: number; total: number };
}

async function exportDay(api: Api) {
  const dat = await api.post('/api/Report/WriteMoveinDat', { from: today(), to: today() });
  expect(dat.statusCode, dat.body).toBe(200);
  const prm = await api.get('/api/Report/MoveinPrm');
  return readMovein(dat.rawPayload, prm.rawPayload);
}

describe('accounting export: MOVEIN.DAT and MOVEIN.PRM in the published layout (seed 000 §7; issue 18)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => ctx.close());

  it('PRM: line 1 the record length, lines 2–35 by field, 0 0 for fields not carried', async () => {
    const { api } = await signedInAdmin(ctx);
    const prm = (await api.get('/api/Report/MoveinPrm')).rawPayload;
    const { length, fields } = readPrm(prm);
    expect(length).toBeGreaterThan(100);
    for (const f of [
      'type',
      'ref1',
      'ref2',
      'refDate',
      'details',
      'debit1',
      'credit1',
      'debitAmount1',
      'creditAmount1',
    ])
      expect(fields.has(f), f).toBe(true);
    const lines = prm.toString('latin1').split('\r\n');
    expect(lines[6].startsWith('0 0')).toBe(true); // line 7: costing code, not carried
    expect(lines[7].startsWith('0 0')).toBe(true); // line 8: currency (shekels)
  });

  it('positions: the date, the references, the amount and the accounts each in its published field', async () => {
    const { api, club } = await signedInAdmin(ctx);
    await setAccounts(api, club.id);
    const c = (await api.post('/api/Client', { firstName: 'Acc' })).json();
    const p = await buy(api, c.id, 11800, [{ method: 0, amount: 11800 }]);
    const [m, ...rest] = await exportDay(api);
    expect(rest).toHaveLength(0);
    const d = today();
    expect(m).toMatchObject({
      ref1: String(p.invoiceNumber),
      ref2: String(c.number),
      refDate: `${d.slice(8, 10)}/${d.slice(5, 7)}/${d.slice(0, 4)}`,
      branch: '7',
      debits: [{ account: '1000', amount: 11800 }],
      credits: [
        { account: '4000', amount: 10000 },
        { account: '2200', amount: 1800 },
      ],
    });
  });

  it('one movement per payment method: cash plus card books each to its own account', async () => {
    const { api, club } = await signedInAdmin(ctx);
    await setAccounts(api, club.id);
    const c = (await api.post('/api/Client', { firstName: 'Split' })).json();
    const p = await buy(api, c.id, 11800, [
      { method: 0, amount: 5900 },
      { method: 1, amount: 5900, card },
    ]);
    const moves = await exportDay(api);
    expect(moves.map((m) => m.debits)).toEqual([
      [{ account: '1000', amount: 5900 }],
      [{ account: '1100', amount: 5900 }],
    ]);
    const { credit } = sumsByAccount(moves);
    expect(credit).toEqual({ '4000': p.total - p.vat, '2200': p.vat });
  });

  it('a MASAV sale not collected has no document and is not written; collected, it is written with its number through the MASAV account', async () => {
    const { api, club } = await signedInAdmin(ctx);
    await setAccounts(api, club.id);
    await api.request('PUT', '/api/MasavFile/Settings', {
      institutionCode: '12345679',
      sendingInstitution: '54322',
      institutionName: 'Masav',
    });
    const c = (await api.post('/api/Client', { firstName: 'Masav' })).json();
    await authorize(api, c.id, 400);
    const p = await buy(api, c.id, 5000, [{ method: 5, amount: 5000 }]);
    // Before: "קבלה null" with reference 0, income and VAT booked without a document.
    const none = await api.post('/api/Report/WriteMoveinDat', { from: today(), to: today() });
    expect(none.statusCode, none.body).toBe(422);
    const file = await api.post('/api/MasavFile?testMode=false');
    const sent = (await api.get(`/api/MasavFile/Download/${file.json().id}`)).rawPayload;
    const up = multipartFile('return.msv', bankReturnFile(sent, []));
    expect((await api.request('POST', '/api/MasavFile/Return', up.body, up.headers)).statusCode).toBe(200);
    const moves = await exportDay(api);
    expect(moves).toHaveLength(2);
    const number = Number(moves[0].ref1);
    expect(number).toBeGreaterThan(0);
    expect(moves[0].details).toBe(`קבלה ${number} מס"ב`);
    expect(moves[0].debits).toEqual([{ account: '1300', amount: 5000 }]);
    expect(moves[0].credits).toEqual([
      { account: '4000', amount: 5000 - p.vat },
      { account: '2200', amount: p.vat },
    ]);
    expect(moves[1]).toMatchObject({ ref1: String(number), debits: [{ account: '1500', amount: 5000 }] });
    // Without a MASAV account the export says so instead of booking it elsewhere.
    await setAccounts(api, club.id, { masavAccount: '' });
    const res = await api.post('/api/Report/WriteMoveinDat', { from: today(), to: today() });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('masavAccountRequired');
  });

  it('a refunded purchase is reversed: its movement and the same with debit and credit swapped', async () => {
    const { api, club } = await signedInAdmin(ctx);
    await setAccounts(api, club.id);
    const c = (await api.post('/api/Client', { firstName: 'Refund' })).json();
    const p = await buy(api, c.id, 2360, [{ method: 0, amount: 2360 }]);
    const r = await api.post(`/api/Purchase/Refund/${p.id}`, { idempotencyKey: `acct-refund-${p.id}` });
    expect(r.statusCode, r.body).toBe(200);
    const moves = await exportDay(api);
    expect(moves).toHaveLength(2);
    expect(moves[1].debits).toEqual(moves[0].credits);
    expect(moves[1].credits).toEqual(moves[0].debits);
    const { debit, credit } = sumsByAccount(moves);
    for (const acc of ['1000', '4000', '2200']) expect(debit[acc] ?? 0, acc).toBe(credit[acc] ?? 0);
  });

  it('partial refunds are reversed for the refunded amount: the accounts net to the financial report', async () => {
    const { api, club } = await signedInAdmin(ctx);
    await setAccounts(api, club.id);
    const c = (await api.post('/api/Client', { firstName: 'Partial' })).json();
    const a = await buy(api, c.id, 11800, [{ method: 1, amount: 11800, card }]);
    const b = await buy(api, c.id, 5900, [
      { method: 0, amount: 2900 },
      { method: 1, amount: 3000, card },
    ]);
    const refund = async (id: number, body: object) => {
      const r = await api.post(`/api/Purchase/Refund/${id}`, {
        idempotencyKey: `acct-part-${id}-${Math.random()}`,
        ...body,
      });
      expect(r.statusCode, r.body).toBe(200);
      return r.json().refund;
    };
    const r1 = await refund(a.id, { amount: 2360 });
    const r2 = await refund(b.id, { amount: 1000 });
    const moves = await exportDay(api);
    // The sales, then one reversal per refunded method: a's card, b's cash and card.
    expect(moves).toHaveLength(3 + 3);
    const reversal = moves[3];
    expect(reversal.credits).toEqual([{ account: '1100', amount: 2360 }]);
    expect(reversal.debits).toEqual([
      { account: '4000', amount: 2360 - r1.vat },
      { account: '2200', amount: r1.vat },
    ]);
    const { debit, credit } = sumsByAccount(moves);
    const net = (acc: string) => (debit[acc] ?? 0) - (credit[acc] ?? 0);
    const fin = await api.post('/api/Report/GetFinancialReport', { period: 'day', anchor: today() });
    const t = fin.json().totals as {
      amountBeforeVat: number;
      vat: number;
      fee: number;
      byMethod: Record<string, number>;
    };
    expect(net('1000')).toBe(t.byMethod['0']);
    expect(net('1100')).toBe(t.byMethod['1']);
    expect(-net('4000')).toBe(t.amountBeforeVat + t.fee);
    expect(-net('2200')).toBe(t.vat);
    expect(t.byMethod['0'] + t.byMethod['1']).toBe(11800 + 5900 - r1.total - r2.total);
  });

  it('an empty period answers NO_DATA_TO_EXPORT, not an empty file', async () => {
    const { api, club } = await signedInAdmin(ctx);
    await setAccounts(api, club.id);
    const res = await api.post('/api/Report/WriteMoveinDat', { from: '2020-01-01', to: '2020-01-31' });
    expect(res.statusCode).toBe(422);
    expect(res.json().code).toBe('NO_DATA_TO_EXPORT');
  });

  it('GetHasavshevetDetails and the export never 500 after other money settings were saved', async () => {
    const { api, club } = await signedInAdmin(ctx);
    expect((await api.post(`/api/Club/UpdateClubSumitSettings/${club.id}`, { companyId: '1' })).statusCode).toBe(200);
    const masav = await api.request('PUT', '/api/MasavFile/Settings', {
      institutionCode: '12345678',
      sendingInstitution: '54321',
      institutionName: 'Club',
    });
    expect(masav.statusCode, masav.body).toBe(200);
    const renew = await api.patch('/api/AutoRenew/Settings', (await api.get('/api/AutoRenew/Settings')).json());
    expect(renew.statusCode, renew.body).toBe(200);
    const get = await api.get('/api/Club/GetHasavshevetDetails');
    expect([get.statusCode, get.json()]).toEqual([200, null]);
    expect((await api.post('/api/Report/WriteMoveinDat', { from: today(), to: today() })).statusCode).toBe(400);
    await setAccounts(api, club.id);
    expect((await api.post(`/api/Club/UpdateClubSumitSettings/${club.id}`, { companyId: '2' })).statusCode).toBe(200);
    const again = await api.get('/api/Club/GetHasavshevetDetails');
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({ cashAccount: '1000', masavAccount: '1300', bankAccount: '1500' });
    // Details saved before the MASAV and bank accounts existed still read (as not set).
    await ctx.database.db.execute(
      `update club_money_settings set hashavshevet = '{"cashAccount":"1","creditAccount":"2","incomeAccount":"3","vatAccount":"4"}' where club_id = ${club.id}` as never,
    );
    const old = await api.get('/api/Club/GetHasavshevetDetails');
    expect(old.statusCode, old.body).toBe(200);
    expect(old.json()).toMatchObject({ cashAccount: '1', masavAccount: '', bankAccount: '' });
    expect((await api.post('/api/Report/WriteMoveinDat', { from: '2020-01-01', to: '2020-01-01' })).statusCode).toBe(
      422,
    );
  });

  it('a mixed cash/card/MASAV day, read back from the published layout, sums by account to the financial report', async () => {
    const { api, club } = await signedInAdmin(ctx);
    await setAccounts(api, club.id);
    const put = await api.request('PUT', '/api/MasavFile/Settings', {
      institutionCode: '12345678',
      sendingInstitution: '54321',
      institutionName: 'מקווה',
    });
    expect(put.statusCode).toBe(200);
    const clients = [];
    for (let i = 0; i < 3; i++) {
      const c = (await api.post('/api/Client', { firstName: `Mix ${i}` })).json();
      await authorize(api, c.id, 300 + i);
      clients.push(c);
    }
    await buy(api, clients[0].id, 4990, [{ method: 0, amount: 4990 }]);
    await buy(api, clients[0].id, 12345, [{ method: 1, amount: 12345, card }]);
    await buy(api, clients[1].id, 7777, [
      { method: 0, amount: 3000 },
      { method: 1, amount: 4777, card },
    ]);
    await buy(api, clients[1].id, 6000, [{ method: 5, amount: 6000 }]);
    const rejected = await buy(api, clients[2].id, 2500, [{ method: 5, amount: 2500 }]);
    // The MASAV file collects both; the bank returns client 2's debit.
    const file = await api.post('/api/MasavFile?testMode=false');
    expect(file.statusCode, file.body).toBe(200);
    const sent = (await api.get(`/api/MasavFile/Download/${file.json().id}`)).rawPayload;
    const up = multipartFile('return.msv', bankReturnFile(sent, [{ amount: 2500, reason: '3' }]));
    const ret = await api.request('POST', '/api/MasavFile/Return', up.body, up.headers);
    expect(ret.statusCode, ret.body).toBe(200);

    const moves = await exportDay(api);
    const { debit, credit } = sumsByAccount(moves);
    const fin = await api.post('/api/Report/GetFinancialReport', { period: 'day', anchor: today() });
    expect(fin.statusCode, fin.body).toBe(200);
    const t = fin.json().totals as {
      amountBeforeVat: number;
      vat: number;
      fee: number;
      byMethod: Record<string, number>;
    };
    const m = (k: number) => t.byMethod[String(k)] ?? 0;
    expect(debit['1000']).toBe(m(0));
    expect(debit['1100']).toBe(m(1) + m(2) + m(4));
    // The books hold documents: the rejected MASAV sale (2 500, no document) is in the financial
    // report's sales but not in MOVEIN; the collected one is booked with its document.
    expect(debit['1300']).toBe(m(5) - 2500);
    expect(credit['4000']).toBe(t.amountBeforeVat + t.fee - (2500 - rejected.vat));
    expect(credit['2200']).toBe(t.vat - rejected.vat);
    // Collected MASAV money moves from the MASAV account to the bank the same day: it clears.
    expect(debit['1500']).toBe(6000);
    expect(credit['1300']).toBe(6000);
    expect(debit['1300'] - credit['1300']).toBe(0);
  });
});
