import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, signedInAdmin, type TestContext } from '../../../test/harness.js';
import { makeAttendanceLog, makeEmployee } from '../../../test/factories.js';
import { attendanceLogs } from '../../db/schema.js';
import { attendanceAutoCloseJob, autoCloseAt, closeForgottenShifts } from './attendance.autoclose.js';

const TZ = 'Asia/Jerusalem';
/** Jerusalem wall time on a day of January 2026 (UTC+2). */
const at = (hhmm: string, day = '2026-01-05') => new Date(`${day}T${hhmm}:00+02:00`);

describe('closing forgotten exits', () => {
  it('closes at the first configured hour after the entry, in the club zone, across DST', () => {
    expect(autoCloseAt(at('08:00'), 4, TZ)).toEqual(at('04:00', '2026-01-06'));
    expect(autoCloseAt(at('02:00'), 4, TZ)).toEqual(at('04:00'));
    expect(autoCloseAt(at('04:00'), 4, TZ)).toEqual(at('04:00', '2026-01-06'));
    expect(autoCloseAt(at('22:00'), 23, TZ)).toEqual(at('23:00'));
    // Summer time (UTC+3) on 1 July 2026.
    expect(autoCloseAt(new Date('2026-07-01T10:00:00+03:00'), 4, TZ)).toEqual(new Date('2026-07-02T04:00:00+03:00'));
  });

  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => ctx.close());

  it('closes only shifts whose moment has passed, flagged automatic, and only in clubs with attendance on', async () => {
    const { api, club } = await signedInAdmin(ctx, {
      settings: { isEmployeeAttendanceEnabled: true, attendanceAutoCloseHour: 4 },
    });
    const a = await makeEmployee(ctx, club.id);
    const b = await makeEmployee(ctx, club.id);
    const forgotten = await makeAttendanceLog(ctx, a, { entryAt: at('08:00') });
    const recent = await makeAttendanceLog(ctx, b, { entryAt: at('04:30', '2026-01-06') });
    const off = await signedInAdmin(ctx, { settings: { attendanceAutoCloseHour: 4 } });
    const c = await makeEmployee(ctx, off.club.id);
    const untouched = await makeAttendanceLog(ctx, c, { entryAt: at('08:00') });
    const never = await signedInAdmin(ctx, {
      settings: { isEmployeeAttendanceEnabled: true, attendanceAutoCloseHour: null },
    });
    const d = await makeEmployee(ctx, never.club.id);
    const kept = await makeAttendanceLog(ctx, d, { entryAt: at('08:00') });

    const now = at('05:00', '2026-01-06');
    expect(await closeForgottenShifts(ctx.database.db, club.id, now)).toBe(1);
    const row = async (id: number) =>
      (await ctx.database.db.select().from(attendanceLogs).where(eq(attendanceLogs.id, id)))[0];
    expect(await row(forgotten.id)).toMatchObject({ exitAt: at('04:00', '2026-01-06'), exitSource: 'automatic' });
    expect((await row(recent.id)).exitAt).toBeNull();
    const listed = (
      await api.post('/api/AttendanceLog/GetAttendanceLogs', { from: '2026-01-05', clientId: a.id })
    ).json();
    expect(listed.items[0]).toMatchObject({ exitAutomatic: true, exitTerminalId: null, minutes: 20 * 60 });

    // The job over every club: the same shift is not closed twice; other clubs are left as they are.
    expect(await attendanceAutoCloseJob(ctx.database, now)).toBe(0);
    expect((await row(untouched.id)).exitAt).toBeNull();
    expect((await row(kept.id)).exitAt).toBeNull();
    // A day later the recent one is due too.
    expect(await attendanceAutoCloseJob(ctx.database, at('05:00', '2026-01-07'))).toBeGreaterThanOrEqual(1);
    expect(await row(recent.id)).toMatchObject({ exitAt: at('04:00', '2026-01-07'), exitSource: 'automatic' });
  });

  it('two runs at once close each shift once (the database lock)', async () => {
    const { club } = await signedInAdmin(ctx, {
      settings: { isEmployeeAttendanceEnabled: true, attendanceAutoCloseHour: 4 },
    });
    const e = await makeEmployee(ctx, club.id);
    const s = await makeAttendanceLog(ctx, e, { entryAt: at('08:00', '2026-02-01') });
    const now = at('12:00', '2026-02-03');
    const runs = await Promise.all([
      attendanceAutoCloseJob(ctx.database, now),
      attendanceAutoCloseJob(ctx.database, now),
    ]);
    const [r] = await ctx.database.db.select().from(attendanceLogs).where(eq(attendanceLogs.id, s.id));
    expect(r.exitAt).toEqual(at('04:00', '2026-02-02'));
    expect(runs.filter((x) => x !== null && x > 0).length).toBeLessThanOrEqual(2);
    expect(runs.some((x) => x !== null && x >= 1)).toBe(true);
  });
});
