import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import {
  ClientStatus,
  ClientType,
  EntranceState,
  EntranceStatus,
  HalachicTime,
  HOLIDAY_EVE_DAY,
  hhmm,
  isErevChag,
  Reason,
  weekdayOf,
  type Identification,
} from '@venue/domain';
import { createTestApp, signedInAdmin, type TestContext } from '../../../test/harness.js';
import * as factory from '../../../test/factories.js';
import { balanceLedger, clients, entranceLogs, groups, schedules, terminals } from '../../db/schema.js';
import { TerminalClient } from '../../../../terminal/src/client.js';

/**
 * Every entrance outcome of seed 000 §4 and seed 001 §4 decided by the real
 * server and answered over the terminal protocol (docs/entrance-reasons.md):
 * each case sets up its own client (and group, rows, terminal door) and
 * presents at a simulated terminal.
 */

let ctx: TestContext;
let base: string;
let admin: Awaited<ReturnType<typeof signedInAdmin>>;
let clubId: number;
const SECRET = 'gate-decisions-secret';
const open: TerminalClient[] = [];
let seq = 1;

async function makeTerminal(club: number, over: Partial<typeof terminals.$inferInsert> = {}) {
  const serial = `GD-${club}-${seq++}`;
  const t = await factory.makeTerminal(ctx, club, { serial, secret: SECRET, ...over });
  const tc = new TerminalClient({ url: base, serial, secret: SECRET, timeoutMs: 5000, heartbeat: false });
  open.push(tc);
  await tc.connect();
  return { t, tc };
}

async function makeGroup(
  over: Partial<typeof groups.$inferInsert> = {},
  rows: Partial<typeof schedules.$inferInsert>[] = [],
) {
  return factory.makeGroupWithSchedule(
    ctx,
    clubId,
    { name: `G${seq++}`, entranceState: EntranceState.Closed, ...over },
    rows.map((r) => ({ price: 3000, entranceState: EntranceState.Opened, ...r })),
  );
}

/** A client with its own card (`Client <number>`); by default a valid subscription and license, in an always-open group. */
const makeClient = (over: Partial<typeof clients.$inferInsert> = {}, club = clubId) =>
  factory.makeClient(ctx, club, { groupId: openGroup, ...factory.SUBSCRIBED, ...over });

const card = (c: { cardSerial: string }): Identification => ({ kind: 'card', value: c.cardSerial });
const noSubscription = factory.NO_SUBSCRIPTION;

let openGroup: number;
let gate: TerminalClient;

beforeAll(async () => {
  ctx = await createTestApp();
  base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  admin = await signedInAdmin(ctx);
  clubId = admin.club.id;
  openGroup = (await makeGroup({}, [{}])).id;
  gate = (await makeTerminal(clubId)).tc;
});

afterAll(async () => {
  for (const tc of open) await tc.close().catch(() => undefined);
  await ctx?.close();
});

describe('every entrance outcome over the terminal protocol', () => {
  it('1 / EntryBySubscription, 1 / EntryByChargedMoney with a ledger row', async () => {
    const sub = await makeClient();
    expect(await gate.present(card(sub))).toMatchObject({ status: 1, reason: Reason.EntryBySubscription });
    const payer = await makeClient({ ...noSubscription, balance: 5000 });
    expect(await gate.present(card(payer))).toMatchObject({ status: 1, reason: Reason.EntryByChargedMoney });
    const [row] = await ctx.database.db.select().from(clients).where(eq(clients.id, payer.id));
    expect(row.balance).toBe(2000);
    const ledger = await ctx.database.db.select().from(balanceLedger).where(eq(balanceLedger.clientId, payer.id));
    expect(ledger.map((l) => [l.kind, l.delta, l.source])).toEqual([['money', -3000, 'entrance']]);
  });

  it('1 / EntryFreeOpen (group row), 1 / EntryByManager for Manager and Technician even when closed', async () => {
    const free = await makeGroup({}, [{ entranceState: EntranceState.FreeOpen }]);
    const c = await makeClient({ ...noSubscription, groupId: free.id });
    expect(await gate.present(card(c))).toMatchObject({ status: 1, reason: Reason.EntryFreeOpen });
    const closed = await makeGroup({ entranceState: EntranceState.Closed });
    for (const clientType of [ClientType.Manager, ClientType.Technician]) {
      const m = await makeClient({ clientType, groupId: closed.id, licenseExpiry: null, ...noSubscription });
      expect(await gate.present(card(m))).toMatchObject({ status: 1, reason: Reason.EntryByManager });
    }
  });

  it('1 / EntryByParentSubscription and 1 / EntryByParentMoney debit the parent with a ledger row', async () => {
    const parent = await makeClient();
    const child = await makeClient({ ...noSubscription, parentId: parent.id });
    const d = await gate.present(card(child));
    expect(d).toMatchObject({ status: 1, reason: Reason.EntryByParentSubscription });
    const [log] = await ctx.database.db.select().from(entranceLogs).where(eq(entranceLogs.clientId, child.id));
    expect(log.payerClientId).toBe(parent.id);

    const payingParent = await makeClient({ ...noSubscription, balance: 4000 });
    const child2 = await makeClient({ ...noSubscription, parentId: payingParent.id });
    expect(await gate.present(card(child2))).toMatchObject({ status: 1, reason: Reason.EntryByParentMoney });
    const [p] = await ctx.database.db.select().from(clients).where(eq(clients.id, payingParent.id));
    expect(p.balance).toBe(1000);
    const ledger = await ctx.database.db
      .select()
      .from(balanceLedger)
      .where(eq(balanceLedger.clientId, payingParent.id));
    expect(ledger.map((l) => l.delta)).toEqual([-3000]);
    // The child's own balance is untouched and the parent cannot pay a second time.
    expect(await gate.present(card(child2), {})).toMatchObject({ status: EntranceStatus.RapidReEntry });
  });

  it('1 / EntryByBonus: bonus entrances given through the API are spent before money, one per entrance', async () => {
    const c = await makeClient({ ...noSubscription, balance: 5000 });
    const res = await admin.api.post(`/api/Client/AddBonusEntries/${c.id}`, { count: 1 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ bonusEntries: 1 });
    expect(await gate.present(card(c))).toMatchObject({ status: 1, reason: Reason.EntryByBonus });
    const [row] = await ctx.database.db.select().from(clients).where(eq(clients.id, c.id));
    expect([row.bonusEntries, row.balance]).toEqual([0, 5000]);
    const bonus = await ctx.database.db
      .select()
      .from(balanceLedger)
      .where(and(eq(balanceLedger.clientId, c.id), eq(balanceLedger.kind, 'bonus')));
    expect(bonus.map((l) => [l.delta, l.source])).toEqual([
      [1, 'manager'],
      [-1, 'entrance'],
    ]);
    // Taking back more than there is refuses and changes nothing.
    const tooMany = await admin.api.post(`/api/Client/AddBonusEntries/${c.id}`, { count: -1 });
    expect(tooMany.statusCode).toBe(400);
  });

  it('2 / SubscriptionExpired, 3 / ClientInactive, 5 / NoBalance', async () => {
    const expired = await makeClient({ subscriptionEnd: '2024-01-01', balance: 100 });
    expect(await gate.present(card(expired))).toMatchObject({ status: 2, reason: Reason.SubscriptionExpired });
    const inactive = await makeClient({ status: ClientStatus.Inactive });
    expect(await gate.present(card(inactive))).toMatchObject({ status: 3, reason: Reason.ClientInactive });
    const poor = await makeClient({ ...noSubscription, balance: 2999 });
    expect(await gate.present(card(poor))).toMatchObject({ status: 5, reason: Reason.NoBalance });
  });

  it('4 / ClosedToGroup: closed row, allowEntrance off, RestrictAccessOnly without a subscription', async () => {
    const closed = await makeGroup({}, [{ entranceState: EntranceState.Closed }]);
    expect(await gate.present(card(await makeClient({ groupId: closed.id })))).toMatchObject({
      status: 4,
      reason: Reason.ClosedToGroup,
    });
    const off = await makeGroup({ allowEntrance: false }, [{}]);
    expect((await gate.present(card(await makeClient({ groupId: off.id })))).status).toBe(4);
    const restricted = await makeGroup({}, [{ entranceState: EntranceState.RestrictAccessOnly }]);
    expect((await gate.present(card(await makeClient({ groupId: restricted.id })))).status).toBe(1);
    const payer = await makeClient({ ...noSubscription, balance: 9000, groupId: restricted.id });
    expect((await gate.present(card(payer))).status).toBe(4);
  });

  it('6 / EntryQuotaExceeded and 7 / TooLittleTimeBetweenEntries', async () => {
    const quota = await makeGroup({ maxEntriesPerDay: 1 }, [{}]);
    const c = await makeClient({ groupId: quota.id });
    const at = new Date(Date.now() - 60_000);
    expect((await gate.present(card(c), { at })).status).toBe(1);
    expect(await gate.present(card(c))).toMatchObject({ status: 6, reason: Reason.EntryQuotaExceeded });
    const delay = await makeGroup({ delayBetweenEntriesMinutes: 30 }, [{}]);
    const d = await makeClient({ groupId: delay.id });
    expect((await gate.present(card(d), { at })).status).toBe(1);
    expect(await gate.present(card(d))).toMatchObject({ status: 7, reason: Reason.TooLittleTimeBetweenEntries });
  });

  it('6: the per-subscriber quota counts the whole family on the parent’s subscription', async () => {
    const family = await makeGroup({ maxEntriesPerDayPerSubscriber: 1 }, [{}]);
    const parent = await makeClient({ groupId: family.id });
    const child = await makeClient({ ...noSubscription, parentId: parent.id, groupId: family.id });
    expect((await gate.present(card(parent), { at: new Date(Date.now() - 60_000) })).status).toBe(1);
    expect(await gate.present(card(child))).toMatchObject({ status: 6, reason: Reason.EntryQuotaExceeded });
  });

  it('8 / ClientNotFound, 9 / PaymentError, 10 / LicenseExpired, 13 / DoubleEntry', async () => {
    expect(await gate.present({ kind: 'card', value: 'no-such-card' })).toMatchObject({
      status: 8,
      reason: Reason.ClientNotFound,
    });
    expect(await gate.present({ kind: 'system', value: 'x' })).toMatchObject({ status: 8 });
    const pay = await makeGroup({}, [{ entranceState: EntranceState.OpenWithPay }]);
    expect(await gate.present(card(await makeClient({ groupId: pay.id })))).toMatchObject({
      status: 9,
      reason: Reason.PaymentError,
    });
    expect(await gate.present(card(await makeClient({ licenseExpiry: '2024-01-01' })))).toMatchObject({
      status: 10,
      reason: Reason.LicenseExpired,
    });
    const c = await makeClient();
    expect((await gate.present(card(c))).status).toBe(1);
    expect(await gate.present(card(c))).toMatchObject({ status: 13, reason: Reason.DoubleEntry });
  });

  it('11 / TerminalNotApproved and 12 / EntryLoadLimiting (N people in M minutes)', async () => {
    const { tc } = await makeTerminal(clubId, { approved: false });
    expect(await tc.present(card(await makeClient()))).toMatchObject({
      status: 11,
      reason: Reason.TerminalNotApproved,
    });

    const busy = await signedInAdmin(ctx, { settings: { entrancesLimitPeople: 2, entrancesLimitMinutes: 10 } });
    const g = await factory.makeGroup(ctx, busy.club.id, { name: 'All', entranceState: EntranceState.Opened });
    const { tc: busyGate } = await makeTerminal(busy.club.id);
    const three = [];
    for (let i = 0; i < 3; i++) three.push(await makeClient({ groupId: g.id }, busy.club.id));
    expect((await busyGate.present(card(three[0]))).status).toBe(1);
    expect((await busyGate.present(card(three[1]))).status).toBe(1);
    expect(await busyGate.present(card(three[2]))).toMatchObject({ status: 12, reason: Reason.EntryLoadLimiting });
  });

  it('client code and client number identify the client', async () => {
    const c = await makeClient({ clientCode: 'ABC-7' });
    expect(await gate.present({ kind: 'code', value: 'ABC-7' })).toMatchObject({
      status: 1,
      clientName: `Client ${c.number}`,
    });
    const d = await makeClient();
    expect(await gate.present({ kind: 'code', value: String(d.number) })).toMatchObject({ status: 1 });
  });
});

describe('terminal door state over the protocol', () => {
  it('Closed door refuses all but staff; FreeOpen admits all; money-only and restrict-only restrict the group', async () => {
    const { tc: closed } = await makeTerminal(clubId, { doorState: EntranceState.Closed });
    expect(await closed.present(card(await makeClient()))).toMatchObject({ status: 4, reason: Reason.ClosedToGroup });
    expect((await closed.present(card(await makeClient({ clientType: ClientType.Technician })))).status).toBe(1);

    const { tc: free } = await makeTerminal(clubId, { doorState: EntranceState.FreeOpen });
    const noLicense = await makeClient({ ...noSubscription, licenseExpiry: null });
    expect(await free.present(card(noLicense))).toMatchObject({ status: 1, reason: Reason.EntryFreeOpen });

    const { tc: money } = await makeTerminal(clubId, { doorState: EntranceState.OpenWithMoneyValueOnly });
    expect((await money.present(card(await makeClient()))).status).toBe(5);
    const rich = await makeClient({ balance: 3000 });
    expect(await money.present(card(rich))).toMatchObject({ status: 1, reason: Reason.EntryByChargedMoney });

    const { tc: restrict } = await makeTerminal(clubId, { doorState: EntranceState.RestrictAccessOnly });
    expect((await restrict.present(card(await makeClient({ ...noSubscription, balance: 9000 })))).status).toBe(4);
    expect((await restrict.present(card(await makeClient()))).status).toBe(1);
  });
});

describe('schedule rows over the protocol', () => {
  it('a row for one terminal applies at that terminal only; a row without a terminal at all', async () => {
    const { t: t2, tc: gate2 } = await makeTerminal(clubId);
    const g = await makeGroup({ entranceState: EntranceState.Closed }, [{ terminalId: t2.id }]);
    expect((await gate2.present(card(await makeClient({ groupId: g.id })))).status).toBe(1);
    expect((await gate.present(card(await makeClient({ groupId: g.id })))).status).toBe(4);
  });

  it('a halachic row opens at nightfall (Jerusalem)', async () => {
    const g = await makeGroup({}, [{ fromTime: null, fromHalachic: HalachicTime.Nightfall, toTime: hhmm('23:00') }]);
    // 2026-09-06: tzeit in Jerusalem about 19:32 local (16:32 UTC).
    const before = await gate.present(card(await makeClient({ groupId: g.id })), {
      at: new Date('2026-09-06T16:00:00Z'),
    });
    const after = await gate.present(card(await makeClient({ groupId: g.id })), {
      at: new Date('2026-09-06T17:00:00Z'),
    });
    expect([before.status, after.status]).toEqual([4, 1]);
  });

  it('a holiday-eve row applies on erev chag only', async () => {
    const g = await makeGroup({}, [{ days: [HOLIDAY_EVE_DAY] }]);
    // The first erev chag of 2026 that is not a Friday, and the ordinary day after a week.
    let d = new Date(Date.UTC(2026, 0, 1));
    const local = (x: Date) => ({ year: x.getUTCFullYear(), month: x.getUTCMonth() + 1, day: x.getUTCDate() });
    while (!isErevChag(local(d), true) || weekdayOf(local(d)) === 5) d = new Date(d.getTime() + 86_400_000);
    const erev = new Date(d.getTime() + 9 * 3_600_000); // 11:00 or 12:00 in Jerusalem
    let plain = new Date(erev.getTime() + 7 * 86_400_000);
    while (isErevChag(local(plain), true)) plain = new Date(plain.getTime() + 86_400_000);
    expect((await gate.present(card(await makeClient({ groupId: g.id })), { at: erev })).status).toBe(1);
    expect((await gate.present(card(await makeClient({ groupId: g.id })), { at: plain })).status).toBe(4);
  });
});
