import { eq, sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { RetentionRun, RetentionStatus } from '@venue/domain';
import type { Database, Db } from '../../db/index.js';
import { queryRow, queryRows } from '../../db/query.js';
import { clubs, retentionRuns, serverState } from '../../db/schema.js';
import type { EventBus } from '../../lib/event-bus.js';
import { trackJob } from '../../lib/metrics.js';
import { clubLocation, clubSettings, clubToday } from '../club/club.service.js';
import { publishDeleted } from '../biometrics/biometrics.service.js';
import { scoped } from '../../lib/scoped.js';

/**
 * The retention job (issue 39, docs/privacy.md "Retention"). Per club, by its settings:
 *
 * - entrances (entrance_logs) of local days older than `retentionEntranceDays` are deleted with
 *   their quick exits and front-desk overrides; the daily counts of activity_daily stay (the
 *   delete runs with `venue.retention` on, which the summary trigger skips, migration 0043), so
 *   the entrances report and the dashboard still count those days; the rapid re-entry guard rows
 *   (client_entry_guard) older than the same day go too;
 * - attendance records whose last time is older than `retentionAttendanceDays`;
 * - biometric templates of clients who left (inactive or deleted) created and last used for an
 *   entrance more than `retentionBiometricDays` ago (the terminals are told, as at a removal);
 * - reads of the access log older than {@link ACCESS_LOG_DAYS}.
 *
 * Money records (purchases, ledger, payments, charges, debts, documents) and the audit journal are
 * not touched: tax law keeps them 7 years; a ledger row of an entrance keeps its amount and time
 * but its `source_id` then names an entrance that is gone (unlinked from the visit's detail).
 */

/** Days a read of the access log is kept (Privacy Protection (Data Security) Regulations 2017 reg. 10(c): 24 months). */
export const ACCESS_LOG_DAYS = 730;

/** Rows one statement of the job deletes at most: short transactions, so the gate's writes never wait long. */
export const RETENTION_BATCH_ROWS = 5000;

/** Pause between batches of the nightly job and of a run from the console (ms): the disk is the gate's between them. */
export const RETENTION_PAUSE_MS = 20;

/** Advisory-lock key of the retention job's daily claim ("RTNT"). */
const LOCK_KEY = 0x52544e54;

const pgliteLocks = new WeakMap<Database, Promise<unknown>>();

/** Options of a run: the batch size and the pause between batches (ms) that leaves the disk to the gate. */
export interface RetentionOptions {
  batchRows?: number;
  pauseMs?: number;
}

/** YYYY-MM-DD minus `days` days (calendar arithmetic in UTC, no zone involved). */
export function minusDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
}

const pause = (ms: number) => (ms > 0 ? new Promise((r) => setTimeout(r, ms)) : Promise.resolve());

/** Runs `statement` (a DELETE … RETURNING counted as `n`) in batches until it removes nothing. */
async function inBatches(
  db: Db,
  opts: Required<RetentionOptions>,
  statement: () => SQL,
): Promise<Record<string, number>> {
  const total: Record<string, number> = {};
  for (;;) {
    const counts = await db.transaction(async (tx) => {
      // The summary trigger keeps the day's counts of entrances this transaction deletes (0043).
      await tx.execute(sql`select set_config('venue.retention', 'on', true)`);
      const row = await queryRow<Record<string, number>>(tx, statement());
      return row ?? {};
    });
    let any = 0;
    for (const [k, v] of Object.entries(counts)) {
      total[k] = (total[k] ?? 0) + Number(v);
      any += Number(v);
    }
    if (any === 0) return total;
    await pause(opts.pauseMs);
  }
}

/**
 * Deletes, in batches, the biometric templates of the club's clients who left (status not
 * active) created before `before` and not used for an entrance since: answers them with the
 * client's number (the terminals know templates by client number).
 */
async function biometricsOfLeavers(
  db: Db,
  clubId: number,
  before: SQL,
  opts: Required<RetentionOptions>,
): Promise<{ id: number; kind: string; number: number }[]> {
  const all: { id: number; kind: string; number: number }[] = [];
  for (;;) {
    const rows = await queryRows<{ id: number; kind: string; number: number }>(
      db,
      sql`with b as (
          select t.id, c.number from biometric_templates t
          join clients c on c.club_id = t.club_id and c.id = t.client_id
          where t.club_id = ${clubId} and c.status <> 1 and t.created_at < ${before}
            and not exists (select 1 from entrance_logs e
                            where e.client_id = t.client_id and e.club_id = ${clubId} and e.at >= ${before})
          limit ${opts.batchRows})
        delete from biometric_templates x using b where x.club_id = ${clubId} and x.id = b.id
        returning x.id, x.kind, b.number`,
    );
    if (rows.length === 0) return all;
    all.push(...rows);
    await pause(opts.pauseMs);
  }
}

/**
 * Applies the club's retention rules once at `now` and records the run (retention_runs): answers
 * what it removed by table. Safe to run twice (the second removes nothing new). Errors: none of
 * its own; a database error aborts the batch in flight, earlier batches stay done.
 */
export async function retainClub(
  db: Db,
  bus: EventBus | null,
  clubId: number,
  now: Date = new Date(),
  options: RetentionOptions = {},
): Promise<RetentionRun> {
  const opts = { batchRows: options.batchRows ?? RETENTION_BATCH_ROWS, pauseMs: options.pauseMs ?? 0 };
  const [club] = await db.select().from(clubs).where(eq(clubs.id, clubId));
  if (!club) throw new Error(`club ${clubId} not found`);
  const settings = clubSettings(club);
  const tz = clubLocation(club).timeZone;
  const today = clubToday(club.location, now);
  const entranceFrom = minusDays(today, settings.retentionEntranceDays);
  const attendanceFrom = minusDays(today, settings.retentionAttendanceDays);
  const biometricFrom = minusDays(today, settings.retentionBiometricDays);
  const accessFrom = minusDays(today, ACCESS_LOG_DAYS);
  const start = (day: string) => sql`((${day}::date)::timestamp at time zone ${tz})`;
  const n = opts.batchRows;

  const entrances = await inBatches(
    db,
    opts,
    () => sql`with b as (
        select id from entrance_logs where club_id = ${clubId} and at < ${start(entranceFrom)} order by at limit ${n}
      ),
      q as (delete from quick_exits x using b where x.club_id = ${clubId} and x.entrance_id = b.id returning 1),
      o as (delete from entrance_overrides x using b where x.club_id = ${clubId} and x.entrance_log_id = b.id returning 1),
      e as (delete from entrance_logs x using b where x.club_id = ${clubId} and x.id = b.id returning 1)
      select (select count(*) from e)::int as entrance_logs, (select count(*) from q)::int as quick_exits,
             (select count(*) from o)::int as entrance_overrides`,
  );
  const guard = await inBatches(
    db,
    opts,
    () => sql`with d as (
        delete from client_entry_guard where club_id = ${clubId} and client_id in (
          select client_id from client_entry_guard where club_id = ${clubId} and at < ${start(entranceFrom)} limit ${n})
        returning 1)
      select count(*)::int as client_entry_guard from d`,
  );
  const attendance = await inBatches(
    db,
    opts,
    () => sql`with d as (
        delete from attendance_logs where club_id = ${clubId} and id in (
          select id from attendance_logs where club_id = ${clubId}
            and coalesce(exit_at, entry_at, created_at) < ${start(attendanceFrom)} limit ${n})
        returning 1)
      select count(*)::int as attendance_logs from d`,
  );
  const gone = await biometricsOfLeavers(db, clubId, start(biometricFrom), opts);
  const biometrics = { biometric_templates: gone.length };
  const access = await inBatches(
    db,
    opts,
    () => sql`with d as (
        delete from data_access_log where club_id = ${clubId} and id in (
          select id from data_access_log where club_id = ${clubId} and at < ${start(accessFrom)} limit ${n})
        returning 1)
      select count(*)::int as data_access_log from d`,
  );
  if (bus && gone.length > 0) {
    // The terminals drop what is gone (by client), as when staff remove a client's biometrics.
    const byClient = new Map<number, { id: number; kind: string }[]>();
    for (const g of gone) byClient.set(g.number, [...(byClient.get(g.number) ?? []), g]);
    for (const [number, rows] of byClient) publishDeleted(bus, clubId, number, rows);
  }
  const removed = { ...entrances, ...guard, ...attendance, ...biometrics, ...access };
  const [run] = await db
    .insert(retentionRuns)
    .values({ clubId, at: now, entranceDetailFrom: entranceFrom, removed })
    .returning();
  return presentRun(run!);
}

function presentRun(r: typeof retentionRuns.$inferSelect): RetentionRun {
  return { id: r.id, at: r.at.toISOString(), entranceDetailFrom: r.entranceDetailFrom, removed: r.removed };
}

/** GET /api/Privacy/Retention: the club's rules in force, its horizon and its last 30 runs. */
export async function retentionStatus(db: Db, clubId: number): Promise<RetentionStatus> {
  const [club] = await db.select().from(clubs).where(eq(clubs.id, clubId));
  const s = clubSettings(club!);
  const runs = await db
    .select()
    .from(retentionRuns)
    .where(scoped(db, clubId).where(retentionRuns))
    .orderBy(sql`${retentionRuns.at} desc, ${retentionRuns.id} desc`)
    .limit(30);
  const from = runs.reduce<string | null>((m, r) => (m && m > r.entranceDetailFrom ? m : r.entranceDetailFrom), null);
  return {
    entranceDays: s.retentionEntranceDays,
    attendanceDays: s.retentionAttendanceDays,
    biometricDays: s.retentionBiometricDays,
    accessLogDays: ACCESS_LOG_DAYS,
    entranceDetailFrom: from,
    runs: runs.map(presentRun),
  };
}

/**
 * The nightly retention job over every club (DESIGN §12 "scheduled jobs take a database lock"):
 * once per UTC day, claimed under `pg_try_advisory_xact_lock` by recording the day in
 * server_state, so with several server instances exactly one runs it; the work itself runs after
 * the claim, in short batches (no transaction spans the run). PGlite is one process: a promise
 * chain is the lock. Answers the runs, or null when the day was already claimed.
 */
export async function retentionJob(
  database: Database,
  bus: EventBus | null,
  now: Date = new Date(),
  options: RetentionOptions = {},
): Promise<RetentionRun[] | null> {
  const day = now.toISOString().slice(0, 10);
  const key = 'retention_last_day';
  const claim = async (db: Db) => {
    const [r] = await db.select().from(serverState).where(eq(serverState.key, key));
    if (r?.value === day) return false;
    await db
      .insert(serverState)
      .values({ key, value: day })
      .onConflictDoUpdate({ target: serverState.key, set: { value: day } });
    return true;
  };
  const work = async () => {
    const list = await queryRows<{ id: number }>(database.db, sql`select id from clubs order by id`);
    const runs: RetentionRun[] = [];
    for (const c of list) runs.push(await retainClub(database.db, bus, c.id, now, options));
    return runs;
  };
  if (database.kind === 'pglite') {
    const prev = pgliteLocks.get(database) ?? Promise.resolve();
    const run = prev.then(async () => ((await claim(database.db)) ? work() : null));
    pgliteLocks.set(
      database,
      run.catch(() => null),
    );
    return run;
  }
  const claimed = await database.db.transaction(async (tx) => {
    const got = await queryRow<{ ok: boolean }>(tx, sql`select pg_try_advisory_xact_lock(${LOCK_KEY}) as ok`);
    return got?.ok ? claim(tx as unknown as Db) : false;
  });
  return claimed ? work() : null;
}

/**
 * Starts the hourly check of the nightly retention job: it runs at the first check after 01:00
 * UTC (03:00–04:00 in Israel), once a day (off under Vitest and when RETENTION_JOBS=0; tests run
 * it explicitly). Each club's removals are logged.
 */
export function startRetentionScheduler(app: FastifyInstance): void {
  if (process.env.VITEST || process.env.RETENTION_JOBS === '0') return;
  const log = app.log.child({ job: 'retention' });
  const tick = () => {
    const now = new Date();
    if (now.getUTCHours() < 1) return;
    trackJob('retention', () => retentionJob(app.deps.database, app.deps.bus, now, { pauseMs: RETENTION_PAUSE_MS }))
      .then((runs) => {
        for (const r of runs ?? [])
          log.info({ removed: r.removed, entranceDetailFrom: r.entranceDetailFrom }, 'retention');
      })
      .catch((err) => log.error({ err }, 'retention job failed'));
  };
  const first = setTimeout(tick, 90_000);
  const every = setInterval(tick, 3_600_000);
  first.unref();
  every.unref();
  app.addHook('onClose', async () => {
    clearTimeout(first);
    clearInterval(every);
  });
}
