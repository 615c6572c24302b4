import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import {
  EntranceState,
  EntranceStatus,
  PaymentMethod,
  PurchaseItemType,
  Reason,
  type FrontDeskGlance,
} from '@venue/domain';
import { Api, createTestApp, makeUser, signedInAdmin, TEST_PASSWORD, type TestContext } from '../../../test/harness.js';
import * as factory from '../../../test/factories.js';
import { auditLog, balanceLedger, entranceLogs, entranceOverrides, purchases } from '../../db/schema.js';
import { SMTPServer } from 'smtp-server';
import { TerminalClient } from '../../../../terminal/src/client.js';

/**
 * The front desk's API (issue 35; docs/front-desk.md) on a real database (PGlite, or PostgreSQL
 * with TEST_DB=postgres): the one search box, the glance and the gate's verdict, check-in by the
 * gate's own decision with its override, and the sale of an entrance that admits — cross-club
 * 404, missing permission 403, bad input translated and changing nothing, retries answered once.
 */

let ctx: TestContext;
let base: string;
const open: { close(): unknown }[] = [];
beforeAll(async () => {
  ctx = await createTestApp();
  base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  for (const o of open) await o.close();
  await ctx?.close();
});

let keySeq = 0;
const key = () => `desk-test-${process.pid}-${++keySeq}`;

/** A club with a walk-in group open all day at ₪40, a closed group, a gate and a signed-in admin. */
async function desk() {
  const { club, api, user } = await signedInAdmin(ctx);
  const openGroup = await factory.makeGroupWithSchedule(ctx, club.id, { name: 'Walk-in', allowEntrance: true }, [
    { entranceState: EntranceState.Opened, price: 4000 },
  ]);
  const closedGroup = await factory.makeGroup(ctx, club.id, {
    name: 'Closed now',
    allowEntrance: true,
    entranceState: EntranceState.Closed,
  });
  const gate = await factory.makeTerminal(ctx, club.id, { name: 'Main gate', isMain: true });
  return { club, api, user, openGroup, closedGroup, gate };
}

/** Signs in a user of the club with exactly these flags. */
async function userWith(clubId: number, externalClubId: number, permissions: Record<string, boolean>) {
  const u = await makeUser(ctx, clubId, { permissions });
  const api = new Api(ctx.app);
  expect((await api.login(u.username, TEST_PASSWORD, externalClubId)).statusCode).toBe(200);
  return api;
}

const logsOf = (clubId: number, clientId: number) =>
  ctx.database.db
    .select()
    .from(entranceLogs)
    .where(and(eq(entranceLogs.clubId, clubId), eq(entranceLogs.clientId, clientId)));

const cash = (amount: number) => [{ method: PaymentMethod.Cash, amount, cashGiven: 5000 }];
const entranceItem = (unitPrice: number) => ({ itemType: PurchaseItemType.Entrance, name: '', quantity: 1, unitPrice });

describe('find: one box for a card swipe, phone, name, ID or member number', () => {
  it('finds by the exact card first, then code or number, then the list search; never another club', async () => {
    const { club, api, openGroup } = await desk();
    const other = await signedInAdmin(ctx);
    const dana = await factory.makeClient(ctx, club.id, {
      firstName: 'דנה',
      lastName: 'כהן-אברהמי',
      phone: '+972501234567',
      cardSerial: '0004455667',
      groupId: openGroup.id,
    });
    await factory.makeClient(ctx, club.id, { firstName: 'Noa', lastName: 'Levi', clientCode: 'VIP7' });
    await factory.makeClient(ctx, other.club.id, { firstName: 'דנה', cardSerial: '0004455668' });

    const card = (await api.get('/api/FrontDesk/Find?q=0004455667')).json();
    expect(card).toMatchObject({ by: 'card', more: false, items: [{ id: dana.id, groupName: 'Walk-in' }] });
    // A reader that sends surrounding spaces still finds the card.
    expect((await api.get('/api/FrontDesk/Find?q=%200004455667%20')).json().by).toBe('card');

    const byNumber = (await api.get(`/api/FrontDesk/Find?q=${dana.number}`)).json();
    expect(byNumber).toMatchObject({ by: 'code', items: [{ id: dana.id }] });
    expect((await api.get('/api/FrontDesk/Find?q=VIP7')).json()).toMatchObject({
      by: 'code',
      items: [{ lastName: 'Levi' }],
    });

    const phone = (await api.get(`/api/FrontDesk/Find?q=${encodeURIComponent('050-123-4567')}`)).json();
    expect(phone).toMatchObject({ by: 'search', items: [{ id: dana.id }] });
    const name = (await api.get(`/api/FrontDesk/Find?q=${encodeURIComponent('דנה כהן')}`)).json();
    expect(name.items.map((c: { id: number }) => c.id)).toEqual([dana.id]);
    const id = (await api.get(`/api/FrontDesk/Find?q=${dana.personalId}`)).json();
    expect(id.items.map((c: { id: number }) => c.id)).toEqual([dana.id]);

    // The other club's card is not this club's: nothing found.
    expect((await api.get('/api/FrontDesk/Find?q=0004455668')).json()).toEqual({
      by: 'search',
      items: [],
      more: false,
    });
  });

  it('answers at most 20 with `more`, leaves deleted clients out, refuses an empty box (400, translated key)', async () => {
    const { club, api } = await desk();
    await factory.makeClients(
      ctx,
      club.id,
      Array.from({ length: 22 }, (_, i) => ({ firstName: 'Many', lastName: `Person ${i}` })),
    );
    await factory.makeClient(ctx, club.id, { firstName: 'Gone', lastName: 'Away', status: 3, cardSerial: 'GONE-1' });
    const many = (await api.get('/api/FrontDesk/Find?q=Many')).json();
    expect(many.items).toHaveLength(20);
    expect(many.more).toBe(true);
    expect((await api.get('/api/FrontDesk/Find?q=GONE-1')).json().items).toEqual([]);
    const empty = await api.get('/api/FrontDesk/Find?q=%20%20');
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ path: 'q', message: 'required' }] });
  });
});

describe('glance and the gate verdict', () => {
  it("shows group, subscription, balances, debts, last entrance, message and the gate's verdict now", async () => {
    const { club, api, openGroup, closedGroup, gate } = await desk();
    const walkIn = await factory.makeClient(ctx, club.id, {
      firstName: 'Walk',
      groupId: openGroup.id,
      messageToClient: 'Please renew your card',
      ...factory.NO_SUBSCRIPTION,
    });
    await factory.credit(ctx, walkIn, 1500);
    await factory.makeDebt(ctx, walkIn, { amount: 3000, paid: 1000, description: 'Old towel' });
    await factory.makeDebt(ctx, walkIn, { amount: 500, paid: 500, description: 'Paid already' });
    await factory.makeEntrance(ctx, club.id, {
      clientId: walkIn.id,
      terminalId: gate.id,
      at: new Date('2026-01-05T08:00:00Z'),
      status: EntranceStatus.Approved,
      reason: Reason.EntryBySubscription,
    });
    await factory.makeBiometricTemplate(ctx, walkIn, { kind: 'face', imageEnc: 'x' });

    const g: FrontDeskGlance = (await api.get(`/api/FrontDesk/Client/${walkIn.id}?terminalId=${gate.id}`)).json();
    expect(g.client).toMatchObject({ id: walkIn.id, messageToClient: 'Please renew your card', hasPhoto: true });
    expect(g.group).toMatchObject({ id: openGroup.id, name: 'Walk-in' });
    expect(g.subscription).toEqual({ start: null, end: null, valid: false });
    expect(g.balance).toBe(1500);
    expect(g.debts).toMatchObject({
      open: 2000,
      items: [{ open: 2000, description: 'Old towel', inCollection: false }],
    });
    expect(g.lastEntrance).toMatchObject({ at: '2026-01-05T08:00:00.000Z', terminalName: 'Main gate', status: 1 });
    // Open now at ₪40; ₪15 does not pay for it, so the gate refuses (no balance) and a sale admits.
    expect(g.verdict).toMatchObject({
      terminalId: gate.id,
      state: EntranceState.Opened,
      open: true,
      price: 4000,
      decision: { approved: false, status: EntranceStatus.NoBalance, reason: Reason.NoBalance },
      sale: { outcome: 'admits', decision: { approved: true, reason: Reason.EntryByChargedMoney, amount: 4000 } },
      overridable: true,
    });

    // Closed right now: the gate refuses, and would refuse a paid entrance too ("ClosedToGroup").
    const closed = await factory.makeClient(ctx, club.id, { groupId: closedGroup.id, ...factory.SUBSCRIBED });
    const c: FrontDeskGlance = (await api.get(`/api/FrontDesk/Client/${closed.id}?terminalId=${gate.id}`)).json();
    expect(c.subscription.valid).toBe(true);
    expect(c.verdict).toMatchObject({
      state: EntranceState.Closed,
      open: false,
      decision: { status: EntranceStatus.ClosedToGroup, reason: Reason.ClosedToGroup },
      sale: { outcome: 'refused', decision: { reason: Reason.ClosedToGroup } },
      overridable: true,
    });

    // A subscriber in the open group: admitted, nothing to sell. Without a gate: no verdict.
    const member = await factory.makeClient(ctx, club.id, { groupId: openGroup.id, ...factory.SUBSCRIBED });
    const m: FrontDeskGlance = (await api.get(`/api/FrontDesk/Client/${member.id}?terminalId=${gate.id}`)).json();
    expect(m.verdict).toMatchObject({
      decision: { approved: true, reason: Reason.EntryBySubscription },
      sale: { outcome: 'notRequired' },
      overridable: false,
    });
    expect((await api.get(`/api/FrontDesk/Client/${member.id}`)).json().verdict).toBeNull();
  });

  it("answers 404 for another club's client or gate and for a deleted client, 400 for a bad gate id", async () => {
    const { club, api, gate } = await desk();
    const other = await desk();
    const mine = await factory.makeClient(ctx, club.id);
    const theirs = await factory.makeClient(ctx, other.club.id);
    const gone = await factory.makeClient(ctx, club.id, { status: 3 });
    for (const url of [
      `/api/FrontDesk/Client/${theirs.id}?terminalId=${gate.id}`,
      `/api/FrontDesk/Client/${mine.id}?terminalId=${other.gate.id}`,
      `/api/FrontDesk/Client/${gone.id}`,
    ]) {
      const res = await api.get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().code).toBe('NOT_FOUND');
    }
    const bad = await api.get(`/api/FrontDesk/Client/${mine.id}?terminalId=abc`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details).toEqual([{ path: 'terminalId', message: 'invalidId' }]);
  });

  it('lists the live gates, main first, with their link state', async () => {
    const { club, api, gate } = await desk();
    await factory.makeTerminal(ctx, club.id, { name: 'Aa side door' });
    await factory.makeTerminal(ctx, club.id, { name: 'Deleted', deleted: true });
    const gates = (await api.get('/api/FrontDesk/Gates')).json();
    expect(gates.map((g: { name: string }) => g.name)).toEqual(['Main gate', 'Aa side door']);
    expect(gates[0]).toMatchObject({ id: gate.id, isMain: true, approved: true, connected: false });
  });
});

describe('check in through a gate by the gate decision', () => {
  it('admits a subscriber as a presentation would: a desk entrance, audited, on the live feed; a retry answers once', async () => {
    const { club, api, user, openGroup, gate } = await desk();
    const member = await factory.makeClient(ctx, club.id, { groupId: openGroup.id, ...factory.SUBSCRIBED });
    const heard: number[] = [];
    const off = ctx.bus.subscribe('entrance', (e) => {
      if (e.clubId === club.id) heard.push((e.row as { reason: number }).reason);
    });
    const k = key();
    const res = await api.post('/api/FrontDesk/CheckIn', {
      clientId: member.id,
      terminalId: gate.id,
      idempotencyKey: k,
    });
    off();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      admitted: true,
      decision: { status: 1, reason: Reason.EntryBySubscription },
      overridden: null,
      gateOpened: false,
      duplicate: false,
    });
    const logs = await logsOf(club.id, member.id);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ identificationKind: 'desk', terminalId: gate.id, status: 1, eventId: `desk:${k}` });
    expect(heard).toEqual([Reason.EntryBySubscription]);
    const [a] = await ctx.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.clubId, club.id), eq(auditLog.entity, 'entrance')));
    expect(a).toMatchObject({ userId: user.id, action: 'create', entityId: String(logs[0].id) });

    const again = await api.post('/api/FrontDesk/CheckIn', {
      clientId: member.id,
      terminalId: gate.id,
      idempotencyKey: k,
    });
    expect(again.json()).toMatchObject({ admitted: true, entranceId: logs[0].id, duplicate: true });
    expect(await logsOf(club.id, member.id)).toHaveLength(1);
  });

  it('records a refusal like the gate; an override needs its own permission and a reason, and is recorded', async () => {
    const { club, api, user, closedGroup, gate } = await desk();
    const member = await factory.makeClient(ctx, club.id, { groupId: closedGroup.id, ...factory.SUBSCRIBED });
    const refused = await api.post('/api/FrontDesk/CheckIn', {
      clientId: member.id,
      terminalId: gate.id,
      idempotencyKey: key(),
    });
    expect(refused.json()).toMatchObject({ admitted: false, decision: { status: 4, reason: Reason.ClosedToGroup } });
    expect((await logsOf(club.id, member.id)).map((l) => l.status)).toEqual([4]);

    // A cashier who may check in but not override: 403, nothing written.
    const cashier = await userWith(club.id, club.externalClubId, {
      roleViewClientsList: true,
      roleCheckInClients: true,
    });
    const denied = await cashier.post('/api/FrontDesk/CheckIn', {
      clientId: member.id,
      terminalId: gate.id,
      override: { reason: 'Lifeguard on duty agreed' },
      idempotencyKey: key(),
    });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().code).toBe('NOT_AUTHORIZED');
    // A reason of under 3 characters: 400 with the translated key, nothing written.
    const short = await api.post('/api/FrontDesk/CheckIn', {
      clientId: member.id,
      terminalId: gate.id,
      override: { reason: ' x ' },
      idempotencyKey: key(),
    });
    expect(short.statusCode).toBe(400);
    expect(short.json().details).toEqual([{ path: 'override.reason', message: 'overrideReasonRequired' }]);
    expect(await logsOf(club.id, member.id)).toHaveLength(1);

    const k = key();
    const over = await api.post('/api/FrontDesk/CheckIn', {
      clientId: member.id,
      terminalId: gate.id,
      override: { reason: 'Swim team practice, approved by the manager' },
      idempotencyKey: k,
    });
    expect(over.statusCode).toBe(200);
    expect(over.json()).toMatchObject({
      admitted: true,
      decision: { status: 1, reason: Reason.EntryByStaffOverride, amount: 0 },
      overridden: { status: 4, reason: Reason.ClosedToGroup },
    });
    const logs = await logsOf(club.id, member.id);
    expect(logs.map((l) => [l.status, l.reason])).toEqual([
      [4, Reason.ClosedToGroup],
      [1, Reason.EntryByStaffOverride],
    ]);
    const [o] = await ctx.database.db.select().from(entranceOverrides).where(eq(entranceOverrides.clubId, club.id));
    expect(o).toMatchObject({
      entranceLogId: over.json().entranceId,
      userId: user.id,
      refusedStatus: 4,
      refusedReason: Reason.ClosedToGroup,
      reason: 'Swim team practice, approved by the manager',
    });
    const [a] = await ctx.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.clubId, club.id), eq(auditLog.action, 'override')));
    expect(a).toMatchObject({
      userId: user.id,
      entity: 'entrance',
      before: { status: 4, reason: Reason.ClosedToGroup },
    });
    // The retry answers the override once.
    const again = await api.post('/api/FrontDesk/CheckIn', {
      clientId: member.id,
      terminalId: gate.id,
      override: { reason: 'Swim team practice, approved by the manager' },
      idempotencyKey: k,
    });
    expect(again.json()).toMatchObject({ duplicate: true, overridden: { reason: Reason.ClosedToGroup } });
    expect(await logsOf(club.id, member.id)).toHaveLength(2);
  });

  it('refuses to override what no one may (a gate not approved): 409, nothing written', async () => {
    const { club, api, openGroup } = await desk();
    const pending = await factory.makeTerminal(ctx, club.id, { name: 'New gate', approved: false });
    const member = await factory.makeClient(ctx, club.id, { groupId: openGroup.id, ...factory.SUBSCRIBED });
    const res = await api.post('/api/FrontDesk/CheckIn', {
      clientId: member.id,
      terminalId: pending.id,
      override: { reason: 'Let her in' },
      idempotencyKey: key(),
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'OVERRIDE_NOT_POSSIBLE', details: { status: 11 } });
    expect(await logsOf(club.id, member.id)).toHaveLength(0);
  });

  it("answers 404 for another club's client or gate, 403 without roleCheckInClients", async () => {
    const { club, api, gate, openGroup } = await desk();
    const other = await desk();
    const mine = await factory.makeClient(ctx, club.id, { groupId: openGroup.id, ...factory.SUBSCRIBED });
    const theirs = await factory.makeClient(ctx, other.club.id, { groupId: other.openGroup.id, ...factory.SUBSCRIBED });
    for (const body of [
      { clientId: theirs.id, terminalId: gate.id },
      { clientId: mine.id, terminalId: other.gate.id },
    ]) {
      const res = await api.post('/api/FrontDesk/CheckIn', { ...body, idempotencyKey: key() });
      expect(res.statusCode).toBe(404);
    }
    expect(await logsOf(club.id, mine.id)).toHaveLength(0);
    expect(await logsOf(other.club.id, theirs.id)).toHaveLength(0);
    const viewer = await userWith(club.id, club.externalClubId, {
      roleViewClientsList: true,
      roleManageClientMoney: true,
    });
    const res = await viewer.post('/api/FrontDesk/CheckIn', {
      clientId: mine.id,
      terminalId: gate.id,
      idempotencyKey: key(),
    });
    expect(res.statusCode).toBe(403);
  });

  it('tells a linked gate to open', async () => {
    const { club, api, openGroup } = await desk();
    const created = (
      await api.post('/api/Terminal', { serial: `FD-${process.pid}-${Date.now()}`, name: 'Turnstile' })
    ).json();
    await api.patch(`/api/Terminal/${created.id}`, { approved: true });
    const tc = new TerminalClient({
      url: base,
      serial: created.serial,
      secret: created.secret,
      heartbeat: false,
      timeoutMs: 4000,
    });
    open.push(tc);
    await tc.connect();
    const member = await factory.makeClient(ctx, club.id, { groupId: openGroup.id, ...factory.SUBSCRIBED });
    const res = await api.post('/api/FrontDesk/CheckIn', {
      clientId: member.id,
      terminalId: created.id,
      idempotencyKey: key(),
    });
    expect(res.json()).toMatchObject({ admitted: true, gateOpened: true });
    const end = Date.now() + 4000;
    while (!tc.actions.some((a) => a.actionName === 'openGate') && Date.now() < end)
      await new Promise((r) => setTimeout(r, 20));
    expect(tc.actions.some((a) => a.actionName === 'openGate')).toBe(true);
  });
});

describe('sell an entrance that admits (one purchase path)', () => {
  it('sells a walk-in the entrance at the suggested price and admits in one transaction; a retry charges nothing', async () => {
    const { club, api, openGroup, gate } = await desk();
    const walkIn = await factory.makeClient(ctx, club.id, { groupId: openGroup.id, ...factory.NO_SUBSCRIPTION });
    const k = key();
    const body = {
      clientId: walkIn.id,
      terminalId: gate.id,
      purchaseItems: [entranceItem(4000)],
      payments: cash(4000),
      idempotencyKey: k,
    };
    const res = await api.post('/api/FrontDesk/SellEntrance', body);
    expect(res.statusCode).toBe(200);
    const sold = res.json();
    expect(sold.purchase).toMatchObject({ total: 4000, paidCash: 4000, change: 1000, clientId: walkIn.id });
    expect(sold.purchase.invoiceNumber).toBeGreaterThan(0);
    expect(sold.checkIn).toMatchObject({ admitted: true, decision: { status: 1, reason: Reason.EntryByPayment } });
    const logs = await logsOf(club.id, walkIn.id);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({
      status: 1,
      reason: Reason.EntryByPayment,
      purchaseId: sold.purchase.id,
      amount: 4000,
      identificationKind: 'desk',
    });
    // Cash: the balance ledger does not move.
    const ledger = await ctx.database.db.select().from(balanceLedger).where(eq(balanceLedger.clientId, walkIn.id));
    expect(ledger).toEqual([]);

    const again = await api.post('/api/FrontDesk/SellEntrance', body);
    expect(again.json()).toMatchObject({
      purchase: { id: sold.purchase.id },
      checkIn: { duplicate: true, admitted: true },
    });
    expect(await logsOf(club.id, walkIn.id)).toHaveLength(1);
    const bought = await ctx.database.db.select().from(purchases).where(eq(purchases.clientId, walkIn.id));
    expect(bought).toHaveLength(1);
  });

  it('warns instead of selling what the gate refuses (ClosedToGroup) or does not need (a subscriber): 409, nothing written', async () => {
    const { club, api, openGroup, closedGroup, gate } = await desk();
    const closed = await factory.makeClient(ctx, club.id, { groupId: closedGroup.id, ...factory.NO_SUBSCRIPTION });
    const member = await factory.makeClient(ctx, club.id, { groupId: openGroup.id, ...factory.SUBSCRIBED });
    const sell = (clientId: number) =>
      api.post('/api/FrontDesk/SellEntrance', {
        clientId,
        terminalId: gate.id,
        purchaseItems: [entranceItem(4000)],
        payments: cash(4000),
        idempotencyKey: key(),
      });
    const refused = await sell(closed.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'ENTRANCE_REFUSED',
      details: { status: 4, reason: Reason.ClosedToGroup },
    });
    const notNeeded = await sell(member.id);
    expect(notNeeded.statusCode).toBe(409);
    expect(notNeeded.json()).toMatchObject({
      code: 'PAYMENT_NOT_REQUIRED',
      details: { status: 1, reason: Reason.EntryBySubscription },
    });
    for (const c of [closed, member]) {
      expect(await logsOf(club.id, c.id)).toHaveLength(0);
      expect(await ctx.database.db.select().from(purchases).where(eq(purchases.clientId, c.id))).toHaveLength(0);
    }
  });

  it('refuses bad input (translated), other clubs (404) and a seller who may not check in (403)', async () => {
    const { club, api, openGroup, gate } = await desk();
    const other = await desk();
    const walkIn = await factory.makeClient(ctx, club.id, { groupId: openGroup.id, ...factory.NO_SUBSCRIPTION });
    const theirs = await factory.makeClient(ctx, other.club.id, { groupId: other.openGroup.id });
    const body = (over: object) => ({
      clientId: walkIn.id,
      terminalId: gate.id,
      purchaseItems: [entranceItem(4000)],
      payments: cash(4000),
      idempotencyKey: key(),
      ...over,
    });
    const two = await api.post(
      '/api/FrontDesk/SellEntrance',
      body({ purchaseItems: [entranceItem(4000), entranceItem(4000)], payments: cash(8000) }),
    );
    expect(two.statusCode).toBe(400);
    expect(two.json().details).toEqual([{ path: 'purchaseItems', message: 'oneEntrance' }]);
    const mismatch = await api.post('/api/FrontDesk/SellEntrance', body({ payments: cash(3000) }));
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json()).toMatchObject({ code: 'PAYMENTS_DO_NOT_MATCH_TOTAL', details: { expected: 4000 } });
    const unknownField = await api.post('/api/FrontDesk/SellEntrance', body({ price: 1 }));
    expect(unknownField.statusCode).toBe(400);
    expect((await api.post('/api/FrontDesk/SellEntrance', body({ clientId: theirs.id }))).statusCode).toBe(404);
    expect((await api.post('/api/FrontDesk/SellEntrance', body({ terminalId: other.gate.id }))).statusCode).toBe(404);
    const cashierNoDesk = await userWith(club.id, club.externalClubId, {
      roleViewClientsList: true,
      roleManageClientMoney: true,
    });
    const denied = await cashierNoDesk.post('/api/FrontDesk/SellEntrance', body({}));
    expect(denied.statusCode).toBe(403);
    expect(await logsOf(club.id, walkIn.id)).toHaveLength(0);
    expect(await ctx.database.db.select().from(purchases).where(eq(purchases.clientId, walkIn.id))).toHaveLength(0);
  });
});

describe("the desk sale's receipt by e-mail (the document mail path)", () => {
  it('issues the sale document when needed and sends it to the club invoice e-mail; other clubs 404', async () => {
    const received: string[] = [];
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      onData(stream, session, cb) {
        stream.on('data', () => undefined);
        stream.on('end', () => {
          received.push(session.envelope.rcptTo.map((r) => r.address).join(','));
          cb();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.server.address() as { port: number }).port;
    try {
      const { club, api, openGroup, gate } = await desk();
      const walkIn = await factory.makeClient(ctx, club.id, { groupId: openGroup.id, ...factory.NO_SUBSCRIPTION });
      const sold = (
        await api.post('/api/FrontDesk/SellEntrance', {
          clientId: walkIn.id,
          terminalId: gate.id,
          purchaseItems: [entranceItem(4000)],
          payments: cash(4000),
          idempotencyKey: key(),
        })
      ).json();
      const unconfigured = await api.post(`/api/Purchase/EmailDocument/${sold.purchase.id}`);
      expect(unconfigured.statusCode).toBe(409);
      expect(unconfigured.json().code).toBe('MAIL_NOT_CONFIGURED');
      await api.request('PUT', '/api/Club/InvoiceMailSettings', {
        host: '127.0.0.1',
        port,
        secure: false,
        from: 'desk@club.example',
        invoiceEmail: 'books@club.example',
      });
      const sent = await api.post(`/api/Purchase/EmailDocument/${sold.purchase.id}`);
      expect(sent.statusCode, sent.body).toBe(200);
      expect(sent.json().to).toBe('books@club.example');
      expect(received).toEqual(['books@club.example']);
      // Sending is not a print: the document exists, printed 0 times.
      expect((await api.get(`/api/Purchase/Documents/${sold.purchase.id}`)).json()[0]).toMatchObject({ prints: 0 });
      const other = await desk();
      expect((await other.api.post(`/api/Purchase/EmailDocument/${sold.purchase.id}`)).statusCode).toBe(404);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
