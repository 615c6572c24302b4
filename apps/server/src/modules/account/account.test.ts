import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { loadConfig } from '../../config.js';
import {
  Api,
  createTestApp,
  openTestDatabase,
  makeClub,
  makeUser,
  TEST_PASSWORD,
  type TestContext,
} from '../../../test/harness.js';
import { auditLog, loginFailures, users } from '../../db/schema.js';
import { eq } from 'drizzle-orm';

describe('account: sign-in and current user', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => ctx.close());

  it('signs in with username, password and club id and returns token and expiresIn', async () => {
    const club = await makeClub(ctx);
    const user = await makeUser(ctx, club.id, { permissions: { roleViewDashboard: true } });
    const api = new Api(ctx.app);
    const res = await api.login(user.username, TEST_PASSWORD, club.externalClubId);
    expect(res.statusCode).toBe(200);
    expect(res.json().expiresIn).toBe(12 * 3600);
    const me = await api.get('/api/Account/GetCurrent');
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({
      id: user.id,
      roleViewDashboard: true,
      roleViewClientsList: false,
      externalClubId: club.externalClubId,
    });
    expect(me.json()).not.toHaveProperty('passwordHash');
  });

  it('refuses a wrong password, an unknown user and another club with the seed message', async () => {
    const club = await makeClub(ctx);
    const other = await makeClub(ctx);
    const user = await makeUser(ctx, club.id);
    const api = new Api(ctx.app);
    for (const [u, p, c] of [
      [user.username, 'wrong', club.externalClubId],
      ['nobody', TEST_PASSWORD, club.externalClubId],
      [user.username, TEST_PASSWORD, other.externalClubId],
      [user.username, TEST_PASSWORD, 999999],
    ] as const) {
      const res = await api.login(u, p, c);
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('INCORRECT_CREDENTIALS_OR_CLUB');
    }
  });

  it('answers 400 with field details for a malformed body, and 403 without the anti-forgery header', async () => {
    const api = new Api(ctx.app);
    const bad = await api.post('/api/Account', { username: '', password: 'x' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('VALIDATION_ERROR');
    const noCsrf = await ctx.app.inject({
      method: 'POST',
      url: '/api/Account',
      payload: { username: 'a', password: 'b', externalClubId: 1 },
    });
    expect(noCsrf.statusCode).toBe(403);
    expect(noCsrf.json().code).toBe('CSRF_INVALID');
  });

  it('rejects missing, forged and revoked tokens with 401', async () => {
    const club = await makeClub(ctx);
    const user = await makeUser(ctx, club.id);
    const api = new Api(ctx.app);
    expect((await api.get('/api/Account/GetCurrent')).statusCode).toBe(401);
    api.token = 'eyJhbGciOiJub25lIn0.eyJzdWIiOjF9.';
    expect((await api.get('/api/Account/GetCurrent')).statusCode).toBe(401);
    await api.login(user.username, TEST_PASSWORD, club.externalClubId);
    expect((await api.get('/api/Account/GetCurrent')).statusCode).toBe(200);
    await ctx.database.db.update(users).set({ disabled: true }).where(eq(users.id, user.id));
    expect((await api.get('/api/Account/GetCurrent')).statusCode).toBe(401);
  });
});

describe('account: sign-in limits (DESIGN §10, docs/security.md "Sign-in")', () => {
  /** An app with a sign-in limit of 10 a minute per address, optionally behind trusted proxies. */
  async function limitedApp(trustProxy?: string[]) {
    const database = await openTestDatabase();
    const app = await buildApp({
      config: { ...loadConfig({}), logLevel: 'silent', loginRateLimit: 10, trustProxy },
      database,
    });
    return { app, database, close: async () => (await app.close(), await database.dropAll()) };
  }
  const from = (app: Awaited<ReturnType<typeof limitedApp>>['app'], ip: string) => {
    const api = new Api(app);
    api.remoteAddress = ip;
    return api;
  };

  it('refuses the 11th attempt within a minute from one address with 429, whatever the user name; another address goes on', async () => {
    const t = await limitedApp();
    try {
      const api = from(t.app, '10.1.1.1');
      for (let i = 0; i < 10; i++) expect((await api.login(`someone${i}`, 'wrong', 1)).statusCode).toBe(401);
      const blocked = await api.login('someone-else', 'wrong', 1);
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json().code).toBe('TOO_MANY_REQUESTS');
      expect((await from(t.app, '10.1.1.2').login('someone-else', 'wrong', 1)).statusCode).toBe(401);
    } finally {
      await t.close();
    }
  });

  it('does not believe X-Forwarded-For unless the socket is a TRUST_PROXY proxy', async () => {
    const t = await limitedApp();
    try {
      // The probe's bypass: a new forwarded address on every attempt.
      const api = from(t.app, '10.2.2.2');
      const codes: number[] = [];
      for (let i = 0; i < 11; i++) {
        const res = await api.request(
          'POST',
          '/api/Account',
          { username: `name${i}`, password: 'wrong', externalClubId: 1 },
          { 'x-forwarded-for': `203.0.113.${i}` },
        );
        codes.push(res.statusCode);
      }
      expect(codes.slice(0, 10).every((c) => c === 401)).toBe(true);
      expect(codes[10]).toBe(429);
    } finally {
      await t.close();
    }
    const behind = await limitedApp(['127.0.0.1']);
    try {
      // Behind a configured proxy, each forwarded client has its own limit.
      const proxy = from(behind.app, '127.0.0.1');
      for (let i = 0; i < 11; i++) {
        const res = await proxy.request(
          'POST',
          '/api/Account',
          { username: `name${i}`, password: 'wrong', externalClubId: 1 },
          { 'x-forwarded-for': `203.0.113.${i}` },
        );
        expect(res.statusCode).toBe(401);
      }
    } finally {
      await behind.close();
    }
  }, 120_000); // 22 scrypt-hashed sign-ins on two apps: about 10 s idle, far more on a loaded machine

  it('delays sign-in under one user name after 5 failures from any addresses, even with the right password; logs a security event', async () => {
    const ctx = await createTestApp();
    try {
      const club = await makeClub(ctx);
      const user = await makeUser(ctx, club.id, { isAdmin: true });
      for (let i = 0; i < 5; i++) {
        const res = await from(ctx.app, `10.3.0.${i}`).login(user.username.toUpperCase(), 'wrong', club.externalClubId);
        expect(res.statusCode).toBe(401);
      }
      const locked = await from(ctx.app, '10.3.0.99').login(user.username, TEST_PASSWORD, club.externalClubId);
      expect(locked.statusCode).toBe(429);
      expect(locked.json().code).toBe('LOGIN_LOCKED');
      expect(locked.json().details.retryAfterSeconds).toBeGreaterThan(50);
      expect(Number(locked.headers['retry-after'])).toBeGreaterThan(50);
      const events = await ctx.database.db.select().from(auditLog).where(eq(auditLog.action, 'login.locked'));
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ userId: user.id, clubId: club.id, ip: '10.3.0.4' });
      // Another club's user of the same name is not delayed.
      const other = await makeClub(ctx);
      await makeUser(ctx, other.id, { username: user.username });
      expect((await new Api(ctx.app).login(user.username, TEST_PASSWORD, other.externalClubId)).statusCode).toBe(200);

      // When the delay has passed the right password signs in and the count starts again;
      // one more failure right after the delay doubles it.
      await ctx.database.db
        .update(loginFailures)
        .set({ lockedUntil: new Date(Date.now() - 1000) })
        .where(eq(loginFailures.key, `${club.externalClubId}|${user.username.toLowerCase()}`));
      expect((await new Api(ctx.app).login(user.username, 'wrong', club.externalClubId)).statusCode).toBe(401);
      const doubled = await new Api(ctx.app).login(user.username, TEST_PASSWORD, club.externalClubId);
      expect(doubled.json().details.retryAfterSeconds).toBeGreaterThan(110);
      await ctx.database.db
        .update(loginFailures)
        .set({ lockedUntil: new Date(Date.now() - 1000) })
        .where(eq(loginFailures.key, `${club.externalClubId}|${user.username.toLowerCase()}`));
      expect((await new Api(ctx.app).login(user.username, TEST_PASSWORD, club.externalClubId)).statusCode).toBe(200);
      expect(await ctx.database.db.select().from(loginFailures)).toEqual([]);
    } finally {
      await ctx.close();
    }
  });

  it('counts a name that matches no user the same way, so the answer does not tell which names exist', async () => {
    const ctx = await createTestApp();
    try {
      const club = await makeClub(ctx);
      for (let i = 0; i < 5; i++) await new Api(ctx.app).login('nobody-here', 'wrong', club.externalClubId);
      expect((await new Api(ctx.app).login('nobody-here', 'wrong', club.externalClubId)).json().code).toBe(
        'LOGIN_LOCKED',
      );
    } finally {
      await ctx.close();
    }
  });

  it("counts the operator's failures under every club id at once", async () => {
    const ctx = await createTestApp();
    try {
      const operator = await makeUser(ctx, null, { level: 1 });
      for (let i = 0; i < 5; i++) {
        expect((await new Api(ctx.app).login(operator.username, 'wrong', 100 + i)).statusCode).toBe(401);
      }
      expect((await new Api(ctx.app).login(operator.username, TEST_PASSWORD, 999)).json().code).toBe('LOGIN_LOCKED');
    } finally {
      await ctx.close();
    }
  });
});
