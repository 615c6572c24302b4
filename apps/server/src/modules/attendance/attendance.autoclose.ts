import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { addDays, localParts, localToInstant } from '@venue/domain';
import type { Database, Db, Tx } from '../../db/index.js';
import { queryRow } from '../../db/query.js';
import { trackJob } from '../../lib/metrics.js';
import { attendanceLogs, clubs } from '../../db/schema.js';
import { clubLocation, clubSettings } from '../club/club.service.js';

/** Advisory-lock key of the attendance auto-close job ("ATTN"). */
const LOCK_KEY = 0x4154544e;
/** How often the job looks for forgotten exits. */
const EVERY_MS = 15 * 60_000;

const pgliteLocks = new WeakMap<Database, Promise<unknown>>();

/**
 * The moment a shift that began at `entry` is closed automatically: the first
 * time after the entry that the club's wall clock shows `hour`:00 (docs/attendance.md
 * "Forgotten exits"). DST-safe through localToInstant.
 */
export function autoCloseAt(entry: Date, hour: number, timeZone: string): Date {
  const p = localParts(entry, timeZone);
  const day = { year: p.year, month: p.month, day: p.day };
  const same = localToInstant(day, hour * 3600, timeZone);
  return same > entry ? same : localToInstant(addDays(day, 1), hour * 3600, timeZone);
}

/**
 * Closes the club's open shifts whose auto-close moment ({@link autoCloseAt},
 * the club's `attendanceAutoCloseHour`) has passed by `now`: the exit is that
 * moment, flagged `automatic`, no exit terminal. Nothing while the club's
 * attendance is off or the hour is null. Returns how many shifts it closed.
 */
export async function closeForgottenShifts(db: Db | Tx, clubId: number, now: Date = new Date()): Promise<number> {
  const [club] = await db
    .select({ settings: clubs.settings, location: clubs.location })
    .from(clubs)
    .where(eq(clubs.id, clubId));
  if (!club) return 0;
  const settings = clubSettings(club);
  const hour = settings.attendanceAutoCloseHour;
  if (!settings.isEmployeeAttendanceEnabled || hour == null) return 0;
  const timeZone = clubLocation(club).timeZone ?? 'Asia/Jerusalem';
  const open = await db
    .select({ id: attendanceLogs.id, entryAt: attendanceLogs.entryAt })
    .from(attendanceLogs)
    .where(and(eq(attendanceLogs.clubId, clubId), isNotNull(attendanceLogs.entryAt), isNull(attendanceLogs.exitAt)));
  let closed = 0;
  for (const s of open) {
    const at = autoCloseAt(s.entryAt!, hour, timeZone);
    if (at > now) continue;
    // Only while still open: a clocking racing the job keeps its own exit.
    const done = await db
      .update(attendanceLogs)
      .set({ exitAt: at, exitSource: 'automatic' })
      .where(and(eq(attendanceLogs.id, s.id), isNull(attendanceLogs.exitAt)))
      .returning({ id: attendanceLogs.id });
    closed += done.length;
  }
  return closed;
}

/**
 * The auto-close job over every club with attendance on (DESIGN §12
 * "scheduled jobs take a database lock"): on PostgreSQL one instance at a
 * time holds `pg_try_advisory_xact_lock` (another skips, answering null);
 * PGlite is one process, a promise chain is the lock. Returns the number of
 * shifts closed, or null when another instance ran it.
 */
export async function attendanceAutoCloseJob(database: Database, now: Date = new Date()): Promise<number | null> {
  const work = async (db: Db | Tx) => {
    const list = await db
      .select({ id: clubs.id })
      .from(clubs)
      .where(sql`coalesce((${clubs.settings}->>'isEmployeeAttendanceEnabled')::boolean, false)`);
    let n = 0;
    for (const c of list) n += await closeForgottenShifts(db, c.id, now);
    return n;
  };
  if (database.kind === 'pglite') {
    const prev = pgliteLocks.get(database) ?? Promise.resolve();
    const run = prev.then(() => work(database.db));
    pgliteLocks.set(
      database,
      run.catch(() => null),
    );
    return run;
  }
  return database.db.transaction(async (tx) => {
    const got = await queryRow<{ ok: boolean }>(tx, sql`select pg_try_advisory_xact_lock(${LOCK_KEY}) as ok`);
    if (!got?.ok) return null;
    return work(tx);
  });
}

/** Starts the job every 15 minutes (off under Vitest and when ATTENDANCE_JOBS=0; tests run it explicitly). */
export function startAttendanceScheduler(app: FastifyInstance): void {
  if (process.env.VITEST || process.env.ATTENDANCE_JOBS === '0') return;
  const log = app.log.child({ job: 'attendance-autoclose' });
  const tick = () => {
    trackJob('attendance-autoclose', () => attendanceAutoCloseJob(app.deps.database)).catch((err) =>
      log.error({ err }, 'attendance auto-close failed'),
    );
  };
  const first = setTimeout(tick, 60_000);
  const every = setInterval(tick, EVERY_MS);
  first.unref();
  every.unref();
  app.addHook('onClose', async () => {
    clearTimeout(first);
    clearInterval(every);
  });
}
