import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import * as factory from '../../test/factories.js';
import { createTestApp, signedInAdmin, type TestContext } from '../../test/harness.js';
import { attendanceLogs, clubs } from '../db/schema.js';
import { TerminalClient } from '../../../terminal/src/client.js';
import { clock, enroll } from '../../../terminal/src/gate.js';

/**
 * Employees clocking at a terminal (docs/terminal-protocol.md "Attendance",
 * docs/attendance.md) through the real server and the simulator: the toggle,
 * idempotency, the club's settings, and the record in the console's list.
 */

let ctx: TestContext;
let base: string;
const SECRET = 'attendance-secret';
const open: TerminalClient[] = [];
let seq = 1;
const ON = { isEmployeeAttendanceEnabled: true };

async function terminalOf(clubId: number, over: Parameters<typeof factory.makeTerminal>[2] = {}) {
  const serial = `AT-${clubId}-${seq++}`;
  await factory.makeTerminal(ctx, clubId, { serial, secret: SECRET, ...over });
  const tc = new TerminalClient({ url: base, serial, secret: SECRET, timeoutMs: 5000, heartbeat: false });
  open.push(tc);
  await tc.connect();
  return tc;
}

const card = (value: string) => ({ kind: 'card' as const, value });
const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);

beforeAll(async () => {
  ctx = await createTestApp();
  base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  for (const tc of open) await tc.close().catch(() => undefined);
  await ctx?.close();
});

describe('attendance at the terminal', () => {
  it('clocks an employee in, then out; the record shows in the console with both terminals', async () => {
    const { api, club } = await signedInAdmin(ctx, { settings: ON });
    const emp = await factory.makeEmployee(ctx, club.id, {
      firstName: 'Miriam',
      lastName: 'Levi',
      cardSerial: `E-${club.id}`,
    });
    const door = await terminalOf(club.id);
    const back = await terminalOf(club.id);
    const inAt = minutesAgo(300);
    const r1 = await clock(door, card(emp.cardSerial), { eventId: 'in-1', at: inAt });
    expect(r1).toEqual({
      type: 'attendance-result',
      eventId: 'in-1',
      ok: true,
      action: 'in',
      at: inAt.toISOString(),
      clientName: 'Miriam Levi',
    });
    const present = (await api.post('/api/AttendanceLog/GetAttendanceLogs', { openOnly: true })).json();
    expect(present.items.map((r: { clientId: number }) => r.clientId)).toEqual([emp.id]);
    const outAt = minutesAgo(30);
    const r2 = await clock(back, card(emp.cardSerial), { eventId: 'out-1', at: outAt });
    expect(r2).toMatchObject({ ok: true, action: 'out', at: outAt.toISOString(), minutes: 270 });
    // A resend of either event answers the same and writes nothing.
    expect(await clock(door, card(emp.cardSerial), { eventId: 'in-1', at: inAt })).toEqual(r1);
    expect(await clock(back, card(emp.cardSerial), { eventId: 'out-1', at: outAt })).toEqual(r2);
    const rows = await ctx.database.db.select().from(attendanceLogs).where(eq(attendanceLogs.clientId, emp.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ entrySource: 'terminal', exitSource: 'terminal' });
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const list = (
      await api.post('/api/AttendanceLog/GetAttendanceLogs', { clientId: emp.id, from: day(-2), to: day(1) })
    ).json();
    expect(list.items[0]).toMatchObject({
      clientName: 'Miriam Levi',
      entryTerminalName: door.welcome?.name,
      exitTerminalName: back.welcome?.name,
      minutes: 270,
      exitAutomatic: false,
    });
    // The next presentation opens a new shift.
    expect((await clock(door, card(emp.cardSerial))).action).toBe('in');
  });

  it('refuses when attendance is off, for a client who is not an employee, and an unapproved terminal', async () => {
    const off = await signedInAdmin(ctx);
    const e1 = await factory.makeEmployee(ctx, off.club.id, { cardSerial: `OFF-${off.club.id}` });
    expect(await clock(await terminalOf(off.club.id), card(e1.cardSerial))).toMatchObject({
      ok: false,
      code: 'ATTENDANCE_DISABLED',
    });
    const { club } = await signedInAdmin(ctx, { settings: ON });
    const regular = await factory.makeClient(ctx, club.id, { cardSerial: `REG-${club.id}` });
    const tc = await terminalOf(club.id);
    expect((await clock(tc, card(regular.cardSerial))).code).toBe('NOT_EMPLOYEE');
    expect((await clock(tc, card('nobody-has-this'))).code).toBe('NOT_EMPLOYEE');
    // Another club's employee is nobody here.
    expect((await clock(tc, card(e1.cardSerial))).code).toBe('NOT_EMPLOYEE');
    const pending = await terminalOf(club.id, { approved: false });
    const e2 = await factory.makeEmployee(ctx, club.id, { cardSerial: `PEN-${club.id}` });
    expect((await clock(pending, card(e2.cardSerial))).code).toBe('TERMINAL_NOT_APPROVED');
    expect(await ctx.database.db.select().from(attendanceLogs).where(eq(attendanceLogs.clubId, club.id))).toEqual([]);
  });

  it('counts a fingerprint only with isEmployeeBiometricAuthEnabled; employees enrol only with isEmployeeEnrollmentEnabled', async () => {
    const settings = { ...ON, isEmployeeEnrollmentEnabled: false, isEmployeeBiometricAuthEnabled: false };
    const { club } = await signedInAdmin(ctx, { settings });
    const tc = await terminalOf(club.id, { settings: { allowEnrollment: true } });
    const emp = await factory.makeEmployee(ctx, club.id, { clientType: 3, enrollPassword: `pw-${seq++}` });
    const enrolment = {
      clientNumber: emp.number,
      password: emp.enrollPassword,
      kind: 'fingerprint' as const,
      template: `F-${emp.id}`,
    };
    expect(await enroll(tc, enrolment)).toMatchObject({ ok: false, code: 'ENROLLMENT_NOT_ALLOWED' });
    const setClub = (over: object) =>
      ctx.database.db
        .update(clubs)
        .set({ settings: { ...settings, ...over } })
        .where(eq(clubs.id, club.id));
    await setClub({ isEmployeeEnrollmentEnabled: true });
    expect(await enroll(tc, enrolment)).toMatchObject({ ok: true });
    const finger = { kind: 'fingerprint' as const, value: `F-${emp.id}` };
    expect((await clock(tc, finger)).code).toBe('BIOMETRIC_NOT_ALLOWED');
    await setClub({ isEmployeeEnrollmentEnabled: true, isEmployeeBiometricAuthEnabled: true });
    expect(await clock(tc, finger)).toMatchObject({ ok: true, action: 'in' });
  });

  it('refuses an offline event that falls inside a closed shift (OVERLAP), without writing', async () => {
    const { club } = await signedInAdmin(ctx, { settings: ON });
    const emp = await factory.makeEmployee(ctx, club.id, { cardSerial: `OV-${club.id}` });
    await factory.makeAttendanceLog(ctx, emp, { entryAt: minutesAgo(600), exitAt: minutesAgo(300) });
    const tc = await terminalOf(club.id);
    expect(await clock(tc, card(emp.cardSerial), { at: minutesAgo(400) })).toMatchObject({
      ok: false,
      code: 'OVERLAP',
    });
    expect(await ctx.database.db.select().from(attendanceLogs).where(eq(attendanceLogs.clientId, emp.id))).toHaveLength(
      1,
    );
  });
});
