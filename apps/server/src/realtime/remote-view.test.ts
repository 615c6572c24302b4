import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { FastifyInstance } from 'fastify';
import { EntranceState, LiveMessage, TerminalScreenView, type TerminalScreenState } from '@venue/domain';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { openDatabase, type Database } from '../db/index.js';
import * as factory from '../../test/factories.js';
import {
  Api,
  createTestApp,
  makeUser,
  openTestDatabase,
  signedInAdmin,
  TEST_DB,
  TEST_PASSWORD,
  type TestContext,
} from '../../test/harness.js';
import { TerminalClient } from '../../../terminal/src/client.js';
import { ScreenReporter } from '../../../terminal/src/screen.js';

/**
 * Remote view (seed 001 §2; docs/terminal-protocol.md "Remote view"): the
 * terminal's `screen` message is validated, kept per terminal, answered by
 * GET /api/Terminal/GetScreen/{id} and pushed live to the club's consoles —
 * only to users who may control terminals — and, on PostgreSQL, across
 * server instances.
 */

let ctx: TestContext;
let base: string;
const open: { close(): unknown }[] = [];

const until = async (cond: () => boolean, ms = 5000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

/** A console live socket, authenticated; collects what it receives (checked with the domain's schema). */
async function liveSocket(url: string, token: string) {
  const ws = new WebSocket(`${url.replace('http', 'ws')}/api/live`);
  open.push(ws);
  const received: LiveMessage[] = [];
  await new Promise<void>((resolve, reject) => {
    ws.on('open', () => ws.send(JSON.stringify({ type: 'auth', token })));
    ws.on('message', (d) => {
      const m = LiveMessage.parse(JSON.parse(d.toString()));
      received.push(m);
      if (m.type === 'ready') resolve();
      if (m.type === 'error') reject(new Error(m.code));
    });
    ws.on('error', reject);
  });
  return { ws, received, screens: () => received.filter((m) => m.type === 'screen') };
}

const idle: TerminalScreenState = {
  view: 'idle',
  prompt: 'Present your card',
  messages: [],
  lastDecision: null,
  cash: null,
  gateOpen: false,
};

/** Sends a raw screen report over the client's link. */
function report(tc: TerminalClient, seq: number, screen: TerminalScreenState) {
  tc.sendScreen({ type: 'screen', seq, at: new Date().toISOString(), screen });
}

async function newTerminal(api: Api, serial: string) {
  const t = (await api.post('/api/Terminal', { serial, name: `Gate ${serial}` })).json() as {
    id: number;
    serial: string;
    secret: string;
  };
  await api.patch(`/api/Terminal/${t.id}`, { approved: true });
  return t;
}

beforeAll(async () => {
  ctx = await createTestApp();
  base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  for (const o of open) o.close();
  await ctx?.close();
});

describe('remote view on one server', () => {
  it('keeps the latest screen, answers it, pushes it to the club’s technicians only, and ignores stale reports', async () => {
    const a = await signedInAdmin(ctx);
    const other = await signedInAdmin(ctx);
    // A user of the same club who may open the terminals list but not control terminals.
    const viewer = await makeUser(ctx, a.club.id, { permissions: { roleEditTerminals: false } });
    const viewerApi = new Api(ctx.app);
    expect((await viewerApi.login(viewer.username, TEST_PASSWORD, a.club.externalClubId)).statusCode).toBe(200);

    const t = await newTerminal(a.api, `RV-${a.club.id}`);
    const none = await a.api.get(`/api/Terminal/GetScreen/${t.id}`);
    expect(none.statusCode).toBe(200);
    expect(TerminalScreenView.parse(none.json())).toEqual({
      terminalId: t.id,
      connected: false,
      screen: null,
      at: null,
      receivedAt: null,
    });

    const live = await liveSocket(base, a.api.token!);
    const liveOther = await liveSocket(base, other.api.token!);
    const liveViewer = await liveSocket(base, viewerApi.token!);

    const tc = new TerminalClient({ url: base, serial: t.serial, secret: t.secret, heartbeat: false });
    open.push(tc);
    await tc.connect();
    report(tc, 1, idle);
    await until(() => live.screens().length === 1);
    expect(live.screens()[0]).toMatchObject({ type: 'screen', terminalId: t.id, screen: idle });

    // A later report replaces it; one with an older seq (a stale, reordered report) is ignored.
    const cash: TerminalScreenState = {
      ...idle,
      view: 'cash',
      prompt: 'Insert coins or bills',
      cash: { sessionId: 's-1', state: 'begin', inserted: 1500, due: 3000 },
    };
    await new Promise((r) => setTimeout(r, 120));
    report(tc, 5, cash);
    await until(() => live.screens().length === 2);
    report(tc, 4, idle);
    await new Promise((r) => setTimeout(r, 250));
    expect(live.screens()).toHaveLength(2);
    const got = TerminalScreenView.parse((await a.api.get(`/api/Terminal/GetScreen/${t.id}`)).json());
    expect(got).toMatchObject({ terminalId: t.id, connected: true, screen: cash });
    expect(got.receivedAt).not.toBeNull();

    // Another club: 404 and nothing pushed; a user without roleEditTerminals: 403 and nothing pushed.
    expect((await other.api.get(`/api/Terminal/GetScreen/${t.id}`)).statusCode).toBe(404);
    expect((await viewerApi.get(`/api/Terminal/GetScreen/${t.id}`)).statusCode).toBe(403);
    expect(liveOther.screens()).toEqual([]);
    expect(liveViewer.screens()).toEqual([]);
    // The viewer still sees the terminal connect (the terminals list is open to all).
    expect(liveViewer.received.some((m) => m.type === 'terminal' && m.terminalId === t.id)).toBe(true);
    await tc.close();
  });

  it('answers a malformed screen with BAD_MESSAGE and keeps the link', async () => {
    const a = await signedInAdmin(ctx);
    const t = await newTerminal(a.api, `RV-BAD-${a.club.id}`);
    const tc = new TerminalClient({ url: base, serial: t.serial, secret: t.secret, heartbeat: false });
    open.push(tc);
    await tc.connect();
    tc.sendRaw(JSON.stringify({ type: 'screen', seq: 1, at: 'yesterday', screen: { ...idle, view: 'dancing' } }));
    await until(() => tc.unsolicited.some((m) => m.type === 'error'));
    expect(tc.unsolicited.find((m) => m.type === 'error')).toMatchObject({ code: 'BAD_MESSAGE' });
    report(tc, 2, { ...idle, prompt: 'still here' });
    const end = Date.now() + 3000;
    let screen: TerminalScreenState | null = null;
    while (Date.now() < end && screen?.prompt !== 'still here') {
      screen = TerminalScreenView.parse((await a.api.get(`/api/Terminal/GetScreen/${t.id}`)).json()).screen;
      await new Promise((r) => setTimeout(r, 30));
    }
    expect(screen?.prompt).toBe('still here');
    await tc.close();
  });

  it('the simulator reports its screen as it changes: sent once welcomed, then the decision and the open gate', async () => {
    const a = await signedInAdmin(ctx);
    const g = await factory.makeGroupWithSchedule(ctx, a.club.id, { name: 'G' }, [
      { entranceState: EntranceState.Opened },
    ]);
    await factory.makeClient(ctx, a.club.id, {
      firstName: 'Rivka',
      lastName: 'Sim',
      groupId: g.id,
      cardSerial: 'RV-CARD-1',
      ...factory.SUBSCRIBED,
    });
    const t = await newTerminal(a.api, `RV-SIM-${a.club.id}`);
    const live = await liveSocket(base, a.api.token!);
    const tc = new TerminalClient({ url: base, serial: t.serial, secret: t.secret, heartbeat: false });
    open.push(tc);
    const screen = new ScreenReporter(tc, { language: 'en' });
    await tc.connect();
    // Sent once welcomed.
    await until(() => live.screens().some((m) => m.screen.view === 'idle'));
    const d = await tc.present({ kind: 'card', value: 'RV-CARD-1' });
    expect(d.status).toBe(1);
    await until(() => live.screens().some((m) => m.screen.view === 'decision'));
    const shown = live.screens().find((m) => m.screen.view === 'decision')!;
    expect(shown.screen).toMatchObject({
      gateOpen: true,
      lastDecision: { status: 1, reason: d.reason, message: d.message, clientName: 'Rivka Sim', eventId: d.eventId },
    });
    const view = TerminalScreenView.parse((await a.api.get(`/api/Terminal/GetScreen/${t.id}`)).json());
    expect(view.screen?.lastDecision?.clientName).toBe('Rivka Sim');
    screen.stop();
    await tc.close();
  });
});

/**
 * Two (then three) server instances on one PostgreSQL database: the screen of a terminal
 * connected to B reaches A's live feed, and an instance started after the report (C) gets it by
 * asking B over the bus. PGlite is one process's database, so only with TEST_DB=postgres.
 */
const onPostgres = TEST_DB === 'postgres';
describe.skipIf(!onPostgres)('remote view across server instances (PostgreSQL only)', () => {
  let shared: Awaited<ReturnType<typeof openTestDatabase>>;
  const extra: Database[] = [];
  const apps: FastifyInstance[] = [];
  const config = { ...loadConfig({}), logLevel: 'silent', loginRateLimit: 1000 };
  /** The first instance uses the test database; each later one its own pool on the same database. */
  const instance = async () => {
    let db: Database = shared;
    if (apps.length > 0) extra.push((db = await openDatabase({ databaseUrl: shared.url!, poolSize: 3 })));
    const app = await buildApp({ config, database: db });
    apps.push(app);
    return { app, url: await app.listen({ port: 0, host: '127.0.0.1' }) };
  };
  beforeAll(async () => {
    shared = await openTestDatabase();
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    for (const db of extra) await db.close();
    await shared?.dropAll();
  });

  it('pushes B’s terminal screen to A’s console and answers it on an instance started later', async () => {
    const a = await instance();
    const b = await instance();
    const ctxA = { app: a.app, database: shared } as unknown as TestContext;
    const { api } = await signedInAdmin(ctxA);
    const t = await newTerminal(api, `RV-CL-${Date.now() % 100000}`);
    const liveA = await liveSocket(a.url, api.token!);
    const tc = new TerminalClient({ url: b.url, serial: t.serial, secret: t.secret, heartbeat: false });
    open.push(tc);
    await tc.connect();
    const shown = { ...idle, prompt: 'on B' };
    report(tc, 1, shown);
    await until(() => liveA.screens().some((m) => m.screen.prompt === 'on B'));

    const c = await instance();
    const apiC = new Api(c.app);
    apiC.token = api.token;
    const got = TerminalScreenView.parse((await apiC.get(`/api/Terminal/GetScreen/${t.id}`)).json());
    expect(got).toMatchObject({ terminalId: t.id, connected: true, screen: shown });
    await tc.close();
  });
});
