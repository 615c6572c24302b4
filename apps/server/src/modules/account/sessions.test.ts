import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { buildApp } from '../../app.js';
import { loadConfig } from '../../config.js';
import {
  Api,
  createTestApp,
  makeClub,
  makeUser,
  openTestDatabase,
  signedInAdmin,
  signedInOperator,
  TEST_PASSWORD,
  type TestContext,
} from '../../../test/harness.js';
import { auditLog, sessions } from '../../db/schema.js';

/** Sessions that end (docs/security.md "Sessions"): sign-out, idle time, password change, disabled user or club. */
describe('sessions: a token ends when its session ends', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => ctx.close());

  /** The user signed in again on a second device (another Api: another token). */
  async function secondDevice(username: string, externalClubId: number, password = TEST_PASSWORD) {
    const api = new Api(ctx.app);
    const res = await api.login(username, password, externalClubId);
    expect(res.statusCode).toBe(200);
    return api;
  }

  it('signing out refuses the bearer token at once; the same user on another device goes on', async () => {
    const { club, user, api } = await signedInAdmin(ctx);
    const other = await secondDevice(user.username, club.externalClubId);
    expect((await api.get('/api/Account/GetCurrent')).statusCode).toBe(200);
    const out = await api.post('/api/Account/Logout');
    expect(out.statusCode).toBe(200);
    const after = await api.get('/api/Account/GetCurrent');
    expect(after.statusCode).toBe(401);
    expect(after.json().code).toBe('UNAUTHORIZED');
    expect((await other.get('/api/Account/GetCurrent')).statusCode).toBe(200);
    const [row] = await ctx.database.db.select().from(sessions).where(eq(sessions.userId, user.id)).limit(1);
    expect(row).toBeDefined();
  });

  it('ends a session idle for longer than the idle timeout (default 30 min); a request renews it', async () => {
    const { user, api } = await signedInAdmin(ctx);
    const setIdle = (minutes: number) =>
      ctx.database.db
        .update(sessions)
        .set({ lastSeenAt: new Date(Date.now() - minutes * 60_000) })
        .where(eq(sessions.userId, user.id));
    await setIdle(29);
    expect((await api.get('/api/Account/GetCurrent')).statusCode).toBe(200);
    const [renewed] = await ctx.database.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(Date.now() - renewed.lastSeenAt.getTime()).toBeLessThan(10_000);
    await setIdle(31);
    expect((await api.get('/api/Account/GetCurrent')).statusCode).toBe(401);
    // Ended for good: activity after the timeout does not bring it back.
    await setIdle(0);
    expect((await api.get('/api/Account/GetCurrent')).statusCode).toBe(401);
    const [ended] = await ctx.database.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(ended.endReason).toBe('idle');
  });

  it('a password change of one’s own needs the current password and ends the other sessions, not this one', async () => {
    const { club, user, api } = await signedInAdmin(ctx);
    const other = await secondDevice(user.username, club.externalClubId);
    const missing = await api.patch(`/api/User/${user.id}`, { password: 'new-pass-4567' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().details).toEqual([{ path: 'currentPassword', message: 'required' }]);
    const wrong = await api.patch(`/api/User/${user.id}`, { password: 'new-pass-4567', currentPassword: 'nope' });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().code).toBe('WRONG_PASSWORD');
    expect((await other.get('/api/Account/GetCurrent')).statusCode).toBe(200);
    const ok = await api.patch(`/api/User/${user.id}`, { password: 'new-pass-4567', currentPassword: TEST_PASSWORD });
    expect(ok.statusCode).toBe(200);
    expect((await api.get('/api/Account/GetCurrent')).statusCode).toBe(200);
    expect((await other.get('/api/Account/GetCurrent')).statusCode).toBe(401);
    await secondDevice(user.username, club.externalClubId, 'new-pass-4567');
    // Changing another user's name needs no password of one's own.
    expect((await api.patch(`/api/User/${user.id}`, { name: 'Renamed' })).statusCode).toBe(200);
  });

  it('guessing the current password is throttled like sign-in: five wrong, then the address waits', async () => {
    const { user, api } = await signedInAdmin(ctx);
    const change = (currentPassword: string) =>
      api.patch(`/api/User/${user.id}`, { password: 'guessed-pass-1', currentPassword });
    for (let i = 0; i < 5; i++) expect((await change(`guess-${i}`)).statusCode).toBe(422);
    const locked = await change(TEST_PASSWORD);
    expect(locked.statusCode).toBe(429);
    expect(locked.json().code).toBe('LOGIN_LOCKED');
    const failed = await ctx.database.db.select().from(auditLog).where(eq(auditLog.userId, user.id));
    expect(failed.filter((r) => r.action === 'login.failed')).toHaveLength(5);
  });

  it("an admin's password change or disabling of a user ends every session of that user at once", async () => {
    const { club, api: admin } = await signedInAdmin(ctx);
    const clerk = await makeUser(ctx, club.id);
    const a = await secondDevice(clerk.username, club.externalClubId);
    expect((await admin.patch(`/api/User/${clerk.id}`, { password: 'changed-by-admin-1' })).statusCode).toBe(200);
    expect((await a.get('/api/Account/GetCurrent')).statusCode).toBe(401);
    const b = await secondDevice(clerk.username, club.externalClubId, 'changed-by-admin-1');
    expect((await admin.patch(`/api/User/${clerk.id}`, { disabled: true })).statusCode).toBe(200);
    expect((await b.get('/api/Account/GetCurrent')).statusCode).toBe(401);
    const rows = await ctx.database.db.select().from(sessions).where(eq(sessions.userId, clerk.id));
    expect(rows.map((r) => r.endReason).sort()).toEqual(['disabled', 'password']);
  });

  it("disabling a club ends its users' sessions; re-enabling does not bring them back", async () => {
    const { club, api } = await signedInAdmin(ctx);
    const { api: operator } = await signedInOperator(ctx);
    expect((await operator.post(`/api/Operator/Club/${club.id}/Disable`)).statusCode).toBe(200);
    expect((await api.get('/api/Account/GetCurrent')).statusCode).toBe(401);
    expect((await operator.post(`/api/Operator/Club/${club.id}/Enable`)).statusCode).toBe(200);
    expect((await api.get('/api/Account/GetCurrent')).statusCode).toBe(401);
  });

  it('refuses a token that names no session', async () => {
    const club = await makeClub(ctx);
    const user = await makeUser(ctx, club.id);
    const api = new Api(ctx.app);
    api.token = await ctx.app.jwt.sign({ sub: user.id, tv: user.tokenVersion });
    expect((await api.get('/api/Account/GetCurrent')).statusCode).toBe(401);
  });
});

describe('sessions: the idle timeout is configurable (SESSION_IDLE_SECONDS)', () => {
  it('reads SESSION_IDLE_SECONDS, answers it at sign-in, and ends a session idle for longer', async () => {
    expect(loadConfig({}).sessionIdleSeconds).toBe(30 * 60);
    const database = await openTestDatabase();
    const app = await buildApp({
      config: { ...loadConfig({ SESSION_IDLE_SECONDS: '120' }), logLevel: 'silent', loginRateLimit: 1000 },
      database,
    });
    try {
      const club = await makeClub({ app, database } as unknown as TestContext);
      const user = await makeUser({ app, database } as unknown as TestContext, club.id);
      const api = new Api(app);
      const res = await api.login(user.username, TEST_PASSWORD, club.externalClubId);
      expect(res.json().idleTimeoutSeconds).toBe(120);
      await database.db
        .update(sessions)
        .set({ lastSeenAt: new Date(Date.now() - 121_000) })
        .where(eq(sessions.userId, user.id));
      expect((await api.get('/api/Account/GetCurrent')).statusCode).toBe(401);
    } finally {
      await app.close();
      await database.dropAll();
    }
  });
});
