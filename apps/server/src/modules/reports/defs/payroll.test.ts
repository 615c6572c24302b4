import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allPermissions } from '@venue/domain';
import {
  Api,
  createTestApp,
  makeUser,
  signedInAdmin,
  TEST_PASSWORD,
  type TestContext,
} from '../../../../test/harness.js';
import { readXlsx } from '../../../../test/upload.js';
import * as factory from '../../../../test/factories.js';

/**
 * Attendance, stamps and payroll reports (docs/attendance.md "Payroll") on a
 * fixed week, every expected figure worked out by hand below (Jerusalem is
 * UTC+2 in January; the club keeps the default 5-day week: 516 regular
 * minutes a day, 2,520 a week, the first 120 overtime minutes of a day at
 * 125%, the rest at 150%; 420 regular minutes on a day with 2+ night hours).
 *
 * Week Sunday 4 – Saturday 10 January 2026.
 * A (₪50.00/h): Sun–Wed 07:00–17:00 (600 min: 516 regular + 84 at 125% each),
 *   Thu 07:00–19:00 (720 min: 516 by the day, but the week reaches 2,064 + 516
 *   = 2,580 > 2,520, so 60 of them are weekly overtime: regular 456, overtime
 *   204 + 60 = 264 → 120 at 125%, 144 at 150%).
 *   Week: 3,120 min = 2,520 regular + 456 at 125% + 144 at 150%;
 *   pay = 5,000 × (2,520 + 1.25 × 456 + 1.5 × 144) / 60 = 5,000 × 55.1 = 275,500 agorot.
 * B (₪40.00/h): Tue 22:00 → Wed 06:00 (night shift over midnight, belongs to
 *   Tuesday: 480 min, all night → 420 regular + 60 at 125%), Fri 20:00 → Sat
 *   04:00 (Friday-to-Saturday: 480 min, 360 of them night → 420 + 60 at 125%;
 *   all 480 inside Shabbat, Fri 18:00 – Sat 19:00).
 *   Week: 960 = 840 regular + 120 at 125%; night 840, Shabbat 480;
 *   pay = 4,000 × (840 + 1.25 × 120) / 60 = 4,000 × 16.5 = 66,000 agorot.
 * C (no position): Mon 08:00–12:00 and 13:00–17:00: one day, two shifts,
 *   480 min, a 60-minute break; all regular, pay 0.
 */
const at = (day: number, hhmm: string) => new Date(`2026-01-${String(day).padStart(2, '0')}T${hhmm}:00+02:00`);
const WEEK = { period: 'range', from: '2026-01-04', to: '2026-01-10', pageSize: 100 };

describe('attendance, stamps and payroll reports', () => {
  let ctx: TestContext;
  let admin: Awaited<ReturnType<typeof signedInAdmin>>;
  const ids: Record<string, number> = {};
  beforeAll(async () => {
    ctx = await createTestApp();
    admin = await signedInAdmin(ctx, { settings: { isEmployeeAttendanceEnabled: true } });
    const clubId = admin.club.id;
    const balanit = await factory.makeEmployeePosition(ctx, clubId, { name: 'Balanit', hourlyRate: 5000 });
    const night = await factory.makeEmployeePosition(ctx, clubId, { name: 'Night guard', hourlyRate: 4000 });
    const a = await factory.makeEmployee(ctx, clubId, {
      firstName: 'A',
      lastName: 'Amar',
      employeePositionId: balanit.id,
    });
    const b = await factory.makeEmployee(ctx, clubId, {
      firstName: 'B',
      lastName: 'Ben',
      clientType: 3,
      employeePositionId: night.id,
    });
    const c = await factory.makeEmployee(ctx, clubId, { firstName: 'C', lastName: 'Cohen' });
    Object.assign(ids, { a: a.id, b: b.id, c: c.id });
    for (const d of [4, 5, 6, 7])
      await factory.makeAttendanceLog(ctx, a, { entryAt: at(d, '07:00'), exitAt: at(d, '17:00') });
    await factory.makeAttendanceLog(ctx, a, { entryAt: at(8, '07:00'), exitAt: at(8, '19:00') });
    await factory.makeAttendanceLog(ctx, b, { entryAt: at(6, '22:00'), exitAt: at(7, '06:00') });
    await factory.makeAttendanceLog(ctx, b, {
      entryAt: at(9, '20:00'),
      exitAt: at(10, '04:00'),
      exitSource: 'automatic',
    });
    await factory.makeAttendanceLog(ctx, c, { entryAt: at(5, '08:00'), exitAt: at(5, '12:00') });
    await factory.makeAttendanceLog(ctx, c, { entryAt: at(5, '13:00'), exitAt: at(5, '17:00') });
    // Not counted: an open shift, an exit-only record, the week after, another club's employee.
    await factory.makeAttendanceLog(ctx, c, { entryAt: at(9, '08:00') });
    await factory.makeAttendanceLog(ctx, c, { exitAt: at(8, '12:00') });
    await factory.makeAttendanceLog(ctx, a, { entryAt: at(11, '07:00'), exitAt: at(11, '17:00') });
    const other = await signedInAdmin(ctx, { settings: { isEmployeeAttendanceEnabled: true } });
    const x = await factory.makeEmployee(ctx, other.club.id);
    await factory.makeAttendanceLog(ctx, x, { entryAt: at(5, '07:00'), exitAt: at(5, '17:00') });
  });
  afterAll(async () => ctx.close());

  const byClient = (rows: { clientId: number }[]) => Object.fromEntries(rows.map((r) => [r.clientId, r]));

  it('pays regular hours and overtime at 125% and 150% per Israeli law, night and Shabbat flagged', async () => {
    const res = await admin.api.post('/api/Report/GetPayrollReport', WEEK);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const rows = byClient(body.items);
    expect(rows[ids.a]).toMatchObject({
      clientName: 'A Amar',
      positionName: 'Balanit',
      days: 5,
      minutes: 3120,
      regularMinutes: 2520,
      overtime125Minutes: 456,
      overtime150Minutes: 144,
      nightMinutes: 0,
      shabbatMinutes: 0,
      hourlyRate: 5000,
      pay: 275_500,
    });
    expect(rows[ids.b]).toMatchObject({
      days: 2,
      minutes: 960,
      regularMinutes: 840,
      overtime125Minutes: 120,
      overtime150Minutes: 0,
      nightMinutes: 840,
      shabbatMinutes: 480,
      hourlyRate: 4000,
      pay: 66_000,
    });
    expect(rows[ids.c]).toMatchObject({ days: 1, minutes: 480, regularMinutes: 480, overtime125Minutes: 0, pay: 0 });
    expect(body.items).toHaveLength(3);
    expect(body.totals).toMatchObject({
      minutes: 3120 + 960 + 480,
      regularMinutes: 2520 + 840 + 480,
      overtime125Minutes: 456 + 120,
      overtime150Minutes: 144,
      pay: 275_500 + 66_000,
    });
  });

  it('counts the days of the week before the period toward the weekly limit only', async () => {
    // Thursday to Saturday: A's Thursday still carries the 60 weekly-overtime minutes.
    const body = (
      await admin.api.post('/api/Report/GetPayrollReport', { ...WEEK, from: '2026-01-08', clientId: ids.a })
    ).json();
    expect(body.items).toEqual([
      expect.objectContaining({
        days: 1,
        minutes: 720,
        regularMinutes: 456,
        overtime125Minutes: 120,
        overtime150Minutes: 144,
      }),
    ]);
    // Pay: 5,000 × (456 + 1.25 × 120 + 1.5 × 144) / 60 = 5,000 × 13.7 = 68,500.
    expect(body.items[0].pay).toBe(68_500);
  });

  it('a 6-day week has a regular day of 8 hours', async () => {
    const six = await signedInAdmin(ctx, { settings: { isEmployeeAttendanceEnabled: true, payrollWorkWeekDays: 6 } });
    const e = await factory.makeEmployee(ctx, six.club.id);
    await factory.makeAttendanceLog(ctx, e, { entryAt: at(4, '07:00'), exitAt: at(4, '18:00') });
    const [row] = (await six.api.post('/api/Report/GetPayrollReport', WEEK)).json().items;
    // 660 min: 480 regular, 180 overtime = 120 at 125% + 60 at 150%.
    expect(row).toMatchObject({ regularMinutes: 480, overtime125Minutes: 120, overtime150Minutes: 60 });
  });

  it('stamps: per employee per day, first in, last out, shifts, minutes and breaks', async () => {
    const body = (await admin.api.post('/api/Report/GetStampsReport', { ...WEEK, sort: 'day', order: 'asc' })).json();
    expect(body.total).toBe(5 + 2 + 1);
    const c = body.items.find((r: { clientId: number }) => r.clientId === ids.c);
    expect(c).toMatchObject({
      day: '2026-01-05',
      firstIn: at(5, '08:00').toISOString(),
      lastOut: at(5, '17:00').toISOString(),
      shifts: 2,
      minutes: 480,
      breakMinutes: 60,
    });
    const nightShift = body.items.find(
      (r: { clientId: number; day: string }) => r.clientId === ids.b && r.day === '2026-01-06',
    );
    expect(nightShift).toMatchObject({ lastOut: at(7, '06:00').toISOString(), minutes: 480, breakMinutes: 0 });
    expect(body.totals).toMatchObject({ count: 8, minutes: 3120 + 960 + 480, breakMinutes: 60 });
  });

  it('attendance: every record of the period, open and exit-only ones too, exported as .xlsx', async () => {
    const body = (await admin.api.post('/api/Report/GetAttendanceReport', WEEK)).json();
    expect(body.total).toBe(5 + 2 + 2 + 2);
    expect(body.totals).toMatchObject({ count: 11, open: 1, automatic: 1, minutes: 3120 + 960 + 480 });
    const file = await admin.api.post('/api/Report/GetPayrollReport/Export', { ...WEEK, lang: 'en' });
    expect(file.statusCode).toBe(200);
    const sheet = await readXlsx(file.rawPayload);
    expect(sheet[0]).toContain('Overtime 125%');
    const amar = sheet.find((r) => r.includes('A Amar'))!;
    // Pay in shekels; minutes as a duration cell ([h]:mm): 52 hours read back as 1900-01-01 04:00.
    expect(amar).toContain(2755);
    expect(amar[4]).toEqual(new Date('1900-01-01T04:00:00Z'));
  });

  it('answers 403 without the attendance view permission or with attendance off', async () => {
    const u = await makeUser(ctx, admin.club.id, {
      permissions: { ...allPermissions(true), roleViewAttendanceLogs: false },
    });
    const api = new Api(ctx.app);
    await api.login(u.username, TEST_PASSWORD, admin.club.externalClubId);
    for (const call of ['GetAttendanceReport', 'GetStampsReport', 'GetPayrollReport']) {
      expect((await api.post(`/api/Report/${call}`, WEEK)).statusCode).toBe(403);
    }
    const off = await signedInAdmin(ctx);
    expect((await off.api.post('/api/Report/GetPayrollReport', WEEK)).statusCode).toBe(403);
  });
});
