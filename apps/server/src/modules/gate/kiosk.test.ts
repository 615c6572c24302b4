import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, like } from 'drizzle-orm';
import { EntranceState, PaymentMethod, PurchaseItemType, Reason, type ServerDecision } from '@venue/domain';
import * as factory from '../../../test/factories.js';
import { createTestApp, signedInAdmin, type TestContext } from '../../../test/harness.js';
import {
  balanceLedger,
  cashSessions,
  charges,
  clients,
  clubs,
  entranceLogs,
  purchaseItems,
  purchases,
} from '../../db/schema.js';
import { TerminalClient } from '../../../../terminal/src/client.js';
import { buy } from '../../../../terminal/src/kiosk.js';

/**
 * Kiosk purchases and paying at the gate over the real terminal protocol
 * (docs/terminal-protocol.md "Kiosk purchases and paying at the gate"):
 * every purchase is a createPurchase purchase (invoice number, ledger,
 * idempotent by the terminal's eventId); an OpenWithPay entrance is sold at
 * the terminal and admitted with reason 7 in the purchase's transaction.
 */

let ctx: TestContext;
let base: string;
let clubId: number;
let openGroup: number;
let payGroup: number;
let productId: number;
let tc: TerminalClient;
let terminalId: number;
const SECRET = 'kiosk-secret';
const VISA = { number: '4242 4242 4242 4242', expiry: '12/35', cvv: '123' };
const DECLINED = { number: '4000 0000 0000 0002', expiry: '12/35', cvv: '123' };

/** A client of the group with a card, a license until 2125 and no subscription. */
const makeClient = (groupId: number, over: Partial<typeof clients.$inferInsert> = {}) =>
  factory.makeClient(ctx, clubId, { firstName: 'K', groupId, ...over });
const card = (c: { cardSerial: string | null }) => ({ kind: 'card' as const, value: c.cardSerial! });
const clientRow = async (id: number) => (await ctx.database.db.select().from(clients).where(eq(clients.id, id)))[0];

beforeAll(async () => {
  ctx = await createTestApp();
  base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const admin = await signedInAdmin(ctx);
  clubId = admin.club.id;
  openGroup = (
    await factory.makeGroupWithSchedule(ctx, clubId, { name: 'Open', entranceState: EntranceState.Opened }, [
      { price: 3000, entranceState: EntranceState.Opened },
    ])
  ).id;
  payGroup = (
    await factory.makeGroupWithSchedule(ctx, clubId, { name: 'Pay', entranceState: EntranceState.Closed }, [
      { price: 2500, entranceState: EntranceState.OpenWithPay },
    ])
  ).id;
  productId = (await factory.makeProduct(ctx, clubId, { name: 'Towel kit', price: 1500 })).id;
  const t = await factory.makeTerminal(ctx, clubId, { serial: `KIOSK-${clubId}`, name: 'Kiosk', secret: SECRET });
  terminalId = t.id;
  // Change float: ten 10 ₪ coins and ten 5 ₪ coins.
  await factory.makeTerminalCash(ctx, t, { coins: { 1000: 10, 500: 10 } });
  tc = new TerminalClient({ url: base, serial: t.serial, secret: SECRET, timeoutMs: 10_000, heartbeat: false });
  await tc.connect();
});

afterAll(async () => {
  await tc?.close();
  await ctx?.close();
});

describe('kiosk purchases at the terminal', () => {
  it('sells a product by card: a purchase with an invoice number, the product price, source terminal', async () => {
    const c = await makeClient(openGroup);
    const r = await buy(tc, {
      eventId: 'prod-1',
      identification: card(c),
      items: [{ itemType: PurchaseItemType.Product, itemId: productId, quantity: 2 }],
      payments: [{ method: PaymentMethod.CreditCard, card: VISA }],
    });
    expect(r).toMatchObject({ type: 'purchase-result', eventId: 'prod-1', ok: true, total: 3000 });
    expect(r.invoiceNumber).toBeGreaterThan(0);
    const [p] = await ctx.database.db.select().from(purchases).where(eq(purchases.id, r.purchaseId!));
    expect(p).toMatchObject({ clientId: c.id, source: 'terminal', terminalId, paidCredit: 3000, lastFour: '4242' });
    const items = await ctx.database.db.select().from(purchaseItems).where(eq(purchaseItems.purchaseId, p.id));
    expect(items).toMatchObject([
      { itemType: PurchaseItemType.Product, name: 'Towel kit', quantity: 2, unitPrice: 1500 },
    ]);
  });

  it('sells by the EMV reader as method 4 (seed 000 §3): paid by card with the reader’s last four, no MASAV debit; 5 (Masav) and 6 (Free) refused', async () => {
    const c = await makeClient(openGroup);
    const r = await buy(tc, {
      eventId: 'emv-1',
      identification: card(c),
      items: [{ itemType: PurchaseItemType.Product, itemId: productId, quantity: 1 }],
      payments: [{ method: PaymentMethod.CreditCardEmv, emvReference: 'EMV-REF-1', lastFour: '1234' }],
    });
    expect(r).toMatchObject({ type: 'purchase-result', eventId: 'emv-1', ok: true, total: 1500 });
    const [p] = await ctx.database.db.select().from(purchases).where(eq(purchases.id, r.purchaseId!));
    const [byCard] = await ctx.database.db
      .select()
      .from(purchases)
      .where(eq(purchases.invoiceNumber, p.invoiceNumber! - 1));
    expect(p).toMatchObject({ paidCredit: 1500, paidOther: 0, lastFour: '1234' });
    // Paid at once, as the card purchase before it — not left pending as a MASAV debit.
    expect(p.paymentStatus).toBe(byCard.paymentStatus);
    for (const method of [PaymentMethod.Masav, PaymentMethod.Free]) {
      const refused = await buy(tc, {
        eventId: `not-kiosk-${method}`,
        identification: card(c),
        items: [{ itemType: PurchaseItemType.Product, itemId: productId, quantity: 1 }],
        payments: [{ method: method as 4, amount: 1500 }],
      }).catch((e: Error) => e);
      expect(JSON.stringify(refused)).not.toMatch(/"ok":true/);
    }
    const count = await ctx.database.db.select().from(purchases).where(eq(purchases.clientId, c.id));
    expect(count).toHaveLength(1);
  });

  it('a resend of the same eventId answers the first purchase and charges once', async () => {
    const c = await makeClient(openGroup);
    const msg = {
      eventId: 'load-card-1',
      identification: card(c),
      items: [{ itemType: PurchaseItemType.ChargingMoney, unitPrice: 4000 }],
      payments: [{ method: PaymentMethod.CreditCard, amount: 4000, card: VISA }],
    };
    const [a, b] = await Promise.all([buy(tc, msg), buy(tc, msg)]);
    const again = await buy(tc, msg);
    expect(a.ok).toBe(true);
    expect(b.purchaseId).toBe(a.purchaseId);
    expect(again).toMatchObject({
      ok: true,
      purchaseId: a.purchaseId,
      invoiceNumber: a.invoiceNumber,
      balanceAfter: 4000,
    });
    expect((await clientRow(c.id)).balance).toBe(4000);
    const rows = await ctx.database.db
      .select()
      .from(charges)
      .where(and(eq(charges.clubId, clubId), like(charges.idempotencyKey, `terminal:${terminalId}:load-card-1%`)));
    expect(rows).toHaveLength(1);
    const bought = await ctx.database.db
      .select()
      .from(purchases)
      .where(eq(purchases.idempotencyKey, `terminal:${terminalId}:load-card-1`));
    expect(bought).toHaveLength(1);
  });

  it('sells a monthly subscription (amount filled in by the server) and answers its end date', async () => {
    const c = await makeClient(openGroup);
    const r = await buy(tc, {
      eventId: 'sub-1',
      identification: card(c),
      items: [{ itemType: PurchaseItemType.NewSubscription, unitPrice: 12000, subscription: { period: 'month' } }],
      payments: [{ method: PaymentMethod.CreditCard, card: VISA }],
    });
    expect(r).toMatchObject({ ok: true, total: 12000 });
    expect(r.subscriptionEnd).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect((await clientRow(c.id)).subscriptionEnd).toBe(r.subscriptionEnd);
    // Now the client enters on the subscription.
    expect(await tc.present(card(c))).toMatchObject({ status: 1, reason: Reason.EntryBySubscription });
  });

  it('loads money with cash through the cash session: the session completes into a Cash purchase', async () => {
    const c = await makeClient(openGroup);
    await tc.cashBegin('cash-load-1', card(c));
    await tc.cashInsert('cash-load-1', 'bill', 5000);
    await tc.cashInsert('cash-load-1', 'coin', 1000);
    const done = await tc.cashComplete('cash-load-1');
    expect(done).toMatchObject({ state: 'closed', credited: 6000, message: 'PaymentApproved' });
    expect((await clientRow(c.id)).balance).toBe(6000);
    const [s] = await ctx.database.db.select().from(cashSessions).where(eq(cashSessions.sessionId, 'cash-load-1'));
    const [p] = await ctx.database.db.select().from(purchases).where(eq(purchases.id, s.purchaseId!));
    expect(p).toMatchObject({ clientId: c.id, total: 6000, paidCash: 6000, source: 'terminal', terminalId });
    const ledger = await ctx.database.db.select().from(balanceLedger).where(eq(balanceLedger.clientId, c.id));
    expect(ledger).toMatchObject([{ kind: 'money', delta: 6000, source: 'purchase', sourceId: p.id }]);
    // Completing again changes nothing.
    expect(await tc.cashComplete('cash-load-1')).toMatchObject({ state: 'closed', credited: 6000 });
    expect((await clientRow(c.id)).balance).toBe(6000);
  });

  it('pays a kiosk money load in cash from a session: change planned, session settled with the purchase', async () => {
    const c = await makeClient(openGroup);
    await tc.cashBegin('cash-kiosk-1', card(c));
    await tc.cashInsert('cash-kiosk-1', 'bill', 5000);
    const r = await buy(tc, {
      eventId: 'cash-kiosk-1',
      identification: card(c),
      items: [{ itemType: PurchaseItemType.ChargingMoney, unitPrice: 3500 }],
      payments: [{ method: PaymentMethod.Cash, cashSessionId: 'cash-kiosk-1' }],
    });
    expect(r).toMatchObject({
      ok: true,
      total: 3500,
      balanceAfter: 3500,
      change: 1500,
      cash: { sessionId: 'cash-kiosk-1', state: 'startPayout', unpaid: 0, excess: 0 },
    });
    const [s] = await ctx.database.db.select().from(cashSessions).where(eq(cashSessions.sessionId, 'cash-kiosk-1'));
    expect(s).toMatchObject({ state: 'startPayout', credited: 3500, purchaseId: r.purchaseId, changeDue: 1500 });
    // The session is used: a second purchase cannot spend it again.
    const again = await buy(tc, {
      eventId: 'cash-kiosk-2',
      identification: card(c),
      items: [{ itemType: PurchaseItemType.ChargingMoney, unitPrice: 3500 }],
      payments: [{ method: PaymentMethod.Cash, cashSessionId: 'cash-kiosk-1' }],
    });
    expect(again).toMatchObject({ ok: false, error: 'CASH_SESSION_INVALID' });
    // Not enough inserted: refused, nothing written.
    await tc.cashBegin('cash-kiosk-3', card(c));
    await tc.cashInsert('cash-kiosk-3', 'bill', 2000);
    expect(
      await buy(tc, {
        eventId: 'cash-kiosk-3',
        identification: card(c),
        items: [{ itemType: PurchaseItemType.ChargingMoney, unitPrice: 3500 }],
        payments: [{ method: PaymentMethod.Cash, cashSessionId: 'cash-kiosk-3' }],
      }),
    ).toMatchObject({ ok: false, error: 'CASH_NOT_ENOUGH' });
    expect((await clientRow(c.id)).balance).toBe(3500);
  });

  it('refuses an unknown client and a declined card without writing a purchase', async () => {
    expect(
      await buy(tc, {
        eventId: 'nobody-1',
        identification: { kind: 'card', value: 'NO-SUCH' },
        items: [{ itemType: PurchaseItemType.ChargingMoney, unitPrice: 1000 }],
        payments: [{ method: PaymentMethod.CreditCard, card: VISA }],
      }),
    ).toMatchObject({ ok: false, error: 'CLIENT_NOT_FOUND' });
    const c = await makeClient(openGroup);
    const r = await buy(tc, {
      eventId: 'declined-1',
      identification: card(c),
      items: [{ itemType: PurchaseItemType.ChargingMoney, unitPrice: 1000 }],
      payments: [{ method: PaymentMethod.CreditCard, card: DECLINED }],
    });
    expect(r).toMatchObject({ ok: false, error: 'PAYMENT_ERROR' });
    expect((await clientRow(c.id)).balance).toBe(0);
    const rows = await ctx.database.db.select().from(purchases).where(eq(purchases.clientId, c.id));
    expect(rows).toHaveLength(0);
  });
});

describe('kiosk refusals', () => {
  it('a terminal not approved sells nothing; an item without a price is a validation error', async () => {
    const c = await makeClient(openGroup);
    const t = await factory.makeTerminal(ctx, clubId, {
      serial: `KIOSK-NA-${clubId}`,
      name: 'New',
      secret: SECRET,
      approved: false,
    });
    const na = new TerminalClient({ url: base, serial: t.serial, secret: SECRET, timeoutMs: 10_000, heartbeat: false });
    await na.connect();
    try {
      expect(
        await buy(na, {
          eventId: 'na-1',
          identification: card(c),
          items: [{ itemType: PurchaseItemType.ChargingMoney, unitPrice: 1000 }],
          payments: [{ method: PaymentMethod.CreditCard, card: VISA }],
        }),
      ).toMatchObject({ ok: false, error: 'TERMINAL_NOT_APPROVED' });
    } finally {
      await na.close();
    }
    expect(
      await buy(tc, {
        eventId: 'no-price-1',
        identification: card(c),
        items: [{ itemType: PurchaseItemType.ChargingMoney }],
        payments: [{ method: PaymentMethod.CreditCard, card: VISA }],
      }),
    ).toMatchObject({ ok: false, error: 'VALIDATION_ERROR', details: { path: 'items.0.unitPrice' } });
    expect(await ctx.database.db.select().from(purchases).where(eq(purchases.clientId, c.id))).toHaveLength(0);
  });
});

describe('paying at the gate (OpenWithPay)', () => {
  it('the entrance decision offers the price; paid by card → approved with reason 7 in the purchase', async () => {
    const c = await makeClient(payGroup);
    const d = (await tc.present(card(c))) as ServerDecision;
    expect(d).toMatchObject({ status: 9, reason: Reason.PaymentError, paymentRequired: { amount: 2500 } });
    const r = await buy(tc, {
      eventId: 'gate-pay-1',
      identification: card(c),
      items: [{ itemType: PurchaseItemType.Entrance }],
      payments: [{ method: PaymentMethod.CreditCard, card: VISA }],
    });
    expect(r).toMatchObject({
      ok: true,
      total: 2500,
      decision: { status: 1, reason: Reason.EntryByPayment, message: 'EntryByPayment' },
    });
    expect(r.decision!.gateOpenSeconds).toBeGreaterThan(0);
    const logs = await ctx.database.db
      .select()
      .from(entranceLogs)
      .where(and(eq(entranceLogs.terminalId, terminalId), eq(entranceLogs.eventId, 'gate-pay-1')));
    expect(logs).toMatchObject([
      { clientId: c.id, status: 1, reason: Reason.EntryByPayment, purchaseId: r.purchaseId },
    ]);
    // A resend answers the same purchase and admits once.
    const again = await buy(tc, {
      eventId: 'gate-pay-1',
      identification: card(c),
      items: [{ itemType: PurchaseItemType.Entrance }],
      payments: [{ method: PaymentMethod.CreditCard, card: VISA }],
    });
    expect(again).toMatchObject({ ok: true, purchaseId: r.purchaseId, decision: { status: 1, reason: 7 } });
    const paid = await ctx.database.db.select().from(purchases).where(eq(purchases.clientId, c.id));
    expect(paid).toHaveLength(1);
    const admitted = await ctx.database.db
      .select()
      .from(entranceLogs)
      .where(and(eq(entranceLogs.clientId, c.id), eq(entranceLogs.status, 1)));
    expect(admitted).toHaveLength(1);
  });

  it('a declined card → status 9 PaymentError, recorded, nothing charged', async () => {
    const c = await makeClient(payGroup);
    const r = await buy(tc, {
      eventId: 'gate-pay-declined',
      identification: card(c),
      items: [{ itemType: PurchaseItemType.Entrance }],
      payments: [{ method: PaymentMethod.CreditCard, card: DECLINED }],
    });
    expect(r).toMatchObject({
      ok: false,
      error: 'PAYMENT_ERROR',
      decision: { status: 9, reason: Reason.PaymentError, gateOpenSeconds: 0 },
    });
    const logs = await ctx.database.db
      .select()
      .from(entranceLogs)
      .where(and(eq(entranceLogs.terminalId, terminalId), eq(entranceLogs.eventId, 'gate-pay-declined')));
    expect(logs).toMatchObject([{ clientId: c.id, status: 9, reason: Reason.PaymentError, purchaseId: null }]);
    expect(await ctx.database.db.select().from(purchases).where(eq(purchases.clientId, c.id))).toHaveLength(0);
  });

  it("a club without the dealer's identity: status 9 with DEALER_IDENTITY_MISSING, the card not charged", async () => {
    const c = await makeClient(payGroup);
    const [row] = await ctx.database.db.select().from(clubs).where(eq(clubs.id, clubId));
    await ctx.database.db
      .update(clubs)
      .set({ settings: { ...(row.settings as object), companyNumber: '' } })
      .where(eq(clubs.id, clubId));
    try {
      const r = await buy(tc, {
        eventId: 'gate-pay-no-dealer',
        identification: card(c),
        items: [{ itemType: PurchaseItemType.Entrance }],
        payments: [{ method: PaymentMethod.CreditCard, card: VISA }],
      });
      expect(r).toMatchObject({
        ok: false,
        error: 'DEALER_IDENTITY_MISSING',
        decision: { status: 9, reason: Reason.PaymentError, gateOpenSeconds: 0 },
      });
      const logs = await ctx.database.db
        .select()
        .from(entranceLogs)
        .where(and(eq(entranceLogs.terminalId, terminalId), eq(entranceLogs.eventId, 'gate-pay-no-dealer')));
      expect(logs).toMatchObject([{ clientId: c.id, status: 9, reason: Reason.PaymentError, purchaseId: null }]);
      expect(await ctx.database.db.select().from(purchases).where(eq(purchases.clientId, c.id))).toHaveLength(0);
      const charged = await ctx.database.db
        .select()
        .from(charges)
        .where(like(charges.idempotencyKey, `terminal:${terminalId}:gate-pay-no-dealer%`));
      expect(charged).toHaveLength(0);
    } finally {
      await ctx.database.db.update(clubs).set({ settings: row.settings }).where(eq(clubs.id, clubId));
    }
  });

  it('paid with cash from a cash session; a gate that is not OpenWithPay sells no entrance', async () => {
    const c = await makeClient(payGroup);
    await tc.cashBegin('gate-cash-1', card(c), 2500);
    await tc.cashInsert('gate-cash-1', 'bill', 2000);
    await tc.cashInsert('gate-cash-1', 'coin', 500);
    const r = await buy(tc, {
      eventId: 'gate-cash-1',
      identification: card(c),
      items: [{ itemType: PurchaseItemType.Entrance }],
      payments: [{ method: PaymentMethod.Cash, cashSessionId: 'gate-cash-1' }],
    });
    expect(r).toMatchObject({ ok: true, total: 2500, decision: { status: 1, reason: Reason.EntryByPayment } });
    const [s] = await ctx.database.db.select().from(cashSessions).where(eq(cashSessions.sessionId, 'gate-cash-1'));
    expect(s).toMatchObject({ state: 'closed', credited: 2500, purchaseId: r.purchaseId });

    const open = await makeClient(openGroup, { subscriptionStart: '2020-01-01', subscriptionEnd: '2125-01-01' });
    const no = await buy(tc, {
      eventId: 'gate-not-pay',
      identification: card(open),
      items: [{ itemType: PurchaseItemType.Entrance }],
      payments: [{ method: PaymentMethod.CreditCard, card: VISA }],
    });
    expect(no).toMatchObject({ ok: false, error: 'PAYMENT_NOT_REQUIRED', decision: { status: 1 } });
    expect(await ctx.database.db.select().from(purchases).where(eq(purchases.clientId, open.id))).toHaveLength(0);
  });
});

describe('change a kiosk cannot pay (docs/cash.md "Payout errors")', () => {
  let empty: TerminalClient;
  let emptyId: number;
  beforeAll(async () => {
    // A second kiosk whose change inventories are empty: any change is unpaid.
    const t = await factory.makeTerminal(ctx, clubId, {
      serial: `KIOSK-EMPTY-${clubId}`,
      name: 'Empty',
      secret: SECRET,
    });
    emptyId = t.id;
    empty = new TerminalClient({ url: base, serial: t.serial, secret: SECRET, timeoutMs: 10_000, heartbeat: false });
    await empty.connect();
  });
  afterAll(async () => {
    await empty?.close();
  });

  const payoutErrorPurchase = async (sessionId: string) =>
    (
      await ctx.database.db
        .select()
        .from(purchases)
        .where(eq(purchases.idempotencyKey, `payout-error:${emptyId}:${sessionId}`))
    )[0];

  it('a cash load the kiosk cannot give change for: the load and the unpaid change are both credited', async () => {
    const c = await makeClient(openGroup);
    await empty.cashBegin('short-load', card(c), 1500);
    await empty.cashInsert('short-load', 'bill', 2000);
    expect(await empty.cashComplete('short-load')).toMatchObject({
      state: 'closed',
      credited: 1500,
      unpaid: 500,
      error: 'COIN_CHANGE_ERROR',
    });
    expect(await payoutErrorPurchase('short-load')).toMatchObject({
      clientId: c.id,
      total: 500,
      source: 'payoutError',
    });
    expect((await clientRow(c.id)).balance).toBe(2000);
  });

  it('a kiosk sale the kiosk cannot give change for: the sale goes through and the change is a payout-error purchase', async () => {
    const c = await makeClient(openGroup);
    await empty.cashBegin('short-sale', card(c));
    await empty.cashInsert('short-sale', 'bill', 2000);
    const r = await buy(empty, {
      eventId: 'short-sale',
      identification: card(c),
      items: [{ itemType: PurchaseItemType.Product, itemId: productId, quantity: 1 }],
      payments: [{ method: PaymentMethod.Cash, cashSessionId: 'short-sale' }],
    });
    expect(r).toMatchObject({
      ok: true,
      total: 1500,
      cash: { sessionId: 'short-sale', state: 'closed', unpaid: 500, error: 'COIN_CHANGE_ERROR' },
    });
    const [s] = await ctx.database.db.select().from(cashSessions).where(eq(cashSessions.sessionId, 'short-sale'));
    expect(s).toMatchObject({ state: 'closed', credited: 1500, purchaseId: r.purchaseId, unpaid: 500 });
    // The 5 ₪ the kiosk kept is the client's: a payout-error purchase loads it onto the balance.
    const pe = await payoutErrorPurchase('short-sale');
    expect(pe).toMatchObject({ clientId: c.id, total: 500, paidCash: 500, source: 'payoutError', terminalId: emptyId });
    expect(pe.invoiceNumber).toBeGreaterThan(0);
    expect((await clientRow(c.id)).balance).toBe(500);
    const ledger = await ctx.database.db.select().from(balanceLedger).where(eq(balanceLedger.clientId, c.id));
    expect(ledger).toMatchObject([{ kind: 'money', delta: 500, source: 'purchase', sourceId: pe.id }]);
    // A resend of the sale answers the same purchase and credits nothing twice.
    const again = await buy(empty, {
      eventId: 'short-sale',
      identification: card(c),
      items: [{ itemType: PurchaseItemType.Product, itemId: productId, quantity: 1 }],
      payments: [{ method: PaymentMethod.Cash, cashSessionId: 'short-sale' }],
    });
    expect(again).toMatchObject({ ok: true, purchaseId: r.purchaseId });
    expect((await clientRow(c.id)).balance).toBe(500);
  });
});
