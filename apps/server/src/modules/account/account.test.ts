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
import { users } from '../../db/schema.js';
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

describe('account: sign-in rate limit (DESIGN §10)', () => {
  it('refuses the 11th attempt within a minute for one user name and address with 429, others go on', async () => {
    const database = await openTestDatabase();
    const app = await buildApp({ config: { ...loadConfig({}), logLevel: 'silent', loginRateLimit: 10 }, database });
    try {
      const api = new Api(app);
      for (let i = 0; i < 10; i++) expect((await api.login('someone', 'wrong', 1)).statusCode).toBe(401);
      const blocked = await api.login('someone', 'wrong', 1);
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json().code).toBe('TOO_MANY_REQUESTS');
      expect((await api.login('someone-else', 'wrong', 1)).statusCode).toBe(401);
    } finally {
      await app.close();
      await database.dropAll();
    }
  });
});
