import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { Api, createTestApp, makeUser, signedInAdmin, TEST_PASSWORD, type TestContext } from '../../../test/harness.js';
import { readXlsx } from '../../../test/upload.js';
import { auditLog, users } from '../../db/schema.js';

const PNG = `data:image/png;base64,${Buffer.from('signature').toString('base64')}`;

describe('users, permissions, grid states and terms', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => ctx.close());

  it('creates a user with hashed password and permissions, never returns the password, and the user signs in', async () => {
    const { api, club } = await signedInAdmin(ctx);
    const res = await api.post('/api/User', {
      username: 'cashier1',
      password: 'abcd1234',
      name: 'קופאית',
      language: 'en',
      role: 3,
      permissions: { roleViewDashboard: true, roleViewClientsList: true },
    });
    expect(res.statusCode).toBe(200);
    const u = res.json();
    expect(u).toMatchObject({ username: 'cashier1', name: 'קופאית', language: 'en', role: 3, isAdmin: false });
    expect(u.permissions).toMatchObject({ roleViewDashboard: true, roleViewClientsList: true, roleEditClients: false });
    expect(JSON.stringify(u)).not.toMatch(/password|scrypt/i);
    const [row] = await ctx.database.db.select().from(users).where(eq(users.id, u.id));
    expect(row.passwordHash).toMatch(/^scrypt\$/);
    const me = new Api(ctx.app);
    expect((await me.login('CASHIER1', 'abcd1234', club.externalClubId)).statusCode).toBe(200);
    const current = (await me.get('/api/Account/GetCurrent')).json();
    expect(current).toMatchObject({ roleViewClientsList: true, roleEditClients: false, roleIsAdmin: false });
    // Without the clients permission the API refuses the clients list.
    await api.patch(`/api/User/${u.id}`, { permissions: { roleViewClientsList: false } });
    expect((await me.get('/api/Client')).statusCode).toBe(403);
    expect((await api.get('/api/User')).json().items.map((x: { username: string }) => x.username)).toContain(
      'cashier1',
    );
    expect((await api.get(`/api/User/${u.id}`)).json().permissions.roleViewDashboard).toBe(true);
  });

  it('refuses a taken user name (409 USER_NAME_EXISTS, any case) and weak passwords', async () => {
    const { api, user } = await signedInAdmin(ctx);
    const taken = await api.post('/api/User', { username: user.username.toUpperCase(), password: 'abcd1234' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ code: 'USER_NAME_EXISTS', message: 'User name already exists' });
    for (const [password, message] of [
      ['abc123', 'passwordTooShort'],
      ['abcdefgh', 'passwordWeak'],
      ['12345678', 'passwordWeak'],
    ]) {
      const res = await api.post('/api/User', { username: 'newbie', password });
      expect(res.statusCode).toBe(400);
      expect(res.json().details[0].message).toBe(message);
    }
    const other = (await api.post('/api/User', { username: 'second', password: 'abcd1234' })).json();
    expect((await api.patch(`/api/User/${other.id}`, { username: user.username })).json().code).toBe(
      'USER_NAME_EXISTS',
    );
  });

  it('keeps admins from removing their own admin flag; a new password or disabling revokes tokens', async () => {
    const { api, user, club } = await signedInAdmin(ctx);
    const self = await api.patch(`/api/User/${user.id}`, { isAdmin: false });
    expect(self.statusCode).toBe(422);
    expect(self.json().code).toBe('CANNOT_CHANGE_OWN_ADMIN');
    expect((await api.patch(`/api/User/${user.id}`, { disabled: true })).json().code).toBe('CANNOT_CHANGE_OWN_ADMIN');
    const target = await makeUser(ctx, club.id, { permissions: { roleViewDashboard: true } });
    const t = new Api(ctx.app);
    await t.login(target.username, TEST_PASSWORD, club.externalClubId);
    expect((await t.get('/api/Account/GetCurrent')).statusCode).toBe(200);
    await api.patch(`/api/User/${target.id}`, { name: 'Renamed' });
    expect((await t.get('/api/Account/GetCurrent')).statusCode).toBe(200);
    await api.patch(`/api/User/${target.id}`, { password: 'newpass99' });
    expect((await t.get('/api/Account/GetCurrent')).statusCode).toBe(401);
    expect((await t.login(target.username, 'newpass99', club.externalClubId)).statusCode).toBe(200);
    await api.patch(`/api/User/${target.id}`, { disabled: true });
    expect((await t.get('/api/Account/GetCurrent')).statusCode).toBe(401);
    const audits = await ctx.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'user'), eq(auditLog.entityId, String(target.id))));
    expect(audits.some((a) => (a.after as { passwordChanged?: boolean }).passwordChanged === true)).toBe(true);
    expect(JSON.stringify(audits)).not.toContain('newpass99');
  });

  it('answers user names and users only to admins (a plain user gets 403); exports users', async () => {
    const { api, club } = await signedInAdmin(ctx);
    const u = await makeUser(ctx, club.id, {});
    const plain = new Api(ctx.app);
    await plain.login(u.username, TEST_PASSWORD, club.externalClubId);
    expect((await plain.get('/api/User/GetUserNames')).statusCode).toBe(403);
    const names = (await api.get('/api/User/GetUserNames')).json();
    expect(names).toHaveLength(2);
    expect(Object.keys(names[0]).sort()).toEqual(['id', 'name', 'username']);
    expect((await plain.get('/api/User')).statusCode).toBe(403);
    const rows = await readXlsx((await api.get('/api/User/Export?lang=en')).rawPayload);
    expect(rows[0][0]).toBe('User name');
    expect(rows).toHaveLength(3);
  });

  it("stores the caller's own data-grid states (size-limited) and GetCurrent returns them", async () => {
    const { api, user } = await signedInAdmin(ctx);
    const states = {
      clients: { columns: ['number', 'name'], widths: { name: 200 }, sort: { key: 'name', order: 'asc' } },
    };
    expect((await api.patch(`/api/User/UpdateDataGridStates/${user.id}`, { dataGridStates: states })).json()).toEqual({
      ok: true,
    });
    expect((await api.get('/api/Account/GetCurrent')).json().dataGridStates).toEqual(states);
    const other = await signedInAdmin(ctx);
    expect(
      (await api.patch(`/api/User/UpdateDataGridStates/${other.user.id}`, { dataGridStates: {} })).statusCode,
    ).toBe(404);
    const huge = { g: 'x'.repeat(70_000) };
    expect((await api.patch(`/api/User/UpdateDataGridStates/${user.id}`, { dataGridStates: huge })).statusCode).toBe(
      400,
    );
  });

  it('records the accepted terms version with the signature; refuses other versions and non-PNG signatures', async () => {
    const { club } = await signedInAdmin(ctx);
    const fresh = await makeUser(ctx, club.id, {});
    await ctx.database.db.update(users).set({ termsVersion: 0 }).where(eq(users.id, fresh.id));
    const f = new Api(ctx.app);
    await f.login(fresh.username, TEST_PASSWORD, club.externalClubId);
    expect((await f.get('/api/Account/GetCurrent')).json().termsVersion).toBe(0);
    expect((await f.post('/api/User/UpdateUserTermsVersion', { version: 2, signature: PNG })).statusCode).toBe(400);
    expect(
      (await f.post('/api/User/UpdateUserTermsVersion', { version: 1, signature: 'data:image/svg+xml;base64,AAAA' }))
        .statusCode,
    ).toBe(400);
    const res = await f.post('/api/User/UpdateUserTermsVersion', { version: 1, signature: PNG });
    expect(res.statusCode).toBe(200);
    expect(res.json().termsVersion).toBe(1);
    expect((await f.get('/api/Account/GetCurrent')).json().termsVersion).toBe(1);
    const [row] = await ctx.database.db.select().from(users).where(eq(users.id, fresh.id));
    expect(row.termsSignature).toBe(PNG);
    expect(row.termsAcceptedAt).toBeInstanceOf(Date);
  });
});
