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
import { ACCOUNT_CEILING, LOCKOUT_MAX_SECONDS, lockoutSeconds } from './account.service.js';
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

  it('10 wrong passwords from one address do not stop the right password from another; the attacking address is refused, even with the right password', async () => {
    const ctx = await createTestApp();
    try {
      const club = await makeClub(ctx);
      const manager = await makeUser(ctx, club.id, { isAdmin: true, username: 'admin' });
      const attacker = from(ctx.app, '10.3.0.66');
      const codes: number[] = [];
      for (let i = 0; i < 10; i++) codes.push((await attacker.login('ADMIN', 'wrong', club.externalClubId)).statusCode);
      // Five failures, then the address's delay: 429 from then on.
      expect(codes).toEqual([401, 401, 401, 401, 401, 429, 429, 429, 429, 429]);
      const refused = await attacker.login('admin', TEST_PASSWORD, club.externalClubId);
      expect(refused.statusCode).toBe(429);
      expect(refused.json().code).toBe('LOGIN_LOCKED');
      expect(refused.json().details.retryAfterSeconds).toBeGreaterThan(50);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(50);

      // The manager, from the office, signs in.
      const office = from(ctx.app, '10.3.0.7');
      expect((await office.login('admin', TEST_PASSWORD, club.externalClubId)).statusCode).toBe(200);
      expect((await office.get('/api/Account/GetCurrent')).json().id).toBe(manager.id);

      // Every failure is an audit row of the club, with the address; the delay's start one more.
      const failed = await ctx.database.db.select().from(auditLog).where(eq(auditLog.action, 'login.failed'));
      expect(failed).toHaveLength(5);
      expect(failed[0]).toMatchObject({ clubId: club.id, userId: manager.id, ip: '10.3.0.66', entity: 'login' });
      const locked = await ctx.database.db.select().from(auditLog).where(eq(auditLog.action, 'login.locked'));
      expect(locked).toHaveLength(1);
      expect(locked[0]).toMatchObject({ clubId: club.id, userId: manager.id, ip: '10.3.0.66' });
    } finally {
      await ctx.close();
    }
  });

  it("doubles an address's delay with each further failure up to 15 minutes; a success from it clears it", async () => {
    const ctx = await createTestApp();
    try {
      const club = await makeClub(ctx);
      const user = await makeUser(ctx, club.id, { isAdmin: true });
      const api = from(ctx.app, '10.4.0.1');
      for (let i = 0; i < 5; i++) await api.login(user.username, 'wrong', club.externalClubId);
      const pair = `${club.externalClubId}|${user.username.toLowerCase()}|10.4.0.1`;
      const pass = () =>
        ctx.database.db
          .update(loginFailures)
          .set({ lockedUntil: new Date(Date.now() - 1000) })
          .where(eq(loginFailures.key, pair));
      await pass();
      expect((await api.login(user.username, 'wrong', club.externalClubId)).statusCode).toBe(401);
      const doubled = await api.login(user.username, TEST_PASSWORD, club.externalClubId);
      expect(doubled.json().details.retryAfterSeconds).toBeGreaterThan(110);
      expect(lockoutSeconds(30)).toBe(LOCKOUT_MAX_SECONDS);
      await pass();
      expect((await api.login(user.username, TEST_PASSWORD, club.externalClubId)).statusCode).toBe(200);
      const left = await ctx.database.db.select().from(loginFailures);
      // The address's count is gone; the account's count (all addresses) stays until 24 hours of quiet.
      expect(left.map((r) => r.key)).toEqual([`${club.externalClubId}|${user.username.toLowerCase()}`]);
    } finally {
      await ctx.close();
    }
  });

  it('under sustained attempts from many addresses, each address is delayed at its first failure, addresses that never failed still sign in, and the operator is told', async () => {
    const ctx = await createTestApp();
    try {
      const club = await makeClub(ctx);
      const user = await makeUser(ctx, club.id, { isAdmin: true });
      const account = `${club.externalClubId}|${user.username.toLowerCase()}`;
      // 49 failures from many addresses already (written directly: 49 scrypt checks would only slow the test).
      await ctx.database.db.insert(loginFailures).values({ key: account, failures: ACCOUNT_CEILING - 1 });
      expect((await from(ctx.app, '10.5.0.1').login(user.username, 'wrong', club.externalClubId)).statusCode).toBe(401);
      const attack = await ctx.database.db.select().from(auditLog).where(eq(auditLog.action, 'login.attack'));
      expect(attack).toHaveLength(1);
      expect(attack[0]).toMatchObject({ clubId: club.id, userId: user.id, entityId: account });
      expect(attack[0].after).toMatchObject({ failures: ACCOUNT_CEILING });
      // The 50th failure's address is delayed at once (its first failure).
      expect(
        (await from(ctx.app, '10.5.0.1').login(user.username, TEST_PASSWORD, club.externalClubId)).statusCode,
      ).toBe(429);
      // A new address gets one guess, then its delay.
      const next = from(ctx.app, '10.5.0.2');
      expect((await next.login(user.username, 'wrong', club.externalClubId)).statusCode).toBe(401);
      expect((await next.login(user.username, TEST_PASSWORD, club.externalClubId)).statusCode).toBe(429);
      // An address that never failed is not refused.
      expect(
        (await from(ctx.app, '10.5.0.3').login(user.username, TEST_PASSWORD, club.externalClubId)).statusCode,
      ).toBe(200);
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
      // And from another address the name is not refused (only its count grows).
      expect((await from(ctx.app, '10.6.0.1').login('nobody-here', 'wrong', club.externalClubId)).statusCode).toBe(401);
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
      // From another address the operator signs in.
      const club = await makeClub(ctx);
      expect(
        (await from(ctx.app, '10.7.0.1').login(operator.username, TEST_PASSWORD, club.externalClubId)).statusCode,
      ).toBe(200);
    } finally {
      await ctx.close();
    }
  });
});
