import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { quotePurchase, subscriptionDates, vatRateBasisPoints } from '@venue/domain';
import { Api, createTestApp, makeUser, signedInAdmin, TEST_PASSWORD, type TestContext } from '../../../test/harness.js';
import { SANDBOX_CARDS } from '../../integrations/clearing/sandbox.js';

/**
 * The one price rule at the API (issue 18): what the console's purchase dialog
 * computes with `quotePurchase` / `subscriptionDates` is what the server
 * charges and sells; a blank price is refused; Free is explicit and needs the
 * admin flag.
 */
const card = { number: SANDBOX_CARDS.approve, expiry: '12/39', cvv: '123' };
let seq = 0;
const key = () => `price-rule-${Date.now()}-${++seq}`;

describe('the price rule at the API (issue 18)', () => {
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
  const purchasesOf = async (clientId: number) => {
    const r = await ctx.database.db.execute(
      sql`select count(*)::int as n from purchases where client_id = ${clientId}`,
    );
    return (r as unknown as { rows: { n: number }[] }).rows[0].n;
  };

  it('bug 1: a card money load in a fee-charging club is accepted at the amount the quote gives (10,000 → 10,250)', async () => {
    const fees = {
      creditChargeFeeType: 2,
      creditChargeFeeValue: 250,
      entranceCreditFeeType: 0,
      entranceCreditFeeValue: 0,
    };
    const { api, client } = await setup(fees);
    const items = [{ itemType: 2 as const, quantity: 1, unitPrice: 10000 }];
    const q = quotePurchase(items, [{ method: 1, amount: 0 }], vatRateBasisPoints('Israel', new Date()), fees);
    expect(q).toMatchObject({ subtotal: 10000, fee: 250, total: 10250 });
    const res = await api.post('/api/Client/AdminPurchase', {
      clientId: client.id,
      purchaseItems: items,
      payments: [{ method: 1, amount: q.total, card }],
      idempotencyKey: key(),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ total: 10250, fee: 250, vat: q.vat, amountBeforeVat: q.amountBeforeVat });
    // The old console sent the price without the fee: refused with the server's expected amount.
    const old = await api.post('/api/Client/AdminPurchase', {
      clientId: client.id,
      purchaseItems: items,
      payments: [{ method: 1, amount: 10000, card }],
      idempotencyKey: key(),
    });
    expect(old.json()).toMatchObject({ code: 'PAYMENTS_DO_NOT_MATCH_TOTAL', details: { expected: 10250 } });
  });

  it('bug 2: a line priced 0 is refused (no invoice number used) unless Free is chosen', async () => {
    const { api, client } = await setup();
    const res = await api.post('/api/Client/AdminPurchase', {
      clientId: client.id,
      purchaseItems: [{ itemType: 1, unitPrice: 0, subscription: { period: 'month' } }],
      payments: [{ method: 0, amount: 0 }],
      idempotencyKey: key(),
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'PRICE_REQUIRED', details: { path: 'purchaseItems.0.unitPrice' } });
    expect(await purchasesOf(client.id)).toBe(0);

    const free = await api.post('/api/Client/AdminPurchase', {
      clientId: client.id,
      purchaseItems: [{ itemType: 1, unitPrice: 0, subscription: { period: 'month' } }],
      payments: [{ method: 6, amount: 0 }],
      idempotencyKey: key(),
    });
    expect(free.statusCode, free.body).toBe(200);
    // Nothing paid: no invoice number either (docs/money.md "Nothing paid").
    expect(free.json()).toMatchObject({ invoiceNumber: null, total: 0 });
  });

  it('a debt of 3 agorot paid in cash receives ₪0 (cash is paid to 10 agorot): the debt closes, no invoice number, no document', async () => {
    const { api, client } = await setup();
    const debt = (await api.post('/api/Debts', { clientId: client.id, amount: 3, description: 'rounding' })).json();
    const res = await api.post('/api/Client/AdminPurchase', {
      clientId: client.id,
      purchaseItems: [{ itemType: 5, itemId: debt.id, unitPrice: 3 }],
      payments: [{ method: 0, amount: 0 }],
      idempotencyKey: key(),
    });
    expect(res.statusCode, res.body).toBe(200);
    // Nothing was received, so no sale for tax purposes (docs/money.md "Nothing paid").
    expect(res.json()).toMatchObject({ total: 3, invoiceNumber: null });
    const [after] = (await api.get(`/api/Debts/GetByClientId/${client.id}`)).json();
    expect(after).toMatchObject({ id: debt.id, amount: 3, paid: 3 });
    const pdf = await api.get(`/api/Purchase/DocumentPdf/${res.json().id}`);
    expect(pdf.json()).toMatchObject({ code: 'DOCUMENT_NOT_REQUIRED' });
  });

  it('Free needs the admin flag: a money manager without it gets 403 and nothing is written', async () => {
    const { club, client } = await setup();
    const user = await makeUser(ctx, club.id, {
      permissions: { roleManageClientMoney: true, roleViewClientsList: true },
    });
    const api = new Api(ctx.app);
    expect((await api.login(user.username, TEST_PASSWORD, club.externalClubId)).statusCode).toBe(200);
    const res = await api.post('/api/Client/AdminPurchase', {
      clientId: client.id,
      purchaseItems: [{ itemType: 3, unitPrice: 1500, name: 'Towel' }],
      payments: [{ method: 6, amount: 1500 }],
      idempotencyKey: key(),
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('NOT_AUTHORIZED');
    expect(await purchasesOf(client.id)).toBe(0);
  });

  it('a USA club charges its configured sales tax in place of VAT (DOMAIN-FACTS: by state, default 0)', async () => {
    const { api, client, club } = await setup({ country: 'USA', usSalesTaxBp: 825 });
    const res = await api.post('/api/Client/AdminPurchase', {
      clientId: client.id,
      purchaseItems: [{ itemType: 3, name: 'Towel', unitPrice: 10825 }],
      payments: [{ method: 1, amount: 10825, card }],
      idempotencyKey: key(),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ vatRateBp: 825, vat: 825, amountBeforeVat: 10000 });
    expect((await api.get('/api/Club/GetCurrent')).json()).toMatchObject({ id: club.id, usSalesTaxBp: 825 });
  });

  it('bug 3: a month bought on the 23rd ends where the preview says, per the group end type', async () => {
    for (const [endType, end] of [
      [2, '2026-11-30'],
      [4, '2026-12-22'],
    ] as const) {
      const { api, client } = await setup({}, { subscriptionEndType: endType });
      const preview = subscriptionDates('2026-11-23', null, { period: 'month', endType }, { start: '2026-11-23' });
      expect(preview).toEqual({ start: '2026-11-23', end });
      const res = await api.post('/api/Client/AdminPurchase', {
        clientId: client.id,
        purchaseItems: [{ itemType: 1, unitPrice: 25000, subscription: { period: 'month', start: '2026-11-23' } }],
        payments: [{ method: 0, amount: 25000 }],
        idempotencyKey: key(),
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().items[0].expiry).toBe(end);
    }
  });
});
