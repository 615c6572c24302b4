import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { and, eq } from 'drizzle-orm';
import { EntranceState, UserRole, type LiveMessage } from '@venue/domain';
import { Api, createTestApp, makeUser, signedInAdmin, TEST_PASSWORD, type TestContext } from '../../../test/harness.js';
import {
  auditLog,
  balanceLedger,
  cashResets,
  cashSessions,
  clients,
  purchases,
  terminals,
  users,
} from '../../db/schema.js';
import * as factory from '../../../test/factories.js';
import { TerminalClient } from '../../../../terminal/src/client.js';

/**
 * Gate operations through the real server and the protocol:
 * every terminal field, delete and restore, remote actions with and without
 * reply, connected devices, cash sessions and the cash box.
 */

let ctx: TestContext;
let base: string;
const open: { close(): unknown }[] = [];
let seq = 0;
const serial = () => `GO-${process.pid}-${++seq}`;

const until = async (cond: () => boolean, ms = 4000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

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
    });
    ws.on('error', reject);
  });
  return received;
}

/** A terminal created and approved through the API, with a connected TerminalClient. */
async function connectedTerminal(api: Api, opts: { devices?: string[]; body?: object } = {}) {
  const created = (await api.post('/api/Terminal', { serial: serial(), name: 'Gate', ...opts.body })).json();
  expect(created.secret).toBeTruthy();
  await api.patch(`/api/Terminal/${created.id}`, { approved: true });
  const tc = new TerminalClient({
    url: base,
    serial: created.serial,
    secret: created.secret,
    devices: opts.devices,
    heartbeat: false,
    timeoutMs: 4000,
  });
  open.push(tc);
  await tc.connect();
  return { terminal: created, tc };
}

beforeAll(async () => {
  ctx = await createTestApp();
  base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  for (const o of open) await o.close();
  await ctx?.close();
});

describe('terminal fields (seed 001 §3)', () => {
  it('creates, reads and edits every field; refuses invalid values', async () => {
    const { api } = await signedInAdmin(ctx);
    const t = (
      await api.post('/api/Terminal', {
        serial: serial(),
        name: 'Cash gate',
        quickExit: true,
        isCash: true,
        creditType: 'emvVpos',
        fingerMatchingSpeed: 'Fast',
        cashConnectionType: 2,
        gateRelay: 1,
        gateChannel: 2,
        billAcceptor: { enabled: true, model: 'NV9', accepted: [2000, 5000] },
      })
    ).json();
    expect(t).toMatchObject({
      quickExit: true,
      isCash: true,
      creditType: 'emvVpos',
      fingerMatchingSpeed: 'Fast',
      cashConnectionType: 2,
      gateRelay: 1,
      gateChannel: 2,
      maintenanceMode: false,
      lightsRelay: null,
      billAcceptor: { enabled: true, model: 'NV9', accepted: [2000, 5000] },
      coinAcceptor: { enabled: false },
      deleted: false,
    });
    const patch = {
      maintenanceMode: true,
      cvvRequired: true,
      allowEnrollment: true,
      isManagement: true,
      accountingTerminalNumber: '0042',
      faceRecognition: true,
      lightsRelay: 3,
      lightsChannel: 4,
      payoutRelay: 5,
      payoutChannel: 6,
      magneticLockRelay: 7,
      magneticLockChannel: 8,
      coinAcceptor: { enabled: true, model: 'CC2', accepted: [100, 500, 1000] },
    };
    const edited = (await api.patch(`/api/Terminal/${t.id}`, patch)).json();
    expect(edited).toMatchObject({ ...patch, quickExit: true, creditType: 'emvVpos' });
    expect((await api.get(`/api/Terminal/${t.id}`)).json()).toEqual(edited);
    for (const bad of [
      { creditType: 'chip' },
      { fingerMatchingSpeed: 'Instant' },
      { cashConnectionType: 3 },
      { gateRelay: -1 },
      { coinAcceptor: { accepted: [5] } },
      { quickExit: 'yes' },
    ]) {
      const r = await api.patch(`/api/Terminal/${t.id}`, bad);
      expect(r.statusCode, JSON.stringify(bad)).toBe(400);
    }
    expect((await api.get(`/api/Terminal/${t.id}`)).json()).toEqual(edited);
  });
});

describe('delete and restore', () => {
  it('a deleted terminal is closed at once and cannot connect; restored, it can', async () => {
    const { api } = await signedInAdmin(ctx);
    const { terminal, tc } = await connectedTerminal(api);
    const closed = new Promise<void>((r) => tc.once('offline', r));
    const noReconnect = new Promise<number>((resolve) => {
      // The plain client (no reconnect) sees the socket close with 4401.
      (tc as unknown as { ws: WebSocket }).ws.once('close', (code) => resolve(code));
    });
    expect((await api.delete(`/api/Terminal/${terminal.id}`)).json()).toEqual({ ok: true });
    expect(await noReconnect).toBe(4401);
    void closed;
    expect((await api.get('/api/Terminal')).json().total).toBe(0);
    expect((await api.get('/api/Terminal?deleted=true')).json().items[0]).toMatchObject({
      id: terminal.id,
      deleted: true,
    });
    expect((await api.patch(`/api/Terminal/${terminal.id}`, { name: 'x' })).statusCode).toBe(404);
    expect((await api.delete(`/api/Terminal/${terminal.id}`)).statusCode).toBe(404);
    const again = new TerminalClient({ url: base, serial: terminal.serial, secret: terminal.secret, heartbeat: false });
    await expect(again.connect()).rejects.toMatchObject({ code: 'AUTH_FAILED' });
    expect((await api.patch(`/api/Terminal/Restore/${terminal.id}`)).json()).toMatchObject({ deleted: false });
    expect((await api.patch(`/api/Terminal/Restore/${terminal.id}`)).statusCode).toBe(404);
    const back = new TerminalClient({ url: base, serial: terminal.serial, secret: terminal.secret, heartbeat: false });
    open.push(back);
    expect((await back.connect()).terminalId).toBe(terminal.id);
  });
});

describe('remote actions', () => {
  it('TerminalAction delivers openGate; TerminalActionWithReply returns the reply; setDoorState is stored and pushed live', async () => {
    const { api } = await signedInAdmin(ctx);
    const live = await liveSocket(api.token!);
    const { terminal, tc } = await connectedTerminal(api, { devices: ['card', 'coins'] });
    const sent = await api.post('/api/Terminal/TerminalAction', {
      terminalId: terminal.id,
      targetId: terminal.id,
      actionName: 'openGate',
    });
    expect(sent.json()).toMatchObject({ sent: true });
    await until(() => tc.actions.some((a) => a.actionName === 'openGate' && a.requestId === sent.json().requestId));
    expect(tc.gateOpenUntil).toBeGreaterThan(Date.now());

    const ping = await api.post('/api/Terminal/TerminalPing', {
      terminalId: terminal.id,
      targetId: terminal.id,
      actionName: 'ping',
    });
    expect(ping.statusCode).toBe(200);

    const reply = await api.post('/api/Terminal/TerminalActionWithReply', {
      targetId: terminal.id,
      actionName: 'setDoorState',
      data: { doorState: EntranceState.FreeOpen },
    });
    expect(reply.statusCode).toBe(200);
    expect(reply.json()).toMatchObject({ ok: true, data: { doorState: 3 } });
    expect(tc.doorState).toBe(3);
    expect((await api.get(`/api/Terminal/${terminal.id}`)).json().doorState).toBe(3);
    await until(() => live.some((m) => m.type === 'door' && m.terminalId === terminal.id && m.doorState === 3));

    const bad = await api.post('/api/Terminal/TerminalActionWithReply', {
      targetId: terminal.id,
      actionName: 'setDoorState',
      data: {},
    });
    expect(bad.statusCode).toBe(400);

    const devices = (await api.get(`/api/Terminal/GetConnectedDevices/${terminal.id}`)).json();
    expect(devices).toMatchObject({ terminalId: terminal.id, connected: true, devices: ['card', 'coins'] });

    const audits = await ctx.database.db
      .select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.entity, 'terminal'),
          eq(auditLog.entityId, String(terminal.id)),
          eq(auditLog.action, 'terminal-action'),
        ),
      );
    expect(audits.length).toBeGreaterThanOrEqual(3);
  });

  it('answers 503 NO_TERMINAL_CONNECTION when the terminal is not connected or does not reply in time', async () => {
    const { api } = await signedInAdmin(ctx);
    const idle = (await api.post('/api/Terminal', { serial: serial(), name: 'Idle' })).json();
    for (const path of ['/api/Terminal/TerminalAction', '/api/Terminal/TerminalActionWithReply']) {
      const r = await api.post(path, { targetId: idle.id, actionName: 'openGate' });
      expect(r.statusCode, path).toBe(503);
      expect(r.json()).toMatchObject({ code: 'NO_TERMINAL_CONNECTION', message: 'No terminal connection' });
    }
    // A terminal that receives the action but never answers.
    const created = (await api.post('/api/Terminal', { serial: serial(), name: 'Mute' })).json();
    const mute = new TerminalClient({
      url: base,
      serial: created.serial,
      secret: created.secret,
      heartbeat: false,
      onAction: () => new Promise(() => {}),
    });
    open.push(mute);
    await mute.connect();
    const started = Date.now();
    const r = await api.post('/api/Terminal/TerminalActionWithReply', { targetId: created.id, actionName: 'reboot' });
    expect(r.statusCode).toBe(503);
    expect(Date.now() - started).toBeGreaterThanOrEqual(7000);
    expect(mute.actions.map((a) => a.actionName)).toEqual(['reboot']);
  }, 20_000);

  it('check for updates and reload display are for technicians and admins only', async () => {
    const { api: admin, club } = await signedInAdmin(ctx);
    const { terminal, tc } = await connectedTerminal(admin);
    const editor = await makeUser(ctx, club.id, { permissions: { roleEditTerminals: true } });
    const tech = await makeUser(ctx, club.id, { permissions: { roleEditTerminals: true } });
    await ctx.database.db.update(users).set({ role: UserRole.TECHNICIAN }).where(eq(users.id, tech.id));
    const as = async (u: { username: string }) => {
      const a = new Api(ctx.app);
      await a.login(u.username, TEST_PASSWORD, club.externalClubId);
      return a;
    };
    const e = await as(editor);
    const t = await as(tech);
    for (const actionName of ['checkForUpdates', 'reloadDisplay']) {
      const refused = await e.post('/api/Terminal/TerminalAction', { targetId: terminal.id, actionName });
      expect(refused.statusCode, actionName).toBe(403);
      expect((await t.post('/api/Terminal/TerminalAction', { targetId: terminal.id, actionName })).statusCode).toBe(
        200,
      );
      expect((await admin.post('/api/Terminal/TerminalAction', { targetId: terminal.id, actionName })).statusCode).toBe(
        200,
      );
    }
    expect(
      (await e.post('/api/Terminal/TerminalAction', { targetId: terminal.id, actionName: 'openGate' })).statusCode,
    ).toBe(200);
    await until(() => tc.actions.length === 5);
  });

  it('check for updates offers the newest version the operator published (docs/operator.md)', async () => {
    const { api: admin } = await signedInAdmin(ctx);
    const { terminal, tc } = await connectedTerminal(admin);
    const v = await factory.makeScriptVersion(ctx, { publishedAt: new Date(Date.now() + 60_000) });
    const sent = await admin.post('/api/Terminal/TerminalAction', {
      targetId: terminal.id,
      actionName: 'checkForUpdates',
    });
    expect(sent.statusCode).toBe(200);
    await until(() => tc.actions.some((a) => a.requestId === sent.json().requestId));
    const got = tc.actions.find((a) => a.requestId === sent.json().requestId)!;
    expect(got.data).toMatchObject({ latest: { version: v.version, fileUrl: v.fileUrl } });
  });
});

describe('cash at the terminal', () => {
  async function cashSetup(settings: object = {}) {
    const { api, club } = await signedInAdmin(ctx, { settings });
    const g = await factory.makeGroup(ctx, club.id, { name: 'G' });
    // No license and no subscription: the cash only loads money.
    const c = await factory.makeClient(ctx, club.id, {
      firstName: 'Cash',
      lastName: '',
      groupId: g.id,
      cardSerial: `C-${club.id}`,
      licenseExpiry: null,
    });
    const { terminal, tc } = await connectedTerminal(api, {
      body: {
        isCash: true,
        coinAcceptor: { enabled: true, accepted: [10, 50, 100, 200, 500, 1000] },
        billAcceptor: { enabled: true, accepted: [2000, 5000, 10000] },
      },
    });
    return { api, club, client: c, terminal, tc, card: { kind: 'card' as const, value: c.cardSerial } };
  }

  it('credits the due amount with a ledger row, pays change greedily from the inventories and closes', async () => {
    const { api, client, terminal, tc, card } = await cashSetup();
    const load = await api.post(`/api/Terminal/LoadCash/${terminal.id}`, {
      coins: { 1000: 2, 500: 1, 200: 3, 100: 2, 10: 5 },
    });
    expect(load.json()).toMatchObject({ coinsTotal: 2000 + 500 + 600 + 200 + 50 });
    // LoadCash only adds (docs/cash.md): a negative count is a validation error and changes nothing.
    const negative = await api.post(`/api/Terminal/LoadCash/${terminal.id}`, { coins: { 1000: -1 } });
    expect(negative.statusCode).toBe(400);
    expect(negative.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect((await api.get(`/api/Terminal/GetCashBoxStatus/${terminal.id}`)).json()).toMatchObject({
      coinsTotal: 2000 + 500 + 600 + 200 + 50,
    });
    // 32.04 ₪ due: cash totals are rounded to 10 agorot → 32.00.
    expect(await tc.cashBegin('s1', card, 3204)).toMatchObject({ state: 'begin', due: 3200 });
    await tc.cashInsert('s1', 'bill', 5000, 'ins-1');
    const again = await tc.cashInsert('s1', 'bill', 5000, 'ins-1');
    expect(again.inserted).toBe(5000);
    const done = await tc.cashComplete('s1');
    expect(done).toMatchObject({
      state: 'startPayout',
      inserted: 5000,
      credited: 3200,
      change: { amount: 1800 },
      unpaid: 0,
    });
    expect(done.change!.coins).toEqual({ 1000: 1, 500: 1, 200: 1, 100: 1 });
    const closed = await tc.cashPayoutDone('s1', done.change!.coins, done.change!.bills);
    expect(closed.state).toBe('closed');
    const [c] = await ctx.database.db.select().from(clients).where(eq(clients.id, client.id));
    expect(c.balance).toBe(3200);
    const ledger = await ctx.database.db.select().from(balanceLedger).where(eq(balanceLedger.clientId, client.id));
    // The cash load is a real purchase (ChargingMoney paid by Cash): the ledger row's source is the purchase.
    expect(ledger).toMatchObject([{ kind: 'money', delta: 3200, source: 'purchase' }]);
    const [session] = await ctx.database.db.select().from(cashSessions).where(eq(cashSessions.sessionId, 's1'));
    const [p] = await ctx.database.db.select().from(purchases).where(eq(purchases.id, session.purchaseId!));
    expect(p).toMatchObject({ clientId: client.id, total: 3200, paidCash: 3200, source: 'terminal' });
    expect(ledger[0].sourceId).toBe(p.id);
    const status = (await api.get(`/api/Terminal/GetCashBoxStatus/${terminal.id}`)).json();
    expect(status).toMatchObject({
      cashBox: { 5000: 1 },
      cashBoxTotal: 5000,
      coins: { 1000: 1, 200: 2, 100: 1, 10: 5 },
    });
  });

  it('change the inventories cannot pay is a payout error (coin change error); overpayment beyond the limit is excess', async () => {
    const { api, terminal, tc, card } = await cashSetup({ maxCashOverpayment: 2000 });
    await api.post(`/api/Terminal/LoadCash/${terminal.id}`, { coins: { 500: 1 } });
    await tc.cashBegin('s2', card, 1000);
    await tc.cashInsert('s2', 'bill', 5000);
    // Change 40 ₪: 20 ₪ beyond the club's 20 ₪ limit is excess; of the 20 ₪ the hopper pays 5 ₪, 15 ₪ is unpaid.
    const done = await tc.cashComplete('s2');
    expect(done).toMatchObject({
      state: 'startPayout',
      credited: 1000,
      excess: 2000,
      unpaid: 1500,
      error: 'COIN_CHANGE_ERROR',
      change: { amount: 500, coins: { 500: 1 } },
    });
    // The hardware paid nothing: the 5 ₪ go back to the hopper and become unpaid too.
    const closed = await tc.cashPayoutDone('s2', {}, {});
    expect(closed).toMatchObject({ state: 'closed', unpaid: 2000 });
    const status = (await api.get(`/api/Terminal/GetCashBoxStatus/${terminal.id}`)).json();
    expect(status).toMatchObject({ coins: { 500: 1 }, excess: { amount: 2000, count: 1 } });
    const [s] = await ctx.database.db.select().from(cashSessions).where(eq(cashSessions.sessionId, 's2'));
    expect(s).toMatchObject({ unpaid: 2000, excess: 2000, error: 'COIN_CHANGE_ERROR' });
  });

  it('refuses a valid bill the acceptor is not set to take, rejects an unknown client, pays back on cancel', async () => {
    const { club, terminal, tc, card } = await cashSetup();
    expect(await tc.cashBegin('s3', { kind: 'card', value: 'nobody' })).toMatchObject({ state: 'rejected' });
    await tc.cashBegin('s4', card);
    const refused = await tc.cashInsert('s4', 'bill', 20000);
    expect(refused).toMatchObject({ state: 'begin', inserted: 0, error: 'VALID_UNAUTHORIZED_BILL' });
    await tc.cashInsert('s4', 'coin', 1000);
    await tc.cashInsert('s4', 'coin', 500);
    const canceled = await tc.cashCancel('s4');
    expect(canceled).toMatchObject({
      state: 'canceled',
      change: { amount: 1500, coins: { 1000: 1, 500: 1 } },
      unpaid: 0,
    });
    expect(await tc.cashPayoutDone('s4', { 1000: 1, 500: 1 }, {})).toMatchObject({ state: 'canceled', unpaid: 0 });
    const ledger = await ctx.database.db.select().from(balanceLedger).where(eq(balanceLedger.clubId, club.id));
    expect(ledger).toEqual([]);
    void terminal;
  });

  it('CreateResetCashLevels empties the cash box and writes a cash-reset record', async () => {
    const { api, club, terminal, tc, card } = await cashSetup();
    await tc.cashBegin('s5', card);
    await tc.cashInsert('s5', 'bill', 10000);
    await tc.cashInsert('s5', 'bill', 2000);
    expect(await tc.cashComplete('s5')).toMatchObject({ state: 'closed', credited: 12000 });
    const reset = await api.post('/api/Terminal/CreateResetCashLevels', { terminalId: terminal.id });
    expect(reset.statusCode).toBe(200);
    expect(reset.json()).toMatchObject({
      terminalId: terminal.id,
      cashBox: { 10000: 1, 2000: 1 },
      cashBoxTotal: 12000,
    });
    const status = (await api.get(`/api/Terminal/GetCashBoxStatus/${terminal.id}`)).json();
    expect(status).toMatchObject({ cashBox: {}, cashBoxTotal: 0 });
    expect(status.lastResetAt).not.toBeNull();
    const rows = await ctx.database.db.select().from(cashResets).where(eq(cashResets.clubId, club.id));
    expect(rows).toHaveLength(1);
    const other = await signedInAdmin(ctx);
    expect((await other.api.post('/api/Terminal/CreateResetCashLevels', { terminalId: terminal.id })).statusCode).toBe(
      404,
    );
    expect((await other.api.get(`/api/Terminal/GetCashBoxStatus/${terminal.id}`)).statusCode).toBe(404);
  });
});

void terminals;
