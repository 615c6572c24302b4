import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { isValidIsraeliId } from '@venue/domain';
import * as factory from '../../test/factories.js';
import { createTestApp, signedInAdmin, type TestContext } from '../../test/harness.js';
import { balanceLedger, clients, purchases } from './schema.js';

/**
 * The test-data factories (apps/server/test/factories.ts) write rows the
 * server accepts as its own: numbers and invoice numbers continue where the
 * console's would, balances stay the sum of their ledger rows.
 */

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(async () => ctx?.close());

describe('test factories', () => {
  it('numbers clients as the console does, with valid personal ids and distinct cards', async () => {
    const { api, club } = await signedInAdmin(ctx);
    const [a, b] = await factory.makeClients(ctx, club.id, [{}, { firstName: 'Dana' }]);
    expect([a.number, b.number]).toEqual([1, 2]);
    expect([a.firstName, a.lastName, b.firstName]).toEqual(['Client', '1', 'Dana']);
    expect(isValidIsraeliId(a.personalId) && isValidIsraeliId(b.personalId)).toBe(true);
    expect(a.cardSerial).not.toBe(b.cardSerial);
    const viaApi = (await api.post('/api/Client', { firstName: 'Console' })).json();
    expect(viaApi.number).toBe(3);
    expect((await factory.makeClient(ctx, club.id)).number).toBe(4);
  });

  it('credit keeps each balance the sum of its ledger rows', async () => {
    const { club } = await signedInAdmin(ctx);
    const c = await factory.makeClient(ctx, club.id);
    await factory.credit(ctx, c, 5000);
    await factory.credit(ctx, c, -1200, { source: 'entrance' });
    await factory.credit(ctx, c, 700, { kind: 'temp' });
    await factory.credit(ctx, c, 2, { kind: 'bonus' });
    const [row] = await ctx.database.db.select().from(clients).where(eq(clients.id, c.id));
    expect([row.balance, row.tempBalance, row.bonusEntries]).toEqual([3800, 700, 2]);
    const ledger = await ctx.database.db.select().from(balanceLedger).where(eq(balanceLedger.clientId, c.id));
    const sum = (kind: string) => ledger.filter((l) => l.kind === kind).reduce((s, l) => s + l.delta, 0);
    expect([sum('money'), sum('temp'), sum('bonus')]).toEqual([3800, 700, 2]);
  });

  it('makePurchase takes invoice numbers from the club counter, as the purchase engine does', async () => {
    const { api, club } = await signedInAdmin(ctx);
    const c = await factory.makeClient(ctx, club.id);
    const soap = await factory.makeProduct(ctx, club.id, { name: 'Soap' });
    const first = await factory.makePurchase(ctx, club.id, {
      clientId: c.id,
      lines: [
        { itemType: 10, itemId: soap.id, quantity: 2, unitPrice: 1000 },
        { itemType: 2, unitPrice: 5000 },
      ],
      payments: [
        [0, 3000],
        [1, 4000],
      ],
    });
    expect(first.purchase).toMatchObject({ invoiceNumber: 1, total: 7000, vatRateBp: 1800 });
    expect(first.purchase.amountBeforeVat + first.purchase.vat).toBe(7000);
    expect(first.items.map((i) => i.priceWithVat)).toEqual([2000, 5000]);
    expect(first.payments.map((p) => p.amount)).toEqual([3000, 4000]);
    const second = await factory.makePurchase(ctx, club.id, { lines: [{ itemType: 2, unitPrice: 100 }] });
    expect(second.purchase.invoiceNumber).toBe(2);
    const res = await api.post('/api/Client/AdminPurchase', {
      clientId: c.id,
      purchaseItems: [{ itemType: 2, unitPrice: 1000 }],
      payments: [{ method: 0, amount: 1000 }],
      idempotencyKey: `factories-${club.id}`,
    });
    expect(res.statusCode, res.body).toBe(200);
    const [viaApi] = await ctx.database.db.select().from(purchases).where(eq(purchases.id, res.json().id));
    expect(viaApi.invoiceNumber).toBe(3);
  });

  it('writes the other tables with valid defaults', async () => {
    const { club } = await signedInAdmin(ctx);
    const group = await factory.makeGroupWithSchedule(ctx, club.id, { name: 'Women' }, [{ price: 3000 }]);
    const c = await factory.makeClient(ctx, club.id, { groupId: group.id, ...factory.SUBSCRIBED });
    const t = await factory.makeTerminal(ctx, club.id);
    expect(t).toMatchObject({ clubId: club.id, approved: true });
    expect((await factory.makeTerminalCash(ctx, t, { coins: { 1000: 2 } })).coins).toEqual({ 1000: 2 });
    expect(await factory.makeCashSession(ctx, t, { clientId: c.id, inserted: 500 })).toMatchObject({
      state: 'closed',
      inserted: 500,
    });
    expect(await factory.makeEntrance(ctx, club.id, { clientId: c.id, terminalId: t.id })).toMatchObject({
      status: 1,
      identificationKind: 'card',
    });
    expect(await factory.makeDebt(ctx, c, { amount: 2500 })).toMatchObject({ amount: 2500, paid: 0 });
    expect(await factory.makePaymentMethod(ctx, c)).toMatchObject({ kind: 'card', cardLastFour: '4242' });
    expect(await factory.makeBiometricTemplate(ctx, c)).toMatchObject({ kind: 'fingerprint', clientId: c.id });
    expect(await factory.makeLicenseRequest(ctx, club.id, { quantity: 4 })).toMatchObject({ amount: 12000 });
    const general = await factory.makeSchedule(ctx, club.id, { sortOrder: 9 });
    expect(await factory.linkSchedule(ctx, club.id, general.id, group.id)).toMatchObject({ groupId: group.id });
  });
});
