import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, signedInAdmin, validPersonalId, type TestContext } from '../../../test/harness.js';
import { SANDBOX_CARDS } from '../../integrations/clearing/sandbox.js';

describe('payment methods: /api/CreditCard (seed 000 §7, seed 001 §3 §5)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => ctx.close());

  const masav = (clientId: number) => ({
    kind: 'masav',
    clientId,
    bankCode: '12',
    branch: '571',
    account: '041116', // valid per the clearing center's rules (israeli-bank-validation example)
    ownerId: validPersonalId(1234567),
    ownerName: 'Dana Levi',
    authExpiry: '2030-12-31',
    chargeLimit: 50000,
  });

  it('stores a card as a token with last four and expiry; only one method per client', async () => {
    const { api } = await signedInAdmin(ctx);
    const c = (await api.post('/api/Client', { firstName: 'A' })).json();
    const res = await api.post('/api/CreditCard', {
      kind: 'card',
      clientId: c.id,
      card: { number: '4242 4242 4242 4242', expiry: '11/38', cvv: '321', ownerName: 'Dana' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ kind: 'card', lastFour: '4242', brand: 'Visa', expiry: '11/38' });
    expect(res.body).not.toContain('4242424242424242');
    const again = await api.post('/api/CreditCard', masav(c.id));
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('PAYMENT_METHOD_EXISTS');
    expect((await api.get(`/api/CreditCard/GetByClientId/${c.id}`)).json().lastFour).toBe('4242');
    // Replace: delete, then add the bank authorization.
    const id = res.json().id;
    expect((await api.delete(`/api/CreditCard/${id}`)).statusCode).toBe(200);
    expect((await api.post('/api/CreditCard', masav(c.id))).statusCode).toBe(200);
  });

  it('"Invalid expiration date" for a past or impossible expiry; a Luhn-invalid card is refused', async () => {
    const { api } = await signedInAdmin(ctx);
    const c = (await api.post('/api/Client', { firstName: 'A' })).json();
    for (const expiry of ['01/21', '13/30']) {
      const r = await api.post('/api/CreditCard', {
        kind: 'card',
        clientId: c.id,
        card: { number: SANDBOX_CARDS.approve, expiry, cvv: '123' },
      });
      expect(r.statusCode).toBe(400);
      expect(r.json().code).toBe('INVALID_EXPIRATION_DATE');
    }
    const bad = await api.post('/api/CreditCard', {
      kind: 'card',
      clientId: c.id,
      card: { number: '4242424242424241', expiry: '12/39', cvv: '123' },
    });
    expect(bad.statusCode).toBe(402);
    expect(bad.json().details.reason).toBe('invalid_card');
    expect((await api.get(`/api/CreditCard/GetByClientId/${c.id}`)).json()).toBeNull();
  });

  it('a MASAV authorization: bank validated, details encrypted at rest and masked in answers', async () => {
    const { api, club } = await signedInAdmin(ctx);
    const c = (await api.post('/api/Client', { firstName: 'A' })).json();
    const unknownBank = await api.post('/api/CreditCard', { ...masav(c.id), bankCode: '99' });
    expect(unknownBank.statusCode).toBe(400);
    const badAccount = await api.post('/api/CreditCard', { ...masav(c.id), account: '041117' });
    expect(badAccount.statusCode).toBe(400);
    expect(badAccount.json().code).toBe('INVALID_BANK_DETAILS');
    const res = await api.post('/api/CreditCard', masav(c.id));
    expect(res.statusCode, res.body).toBe(200);
    const v = res.json();
    expect(v).toMatchObject({ kind: 'masav', bankCode: '12', bankName: 'Hapoalim', accountMasked: '*****116' });
    expect(res.body).not.toContain('041116');
    const stored = await ctx.database.db.execute(sql`select * from payment_methods where club_id = ${club.id}`);
    const text = JSON.stringify((stored as unknown as { rows: unknown[] }).rows);
    expect(text).not.toContain('041116');
    expect(text).not.toContain(validPersonalId(1234567));
    const upd = await api.patch(`/api/CreditCard/UpdateBankPaymentDetails/${v.id}`, {
      account: '41116',
      chargeLimit: 1000,
    });
    expect(upd.statusCode, upd.body).toBe(200);
    expect(upd.json()).toMatchObject({ accountMasked: '*****116', chargeLimit: 1000 });
  });
});
