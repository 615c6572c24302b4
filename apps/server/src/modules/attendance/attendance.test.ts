import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { allPermissions } from '@venue/domain';
import { Api, createTestApp, makeUser, signedInAdmin, TEST_PASSWORD, type TestContext } from '../../../test/harness.js';
import { makeAttendanceLog, makeClient, makeEmployee, makeTerminal } from '../../../test/factories.js';
import { attendanceLogs, auditLog } from '../../db/schema.js';

const ON = { settings: { isEmployeeAttendanceEnabled: true } };
/** 5 January 2026, a Monday; Jerusalem is UTC+2 in winter. */
const at = (hhmm: string, day = '2026-01-05') => `${day}T${hhmm}:00+02:00`;
const iso = (s: string) => new Date(s).toISOString();

describe('attendance records', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => ctx.close());

  async function as(clubId: number, externalClubId: number, flags: Partial<ReturnType<typeof allPermissions>>) {
    const u = await makeUser(ctx, clubId, { permissions: { ...allPermissions(false), ...flags } });
    const api = new Api(ctx.app);
    expect((await api.login(u.username, TEST_PASSWORD, externalClubId)).statusCode).toBe(200);
    return api;
  }

  it('writes a record by hand, lists it, and a correction keeps the original and who changed what', async () => {
    const { api, club, user } = await signedInAdmin(ctx, ON);
    const emp = await makeEmployee(ctx, club.id, { firstName: 'Rivka', lastName: 'Cohen' });
    const gate = await makeTerminal(ctx, club.id, { name: 'Main gate' });
    const res = await api.post('/api/AttendanceLog/CreateAttendanceLog', {
      clientId: emp.id,
      entryAt: at('08:00'),
      entryTerminalId: gate.id,
      exitAt: at('16:30'),
      comment: ' morning ',
    });
    expect(res.statusCode).toBe(200);
    const rec = res.json();
    expect(rec).toMatchObject({
      clientId: emp.id,
      clientName: 'Rivka Cohen',
      clientType: 2,
      entryAt: iso(at('08:00')),
      entryTerminalName: 'Main gate',
      entrySource: 'manual',
      exitAt: iso(at('16:30')),
      exitTerminalId: null,
      exitSource: 'manual',
      exitAutomatic: false,
      minutes: 510,
      comment: 'morning',
      original: null,
      modifications: [],
    });
    const list = (
      await api.post('/api/AttendanceLog/GetAttendanceLogs', { from: '2026-01-05', to: '2026-01-05' })
    ).json();
    expect(list.total).toBe(1);
    expect(list.items[0].id).toBe(rec.id);

    const put = await api.request('PUT', '/api/AttendanceLog/UpdateAttendanceLog', {
      id: rec.id,
      clientId: emp.id,
      entryAt: at('08:00'),
      entryTerminalId: gate.id,
      exitAt: at('15:00'),
      comment: 'left early',
    });
    expect(put.statusCode).toBe(200);
    const changed = put.json();
    expect(changed).toMatchObject({ exitAt: iso(at('15:00')), entrySource: 'manual', minutes: 420 });
    expect(changed.original).toEqual({
      entryAt: iso(at('08:00')),
      entryTerminalId: gate.id,
      exitAt: iso(at('16:30')),
      exitTerminalId: null,
      comment: 'morning',
    });
    expect(changed.modifications).toHaveLength(1);
    expect(changed.modifications[0]).toMatchObject({
      userId: user.id,
      username: user.username,
      before: { exitAt: iso(at('16:30')) },
      after: { exitAt: iso(at('15:00')), comment: 'left early' },
    });
    // A second correction appends; the original stays as first written.
    const again = (
      await api.request('PUT', '/api/AttendanceLog/UpdateAttendanceLog', {
        id: rec.id,
        clientId: emp.id,
        entryAt: at('08:00'),
        exitAt: at('15:30'),
      })
    ).json();
    expect(again.original.exitAt).toBe(iso(at('16:30')));
    expect(again.modifications.map((m: { after: { exitAt: string } }) => m.after.exitAt)).toEqual([
      iso(at('15:00')),
      iso(at('15:30')),
    ]);
    const audits = await ctx.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.clubId, club.id), eq(auditLog.entity, 'attendanceLog')));
    expect(audits.map((a) => a.action)).toEqual(['create', 'update', 'update']);
  });

  it('keeps a terminal time marked as the terminal wrote it until a person changes that time', async () => {
    const { api, club } = await signedInAdmin(ctx, ON);
    const emp = await makeEmployee(ctx, club.id);
    const rec = await makeAttendanceLog(ctx, emp, { entryAt: new Date(at('07:00')), exitAt: new Date(at('12:00')) });
    const put = await api.request('PUT', '/api/AttendanceLog/UpdateAttendanceLog', {
      id: rec.id,
      clientId: emp.id,
      entryAt: at('07:00'),
      exitAt: at('13:00'),
    });
    expect(put.json()).toMatchObject({ entrySource: 'terminal', exitSource: 'manual' });
  });

  it('validates every rule of seed 001 §5 and changes nothing on bad input', async () => {
    const { api, club } = await signedInAdmin(ctx, ON);
    const emp = await makeEmployee(ctx, club.id);
    const regular = await makeClient(ctx, club.id, { clientType: 1 });
    const deleted = await makeEmployee(ctx, club.id, { status: 3 });
    const future = new Date(Date.now() + 10 * 60_000).toISOString();
    const cases: [object, string, string][] = [
      [{ entryAt: at('08:00') }, 'clientId', 'clientRequired'],
      [{ clientId: null, entryAt: at('08:00') }, 'clientId', 'clientRequired'],
      [{ clientId: emp.id }, 'entryAt', 'timeRequired'],
      [{ clientId: emp.id, entryAt: null, exitAt: null }, 'entryAt', 'timeRequired'],
      [{ clientId: emp.id, entryAt: '2026-01-05 08:00' }, 'entryAt', 'invalidDate'],
      [{ clientId: emp.id, entryAt: '2026-02-30T08:00:00Z' }, 'entryAt', 'invalidDate'],
      [{ clientId: emp.id, exitAt: 'yesterday' }, 'exitAt', 'invalidDate'],
      [{ clientId: emp.id, entryAt: future }, 'entryAt', 'futureTime'],
      [{ clientId: emp.id, entryAt: at('08:00'), exitAt: future }, 'exitAt', 'futureTime'],
      [{ clientId: emp.id, entryAt: at('08:00'), exitAt: at('07:59') }, 'exitAt', 'exitBeforeEntry'],
      [{ clientId: emp.id, entryAt: at('08:00'), exitAt: at('08:00') }, 'exitAt', 'exitBeforeEntry'],
      [{ clientId: regular.id, entryAt: at('08:00') }, 'clientId', 'notEmployee'],
      [{ clientId: deleted.id, entryAt: at('08:00') }, 'clientId', 'notEmployee'],
      [{ clientId: emp.id, entryAt: at('08:00'), comment: 'x'.repeat(501) }, 'comment', 'tooLong'],
      [{ clientId: emp.id, entryAt: at('08:00'), entryTerminalId: 0 }, 'entryTerminalId', 'invalidId'],
    ];
    for (const [body, path, message] of cases) {
      const res = await api.post('/api/AttendanceLog/CreateAttendanceLog', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().code).toBe('VALIDATION_ERROR');
      expect(res.json().details, JSON.stringify(body)).toContainEqual(expect.objectContaining({ path, message }));
    }
    const extra = await api.post('/api/AttendanceLog/CreateAttendanceLog', {
      clientId: emp.id,
      entryAt: at('08:00'),
      clubId: 1,
    });
    expect(extra.statusCode).toBe(400);
    // The same rules on a correction.
    const rec = await makeAttendanceLog(ctx, emp, { entryAt: new Date(at('06:00', '2026-01-04')) });
    for (const [body, path, message] of cases) {
      const res = await api.request('PUT', '/api/AttendanceLog/UpdateAttendanceLog', { id: rec.id, ...body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().details).toContainEqual(expect.objectContaining({ path, message }));
    }
    expect((await api.request('PUT', '/api/AttendanceLog/UpdateAttendanceLog', { clientId: emp.id })).statusCode).toBe(
      400,
    );
    const rows = await ctx.database.db.select().from(attendanceLogs).where(eq(attendanceLogs.clubId, club.id));
    expect(rows).toHaveLength(1);
    expect(rows[0].modifications).toEqual([]);
  });

  it('refuses overlapping shifts of one employee (409 ATTENDANCE_OVERLAP), allows touching ones and other employees', async () => {
    const { api, club } = await signedInAdmin(ctx, ON);
    const emp = await makeEmployee(ctx, club.id);
    const other = await makeEmployee(ctx, club.id, { clientType: 3 });
    const create = (body: object) => api.post('/api/AttendanceLog/CreateAttendanceLog', body);
    const first = (await create({ clientId: emp.id, entryAt: at('08:00'), exitAt: at('12:00') })).json();
    for (const body of [
      { clientId: emp.id, entryAt: at('11:00'), exitAt: at('13:00') },
      { clientId: emp.id, entryAt: at('07:00'), exitAt: at('08:30') },
      { clientId: emp.id, entryAt: at('09:00'), exitAt: at('10:00') },
      { clientId: emp.id, entryAt: at('07:00'), exitAt: at('13:00') },
      { clientId: emp.id, entryAt: at('10:00') },
      { clientId: emp.id, exitAt: at('10:00') },
      { clientId: emp.id, entryAt: at('08:00'), exitAt: at('09:00') },
    ]) {
      const res = await create(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(409);
      expect(res.json()).toMatchObject({ code: 'ATTENDANCE_OVERLAP', details: { id: first.id } });
    }
    expect((await create({ clientId: emp.id, entryAt: at('12:00'), exitAt: at('14:00') })).statusCode).toBe(200);
    expect((await create({ clientId: other.id, entryAt: at('09:00'), exitAt: at('10:00') })).statusCode).toBe(200);
    // An open shift runs on: nothing may start after its entry until it is closed.
    const open = (await create({ clientId: emp.id, entryAt: at('18:00') })).json();
    expect((await create({ clientId: emp.id, entryAt: at('20:00'), exitAt: at('21:00') })).statusCode).toBe(409);
    expect((await create({ clientId: emp.id, entryAt: at('16:00'), exitAt: at('17:00') })).statusCode).toBe(200);
    // A correction does not overlap itself, but may not grow into its neighbour.
    const fix = (body: object) => api.request('PUT', '/api/AttendanceLog/UpdateAttendanceLog', body);
    expect((await fix({ id: first.id, clientId: emp.id, entryAt: at('08:15'), exitAt: at('11:45') })).statusCode).toBe(
      200,
    );
    expect((await fix({ id: first.id, clientId: emp.id, entryAt: at('08:15'), exitAt: at('12:30') })).statusCode).toBe(
      409,
    );
    expect((await fix({ id: open.id, clientId: emp.id, entryAt: at('18:00'), exitAt: at('22:00') })).statusCode).toBe(
      200,
    );
    expect((await create({ clientId: emp.id, entryAt: at('22:00'), exitAt: at('23:00') })).statusCode).toBe(200);
  });

  it('filters by days, employee and open shifts ("who is in now"), newest first, paged', async () => {
    const { api, club } = await signedInAdmin(ctx, ON);
    const a = await makeEmployee(ctx, club.id);
    const b = await makeEmployee(ctx, club.id);
    await makeAttendanceLog(ctx, a, {
      entryAt: new Date(at('08:00', '2026-01-04')),
      exitAt: new Date(at('12:00', '2026-01-04')),
    });
    await makeAttendanceLog(ctx, a, { entryAt: new Date(at('08:00')), exitAt: new Date(at('12:00')) });
    // 00:30 local on the 6th is 22:30 UTC on the 5th: it belongs to the 6th in the club's zone.
    await makeAttendanceLog(ctx, b, { entryAt: new Date(at('00:30', '2026-01-06')) });
    await makeAttendanceLog(ctx, b, { exitAt: new Date(at('09:00', '2026-01-05')) });
    const list = async (body: object) => (await api.post('/api/AttendanceLog/GetAttendanceLogs', body)).json();
    expect((await list({ from: '2026-01-05', to: '2026-01-05' })).total).toBe(2);
    expect((await list({ from: '2026-01-06', to: '2026-01-06' })).total).toBe(1);
    const all = await list({ from: '2026-01-01', to: '2026-01-31' });
    expect(all.total).toBe(4);
    expect(all.items[0].entryAt).toBe(iso(at('00:30', '2026-01-06')));
    expect((await list({ from: '2026-01-01', to: '2026-01-31', clientId: a.id })).total).toBe(2);
    const regular = await makeClient(ctx, club.id, { clientType: 1 });
    await makeEmployee(ctx, club.id, { clientType: 3, status: 3 });
    const employees = (await api.get('/api/AttendanceLog/GetEmployees')).json();
    expect(employees.map((e: { id: number }) => e.id).sort()).toEqual([a.id, b.id].sort());
    expect(employees.map((e: { id: number }) => e.id)).not.toContain(regular.id);
    // An employee's position (the payroll rate): the club's positions only, employees only.
    const pos = (await api.post('/api/EmployeePosition', { name: 'Balanit', hourlyRate: 4000 })).json();
    const set = (body: object) => api.request('PUT', '/api/AttendanceLog/SetEmployeePosition', body);
    expect((await set({ clientId: a.id, employeePositionId: pos.id })).json()).toMatchObject({
      id: a.id,
      employeePositionId: pos.id,
    });
    expect((await set({ clientId: regular.id, employeePositionId: pos.id })).json().details).toEqual([
      { path: 'clientId', message: 'notEmployee' },
    ]);
    expect((await set({ clientId: a.id, employeePositionId: 2_000_000_000 })).statusCode).toBe(400);
    expect((await api.get('/api/AttendanceLog/GetEmployees')).json()).toContainEqual(
      expect.objectContaining({ id: a.id, employeePositionId: pos.id }),
    );
    const open = await list({ openOnly: true });
    expect(open.items.map((r: { clientId: number }) => r.clientId)).toEqual([b.id]);
    const page2 = await list({ from: '2026-01-01', to: '2026-01-31', page: 2, pageSize: 3 });
    expect(page2).toMatchObject({
      total: 4,
      items: [expect.objectContaining({ entryAt: iso(at('08:00', '2026-01-04')) })],
    });
    for (const body of [
      { from: '2026-01-05', to: '2026-01-04' },
      { from: '5/1/2026' },
      { page: 0 },
      { pageSize: 501 },
    ]) {
      expect((await api.post('/api/AttendanceLog/GetAttendanceLogs', body)).statusCode, JSON.stringify(body)).toBe(400);
    }
  });

  it("answers 404 for another club's record, client or terminal, and lists only the club's records", async () => {
    const a = await signedInAdmin(ctx, ON);
    const b = await signedInAdmin(ctx, ON);
    const theirs = await makeEmployee(ctx, b.club.id);
    const theirGate = await makeTerminal(ctx, b.club.id);
    const rec = await makeAttendanceLog(ctx, theirs, { entryAt: new Date(at('08:00')) });
    const mine = await makeEmployee(ctx, a.club.id);
    for (const res of [
      await a.api.request('PUT', '/api/AttendanceLog/UpdateAttendanceLog', {
        id: rec.id,
        clientId: mine.id,
        entryAt: at('08:00'),
      }),
      await a.api.post('/api/AttendanceLog/CreateAttendanceLog', { clientId: theirs.id, entryAt: at('08:00') }),
      await a.api.post('/api/AttendanceLog/CreateAttendanceLog', {
        clientId: mine.id,
        entryAt: at('08:00'),
        entryTerminalId: theirGate.id,
      }),
      await a.api.post('/api/AttendanceLog/CreateAttendanceLog', {
        clientId: mine.id,
        exitAt: at('08:00'),
        exitTerminalId: theirGate.id,
      }),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('NOT_FOUND');
    }
    expect((await a.api.post('/api/AttendanceLog/GetAttendanceLogs', { from: '2026-01-05' })).json().total).toBe(0);
    const [row] = await ctx.database.db.select().from(attendanceLogs).where(eq(attendanceLogs.id, rec.id));
    expect(row.modifications).toEqual([]);
    expect(row.clientId).toBe(theirs.id);
  });

  it('answers 401 without a session; 403 without view or manage, or with attendance switched off', async () => {
    const anon = new Api(ctx.app);
    for (const [m, url] of [
      ['POST', '/api/AttendanceLog/GetAttendanceLogs'],
      ['POST', '/api/AttendanceLog/CreateAttendanceLog'],
      ['PUT', '/api/AttendanceLog/UpdateAttendanceLog'],
    ] as const) {
      expect((await anon.request(m, url, {})).statusCode).toBe(401);
    }
    const { club } = await signedInAdmin(ctx, ON);
    const emp = await makeEmployee(ctx, club.id);
    const body = { clientId: emp.id, entryAt: at('08:00') };
    const viewer = await as(club.id, club.externalClubId, { roleViewAttendanceLogs: true });
    expect((await viewer.post('/api/AttendanceLog/GetAttendanceLogs', {})).statusCode).toBe(200);
    const refused = await viewer.post('/api/AttendanceLog/CreateAttendanceLog', body);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('NOT_AUTHORIZED');
    const manager = await as(club.id, club.externalClubId, {
      roleViewAttendanceLogs: true,
      roleManageAttendance: true,
    });
    expect((await manager.post('/api/AttendanceLog/CreateAttendanceLog', body)).statusCode).toBe(200);
    // Manage without view: the screen is hidden (seed 000 §6), so the calls are too.
    const blind = await as(club.id, club.externalClubId, { roleManageAttendance: true });
    expect((await blind.post('/api/AttendanceLog/GetAttendanceLogs', {})).statusCode).toBe(403);
    expect((await blind.post('/api/AttendanceLog/CreateAttendanceLog', body)).statusCode).toBe(403);
    const off = await signedInAdmin(ctx);
    expect((await off.api.post('/api/AttendanceLog/GetAttendanceLogs', {})).statusCode).toBe(403);
  });
});
