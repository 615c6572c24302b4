import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { EntranceState, isoDate, localParts, PaymentMethod, PurchaseItemType } from '@venue/domain';
import * as factory from '../../../test/factories.js';
import { createTestApp, signedInAdmin, type TestContext } from '../../../test/harness.js';
import { balanceLedger, cashSessions, clients, purchaseItems, purchasePayments, purchases } from '../../db/schema.js';
import { TerminalClient } from '../../../../terminal/src/client.js';
import { payoutErrorKey } from './cash.service.js';

/**
 * Payout errors (issue 18; seed 000 §2 "Payout-error (surplus) purchases",
 * docs/cash.md "Payout errors"): change a terminal could not pay out becomes
 * a purchase of source 'payoutError' loading it onto the client's balance
 * (once, whatever is resent), and the payout-error report shows its invoice.
 */

let ctx: TestContext;
let tc: TerminalClient;
let terminalId: number;
let clubId: number;
let api: Awaited<ReturnType<typeof signedInAdmin>>['api'];
const SECRET = 'payout-secret';

beforeAll(async () => {
  ctx = await createTestApp();
  const base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const admin = await signedInAdmin(ctx);
  api = admin.api;
  clubId = admin.club.id;
  const t = await factory.makeTerminal(ctx, clubId, { serial: `PAYOUT-${clubId}`, name: 'Cash kiosk', secret: SECRET });
  terminalId = t.id;
  // Change float: two 10 ₪ coins only.
  await factory.makeTerminalCash(ctx, t, { coins: { 1000: 2 } });
  tc = new TerminalClient({ url: base, serial: t.serial, secret: SECRET, timeoutMs: 10_000, heartbeat: false });
  await tc.connect();
}, 300_000);

afterAll(async () => {
  await tc?.close();
  await ctx?.close();
});

const sessionPurchases = async (sessionId: string) =>
  ctx.database.db
    .select()
    .from(purchases)
    .where(and(eq(purchases.clubId, clubId), eq(purchases.idempotencyKey, payoutErrorKey(terminalId, sessionId))));

describe('payout-error purchases', () => {
  it('change the terminal could not pay becomes a payout-error purchase on the client balance, once', async () => {
    const g = await factory.makeGroup(ctx, clubId, { entranceState: EntranceState.Opened, bonus: 10 });
    const c = await factory.makeClient(ctx, clubId, { firstName: 'Payout', groupId: g.id });
    const id = { kind: 'card' as const, value: c.cardSerial! };
    await tc.cashBegin('po-1', id, 3000);
    await tc.cashInsert('po-1', 'bill', 5000);
    // 20 ₪ change planned as two 10 ₪ coins; the hopper pays only one.
    const done = await tc.cashComplete('po-1');
    expect(done).toMatchObject({ state: 'startPayout', credited: 3000 });
    expect(await sessionPurchases('po-1')).toHaveLength(0);
    const closed = await tc.cashPayoutDone('po-1', { 1000: 1 }, {});
    expect(closed).toMatchObject({ state: 'closed', unpaid: 1000 });
    const [p] = await sessionPurchases('po-1');
    expect(p).toMatchObject({ clientId: c.id, total: 1000, paidCash: 1000, source: 'payoutError', terminalId });
    expect(p.invoiceNumber).toBeGreaterThan(0);
    const items = await ctx.database.db.select().from(purchaseItems).where(eq(purchaseItems.purchaseId, p.id));
    expect(items).toMatchObject([{ itemType: PurchaseItemType.ChargingMoney, priceWithVat: 1000 }]);
    const pays = await ctx.database.db.select().from(purchasePayments).where(eq(purchasePayments.purchaseId, p.id));
    expect(pays).toMatchObject([{ method: PaymentMethod.Cash, amount: 1000 }]);
    // The load of 30 ₪ earns the group's 10% bonus; the owed change does not.
    const ledger = await ctx.database.db
      .select()
      .from(balanceLedger)
      .where(and(eq(balanceLedger.clientId, c.id), eq(balanceLedger.sourceId, p.id)));
    expect(ledger).toMatchObject([{ kind: 'money', delta: 1000, source: 'purchase' }]);
    const [row] = await ctx.database.db.select().from(clients).where(eq(clients.id, c.id));
    expect(row.balance).toBe(3000 + 300 + 1000);
    // A resent payout-done writes nothing again.
    await tc.cashPayoutDone('po-1', { 1000: 1 }, {});
    expect(await sessionPurchases('po-1')).toHaveLength(1);
    expect((await ctx.database.db.select().from(clients).where(eq(clients.id, c.id)))[0].balance).toBe(4300);

    // The report lists the session with the purchase's invoice.
    const today = isoDate(localParts(new Date(), 'Asia/Jerusalem'));
    const res = await api.post('/api/Report/GetPayoutErrorPurchases', {
      period: 'range',
      from: today,
      to: today,
      pageSize: 100,
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    const [s] = await ctx.database.db.select().from(cashSessions).where(eq(cashSessions.sessionId, 'po-1'));
    expect(body.items).toEqual([expect.objectContaining({ id: s.id, unpaid: 1000, invoiceNumber: p.invoiceNumber })]);
    expect(body.totals).toMatchObject({ count: 1, unpaid: 1000 });
  });
});
