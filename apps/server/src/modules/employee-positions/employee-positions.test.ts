import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { allPermissions } from '@venue/domain';
import { Api, createTestApp, makeUser, signedInAdmin, TEST_PASSWORD, type TestContext } from '../../../test/harness.js';
import { makeEmployee, makeEmployeePosition } from '../../../test/factories.js';
import { auditLog, clients } from '../../db/schema.js';

const ON = { settings: { isEmployeeAttendanceEnabled: true } };

describe('employee positions', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => ctx.close());

  it('creates, lists, reads, replaces and deletes positions with an audit row each', async () => {
    const { api, club, user } = await signedInAdmin(ctx, ON);
    const res = await api.post('/api/EmployeePosition', {
      name: ' Balanit ',
      description: 'Attendant',
      hourlyRate: 4500,
    });
    expect(res.statusCode).toBe(200);
    const p = res.json();
    expect(p).toMatchObject({ name: 'Balanit', description: 'Attendant', hourlyRate: 4500, usedBy: 0 });
    await api.post('/api/EmployeePosition', { name: 'Cashier' });
    const list = (await api.get('/api/EmployeePosition')).json();
    expect(list.items.map((x: { name: string }) => x.name)).toEqual(['Balanit', 'Cashier']);
    expect(list.items[1]).toMatchObject({ description: '', hourlyRate: 0 });
    expect((await api.get(`/api/EmployeePosition/${p.id}`)).json().name).toBe('Balanit');
    const put = await api.request('PUT', `/api/EmployeePosition/${p.id}`, { name: 'Attendant' });
    expect(put.json()).toMatchObject({ name: 'Attendant', description: '', hourlyRate: 0 });
    expect((await api.delete(`/api/EmployeePosition/${p.id}`)).json()).toEqual({ ok: true });
    expect((await api.get(`/api/EmployeePosition/${p.id}`)).statusCode).toBe(404);
    const rows = await ctx.database.db
      .select()
      .from(auditLog)
      .where(
        and(eq(auditLog.clubId, club.id), eq(auditLog.entity, 'employeePosition'), eq(auditLog.entityId, String(p.id))),
      );
    expect(rows.map((r) => r.action)).toEqual(['create', 'update', 'delete']);
    expect(rows.every((r) => r.userId === user.id)).toBe(true);
    expect(rows[1].before).toMatchObject({ name: 'Balanit', hourlyRate: 4500 });
    expect(rows[1].after).toMatchObject({ name: 'Attendant', hourlyRate: 0 });
  });

  it('validates the body (seed 001 §5 "name required") and changes nothing on bad input', async () => {
    const { api } = await signedInAdmin(ctx, ON);
    const p = (await api.post('/api/EmployeePosition', { name: 'Keep' })).json();
    for (const body of [
      {},
      { name: '' },
      { name: '   ' },
      { name: 'x'.repeat(101) },
      { name: 'x', description: 'y'.repeat(501) },
      { name: 'x', hourlyRate: -1 },
      { name: 'x', hourlyRate: 10.5 },
      { name: 'x', hourlyRate: '100' },
      { name: 'x', clubId: 1 },
      { name: 'a\u0000b' },
    ]) {
      const created = await api.post('/api/EmployeePosition', body);
      expect(created.statusCode, JSON.stringify(body)).toBe(400);
      expect(created.json().code).toBe('VALIDATION_ERROR');
      const put = await api.request('PUT', `/api/EmployeePosition/${p.id}`, body);
      expect(put.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await api.post('/api/EmployeePosition', { name: '' })).json().details[0]).toMatchObject({
      path: 'name',
      message: 'required',
    });
    expect((await api.get('/api/EmployeePosition')).json().items).toEqual([expect.objectContaining({ name: 'Keep' })]);
  });

  it('refuses to delete a position a user holds (409 POSITION_IN_USE), and the user form checks the position', async () => {
    const { api, club } = await signedInAdmin(ctx, ON);
    const p = (await api.post('/api/EmployeePosition', { name: 'Cashier' })).json();
    const u = await api.post('/api/User', {
      username: `cashier${club.id}`,
      password: 'secret123',
      employeePositionId: p.id,
    });
    expect(u.statusCode).toBe(200);
    expect(u.json().employeePositionId).toBe(p.id);
    expect((await api.get(`/api/EmployeePosition/${p.id}`)).json().usedBy).toBe(1);
    // The list counts the same holders as the single read (it said 0, then delete said "1 users").
    const listed = (await api.get('/api/EmployeePosition')).json().items;
    expect(listed.find((x: { id: number }) => x.id === p.id).usedBy).toBe(1);
    const del = await api.delete(`/api/EmployeePosition/${p.id}`);
    expect(del.statusCode).toBe(409);
    expect(del.json()).toMatchObject({ code: 'POSITION_IN_USE', details: { users: 1 } });
    expect((await api.get(`/api/EmployeePosition/${p.id}`)).statusCode).toBe(200);
    // Another club's position, or one that does not exist, is refused on the user.
    const other = await signedInAdmin(ctx, ON);
    const foreign = await makeEmployeePosition(ctx, other.club.id);
    for (const id of [foreign.id, 2_000_000_000]) {
      const bad = await api.patch(`/api/User/${u.json().id}`, { employeePositionId: id });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().details).toEqual([{ path: 'employeePositionId', message: 'invalidId' }]);
    }
    // Freed by the user but held by an employee (the payroll rate), still refused.
    await api.patch(`/api/User/${u.json().id}`, { employeePositionId: null });
    const emp = await makeEmployee(ctx, club.id, { employeePositionId: p.id });
    const listedEmp = (await api.get('/api/EmployeePosition')).json().items;
    expect(listedEmp.find((x: { id: number }) => x.id === p.id).usedBy).toBe(1);
    expect((await api.delete(`/api/EmployeePosition/${p.id}`)).json()).toMatchObject({
      code: 'POSITION_IN_USE',
      details: { users: 1 },
    });
    await ctx.database.db.update(clients).set({ employeePositionId: null }).where(eq(clients.id, emp.id));
    // Freed, it can go.
    expect((await api.delete(`/api/EmployeePosition/${p.id}`)).statusCode).toBe(200);
  });

  it("answers 404 for another club's position on read, replace and delete, and changes nothing", async () => {
    const a = await signedInAdmin(ctx, ON);
    const b = await signedInAdmin(ctx, ON);
    const theirs = await makeEmployeePosition(ctx, b.club.id, { name: 'B only' });
    for (const res of [
      await a.api.get(`/api/EmployeePosition/${theirs.id}`),
      await a.api.request('PUT', `/api/EmployeePosition/${theirs.id}`, { name: 'taken' }),
      await a.api.delete(`/api/EmployeePosition/${theirs.id}`),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('NOT_FOUND');
    }
    expect((await a.api.get('/api/EmployeePosition')).json().total).toBe(0);
    expect((await b.api.get(`/api/EmployeePosition/${theirs.id}`)).json().name).toBe('B only');
  });

  it('answers 401 without a session and 403 without the flags or with attendance switched off', async () => {
    const anon = new Api(ctx.app);
    expect((await anon.get('/api/EmployeePosition')).statusCode).toBe(401);
    expect((await anon.post('/api/EmployeePosition', { name: 'x' })).statusCode).toBe(401);
    const { club } = await signedInAdmin(ctx, ON);
    const viewer = await makeUser(ctx, club.id, {
      permissions: { ...allPermissions(false), roleViewAttendanceLogs: true },
    });
    const v = new Api(ctx.app);
    await v.login(viewer.username, TEST_PASSWORD, club.externalClubId);
    expect((await v.get('/api/EmployeePosition')).statusCode).toBe(200);
    const refused = await v.post('/api/EmployeePosition', { name: 'x' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('NOT_AUTHORIZED');
    const none = await makeUser(ctx, club.id, { permissions: allPermissions(false) });
    const n = new Api(ctx.app);
    await n.login(none.username, TEST_PASSWORD, club.externalClubId);
    expect((await n.get('/api/EmployeePosition')).statusCode).toBe(403);
    // Attendance off (seed 000 §6): the admin may read (the user form) but not change positions.
    const off = await signedInAdmin(ctx);
    expect((await off.api.get('/api/EmployeePosition')).statusCode).toBe(200);
    expect((await off.api.post('/api/EmployeePosition', { name: 'x' })).statusCode).toBe(403);
  });
});
