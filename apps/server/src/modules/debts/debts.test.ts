import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signedInAdmin, type TestContext } from '../../../test/harness.js';

describe('debts: /api/Debts (seed 000 §7)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => ctx.close());

  it('registers, pays with a PayDebt item, edits and soft-deletes', async () => {
    const { api } = await signedInAdmin(ctx);
    const c = (await api.post('/api/Client', { firstName: 'A' })).json();
    const d = (await api.post('/api/Debts', { clientId: c.id, amount: 5000, description: 'Towels' })).json();
    expect(d).toMatchObject({ amount: 5000, paid: 0, open: 5000, source: 'manual' });
    const pay = await api.post('/api/Client/AdminPurchase', {
      clientId: c.id,
      purchaseItems: [{ itemType: 5, itemId: d.id, unitPrice: 3000 }],
      payments: [{ method: 0, amount: 3000 }],
      idempotencyKey: `debt-pay-${d.id}`,
    });
    expect(pay.statusCode, pay.body).toBe(200);
    let list = (await api.get(`/api/Debts/GetByClientId/${c.id}`)).json();
    expect(list[0]).toMatchObject({ paid: 3000, open: 2000 });
    // Paying more than is open is refused.
    const over = await api.post('/api/Client/AdminPurchase', {
      clientId: c.id,
      purchaseItems: [{ itemType: 5, itemId: d.id, unitPrice: 3000 }],
      payments: [{ method: 0, amount: 3000 }],
      idempotencyKey: `debt-over-${d.id}`,
    });
    expect(over.statusCode).toBe(400);
    expect((await api.patch(`/api/Debts/${d.id}`, { amount: 2000 })).statusCode).toBe(400); // below paid
    expect((await api.patch(`/api/Debts/${d.id}`, { amount: 4000 })).json().open).toBe(1000);
    expect((await api.patch(`/api/Debts/Delete/${d.id}`)).json().deleted).toBe(true);
    list = (await api.get(`/api/Debts/GetByClientId/${c.id}`)).json();
    expect(list).toEqual([]);
    expect((await api.patch(`/api/Debts/${d.id}`, { amount: 4000 })).statusCode).toBe(404);
  });

  it("another club's client or debt is not found", async () => {
    const a = await signedInAdmin(ctx);
    const b = await signedInAdmin(ctx);
    const c = (await b.api.post('/api/Client', { firstName: 'B' })).json();
    const d = (await b.api.post('/api/Debts', { clientId: c.id, amount: 100 })).json();
    expect((await a.api.post('/api/Debts', { clientId: c.id, amount: 100 })).statusCode).toBe(404);
    expect((await a.api.get(`/api/Debts/GetByClientId/${c.id}`)).statusCode).toBe(404);
    expect((await a.api.patch(`/api/Debts/Delete/${d.id}`)).statusCode).toBe(404);
  });
});
