import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, signedInAdmin, type TestContext } from '../../../test/harness.js';
import { SANDBOX_CARDS } from '../../integrations/clearing/sandbox.js';

const card = (number: string = SANDBOX_CARDS.approve) => ({ number, expiry: '12/39', cvv: '123' });
let seq = 0;
const key = () => `test-${Date.now()}-${++seq}`;

describe('purchases (seed 000 §3, seed 001 §3)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => ctx.close());

  async function setup(settings: object = {}, group: object = {}) {
    const s = await signedInAdmin(ctx, { settings });
    const g = (await s.api.post('/api/Group', { name: 'G', ...group })).json();
    const c = (await s.api.post('/api/Client', { firstName: 'Dana', groupId: g.id })).json();
    return { ...s, group: g, client: c };
  }

  it('sells a subscription for cash: VAT 18%, cash rounded to 10 agorot, invoice 1, dates from the group', async () => {
    const { api, client } = await setup({}, { subscriptionEndType: 4 });
    const res = await api.post('/api/Client/AdminPurchase', {
      clientId: client.id,
      purchaseItems: [{ itemType: 1, unitPrice: 11804, subscription: { period: 'month', start: '2026-01-15' } }],
      payments: [{ method: 0, amount: 11800, cashGiven: 12000 }],
      idempotencyKey: key(),
    });
    expect(res.statusCode, res.body).toBe(200);
    const p = res.json();
    expect(p.invoiceNumber).toBe(1);
    expect(p.total).toBe(11804);
    expect(p.rounding).toBeUndefined();
    expect(p.vatRateBp).toBe(1800);
    expect(p.vat + p.amountBeforeVat).toBe(11804);
    expect(p.amountBeforeVat).toBe(10003); // 11804 / 1.18 = 10003.4
    expect(p.change).toBe(200);
    expect(p.paidCash).toBe(11800);
    expect(p.items[0].expiry).toBe('2026-02-14');
    const c = (await api.get(`/api/Client/${client.id}`)).json();
    expect(c.subscriptionEnd).toBe('2026-02-14');
    expect((await api.get(`/api/Purchase/GetItems/${p.id}`)).json()[0].details.period).toBe('month');
  });

  it('refuses payments that do not cover the total, and changes nothing', async () => {
    const { api, client } = await setup();
    const res = await api.post('/api/Client/AdminPurchase', {
      clientId: client.id,
      purchaseItems: [{ itemType: 10, name: 'Towel', unitPrice: 1000 }],
      payments: [{ method: 0, amount: 900 }],
      idempotencyKey: key(),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'PAYMENTS_DO_NOT_MATCH_TOTAL', details: { expected: 1000 } });
    const n = await ctx.database.db.execute(
      sql`select count(*)::int as n from purchases where client_id = ${client.id}`,
    );
    expect((n as unknown as { rows: { n: number }[] }).rows[0].n).toBe(0);
  });

  it('loads money by card with the group bonus and the club fee; the balance is the ledger sum', async () => {
    const { api, client } = await setup({ creditChargeFeeType: 2, creditChargeFeeValue: 250 }, { bonus: 10 });
    const res = await api.post('/api/Client/AdminPurchase', {
      clientId: client.id,
      purchaseItems: [{ itemType: 2, unitPrice: 10000 }],
      payments: [{ method: 1, amount: 10250, card: card() }],
      idempotencyKey: key(),
    });
    expect(res.statusCode, res.body).toBe(200);
    const p = res.json();
    expect(p.fee).toBe(250);
    expect(p.lastFour).toBe('4242');
    expect(p.balanceBefore).toBe(0);
    expect(p.balanceAfter).toBe(11000);
    const b = (await api.get(`/api/getBalance/${client.id}`)).json();
    expect(b.balance).toBe(11000);
    expect(
      b.ledger.reduce((s: number, l: { kind: string; delta: number }) => s + (l.kind === 'money' ? l.delta : 0), 0),
    ).toBe(11000);
  });

  it('refuses a money load without an idempotency key (400, nothing loaded); a retry with the key loads once', async () => {
    const { api, client } = await setup();
    const bare = await api.post(`/api/addCredit/${client.id}`, { amount: 5000 });
    expect(bare.statusCode).toBe(400);
    expect(bare.json().details).toEqual(expect.arrayContaining([expect.objectContaining({ path: 'idempotencyKey' })]));
    const body = { amount: 5000, idempotencyKey: randomUUID() };
    for (let i = 0; i < 2; i++) expect((await api.post(`/api/addCredit/${client.id}`, body)).statusCode).toBe(200);
    expect((await api.get(`/api/getBalance/${client.id}`)).json().balance).toBe(5000);
  });

  it('enforces min and max charge amounts of the club and the group', async () => {
    const { api, client } = await setup({ minChargeAmount: 2000 }, { maxChargeAmount: 50000 });
    for (const amount of [1000, 60000]) {
      const res = await api.post(`/api/addCredit/${client.id}`, { amount, idempotencyKey: randomUUID() });
      expect(res.statusCode).toBe(422);
      expect(res.json().code).toBe('CHARGE_AMOUNT_OUT_OF_RANGE');
    }
    const ok = await api.post(`/api/addCredit/${client.id}`, { amount: 5000, idempotencyKey: randomUUID() });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await api.get(`/api/getBalance/${client.id}`)).json().balance).toBe(5000);
  });

  it('pays with beats and refuses to spend more than the balance', async () => {
    const { api, client } = await setup();
    await api.post(`/api/addCredit/${client.id}`, { amount: 3000, idempotencyKey: randomUUID() });
    const buy = (amount: number) =>
      api.post('/api/Client/AdminPurchase', {
        clientId: client.id,
        purchaseItems: [{ itemType: 4, name: 'Entrance', unitPrice: amount }],
        payments: [{ method: 7, amount }],
        idempotencyKey: key(),
      });
    expect((await buy(2000)).json()).toMatchObject({
      paidBeats: 2000,
      balanceBefore: 3000,
      balanceAfter: 1000,
      vat: 0,
    });
    const r = await buy(2000);
    expect(r.statusCode).toBe(422);
    expect(r.json().code).toBe('NOT_ENOUGH_BALANCE');
    expect((await api.get(`/api/getBalance/${client.id}`)).json().balance).toBe(1000);
  });

  it('a declined card changes nothing and answers PAYMENT_ERROR; an expired card is "Invalid expiration date"', async () => {
    const { api, client } = await setup();
    const body = (c: object) => ({
      clientId: client.id,
      purchaseItems: [{ itemType: 2, unitPrice: 5000 }],
      payments: [{ method: 1, amount: 5000, card: c }],
      idempotencyKey: key(),
    });
    const d = await api.post('/api/Client/AdminPurchase', body(card(SANDBOX_CARDS.decline)));
    expect(d.statusCode).toBe(402);
    expect(d.json()).toMatchObject({ code: 'PAYMENT_ERROR', details: { reason: 'declined' } });
    const e = await api.post('/api/Client/AdminPurchase', body({ ...card(), expiry: '01/20' }));
    expect(e.json().code).toBe('INVALID_EXPIRATION_DATE');
    expect((await api.get(`/api/getBalance/${client.id}`)).json().balance).toBe(0);
  });

  it('invoice numbers have no gaps, even when purchases fail in between', async () => {
    const { api, client, club } = await setup();
    await api.post(`/api/addCredit/${client.id}`, { amount: 1000, idempotencyKey: randomUUID() });
    const fails = await api.post('/api/Client/AdminPurchase', {
      clientId: client.id,
      purchaseItems: [{ itemType: 4, unitPrice: 5000 }],
      payments: [{ method: 7, amount: 5000 }],
      idempotencyKey: key(),
    });
    expect(fails.statusCode).toBe(422);
    await api.post(`/api/addCredit/${client.id}`, { amount: 1000, idempotencyKey: randomUUID() });
    await Promise.all(
      [1, 2, 3, 4].map(() => api.post(`/api/addCredit/${client.id}`, { amount: 1000, idempotencyKey: randomUUID() })),
    );
    const r = await ctx.database.db.execute(
      sql`select invoice_number from purchases where club_id = ${club.id} order by invoice_number`,
    );
    expect((r as unknown as { rows: { invoice_number: number }[] }).rows.map((x) => x.invoice_number)).toEqual([
      1, 2, 3, 4, 5, 6,
    ]);
  });
});
