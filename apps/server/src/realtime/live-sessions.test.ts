import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { eq } from 'drizzle-orm';
import type { LiveMessage } from '@venue/domain';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { EventBus } from '../lib/event-bus.js';
import {
  Api,
  createTestApp,
  makeUser,
  openTestDatabase,
  signedInAdmin,
  signedInOperator,
  TEST_PASSWORD,
  type TestContext,
} from '../../test/harness.js';
import { clubs, sessions } from '../db/schema.js';

/**
 * The console's live socket ends with its session (docs/security.md
 * "Sessions", docs/live-feed.md): sign-out, a disabled user or club, a
 * password change and the idle timeout close the session's open sockets at
 * once, and a socket is opened only for a session a request would accept.
 */

interface Live {
  ws: WebSocket;
  received: LiveMessage[];
  closed: Promise<number>;
}

/** Opens a live socket with `token`; resolves when it is ready, rejects with the error code when refused. */
async function liveSocket(base: string, token: string): Promise<Live> {
  const ws = new WebSocket(`${base.replace('http', 'ws')}/api/live`);
  const received: LiveMessage[] = [];
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
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
  return { ws, received, closed };
}

/** Resolves with the close code, or 0 when the socket is still open after `ms`. */
const closedWithin = (live: Live, ms: number) =>
  Promise.race([live.closed, new Promise<number>((r) => setTimeout(() => r(0), ms))]);

/** An entrance row of the club published on the bus, as the gate publishes it. */
const entrance = (ctx: { bus: EventBus }, clubId: number, n: number) =>
  ctx.bus.publish('entrance', { clubId, row: { id: n, clientName: `Client ${n}` } });

describe('live sockets end with their session', () => {
  let ctx: TestContext;
  let base: string;
  beforeAll(async () => {
    ctx = await createTestApp();
    base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => ctx.close());

  it('sign-out closes the session’s open socket at once; it receives no entrance after', async () => {
    const { club, api } = await signedInAdmin(ctx);
    const live = await liveSocket(base, api.token!);
    entrance(ctx, club.id, 1);
    await expect.poll(() => live.received.filter((m) => m.type === 'entrance').length).toBe(1);
    expect((await api.post('/api/Account/Logout')).statusCode).toBe(200);
    expect(await closedWithin(live, 2000)).toBe(4401);
    entrance(ctx, club.id, 2);
    await new Promise((r) => setTimeout(r, 100));
    expect(live.received.filter((m) => m.type === 'entrance')).toHaveLength(1);
    expect(live.received.at(-1)).toMatchObject({ type: 'error', code: 'UNAUTHORIZED' });
  });

  it("disabling the user closes every socket of the user; another user's socket stays open", async () => {
    const { club, api: admin } = await signedInAdmin(ctx);
    const clerk = await makeUser(ctx, club.id, { permissions: { roleViewDashboard: true } });
    const clerkApi = new Api(ctx.app);
    await clerkApi.login(clerk.username, TEST_PASSWORD, club.externalClubId);
    const clerkLive = await liveSocket(base, clerkApi.token!);
    const adminLive = await liveSocket(base, admin.token!);
    expect((await admin.patch(`/api/User/${clerk.id}`, { disabled: true })).statusCode).toBe(200);
    expect(await closedWithin(clerkLive, 2000)).toBe(4401);
    entrance(ctx, club.id, 3);
    await expect.poll(() => adminLive.received.filter((m) => m.type === 'entrance').length).toBe(1);
    expect(clerkLive.received.filter((m) => m.type === 'entrance')).toHaveLength(0);
    adminLive.ws.close();
  });

  it("one's own password change closes the other sessions' sockets, not this session's", async () => {
    const { club, user, api } = await signedInAdmin(ctx);
    const other = new Api(ctx.app);
    await other.login(user.username, TEST_PASSWORD, club.externalClubId);
    const mine = await liveSocket(base, api.token!);
    const theirs = await liveSocket(base, other.token!);
    const changed = await api.patch(`/api/User/${user.id}`, {
      password: 'changed-pass-99',
      currentPassword: TEST_PASSWORD,
    });
    expect(changed.statusCode).toBe(200);
    expect(await closedWithin(theirs, 2000)).toBe(4401);
    expect(await closedWithin(mine, 300)).toBe(0);
    mine.ws.close();
  });

  it("disabling the club closes its users' sockets", async () => {
    const { club, api } = await signedInAdmin(ctx);
    const { api: operator } = await signedInOperator(ctx);
    const live = await liveSocket(base, api.token!);
    expect((await operator.post(`/api/Operator/Club/${club.id}/Disable`)).statusCode).toBe(200);
    expect(await closedWithin(live, 2000)).toBe(4401);
  });

  it("a disabled club's user cannot open a socket, as no request of the token is accepted", async () => {
    const { club, api } = await signedInAdmin(ctx);
    // The club disabled behind the sessions' back: the check itself must refuse it.
    await ctx.database.db.update(clubs).set({ disabledAt: new Date() }).where(eq(clubs.id, club.id));
    expect((await api.get('/api/Account/GetCurrent')).statusCode).toBe(401);
    await expect(liveSocket(base, api.token!)).rejects.toThrow('UNAUTHORIZED');
  });

  it('a signed-out or idle session cannot open a socket', async () => {
    const { user, api } = await signedInAdmin(ctx);
    await ctx.database.db
      .update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - 31 * 60_000) })
      .where(eq(sessions.userId, user.id));
    await expect(liveSocket(base, api.token!)).rejects.toThrow('UNAUTHORIZED');
    const other = await signedInAdmin(ctx);
    await other.api.post('/api/Account/Logout');
    await expect(liveSocket(base, other.api.token!)).rejects.toThrow('UNAUTHORIZED');
  });
});

describe('live sockets end at the idle timeout', () => {
  it('closes a socket whose session saw no request for SESSION_IDLE_SECONDS; requests keep it open', async () => {
    const database = await openTestDatabase();
    const bus = new EventBus();
    const app = await buildApp({
      config: { ...loadConfig({ SESSION_IDLE_SECONDS: '3' }), logLevel: 'silent', loginRateLimit: 1000 },
      database,
      bus,
    });
    try {
      const base = await app.listen({ port: 0, host: '127.0.0.1' });
      const { api } = await signedInAdmin({ app, database, bus } as unknown as TestContext);
      const live = await liveSocket(base, api.token!);
      // Requests are activity: for five seconds (past the timeout) the socket stays open.
      for (let i = 0; i < 10; i++) {
        expect((await api.get('/api/Account/GetCurrent')).statusCode).toBe(200);
        await new Promise((r) => setTimeout(r, 500));
      }
      expect(await closedWithin(live, 0)).toBe(0);
      // The socket itself is not activity: about three seconds after the last request it closes.
      expect(await closedWithin(live, 6000)).toBe(4401);
      expect(live.received.at(-1)).toMatchObject({ type: 'error', code: 'UNAUTHORIZED' });
      expect((await api.get('/api/Account/GetCurrent')).statusCode).toBe(401);
    } finally {
      await app.close();
      await database.dropAll();
    }
  });
});
