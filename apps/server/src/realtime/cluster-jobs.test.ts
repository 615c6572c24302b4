import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import { createTestApp, signedInAdmin, TEST_DB, type TestContext } from '../../test/harness.js';
import * as factory from '../../test/factories.js';
import { openDatabase, type Database } from '../db/index.js';
import { attendanceLogs, incidentDeliveries } from '../db/schema.js';
import { attendanceAutoCloseJob } from '../modules/attendance/attendance.autoclose.js';
import { deliverDue, setWebhook } from '../modules/incidents/webhook.service.js';
import type { Actor } from '../lib/actor.js';
import { dailyMoneyJobs } from '../modules/subscriptions/auto-renew.scheduler.js';

/**
 * Scheduled jobs run once across server instances (DESIGN §12 "scheduled jobs
 * take a database lock", docs/scaling.md): each job is started on two
 * instances — two database handles with their own pools on one PostgreSQL
 * database, as two server processes have — at the same moment, and its work
 * is done once. PGlite is one process's database, so this runs with
 * TEST_DB=postgres only (CI runs the server suite on both).
 */
const onPostgres = TEST_DB === 'postgres';

let ctx: TestContext;
let a: Database;
let b: Database;

beforeAll(async () => {
  if (!onPostgres) return;
  ctx = await createTestApp();
  a = ctx.database;
  b = await openDatabase({ databaseUrl: (ctx.database as { url?: string }).url!, poolSize: 3, gatePoolSize: 2 });
});
afterAll(async () => {
  if (!onPostgres) return;
  await b?.close();
  await ctx?.close();
});

describe.skipIf(!onPostgres)('scheduled jobs on two instances (skipped on PGlite: one process owns it)', () => {
  it('the daily money jobs (automatic renewal, reconciliation) run on one instance per day', async () => {
    for (const day of ['2031-06-01', '2031-06-02', '2031-06-03']) {
      const at = new Date(`${day}T03:00:00Z`);
      const runs = await Promise.all([dailyMoneyJobs(a, at), dailyMoneyJobs(b, at)]);
      expect(runs.filter(Boolean), day).toHaveLength(1);
      // A later tick on either instance finds the day done.
      expect(await dailyMoneyJobs(b, at)).toBe(false);
      expect(await dailyMoneyJobs(a, at)).toBe(false);
    }
  });

  it('the attendance auto-close closes each forgotten shift once, on one instance', async () => {
    const { club } = await signedInAdmin(ctx, {
      settings: { isEmployeeAttendanceEnabled: true, attendanceAutoCloseHour: 4 },
    });
    const shifts = [];
    for (let i = 0; i < 5; i++) {
      const e = await factory.makeEmployee(ctx, club.id);
      shifts.push(await factory.makeAttendanceLog(ctx, e, { entryAt: new Date('2026-03-01T08:00:00+02:00') }));
    }
    const now = new Date('2026-03-03T12:00:00+02:00');
    const runs = await Promise.all([attendanceAutoCloseJob(a, now), attendanceAutoCloseJob(b, now)]);
    // One instance took the lock and closed the five; the other skipped (null) or, arriving after
    // the first committed, found nothing left to close (0).
    expect(runs.filter((r) => r !== null && r > 0)).toEqual([5]);
    const rows = await a.db
      .select()
      .from(attendanceLogs)
      .where(
        and(
          eq(attendanceLogs.clubId, club.id),
          inArray(
            attendanceLogs.id,
            shifts.map((s) => s.id),
          ),
        ),
      );
    expect(rows.map((r) => r.exitSource)).toEqual(Array(5).fill('automatic'));
  });

  it('incident deliveries are each attempted once when both instances send at once', async () => {
    const s = await signedInAdmin(ctx, { settings: { isIncidentReportEnabled: true } });
    const cat = await factory.makeFeedbackCategory(ctx, s.club.id);
    // The operator's webhook (setWebhook needs only the club and the actor's address for its audit row).
    const operator = { clubId: s.club.id, userId: 0, ip: '127.0.0.1' } as Actor;
    await setWebhook(
      a.db,
      operator,
      { url: 'http://127.0.0.1:9/incidents', secret: 'cluster-jobs-secret-1', enabled: true },
      { allow: ['127.0.0.1'] },
    );
    for (let i = 0; i < 12; i++) {
      const res = await s.api.post('/api/Incident', { categoryId: cat.id, note: `n${i}` });
      expect(res.statusCode, res.body).toBe(200);
    }
    const now = new Date(Date.now() + 60_000);
    let sent = 0;
    const send = async () => {
      sent++;
      await new Promise((r) => setTimeout(r, 5));
      return 200;
    };
    const [na, nb] = await Promise.all([deliverDue(a.db, now, send, 50), deliverDue(b.db, now, send, 50)]);
    const rows = await a.db.select().from(incidentDeliveries).where(eq(incidentDeliveries.clubId, s.club.id));
    expect(rows).toHaveLength(12);
    expect(na + nb).toBe(12);
    expect(sent).toBe(12);
    expect(rows.map((r) => r.status)).toEqual(Array(12).fill('delivered'));
    expect(rows.map((r) => r.attempts)).toEqual(Array(12).fill(1));
  });
});
