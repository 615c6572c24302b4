import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { and, eq } from 'drizzle-orm';
import {
  allPermissions,
  EntranceState,
  EntranceStatus,
  Reason,
  type LiveMessage,
  type ServerOfflineAck,
} from '@venue/domain';
import { Api, createTestApp, makeUser, signedInAdmin, TEST_PASSWORD, type TestContext } from '../../test/harness.js';
import * as factory from '../../test/factories.js';
import { balanceLedger, clients, entranceLogs, terminals } from '../db/schema.js';
import { processEntrance } from '../modules/gate/entrance.service.js';
import { TerminalClient, TerminalError } from '../../../terminal/src/client.js';

/** The terminal link and the live feed over real sockets (DESIGN §8; docs/terminal-protocol.md). */

let ctx: TestContext;
let base: string;
let clubA: Awaited<ReturnType<typeof signedInAdmin>>;
let clubB: Awaited<ReturnType<typeof signedInAdmin>>;
let groupId: number;
const SECRET = 'terminal-secret-1';
const open: { close(): unknown }[] = [];

const makeTerminal = (clubId: number, serial: string, approved: boolean) =>
  factory.makeTerminal(ctx, clubId, { serial, name: `Gate ${serial}`, secret: SECRET, approved, gateOpenSeconds: 7 });

/** Dana Levi of the Women group, a subscriber until 2125. */
const makeClient = (clubId: number, over: Partial<typeof clients.$inferInsert> = {}) =>
  factory.makeClient(ctx, clubId, { firstName: 'Dana', lastName: 'Levi', groupId, ...factory.SUBSCRIBED, ...over });

const clientRow = async (id: number) => (await ctx.database.db.select().from(clients).where(eq(clients.id, id)))[0];

async function terminal(serial: string, secret = SECRET) {
  const tc = new TerminalClient({ url: base, serial, secret, timeoutMs: 5000, heartbeat: false });
  open.push(tc);
  return tc;
}

/** A console live socket, authenticated; collects what it receives. */
async function liveSocket(token: string) {
  const ws = new WebSocket(`${base.replace('http', 'ws')}/api/live`);
  open.push(ws);
  const received: LiveMessage[] = [];
  await new Promise<void>((resolve, reject) => {
    ws.on('open', () => ws.send(JSON.stringify({ type: 'auth', token })));
    ws.on('message', (d) => {
      const m = JSON.parse(d.toString()) as LiveMessage;
      received.push(m);
      if (m.type === 'ready') resolve();
      if (m.type === 'error') reject(new Error(m.code));
    });
    ws.on('error', reject);
  });
  return { ws, received };
}

const until = async (cond: () => boolean, ms = 3000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

beforeAll(async () => {
  ctx = await createTestApp();
  base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  clubA = await signedInAdmin(ctx);
  clubB = await signedInAdmin(ctx);
  // Open all day, every day, 30.00 per entrance for non-subscribers.
  const g = await factory.makeGroupWithSchedule(
    ctx,
    clubA.club.id,
    { name: 'Women', entranceState: EntranceState.Closed },
    [{ price: 3000, entranceState: EntranceState.Opened }],
  );
  groupId = g.id;
});

afterAll(async () => {
  for (const o of open) o.close();
  await ctx?.close();
});

describe('terminal link', () => {
  it('approves, refuses a rapid re-entry, an unknown card, and answers a resend once', async () => {
    const t = await makeTerminal(clubA.club.id, 'GATE-A1', true);
    const dana = await makeClient(clubA.club.id, { cardSerial: '100001' });
    const liveA = await liveSocket(clubA.api.token!);
    const liveB = await liveSocket(clubB.api.token!);

    const tc = await terminal('GATE-A1');
    const welcome = await tc.connect();
    expect(welcome).toMatchObject({
      type: 'welcome',
      terminalId: t.id,
      name: 'Gate GATE-A1',
      approved: true,
      gateOpenSeconds: 7,
    });
    await until(() => liveA.received.some((m) => m.type === 'terminal' && m.terminalId === t.id && m.connected));
    const [row] = await ctx.database.db.select().from(terminals).where(eq(terminals.id, t.id));
    expect(row.lastConnection).not.toBeNull();
    expect(ctx.app.deps.terminals.isConnected(t.id)).toBe(true);

    const first = await tc.present({ kind: 'card', value: '100001' }, { eventId: 'ev-1' });
    expect(first).toMatchObject({
      type: 'decision',
      eventId: 'ev-1',
      status: EntranceStatus.Approved,
      reason: Reason.EntryBySubscription,
      gateOpenSeconds: 7,
      message: 'EntryBySubscription',
      clientName: 'Dana Levi',
    });

    const again = await tc.present({ kind: 'card', value: '100001' });
    expect(again).toMatchObject({
      status: EntranceStatus.RapidReEntry,
      reason: Reason.DoubleEntry,
      gateOpenSeconds: 0,
    });

    const unknown = await tc.present({ kind: 'card', value: '999999' });
    expect(unknown).toMatchObject({ status: EntranceStatus.CustomerNotFound, reason: Reason.ClientNotFound });
    expect(unknown.clientName).toBeUndefined();

    const resend = await tc.present({ kind: 'card', value: '100001' }, { eventId: 'ev-1' });
    expect(resend).toEqual(first);
    const logs = await ctx.database.db
      .select()
      .from(entranceLogs)
      .where(and(eq(entranceLogs.terminalId, t.id), eq(entranceLogs.eventId, 'ev-1')));
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ clientId: dana.id, status: 1, identificationKind: 'card' });

    // The console of club A saw every entrance; club B's saw nothing of club A.
    await until(() => liveA.received.filter((m) => m.type === 'entrance').length === 3);
    const rows = liveA.received.flatMap((m) => (m.type === 'entrance' ? [m.row] : []));
    expect(rows[0]).toMatchObject({
      clientId: dana.id,
      clientNumber: dana.number,
      clientName: 'Dana Levi',
      groupName: 'Women',
      terminalId: t.id,
      terminalName: 'Gate GATE-A1',
      status: 1,
      reason: Reason.EntryBySubscription,
      identificationKind: 'card',
      amount: 0,
    });
    expect(rows.map((r) => r.status)).toEqual([1, 13, 8]);
    await new Promise((r) => setTimeout(r, 100));
    expect(liveB.received.map((m) => m.type)).toEqual(['ready']);

    await tc.close();
    await until(() => liveA.received.some((m) => m.type === 'terminal' && m.terminalId === t.id && !m.connected));
    expect(ctx.app.deps.terminals.isConnected(t.id)).toBe(false);
  });

  it('a terminal that is not approved may connect; every entrance answers 11', async () => {
    await makeTerminal(clubA.club.id, 'GATE-A2', false);
    await makeClient(clubA.club.id, { cardSerial: '100002' });
    const tc = await terminal('GATE-A2');
    expect((await tc.connect()).approved).toBe(false);
    const d = await tc.present({ kind: 'card', value: '100002' });
    expect(d).toMatchObject({
      status: EntranceStatus.TerminalNotApproved,
      reason: Reason.TerminalNotApproved,
      gateOpenSeconds: 0,
    });
    await tc.close();
  });

  it('takes the row’s price from the balance in the same transaction, and refuses when it runs out', async () => {
    await makeTerminal(clubA.club.id, 'GATE-A3', true);
    const payer = await makeClient(clubA.club.id, {
      cardSerial: '100003',
      ...factory.NO_SUBSCRIPTION,
    });
    await factory.credit(ctx, payer, 5000, { source: 'test' });
    const tc = await terminal('GATE-A3');
    await tc.connect();
    const now = Date.now();
    const d1 = await tc.present({ kind: 'code', value: String(payer.number) }, { at: new Date(now) });
    expect(d1).toMatchObject({ status: 1, reason: Reason.EntryByChargedMoney });
    const d2 = await tc.present({ kind: 'card', value: '100003' }, { at: new Date(now + 10_000) });
    expect(d2).toMatchObject({ status: EntranceStatus.NoBalance, reason: Reason.NoBalance });
    const [after] = await ctx.database.db.select().from(clients).where(eq(clients.id, payer.id));
    expect(after.balance).toBe(2000);
    const ledger = await ctx.database.db.select().from(balanceLedger).where(eq(balanceLedger.clientId, payer.id));
    expect(ledger.map((l) => [l.delta, l.source])).toEqual([
      [5000, 'test'],
      [-3000, 'entrance'],
    ]);
    expect(ledger.reduce((s, l) => s + l.delta, 0)).toBe(after.balance);
    await tc.close();
  });

  it('refuses a wrong secret and an unknown serial, and answers bad messages without closing', async () => {
    await makeTerminal(clubA.club.id, 'GATE-A4', true);
    await expect((await terminal('GATE-A4', 'wrong')).connect()).rejects.toMatchObject({ code: 'AUTH_FAILED' });
    await expect((await terminal('NO-SUCH', SECRET)).connect()).rejects.toBeInstanceOf(TerminalError);

    const tc = await terminal('GATE-A4');
    await tc.connect();
    tc.sendRaw('not json');
    tc.sendRaw(JSON.stringify({ type: 'entrance', eventId: 'bad-1', identification: { kind: 'retina', value: 'x' } }));
    tc.sendRaw(JSON.stringify({ type: 'launch-rockets' }));
    await until(() => tc.unsolicited.filter((m) => m.type === 'error').length >= 2);
    const e = await tc.present({ kind: 'card', value: 'nobody' });
    expect(e.status).toBe(EntranceStatus.CustomerNotFound);
    const errors = tc.unsolicited.filter((m) => m.type === 'error');
    expect(errors.length).toBeGreaterThanOrEqual(2);
    expect(errors.filter((m) => m.type === 'error' && m.code !== 'BAD_MESSAGE')).toEqual([]);
    await tc.close();
  });

  it('sends entrance rows only to users who may open the dashboard or the entrance report', async () => {
    const t = await makeTerminal(clubA.club.id, 'GATE-A9', true);
    await makeClient(clubA.club.id, { cardSerial: '100009' });
    const signIn = async (flags: Partial<ReturnType<typeof allPermissions>>) => {
      const u = await makeUser(ctx, clubA.club.id, { permissions: { ...allPermissions(false), ...flags } });
      const api = new Api(ctx.app);
      expect((await api.login(u.username, TEST_PASSWORD, clubA.club.externalClubId)).statusCode).toBe(200);
      return liveSocket(api.token!);
    };
    const none = await signIn({});
    const dashboard = await signIn({ roleViewDashboard: true });
    const tc = await terminal('GATE-A9');
    await tc.connect();
    await until(() => none.received.some((m) => m.type === 'terminal' && m.terminalId === t.id));
    await tc.present({ kind: 'card', value: '100009' });
    await until(() => dashboard.received.some((m) => m.type === 'entrance'));
    await new Promise((r) => setTimeout(r, 200));
    expect(none.received.filter((m) => m.type === 'entrance')).toEqual([]);
    await tc.close();
  });

  it('gives an unapproved terminal nothing of the club and records its uploads as refused "terminal not approved"', async () => {
    const t = await makeTerminal(clubA.club.id, 'GATE-A10', false);
    const c = await makeClient(clubA.club.id, { cardSerial: '100010' });
    const tc = await terminal('GATE-A10');
    expect(await tc.connect()).toMatchObject({ type: 'welcome', approved: false });
    await new Promise((r) => setTimeout(r, 300));
    expect(tc.validList).toBeUndefined();
    expect(tc.unsolicited.map((m) => m.type)).not.toContain('messages');
    // What it claims to have admitted offline is stored as refused.
    tc.offlineQueue.push({
      eventId: 'unapproved-1',
      identification: { kind: 'card', value: '100010' },
      at: new Date().toISOString(),
      status: 1,
    });
    const ack = new Promise<ServerOfflineAck>((r) => tc.once('uploaded', r));
    await tc.uploadOffline();
    expect((await ack).recorded).toEqual(['unapproved-1']);
    const [row] = await ctx.database.db
      .select()
      .from(entranceLogs)
      .where(and(eq(entranceLogs.terminalId, t.id), eq(entranceLogs.eventId, 'unapproved-1')));
    expect(row).toMatchObject({ clientId: c.id, status: EntranceStatus.TerminalNotApproved, offline: true });
    // Approved while connected: the list arrives at the next tick (VALID_LIST_TTL_MS), after a reconnect at once.
    await ctx.database.db.update(terminals).set({ approved: true }).where(eq(terminals.id, t.id));
    await tc.close();
    const again = await terminal('GATE-A10');
    await again.connect();
    await until(() => again.validList !== undefined);
    expect(again.validList!.type).toBe('valid-list');
    await again.close();
  });

  it('refuses offline events dated in the future or too old, and event ids that are padded or malformed', async () => {
    await makeTerminal(clubA.club.id, 'GATE-A11', true);
    const tc = await terminal('GATE-A11');
    await tc.connect();
    const event = (eventId: string, at: Date) => ({
      eventId,
      identification: { kind: 'card' as const, value: 'nobody' },
      at: at.toISOString(),
      status: 3 as const,
    });
    tc.offlineQueue.push(
      event('future-1', new Date('2099-01-01T00:00:00Z')),
      event('old-1', new Date(Date.now() - 30 * 24 * 3600 * 1000)),
      event('now-1', new Date()),
    );
    const ack = new Promise<ServerOfflineAck>((r) => tc.once('uploaded', r));
    await tc.uploadOffline();
    const a = await ack;
    expect(a.recorded).toEqual(['now-1']);
    expect(a.rejected?.map((r) => r.eventId).sort()).toEqual(['future-1', 'old-1']);
    expect(tc.offlineQueue).toEqual([]);
    // A padded id is refused, never trimmed into another id.
    const errors: unknown[] = [];
    tc.on('message', (m) => errors.push(m));
    tc.sendRaw(JSON.stringify({ type: 'entrance', eventId: ' ev-pad ', identification: { kind: 'card', value: 'x' } }));
    tc.sendRaw(JSON.stringify({ type: 'entrance', eventId: 'bad id', identification: { kind: 'card', value: 'x' } }));
    await until(() => errors.length >= 2);
    expect(errors).toEqual([
      expect.objectContaining({ type: 'error', code: 'BAD_MESSAGE', eventId: ' ev-pad ' }),
      expect.objectContaining({ type: 'error', code: 'BAD_MESSAGE', eventId: 'bad id' }),
    ]);
    await tc.close();
  });

  it("keeps the gate's own record when an uploaded event disagrees with the server's decision", async () => {
    const t = await makeTerminal(clubA.club.id, 'GATE-A12', true);
    // Pays per entrance from the money balance (no subscription): the server charges 30.00.
    const payer = await makeClient(clubA.club.id, {
      cardSerial: '100012',
      subscriptionEnd: '2020-01-02',
    });
    await factory.credit(ctx, payer, 10_000, { source: 'demo' });
    const decided = await processEntrance(ctx.database.db, ctx.bus, {
      clubId: clubA.club.id,
      terminalId: t.id,
      identification: { kind: 'card', value: '100012' },
      at: new Date(),
      eventId: 'disagree-1',
    });
    expect(decided.status).toBe(EntranceStatus.Approved);
    expect((await clientRow(payer.id)).balance).toBe(7_000);
    // The server decided, but the answer never came: the terminal refused offline and uploads that.
    const tc = await terminal('GATE-A12');
    await tc.connect();
    tc.offlineQueue.push({
      eventId: 'disagree-1',
      identification: { kind: 'card', value: '100012' },
      at: new Date().toISOString(),
      status: 3,
    });
    const ack = new Promise<ServerOfflineAck>((r) => tc.once('uploaded', r));
    await tc.uploadOffline();
    expect((await ack).duplicates).toEqual(['disagree-1']);
    const [log] = await ctx.database.db.select().from(entranceLogs).where(eq(entranceLogs.id, decided.logId));
    expect(log).toMatchObject({ status: EntranceStatus.GeneralError, amount: 0, offline: true });
    const after = await clientRow(payer.id);
    expect(after.balance).toBe(10_000);
    const ledger = await ctx.database.db.select().from(balanceLedger).where(eq(balanceLedger.clientId, payer.id));
    expect(ledger.reduce((s, l) => s + l.delta, 0)).toBe(after.balance);
    // The other way: the server refused (unknown to it then), the terminal admitted from its list.
    const refused = await processEntrance(ctx.database.db, ctx.bus, {
      clubId: clubA.club.id,
      terminalId: t.id,
      identification: { kind: 'card', value: 'NOT-YET-100013' },
      at: new Date(),
      eventId: 'disagree-2',
    });
    expect(refused.status).toBe(EntranceStatus.CustomerNotFound);
    const member = await makeClient(clubA.club.id, { cardSerial: 'NOT-YET-100013' });
    tc.offlineQueue.push({
      eventId: 'disagree-2',
      identification: { kind: 'card', value: 'NOT-YET-100013' },
      at: new Date().toISOString(),
      status: 1,
    });
    await tc.uploadOffline();
    const [admitted] = await ctx.database.db.select().from(entranceLogs).where(eq(entranceLogs.id, refused.logId));
    expect(admitted).toMatchObject({ status: EntranceStatus.Approved, clientId: member.id, offline: true });
    await tc.close();
  });

  it('refuses a live socket with a bad token', async () => {
    await expect(liveSocket('not-a-token')).rejects.toThrow('UNAUTHORIZED');
  });
});

describe('processEntrance for history generation', () => {
  it('records an entrance at an explicit time without publishing it', async () => {
    const t = await makeTerminal(clubA.club.id, 'GATE-A5', true);
    const c = await makeClient(clubA.club.id, { cardSerial: '100005' });
    const seen: unknown[] = [];
    const off = ctx.bus.subscribe('entrance', (e) => seen.push(e));
    const at = new Date('2026-02-03T08:00:00Z');
    const r = await processEntrance(
      ctx.database.db,
      ctx.bus,
      { clubId: clubA.club.id, terminalId: t.id, identification: { kind: 'card', value: '100005' }, at },
      { publish: false },
    );
    off();
    expect(r).toMatchObject({ status: 1, clientId: c.id, duplicate: false, row: { at: at.toISOString() } });
    expect(seen).toHaveLength(0);
  });

  it('counts the daily quota per business day, from the group’s new-day hour in the club’s time zone', async () => {
    const t = await makeTerminal(clubA.club.id, 'GATE-A6', true);
    const g = await factory.makeGroup(ctx, clubA.club.id, {
      name: 'Once a day',
      entranceState: EntranceState.FreeOpen,
      maxEntriesPerDay: 1,
      newDayStartHour: 4,
    });
    await makeClient(clubA.club.id, { cardSerial: '100006', groupId: g.id });
    const enter = async (iso: string) =>
      (
        await processEntrance(ctx.database.db, null, {
          clubId: clubA.club.id,
          terminalId: t.id,
          identification: { kind: 'card', value: '100006' },
          at: new Date(iso),
        })
      ).status;
    // Jerusalem is UTC+2 in February.
    expect(await enter('2026-02-03T08:00:00Z')).toBe(1); // 10:00
    expect(await enter('2026-02-03T18:00:00Z')).toBe(EntranceStatus.EntryQuotaUsed); // 20:00
    expect(await enter('2026-02-04T00:00:00Z')).toBe(EntranceStatus.EntryQuotaUsed); // 02:00, still the 3rd
    expect(await enter('2026-02-04T03:00:00Z')).toBe(1); // 05:00, a new business day
  });

  it('uses a general schedule linked to the group, below the group’s own rows', async () => {
    const t = await makeTerminal(clubA.club.id, 'GATE-A7', true);
    const g = await factory.makeGroup(ctx, clubA.club.id, { name: 'Linked', entranceState: EntranceState.Closed });
    const general = await factory.makeSchedule(ctx, clubA.club.id, {
      entranceState: EntranceState.FreeOpen,
      sortOrder: 9,
    });
    await factory.linkSchedule(ctx, clubA.club.id, general.id, g.id);
    await makeClient(clubA.club.id, {
      cardSerial: '100007',
      groupId: g.id,
      subscriptionEnd: null,
      subscriptionStart: null,
    });
    const enter = async (iso: string) =>
      processEntrance(ctx.database.db, null, {
        clubId: clubA.club.id,
        terminalId: t.id,
        identification: { kind: 'card', value: '100007' },
        at: new Date(iso),
      });
    expect(await enter('2026-02-03T08:00:00Z')).toMatchObject({ status: 1, reason: Reason.EntryFreeOpen });
    // The group's own Closed row wins over the linked general row.
    await factory.makeSchedule(ctx, clubA.club.id, {
      groupId: g.id,
      entranceState: EntranceState.Closed,
      sortOrder: 0,
    });
    expect(await enter('2026-02-03T09:00:00Z')).toMatchObject({ status: EntranceStatus.ClosedToGroup });
  });
});

describe('group commit (modules/gate/gate-batch.ts): concurrent entrances share statements, each decided as if alone', () => {
  it('decides 40 concurrent entrances of 40 clients, logging each once; the same card twice at once is a rapid re-entry', async () => {
    const t = await makeTerminal(clubA.club.id, 'GATE-BATCH', true);
    const cards = Array.from({ length: 40 }, (_, i) => `77${String(i).padStart(4, '0')}`);
    for (const card of cards) await makeClient(clubA.club.id, { cardSerial: card });
    const at = new Date();
    const present = (value: string, eventId: string) =>
      processEntrance(ctx.database.db, null, {
        clubId: clubA.club.id,
        terminalId: t.id,
        identification: { kind: 'card', value },
        at,
        eventId,
      });
    const results = await Promise.all([
      ...cards.map((c) => present(c, `ev-${c}`)),
      present(cards[0]!, 'ev-again'), // the same card at the same moment, another event
      present(cards[1]!, `ev-${cards[1]}`), // a resend of the same event in the same batch
      present('no-such-card', 'ev-unknown'),
    ]);
    const byEvent = (id: string) =>
      results[[...cards.map((c) => `ev-${c}`), 'ev-again', 'resend', 'ev-unknown'].indexOf(id)]!;
    for (const c of cards)
      expect(byEvent(`ev-${c}`)).toMatchObject({ status: EntranceStatus.Approved, duplicate: false });
    expect(byEvent('ev-again')).toMatchObject({ status: EntranceStatus.RapidReEntry, duplicate: false });
    // The resend answers the first decision, and adds no row.
    expect(results[41]).toMatchObject({
      status: EntranceStatus.Approved,
      duplicate: true,
      logId: byEvent(`ev-${cards[1]}`).logId,
    });
    expect(byEvent('ev-unknown')).toMatchObject({ status: EntranceStatus.CustomerNotFound, clientId: null });
    const logged = await ctx.database.db.select().from(entranceLogs).where(eq(entranceLogs.terminalId, t.id));
    expect(logged).toHaveLength(40 + 2);
    expect(new Set(logged.map((l) => l.id)).size).toBe(42);
    // Every log row is the one its decision returned.
    for (const r of results.filter((x) => !x.duplicate)) {
      const row = logged.find((l) => l.id === r.logId)!;
      expect(row).toMatchObject({ status: r.status, reason: r.reason, clientId: r.clientId });
    }
  });
});

describe('one terminal link, many entrances in flight', () => {
  it('decides 30 presentations sent at once on one link, each answered under its own eventId', async () => {
    await makeTerminal(clubA.club.id, 'GATE-MANY', true);
    const cards = Array.from({ length: 30 }, (_, i) => `88${String(i).padStart(4, '0')}`);
    const made = new Map<string, number>();
    for (const card of cards) made.set(card, (await makeClient(clubA.club.id, { cardSerial: card })).id);
    const tc = await terminal('GATE-MANY');
    await tc.connect();
    const answers = await Promise.all(cards.map((value) => tc.present({ kind: 'card', value })));
    for (const a of answers) expect(a).toMatchObject({ status: EntranceStatus.Approved });
    const logged = await ctx.database.db
      .select({ clientId: entranceLogs.clientId })
      .from(entranceLogs)
      .where(
        eq(
          entranceLogs.terminalId,
          (await ctx.database.db.select().from(terminals).where(eq(terminals.serial, 'GATE-MANY')))[0]!.id,
        ),
      );
    expect(logged.map((l) => l.clientId).sort()).toEqual([...made.values()].sort());
  });
});
