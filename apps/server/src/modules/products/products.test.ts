import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { Api, createTestApp, makeUser, signedInAdmin, TEST_PASSWORD, type TestContext } from '../../../test/harness.js';
import { readXlsx } from '../../../test/upload.js';
import { auditLog } from '../../db/schema.js';

describe('products', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => ctx.close());

  it('creates, reads, changes and deletes products with an audit row each', async () => {
    const { api, club } = await signedInAdmin(ctx);
    const res = await api.post('/api/Product', {
      name: 'Towel',
      displayName: 'מגבת',
      description: 'Large towel',
      type: 2,
      price: 1250,
      maxQuantity: 3,
    });
    expect(res.statusCode).toBe(200);
    const p = res.json();
    expect(p).toMatchObject({ name: 'Towel', displayName: 'מגבת', type: 2, price: 1250, maxQuantity: 3, active: true });
    expect((await api.get(`/api/Product/${p.id}`)).json().name).toBe('Towel');
    const changed = await api.patch(`/api/Product/${p.id}`, { active: false, price: 1500 });
    expect(changed.json()).toMatchObject({ active: false, price: 1500, name: 'Towel' });
    expect((await api.get('/api/Product?showInactive=false')).json().total).toBe(0);
    expect((await api.get('/api/Product')).json().total).toBe(1);
    expect((await api.delete(`/api/Product/${p.id}`)).json()).toEqual({ ok: true });
    expect((await api.get(`/api/Product/${p.id}`)).statusCode).toBe(404);
    const rows = await ctx.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.clubId, club.id), eq(auditLog.entity, 'product')));
    expect(rows.map((r) => r.action)).toEqual(['create', 'update', 'delete']);
    expect(rows[1].before).toMatchObject({ price: 1250 });
    expect(rows[1].after).toMatchObject({ price: 1500 });
  });

  it('validates the body: name required, type 1–3, price whole and not negative, unknown fields refused', async () => {
    const { api } = await signedInAdmin(ctx);
    for (const body of [
      { name: '', price: 100 },
      { name: 'x', price: -1 },
      { name: 'x', price: 10.5 },
      { name: 'x', price: 100, type: 4 },
      { name: 'x', price: 100, clubId: 1 },
      { name: 'x' },
    ]) {
      const res = await api.post('/api/Product', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().code).toBe('VALIDATION_ERROR');
    }
  });

  it('caps creation at the club capacity, 4 by default (seed 000 §9), with the limit in the answer', async () => {
    const { api } = await signedInAdmin(ctx);
    for (let i = 0; i < 4; i++)
      expect((await api.post('/api/Product', { name: `P${i}`, price: 100 })).statusCode).toBe(200);
    const fifth = await api.post('/api/Product', { name: 'P5', price: 100 });
    expect(fifth.statusCode).toBe(422);
    expect(fifth.json()).toMatchObject({ code: 'PRODUCT_LIMIT', details: { limit: 4 } });
    expect(fifth.json().message).toBe('You cannot create more than 4 products');
    const bigger = await signedInAdmin(ctx, { capacities: [{ name: 'products', capacity: 6 }] });
    for (let i = 0; i < 6; i++) await bigger.api.post('/api/Product', { name: `Q${i}`, price: 100 });
    expect((await bigger.api.post('/api/Product', { name: 'Q7', price: 100 })).json().details).toEqual({ limit: 6 });
    // A deleted product frees its place.
    const first = (await bigger.api.get('/api/Product')).json().items[0];
    await bigger.api.delete(`/api/Product/${first.id}`);
    expect((await bigger.api.post('/api/Product', { name: 'Q7', price: 100 })).statusCode).toBe(200);
  });

  it('lists products to every signed-in user, changes only with the settings permission, exports .xlsx', async () => {
    const { api, club } = await signedInAdmin(ctx);
    await api.post('/api/Product', { name: 'Soap', price: 300 });
    const u = await makeUser(ctx, club.id, {});
    const plain = new Api(ctx.app);
    await plain.login(u.username, TEST_PASSWORD, club.externalClubId);
    expect((await plain.get('/api/Product')).json().total).toBe(1);
    expect((await plain.post('/api/Product', { name: 'x', price: 1 })).statusCode).toBe(403);
    const rows = await readXlsx((await api.get('/api/Product/Export?lang=en')).rawPayload);
    expect(rows[1].slice(0, 1)).toEqual(['Soap']);
    expect(rows[1][4]).toBe(3);
    const empty = await signedInAdmin(ctx);
    expect((await empty.api.get('/api/Product/Export')).json().code).toBe('NO_DATA_TO_EXPORT');
  });
});
