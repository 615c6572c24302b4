import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import {
  EntrancePaymentType,
  EntranceState,
  EntranceStatus,
  Reason,
  type Identification,
  type LiveMessage,
} from '@venue/domain';
import WebSocket from 'ws';
import { Api, createTestApp, makeUser, signedInAdmin, TEST_PASSWORD, type TestContext } from '../../../test/harness.js';
import * as factory from '../../../test/factories.js';
import { auditLog, entranceLogs } from '../../db/schema.js';
import { TerminalClient } from '../../../../terminal/src/client.js';

/**
 * The gate in an emergency (issue 36, docs/gate-safety.md) over the real terminal protocol:
 * open-all from the console reaches every connected terminal of the club and admits everyone;
 * lockdown refuses a member and admits a staff card with an override; open-all wins; a terminal
 * offline at the time gets the state in its welcome and its list; a terminal whose link is cut
 * opens on its fire input by itself and raises the club's open-all when it is back.
 */

let ctx: TestContext;
let base: string;
let port: number;
const SECRET = 'gate-safety-secret';
const open: TerminalClient[] = [];
let seq = 1;

const until = async (cond: () => boolean, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};
const command = (reason: string) => ({ reason, confirm: true });
const card = (value: string): Identification => ({ kind: 'card', value });

/** A TCP proxy to the server whose link can be cut (every socket closed, new ones refused) and restored. */
async function proxy(targetPort: number) {
  const sockets = new Set<net.Socket>();
  let cut = false;
  const server = net.createServer((a) => {
    if (cut) return a.destroy();
    const b = net.connect(targetPort, '127.0.0.1');
    sockets.add(a).add(b);
    a.pipe(b);
    b.pipe(a);
    const end = () => {
      a.destroy();
      b.destroy();
    };
    a.on('error', end).on('close', end);
    b.on('error', end).on('close', end);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as net.AddressInfo).port,
    cut: () => {
      cut = true;
      for (const s of sockets) s.destroy();
      sockets.clear();
    },
    restore: () => (cut = false),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** A club with a member group (always open), a closed group, and `n` connected terminals. */
async function club(n: number) {
  const admin = await signedInAdmin(ctx);
  const clubId = admin.club.id;
  const members = await factory.makeGroupWithSchedule(ctx, clubId, {
    name: 'Members',
    entranceState: EntranceState.Opened,
  });
  const closed = await factory.makeGroup(ctx, clubId, { name: 'Shut', entranceState: EntranceState.Closed });
  const terminals: { id: number; serial: string; tc: TerminalClient }[] = [];
  for (let i = 0; i < n; i++) {
    const serial = `GS-${clubId}-${seq++}`;
    const t = await factory.makeTerminal(ctx, clubId, { serial, secret: SECRET, name: `Gate ${i + 1}` });
    const tc = new TerminalClient({ url: base, serial, secret: SECRET, timeoutMs: 20_000, heartbeat: false });
    open.push(tc);
    await tc.connect();
    terminals.push({ id: t.id, serial, tc });
  }
  const member = (cardSerial: string, over: Parameters<typeof factory.makeClient>[2] = {}) =>
    factory.makeClient(ctx, clubId, { groupId: members.id, cardSerial, ...factory.SUBSCRIBED, ...over });
  return { ...admin, clubId, members, closed, terminals, member };
}

/** A connected terminal of a club whose link runs through a proxy that can be cut (it reconnects quickly). */
async function behindProxy(clubId: number, serial: string, name: string) {
  const p = await proxy(port);
  const t = await factory.makeTerminal(ctx, clubId, { serial, secret: SECRET, name });
  const tc = new TerminalClient({
    url: `http://127.0.0.1:${p.port}`,
    serial,
    secret: SECRET,
    heartbeat: false,
    reconnect: true,
    backoffMs: { initial: 50, max: 200 },
  });
  open.push(tc);
  await tc.connect();
  return { p, t, tc };
}

/** The console's live feed of a signed-in user: every message it receives. */
async function liveFeed(api: Api) {
  const got: LiveMessage[] = [];
  const ws = new WebSocket(`${base.replace('http', 'ws')}/api/live`);
  await new Promise((r) => ws.once('open', r));
  ws.on('message', (d) => got.push(JSON.parse(String(d)) as LiveMessage));
  ws.send(JSON.stringify({ type: 'auth', token: api.token }));
  await until(() => got.some((m) => m.type === 'ready'));
  return { got, close: () => ws.close() };
}

beforeAll(async () => {
  ctx = await createTestApp();
  base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  port = Number(new URL(base).port);
});

afterAll(async () => {
  for (const tc of open) await tc.close().catch(() => undefined);
  await ctx?.close();
});

describe('open-all (evacuation)', () => {
  it('needs its own permission, a reason and the confirmation; then every terminal of the club holds its gate open', async () => {
    const c = await club(3);
    const other = await club(1);
    const plain = await makeUser(ctx, c.clubId, { permissions: { roleEditTerminals: true } });
    const plainApi = new Api(ctx.app);
    await plainApi.login(plain.username, TEST_PASSWORD, c.club.externalClubId);
    expect((await plainApi.post('/api/GateSafety/OpenAll', command('Fire in the boiler room'))).statusCode).toBe(403);
    expect((await plainApi.get('/api/GateSafety/State')).json()).toMatchObject({ mode: 'normal' });
    const noConfirm = await c.api.post('/api/GateSafety/OpenAll', { reason: 'Fire in the boiler room' });
    expect(noConfirm.statusCode).toBe(400);
    expect((await c.api.post('/api/GateSafety/OpenAll', { reason: ' x ', confirm: true })).statusCode).toBe(400);

    const feed = await liveFeed(c.api);
    const started = Date.now();
    const res = await c.api.post('/api/GateSafety/OpenAll', command('Fire in the boiler room'));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      mode: 'openAll',
      openAll: { reason: 'Fire in the boiler room', source: 'console' },
    });
    await until(() => c.terminals.every((t) => t.tc.gateHeldOpen));
    expect(Date.now() - started).toBeLessThan(2000);
    expect(c.terminals.map((t) => t.tc.safety.mode)).toEqual(['openAll', 'openAll', 'openAll']);
    // Another club's terminal is untouched.
    expect(other.terminals[0]!.tc.gateHeldOpen).toBe(false);
    await until(() => feed.got.some((m) => m.type === 'safety' && m.state.mode === 'openAll'));
    feed.close();

    // A member of a closed group, and an unknown card, pass free (reason 32); nothing is charged.
    const shut = await factory.makeClient(ctx, c.clubId, { groupId: c.closed.id, cardSerial: `SHUT-${c.clubId}` });
    const d = await c.terminals[0]!.tc.present(card(shut.cardSerial));
    expect(d).toMatchObject({ status: EntranceStatus.Approved, reason: Reason.EntryEmergencyOpen });
    expect((await c.terminals[1]!.tc.present(card('NOBODY'))).reason).toBe(Reason.EntryEmergencyOpen);
    expect((await other.terminals[0]!.tc.present(card('NOBODY'))).status).toBe(EntranceStatus.CustomerNotFound);

    // Released: each terminal back to its schedule.
    expect(
      (await c.api.post('/api/GateSafety/ReleaseOpenAll', command('All clear from the fire brigade'))).json(),
    ).toMatchObject({
      mode: 'normal',
      openAll: null,
    });
    await until(() => c.terminals.every((t) => !t.tc.gateHeldOpen && t.tc.safety.mode === 'normal'));
    // (Another member of the closed group: the first was admitted a moment ago, a rapid re-entry.)
    const shut2 = await factory.makeClient(ctx, c.clubId, { groupId: c.closed.id, cardSerial: `SHUT2-${c.clubId}` });
    expect((await c.terminals[0]!.tc.present(card(shut2.cardSerial))).status).toBe(EntranceStatus.ClosedToGroup);

    const audits = await ctx.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.clubId, c.clubId), eq(auditLog.entity, 'gateSafety')))
      .orderBy(auditLog.id);
    expect(audits.map((a) => [a.action, a.userId])).toEqual([
      ['openAll', c.user.id],
      ['releaseOpenAll', c.user.id],
    ]);
    expect(audits[1]!.after).toMatchObject({ reason: 'All clear from the fire brigade', mode: 'normal' });
  });

  it('a terminal offline when it began gets it in its welcome and its offline list; open-all wins over lockdown', async () => {
    const c = await club(1);
    const { p, tc: late } = await behindProxy(c.clubId, `GS-late-${c.clubId}`, 'Late gate');
    p.cut();
    await until(() => !late.connected);
    await c.api.post('/api/GateSafety/Lockdown', command('Threat outside'));
    await c.api.post('/api/GateSafety/OpenAll', command('Fire alarm'));
    const state = (await c.api.get('/api/GateSafety/State')).json();
    expect(state).toMatchObject({
      mode: 'openAll',
      lockdown: { reason: 'Threat outside' },
      openAll: { reason: 'Fire alarm' },
    });
    expect(late.safety.mode).toBe('normal');
    p.restore();
    await until(() => late.connected && late.welcome?.safety?.mode === 'openAll');
    expect(late.gateHeldOpen).toBe(true);
    await until(() => late.validList?.safety === 'openAll');

    // Open-all released: the lockdown underneath takes over at once.
    await c.api.post('/api/GateSafety/ReleaseOpenAll', command('Fire was a false alarm'));
    await until(() => c.terminals[0]!.tc.safety.mode === 'lockdown' && late.safety.mode === 'lockdown');
    expect(late.gateHeldOpen).toBe(false);
    await c.api.post('/api/GateSafety/ReleaseLockdown', command('Police gave the all clear'));
    await until(() => late.safety.mode === 'normal');
    await late.close();
    await p.close();
  });
});

describe('lockdown', () => {
  it('refuses a member (status 14, reason 30) and admits a staff card with an override; the report keeps both', async () => {
    const c = await club(1);
    const gate = c.terminals[0]!.tc;
    const member = await c.member(`M-${c.clubId}`);
    const guard = await c.member(`SEC-${c.clubId}`, { firstName: 'Security', ...factory.NO_SUBSCRIPTION });
    const manager = await c.member(`MGR-${c.clubId}`, { clientType: 2 });
    const foreign = await club(0);
    expect((await foreign.api.request('PUT', `/api/GateSafety/Overrides/${guard.id}`)).statusCode).toBe(404);
    const granted = await c.api.request('PUT', `/api/GateSafety/Overrides/${guard.id}`);
    expect(granted.statusCode).toBe(200);
    expect(granted.json().items.map((i: { clientId: number }) => i.clientId)).toEqual([guard.id]);

    await c.api.post('/api/GateSafety/Lockdown', command('Armed threat reported nearby'));
    await until(() => gate.safety.mode === 'lockdown');
    const refused = await gate.present(card(member.cardSerial));
    expect(refused).toMatchObject({ status: EntranceStatus.Lockdown, reason: Reason.Lockdown, gateOpenSeconds: 0 });
    expect((await gate.present(card(manager.cardSerial))).status).toBe(EntranceStatus.Lockdown);
    const staff = await gate.present(card(guard.cardSerial));
    expect(staff).toMatchObject({ status: EntranceStatus.Approved, reason: Reason.EntryLockdownOverride });
    expect(staff.gateOpenSeconds).toBeGreaterThan(0);

    const rows = await ctx.database.db
      .select({ clientId: entranceLogs.clientId, status: entranceLogs.status, reason: entranceLogs.reason })
      .from(entranceLogs)
      .where(eq(entranceLogs.clubId, c.clubId))
      .orderBy(desc(entranceLogs.id))
      .limit(3);
    expect(rows.reverse()).toEqual([
      { clientId: member.id, status: 14, reason: 30 },
      { clientId: manager.id, status: 14, reason: 30 },
      { clientId: guard.id, status: 1, reason: 31 },
    ]);
    // A terminal connecting now gets the state and the override's card and code in its offline list.
    const serial = `GS-list-${c.clubId}`;
    await factory.makeTerminal(ctx, c.clubId, { serial, secret: SECRET });
    const fresh = new TerminalClient({ url: base, serial, secret: SECRET, heartbeat: false });
    open.push(fresh);
    await fresh.connect();
    await until(() => fresh.validList != null);
    expect(fresh.validList).toMatchObject({ safety: 'lockdown' });
    expect(fresh.validList!.lockdownOverrides).toEqual(
      expect.arrayContaining([
        { kind: 'card', value: guard.cardSerial },
        { kind: 'code', value: String(guard.number) },
      ]),
    );
    expect(fresh.validList!.lockdownOverrides).toHaveLength(2);
    await c.api.post('/api/GateSafety/ReleaseLockdown', command('Threat over'));
    await until(() => gate.safety.mode === 'normal');
    expect((await gate.present(card(member.cardSerial))).status).toBe(EntranceStatus.Approved);
    const withdrawn = await c.api.delete(`/api/GateSafety/Overrides/${guard.id}`);
    expect(withdrawn.json().items).toEqual([]);
  });
});

describe('alarm inputs', () => {
  it('a terminal with its link cut opens on its fire input by itself, then raises the club’s open-all when back', async () => {
    const c = await club(1);
    const { p, t, tc: fire } = await behindProxy(c.clubId, `GS-fire-${c.clubId}`, 'Pool gate');
    p.cut();
    await until(() => !fire.connected);
    fire.raiseAlarm('fire-alarm');
    expect(fire.gateHeldOpen).toBe(true);
    // Offline, everyone passes (no list needed).
    expect(await fire.present(card('ANYONE'))).toMatchObject({
      status: 1,
      reason: Reason.EntryEmergencyOpen,
      offline: true,
    });
    expect(c.terminals[0]!.tc.safety.mode).toBe('normal');
    p.restore();
    await until(() => c.terminals[0]!.tc.gateHeldOpen, 15_000);
    expect((await c.api.get('/api/GateSafety/State')).json()).toMatchObject({
      mode: 'openAll',
      openAll: { source: 'terminal', by: 'Pool gate', reason: 'fire-alarm at Pool gate' },
    });
    await until(() => fire.pendingAlarms.length === 0 && fire.connected);
    expect(fire.gateHeldOpen).toBe(true);
    // Its offline admission is logged as the emergency's (approved free, reason 32, no client).
    await fire.uploadOffline();
    expect(
      await ctx.database.db
        .select({
          clientId: entranceLogs.clientId,
          status: entranceLogs.status,
          reason: entranceLogs.reason,
          paymentType: entranceLogs.paymentType,
          offline: entranceLogs.offline,
        })
        .from(entranceLogs)
        .where(and(eq(entranceLogs.clubId, c.clubId), eq(entranceLogs.terminalId, t.id))),
    ).toEqual([
      {
        clientId: null,
        status: EntranceStatus.Approved,
        reason: Reason.EntryEmergencyOpen,
        paymentType: EntrancePaymentType.Free,
        offline: true,
      },
    ]);
    const [a] = await ctx.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.clubId, c.clubId), eq(auditLog.action, 'openAll')));
    expect(a).toMatchObject({ userId: null, ip: `terminal:${t.id}` });
    await c.api.post('/api/GateSafety/ReleaseOpenAll', command('Fire panel reset'));
    await until(() => !fire.gateHeldOpen && !c.terminals[0]!.tc.gateHeldOpen);
    await fire.close();
    await p.close();
  });

  it('a terminal in lockdown with its link cut refuses a member and admits a listed override; the log keeps both as the lockdown’s', async () => {
    const c = await club(0);
    const member = await c.member(`OL-M-${c.clubId}`);
    const guard = await c.member(`OL-G-${c.clubId}`, { firstName: 'Security' });
    await c.api.request('PUT', `/api/GateSafety/Overrides/${guard.id}`);
    const { p, t, tc: gate } = await behindProxy(c.clubId, `GS-offline-lock-${c.clubId}`, 'Side door');
    await c.api.post('/api/GateSafety/Lockdown', command('Threat outside'));
    await until(() => gate.safety.mode === 'lockdown' && (gate.validList?.lockdownOverrides?.length ?? 0) > 0);
    p.cut();
    await until(() => !gate.connected);
    expect(await gate.present(card(member.cardSerial))).toMatchObject({
      status: EntranceStatus.Lockdown,
      reason: Reason.Lockdown,
      offline: true,
    });
    expect(await gate.present(card(guard.cardSerial))).toMatchObject({
      status: EntranceStatus.Approved,
      reason: Reason.EntryLockdownOverride,
      offline: true,
    });
    p.restore();
    await until(() => gate.connected, 15_000);
    await gate.uploadOffline();
    const rows = await ctx.database.db
      .select({
        clientId: entranceLogs.clientId,
        status: entranceLogs.status,
        reason: entranceLogs.reason,
        paymentType: entranceLogs.paymentType,
        offline: entranceLogs.offline,
      })
      .from(entranceLogs)
      .where(and(eq(entranceLogs.clubId, c.clubId), eq(entranceLogs.terminalId, t.id)))
      .orderBy(entranceLogs.id);
    expect(rows).toEqual([
      {
        clientId: member.id,
        status: EntranceStatus.Lockdown,
        reason: Reason.Lockdown,
        paymentType: EntrancePaymentType.None,
        offline: true,
      },
      {
        clientId: guard.id,
        status: EntranceStatus.Approved,
        reason: Reason.EntryLockdownOverride,
        paymentType: EntrancePaymentType.Manager,
        offline: true,
      },
    ]);
    await c.api.post('/api/GateSafety/ReleaseLockdown', command('Threat over'));
    await gate.close();
    await p.close();
  });

  it('a panic input locks the club; a second panic is only audited', async () => {
    const c = await club(2);
    const member = await c.member(`PM-${c.clubId}`);
    c.terminals[0]!.tc.raiseAlarm('panic');
    await until(() => c.terminals[1]!.tc.safety.mode === 'lockdown');
    expect((await c.terminals[1]!.tc.present(card(member.cardSerial))).status).toBe(EntranceStatus.Lockdown);
    c.terminals[1]!.tc.raiseAlarm('panic');
    await until(() => c.terminals[1]!.tc.pendingAlarms.length === 0);
    const actions = await ctx.database.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(and(eq(auditLog.clubId, c.clubId), eq(auditLog.entity, 'gateSafety')))
      .orderBy(auditLog.id);
    expect(actions.map((x) => x.action)).toEqual(['lockdown', 'alarm']);
    await c.api.post('/api/GateSafety/ReleaseLockdown', command('False alarm'));
  });
});
