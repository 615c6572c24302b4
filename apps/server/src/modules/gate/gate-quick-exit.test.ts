import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { EntrancePaymentType, EntranceState, QuickExitOutcome, type ServerMessages } from '@venue/domain';
import * as factory from '../../../test/factories.js';
import { createTestApp, signedInAdmin, type TestContext } from '../../../test/harness.js';
import { auditLog, balanceLedger, clients, clubs, quickExits } from '../../db/schema.js';
import { quickExitRule } from './quick-exit.service.js';
import { TerminalClient } from '../../../../terminal/src/client.js';
import { exitGate, nextPush } from '../../../../terminal/src/gate.js';

/**
 * Quick exit (seed 001 §3, §4, §8) and terminal messages (seed 001 §3,
 * seed 000 §7) through the real server: the API, the terminal protocol and
 * the records they leave.
 */

let ctx: TestContext;
let base: string;
let admin: Awaited<ReturnType<typeof signedInAdmin>>;
let groupId: number;
const SECRET = 'quick-exit-secret';
const open: TerminalClient[] = [];
let seq = 1;
const QUICK = {
  isQuickExitEnabled: true,
  quickExitMinMinutes: 5,
  quickExitMaxMinutes: 30,
  quickExitSubscriptionReward: 500,
  quickExitTransactionReward: 1000,
};

async function gate(clubId: number, settings: object = {}) {
  const serial = `QE-${clubId}-${seq++}`;
  await factory.makeTerminal(ctx, clubId, { serial, secret: SECRET, settings });
  const tc = new TerminalClient({ url: base, serial, secret: SECRET, timeoutMs: 5000, heartbeat: false });
  open.push(tc);
  await tc.connect();
  return tc;
}

/** A subscriber of the group, with a card. */
const client = (over: Partial<typeof clients.$inferInsert> = {}) =>
  factory.makeClient(ctx, admin.club.id, { firstName: 'Q', groupId, ...factory.SUBSCRIBED, ...over });

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);
const balanceOf = async (id: number) =>
  (await ctx.database.db.select().from(clients).where(eq(clients.id, id)))[0].balance;

let entry: TerminalClient;
let exit: TerminalClient;

beforeAll(async () => {
  ctx = await createTestApp();
  base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  admin = await signedInAdmin(ctx, { settings: QUICK });
  const g = await factory.makeGroupWithSchedule(
    ctx,
    admin.club.id,
    { name: 'All', entranceState: EntranceState.Closed },
    [{ price: 3000, entranceState: EntranceState.Opened }],
  );
  groupId = g.id;
  entry = await gate(admin.club.id);
  exit = await gate(admin.club.id, { quickExit: true });
});

afterAll(async () => {
  for (const tc of open) await tc.close().catch(() => undefined);
  await ctx?.close();
});

describe('quick exit rule (pure)', () => {
  const e = (paymentType: number, amount = 0) => ({ paymentType, amount, at: new Date() });
  it('orders the outcomes of seed 001 §4', () => {
    expect(quickExitRule({ ...QUICK, isQuickExitEnabled: false }, e(1), 10).outcome).toBe(
      QuickExitOutcome.NoQuickExitConfigured,
    );
    expect(quickExitRule({ ...QUICK, quickExitMaxMinutes: 0 }, e(1), 10).outcome).toBe(
      QuickExitOutcome.NoQuickExitConfigured,
    );
    expect(quickExitRule(QUICK, null, 10).outcome).toBe(QuickExitOutcome.NoEntryInRecentHours);
    for (const p of [EntrancePaymentType.Bonus, EntrancePaymentType.Free, EntrancePaymentType.Manager]) {
      expect(quickExitRule(QUICK, e(p), 10).outcome).toBe(QuickExitOutcome.BonusEntryNotEligible);
    }
    expect(quickExitRule(QUICK, e(1), 4).outcome).toBe(QuickExitOutcome.MinimumStayNotMet);
    expect(quickExitRule(QUICK, e(1), 31).outcome).toBe(QuickExitOutcome.StayExpired);
    expect(quickExitRule(QUICK, e(1), 5)).toEqual({ outcome: QuickExitOutcome.BySubscription, reward: 500 });
    expect(quickExitRule(QUICK, e(2, 3000), 30)).toEqual({ outcome: QuickExitOutcome.ByCharge, reward: 1000 });
    // The transaction reward never exceeds what the entrance cost.
    expect(quickExitRule(QUICK, e(2, 700), 10)).toEqual({ outcome: QuickExitOutcome.ByCharge, reward: 700 });
  });
});

describe('quick exit over the protocol', () => {
  it('by subscription: credits the subscription reward with a ledger row; a second exit is already recorded', async () => {
    const c = await client();
    expect((await entry.present({ kind: 'card', value: c.cardSerial }, { at: minutesAgo(10) })).status).toBe(1);
    const r = await exitGate(exit, { kind: 'card', value: c.cardSerial }, { eventId: `ex-${c.id}` });
    expect(r).toMatchObject({
      type: 'exit-result',
      outcome: QuickExitOutcome.BySubscription,
      message: 'BySubscription',
      rewardAmount: 500,
      durationMinutes: 10,
    });
    expect(r.gateOpenSeconds).toBeGreaterThan(0);
    expect(await balanceOf(c.id)).toBe(500);
    const [q] = await ctx.database.db.select().from(quickExits).where(eq(quickExits.clientId, c.id));
    expect(q).toMatchObject({ type: QuickExitOutcome.BySubscription, rewardAmount: 500, durationMinutes: 10 });
    const [l] = await ctx.database.db.select().from(balanceLedger).where(eq(balanceLedger.id, q.transactionId!));
    expect(l).toMatchObject({ clientId: c.id, kind: 'money', delta: 500, source: 'quick_exit', sourceId: q.id });
    // The same event again answers the same result and credits nothing more.
    expect(await exitGate(exit, { kind: 'card', value: c.cardSerial }, { eventId: `ex-${c.id}` })).toMatchObject({
      outcome: QuickExitOutcome.BySubscription,
      rewardAmount: 500,
    });
    expect(await exitGate(exit, { kind: 'card', value: c.cardSerial })).toMatchObject({
      outcome: QuickExitOutcome.QuickExitAlreadyRecorded,
      rewardAmount: 0,
    });
    expect(await balanceOf(c.id)).toBe(500);
  });

  it('by charge: returns the transaction reward to the payer (the parent for a child on its money)', async () => {
    const parent = await client({ subscriptionStart: null, subscriptionEnd: null, balance: 3000 });
    const child = await client({ subscriptionStart: null, subscriptionEnd: null, parentId: parent.id });
    expect((await entry.present({ kind: 'card', value: child.cardSerial }, { at: minutesAgo(6) })).status).toBe(1);
    expect(await balanceOf(parent.id)).toBe(0);
    expect(await exitGate(exit, { kind: 'card', value: child.cardSerial })).toMatchObject({
      outcome: QuickExitOutcome.ByCharge,
      rewardAmount: 1000,
    });
    expect([await balanceOf(parent.id), await balanceOf(child.id)]).toEqual([1000, 0]);
  });

  it('minimum stay not met, stay expired, bonus entry not eligible are recorded without a reward', async () => {
    const early = await client();
    await entry.present({ kind: 'card', value: early.cardSerial }, { at: minutesAgo(2) });
    expect((await exitGate(exit, { kind: 'card', value: early.cardSerial })).outcome).toBe(
      QuickExitOutcome.MinimumStayNotMet,
    );
    const late = await client();
    await entry.present({ kind: 'card', value: late.cardSerial }, { at: minutesAgo(45) });
    expect((await exitGate(exit, { kind: 'card', value: late.cardSerial })).outcome).toBe(QuickExitOutcome.StayExpired);
    const bonus = await client({ subscriptionStart: null, subscriptionEnd: null, bonusEntries: 1 });
    expect((await entry.present({ kind: 'card', value: bonus.cardSerial }, { at: minutesAgo(10) })).reason).toBe(1);
    expect((await exitGate(exit, { kind: 'card', value: bonus.cardSerial })).outcome).toBe(
      QuickExitOutcome.BonusEntryNotEligible,
    );
    const rows = await ctx.database.db.select().from(quickExits);
    for (const c of [early, late, bonus]) {
      const r = rows.find((x) => x.clientId === c.id)!;
      expect([r.rewardAmount, r.transactionId]).toEqual([0, null]);
    }
    expect([await balanceOf(early.id), await balanceOf(late.id)]).toEqual([0, 0]);
  });

  it('no entry in recent hours, unknown client, and a terminal or club without quick exit', async () => {
    const idle = await client();
    expect((await exitGate(exit, { kind: 'card', value: idle.cardSerial })).outcome).toBe(
      QuickExitOutcome.NoEntryInRecentHours,
    );
    await entry.present({ kind: 'card', value: idle.cardSerial }, { at: minutesAgo(13 * 60) });
    expect((await exitGate(exit, { kind: 'card', value: idle.cardSerial })).outcome).toBe(
      QuickExitOutcome.NoEntryInRecentHours,
    );
    expect((await exitGate(exit, { kind: 'card', value: 'nobody' })).outcome).toBe(QuickExitOutcome.Failed);
    const c = await client();
    await entry.present({ kind: 'card', value: c.cardSerial }, { at: minutesAgo(10) });
    expect((await exitGate(entry, { kind: 'card', value: c.cardSerial })).outcome).toBe(
      QuickExitOutcome.NoQuickExitConfigured,
    );
    await ctx.database.db
      .update(clubs)
      .set({ settings: { ...QUICK, isQuickExitEnabled: false } })
      .where(eq(clubs.id, admin.club.id));
    expect((await exitGate(exit, { kind: 'card', value: c.cardSerial })).outcome).toBe(
      QuickExitOutcome.NoQuickExitConfigured,
    );
    await ctx.database.db.update(clubs).set({ settings: QUICK }).where(eq(clubs.id, admin.club.id));
    expect((await exitGate(exit, { kind: 'card', value: c.cardSerial })).outcome).toBe(QuickExitOutcome.BySubscription);
    expect(await ctx.database.db.select().from(quickExits).where(eq(quickExits.clientId, idle.id))).toEqual([]);
  });
});

describe('terminal messages', () => {
  const body = {
    name: 'Holiday hours',
    title: 'internal',
    type: 'Popup',
    content: 'סגור בערב חג',
    startDate: '2020-01-01',
    endDate: '2100-01-01',
  };

  it('creates, reads, lists and patches with defaults, validation, audit and club scoping', async () => {
    const res = await admin.api.post('/api/TerminalMessage', body);
    expect(res.statusCode, res.body).toBe(200);
    const m = res.json();
    expect(m).toMatchObject({ ...body, displaySeconds: 30, active: true, showing: true });
    expect((await admin.api.get(`/api/TerminalMessage/${m.id}`)).json()).toEqual(m);
    const list = (await admin.api.get('/api/TerminalMessage')).json();
    expect(list.items.map((x: { id: number }) => x.id)).toContain(m.id);
    const patched = (
      await admin.api.patch(`/api/TerminalMessage/${m.id}`, { active: false, displaySeconds: 12 })
    ).json();
    expect(patched).toMatchObject({ active: false, showing: false, displaySeconds: 12, content: body.content });
    const audits = await ctx.database.db.select().from(auditLog).where(eq(auditLog.entity, 'terminalMessage'));
    expect(audits.filter((x) => x.entityId === String(m.id)).map((x) => [x.action, x.userId])).toEqual([
      ['create', admin.user.id],
      ['update', admin.user.id],
    ]);
    const bad = await admin.api.post('/api/TerminalMessage', {
      ...body,
      startDate: '2026-05-02',
      endDate: '2026-05-01',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details).toEqual([{ path: 'endDate', message: 'endBeforeStart' }]);
    expect((await admin.api.patch(`/api/TerminalMessage/${m.id}`, { endDate: '2019-01-01' })).statusCode).toBe(400);
    expect((await admin.api.post('/api/TerminalMessage', { ...body, type: 'Banner' })).statusCode).toBe(400);
    expect((await admin.api.post('/api/TerminalMessage', { ...body, name: '' })).statusCode).toBe(400);
    const b = await signedInAdmin(ctx);
    expect((await b.api.get(`/api/TerminalMessage/${m.id}`)).statusCode).toBe(404);
    expect((await b.api.patch(`/api/TerminalMessage/${m.id}`, { name: 'x' })).statusCode).toBe(404);
    expect((await b.api.get('/api/TerminalMessage')).json()).toEqual({ items: [], total: 0 });
  });

  it('sends the active messages after welcome and pushes every change to connected terminals', async () => {
    const club = await signedInAdmin(ctx);
    const current = (await club.api.post('/api/TerminalMessage', { ...body, name: 'now' })).json();
    await club.api.post('/api/TerminalMessage', {
      ...body,
      name: 'ended',
      startDate: '2020-01-01',
      endDate: '2020-12-31',
    });
    await club.api.post('/api/TerminalMessage', { ...body, name: 'off', active: false });
    const tc = await gate(club.club.id);
    const first = (await nextPush(tc, 'messages', { since: 0 })) as ServerMessages;
    expect(first.items).toEqual([
      {
        id: current.id,
        type: 'Popup',
        content: body.content,
        displaySeconds: 30,
        startDate: body.startDate,
        endDate: body.endDate,
      },
    ]);
    const since = tc.unsolicited.length;
    const later = (
      await club.api.post('/api/TerminalMessage', { ...body, name: 'soon', startDate: '2099-01-01', content: 'later' })
    ).json();
    const pushed = (await nextPush(tc, 'messages', { since })) as ServerMessages;
    expect(pushed.items.map((i) => i.id)).toEqual([current.id, later.id]);
    const since2 = tc.unsolicited.length;
    await club.api.patch(`/api/TerminalMessage/${current.id}`, { active: false });
    expect(((await nextPush(tc, 'messages', { since: since2 })) as ServerMessages).items.map((i) => i.id)).toEqual([
      later.id,
    ]);
    // Another club's terminal hears nothing of it.
    expect(exit.unsolicited.some((m) => m.type === 'messages' && m.items.some((i) => i.id === later.id))).toBe(false);
  });
});
