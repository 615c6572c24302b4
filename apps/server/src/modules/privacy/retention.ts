import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ClubSettings, RetentionRun, RetentionStatus } from '@venue/domain';
import type { Database, Db } from '../../db/index.js';
import { queryRow, queryRows } from '../../db/query.js';
import { clubs, retentionRuns, serverState } from '../../db/schema.js';
import type { EventBus } from '../../lib/event-bus.js';
import { trackJob } from '../../lib/metrics.js';
import { clubLocation, clubSettings, clubToday } from '../club/club.service.js';
import { publishDeleted } from '../biometrics/biometrics.service.js';
import { scoped } from '../../lib/scoped.js';
import { applyBookingRetention } from '../appointments/appointments.jobs.js';

/**
 * The retention job (issue 39, docs/privacy.md "Retention"). Per club, by its settings:
 *
 * - entrances (entrance_logs) of local days older than `retentionEntranceDays` are deleted with
 *   their quick exits and front-desk overrides; the daily counts of activity_daily stay (the
 *   delete runs with `venue.retention` on, which the summary trigger skips, migration 0043), so
 *   the entrances report and the dashboard still count those days; the rapid re-entry guard rows
 *   (client_entry_guard) older than the same day go too, and the closed stays in gate areas
 *   (area_presence, docs/gate-safety.md) that began before it;
 * - bookings whose visit ended more than the booking settings' `retentionDays` ago, folded into
 *   booking_counts (modules/appointments/appointments.jobs.ts `applyBookingRetention`);
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

/**
 * Rows one statement of the job deletes at most: short transactions, so the gate's decisions never
 * wait long behind one (bench/retention-gate.bench.mjs on a quiet 2-core machine: batches of 1000
 * with a rest as long as the batch doubled the gate's p99 during the run; 250 with twice the rest,
 * p99 ratio 1.06 and 136 s for 917,000 entrances; docs/privacy.md "Retention").
 */
export const RETENTION_BATCH_ROWS = 250;

/** Least pause between batches of the nightly job and of a run from the console (ms): the disk is the gate's between them. */
export const RETENTION_PAUSE_MS = 20;

/**
 * After each batch the job also rests this many times as long as the batch took, so that it never
 * holds more than 1 / (1 + factor) of the database's time however slow the machine (a run from
 * the console and the nightly job; tests pass pauseMs 0 and no factor).
 */
export const RETENTION_YIELD_FACTOR = 2;

/**
 * The least decision window of visitor mode (minutes, docs/privacy.md "Visitor mode"): the day's
 * quotas count the approved entrances of the business day, which began at most 25 hours ago (24,
 * and 25 on the night the clocks go back).
 */
export const VISITOR_MIN_WINDOW_MINUTES = 25 * 60;

/** Advisory-lock key of the retention job's daily claim ("RTNT"). */
const LOCK_KEY = 0x52544e54;

const pgliteLocks = new WeakMap<Database, Promise<unknown>>();

/** Options of a run: the batch size and the pause between batches (ms) that leaves the disk to the gate. */
export interface RetentionOptions {
  batchRows?: number;
  pauseMs?: number;
  /** Rest after a batch this many times its own duration (see RETENTION_YIELD_FACTOR); default 0. */
  yieldFactor?: number;
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
    const began = performance.now();
    const counts = await db.transaction(async (tx) => {
      // The summary trigger keeps the day's counts of entrances this transaction deletes (0043).
      // No wait for the WAL flush at commit: the gate's commits do not queue behind the job's, and
      // a crash loses at most the last batches, which the next run deletes again.
      await tx.execute(
        sql`select set_config('venue.retention', 'on', true), set_config('synchronous_commit', 'off', true)`,
      );
      const row = await queryRow<Record<string, number>>(tx, statement());
      return row ?? {};
    });
    let any = 0;
    for (const [k, v] of Object.entries(counts)) {
      total[k] = (total[k] ?? 0) + Number(v);
      any += Number(v);
    }
    if (any === 0) return total;
    await pause(Math.max(opts.pauseMs, (performance.now() - began) * opts.yieldFactor));
  }
}

/**
 * Deletes, in batches, the biometric templates of the club's clients who left (status not
 * active) created before `before` and not used for an entrance since: answers them with the
 * client's number (the terminals know templates by client number).
 */
/** Options with their defaults: no pause (tests), batches of RETENTION_BATCH_ROWS. */
function resolved(options: RetentionOptions): Required<RetentionOptions> {
  return {
    batchRows: options.batchRows ?? RETENTION_BATCH_ROWS,
    pauseMs: options.pauseMs ?? 0,
    yieldFactor: options.yieldFactor ?? 0,
  };
}

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
  const opts = resolved(options);
  const [club] = await db.select().from(clubs).where(eq(clubs.id, clubId));
  if (!club) throw new Error(`club ${clubId} not found`);
  const settings = clubSettings(club);
  const tz = clubLocation(club).timeZone;
  const today = clubToday(club.location, now);
  let entranceFrom = minusDays(today, settings.retentionEntranceDays);
  const attendanceFrom = minusDays(today, settings.retentionAttendanceDays);
  const biometricFrom = minusDays(today, settings.retentionBiometricDays);
  const accessFrom = minusDays(today, ACCESS_LOG_DAYS);
  const start = (day: string) => sql`((${day}::date)::timestamp at time zone ${tz})`;
  const n = opts.batchRows;

  const entrances = await inBatches(db, opts, () => entranceBatch(clubId, start(entranceFrom), n));
  const guard = await inBatches(db, opts, () => guardBatch(clubId, start(entranceFrom), n));
  const stays = await inBatches(db, opts, () =>
    closedStaysBatch(clubId, start(entranceFrom), sql`left_at is not null`, n),
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
  // Bookings by the booking settings' own period (docs/appointments.md "Privacy"), in one transaction.
  const bookings = { bookings: await applyBookingRetention(db, clubId, now) };
  const removed: Record<string, number> = {
    ...entrances,
    ...guard,
    ...stays,
    ...attendance,
    ...biometrics,
    ...access,
    ...bookings,
  };
  if (settings.visitorMode) {
    // Visitor mode: the decision window's rule as well; the days before today are counts (in part).
    const visits = await forgetVisits(db, clubId, now, options);
    for (const [k, v] of Object.entries(visits)) removed[k] = (removed[k] ?? 0) + v;
    entranceFrom = today;
  }
  const [run] = await db
    .insert(retentionRuns)
    .values({ clubId, at: now, entranceDetailFrom: entranceFrom, removed })
    .returning();
  return presentRun(run!);
}

/**
 * The decision window of visitor mode in a club (minutes; docs/privacy.md "Visitor mode"): the
 * longest look-back of the gate's rules there — the business day of the daily quotas
 * ({@link VISITOR_MIN_WINDOW_MINUTES}), the longest delay between entries of its groups, its
 * load limit's minutes and, with quick exits on, their longest stay. Entrances younger than this
 * are what the gate decides from.
 */
export async function visitorWindowMinutes(
  db: Db,
  clubId: number,
  settings: Pick<ClubSettings, 'entrancesLimitMinutes' | 'isQuickExitEnabled' | 'quickExitMaxMinutes'>,
): Promise<number> {
  const r = await queryRow<{ m: number }>(
    db,
    sql`select coalesce(max(delay_between_entries_minutes), 0)::int as m
        from groups where club_id = ${clubId} and deleted = false`,
  );
  return Math.max(
    VISITOR_MIN_WINDOW_MINUTES,
    Number(r?.m ?? 0),
    settings.entrancesLimitMinutes,
    settings.isQuickExitEnabled ? settings.quickExitMaxMinutes : 0,
  );
}

/**
 * Visitor mode's rule (docs/privacy.md "Visitor mode"): deletes, in batches, the club's entrances
 * older than its decision window ({@link visitorWindowMinutes}) with their quick exits and
 * front-desk overrides, the re-entry guard rows as old, and the area stays that ended before it.
 * The daily counts stay (the delete runs with `venue.retention` on). Money is not touched: a
 * ledger row of an entrance keeps payer, amount and time, and names an entrance that is gone.
 * Answers the rows removed by table (all zero when visitor mode is off). Idempotent.
 */
export async function forgetVisits(
  db: Db,
  clubId: number,
  now: Date = new Date(),
  options: RetentionOptions = {},
): Promise<Record<string, number>> {
  const opts = resolved(options);
  const [club] = await db.select().from(clubs).where(eq(clubs.id, clubId));
  if (!club) throw new Error(`club ${clubId} not found`);
  const settings = clubSettings(club);
  if (!settings.visitorMode) return {};
  const minutes = await visitorWindowMinutes(db, clubId, settings);
  const cutoff = sql`${new Date(now.getTime() - minutes * 60_000).toISOString()}::timestamptz`;
  const n = opts.batchRows;
  const entrances = await inBatches(db, opts, () => entranceBatch(clubId, cutoff, n));
  const guard = await inBatches(db, opts, () => guardBatch(clubId, cutoff, n));
  // Open stays are the occupancy and anti-passback state: kept until they end.
  const stays = await inBatches(db, opts, () => closedStaysBatch(clubId, cutoff, sql`left_at < ${cutoff}`, n));
  return { ...entrances, ...guard, ...stays };
}

/**
 * The hourly visitor-mode run over every club in visitor mode (see forgetVisits): a club's
 * removals of one local day are added into one retention_runs row whose first day in detail is
 * that day (a day before it may have lost part of its rows: its counts are kept by
 * activity_daily_rebuild). Answers the runs it wrote or updated.
 */
export async function visitorJob(
  database: Database,
  now: Date = new Date(),
  options: RetentionOptions = {},
): Promise<RetentionRun[]> {
  const db = database.db;
  const list = await queryRows<{ id: number; location: unknown }>(
    db,
    sql`select id, location from clubs where (settings->>'visitorMode')::boolean is true order by id`,
  );
  const out: RetentionRun[] = [];
  for (const c of list) {
    const removed = await forgetVisits(db, c.id, now, options);
    if (!Object.values(removed).some((v) => v > 0)) continue;
    const today = clubToday(c.location, now);
    const [last] = await db
      .select()
      .from(retentionRuns)
      .where(and(eq(retentionRuns.clubId, c.id), eq(retentionRuns.entranceDetailFrom, today)))
      .orderBy(desc(retentionRuns.at), desc(retentionRuns.id))
      .limit(1);
    if (last) {
      const sum: Record<string, number> = { ...last.removed };
      for (const [k, v] of Object.entries(removed)) sum[k] = (sum[k] ?? 0) + v;
      const [run] = await db
        .update(retentionRuns)
        .set({ at: now, removed: sum })
        .where(and(eq(retentionRuns.clubId, c.id), eq(retentionRuns.id, last.id)))
        .returning();
      out.push(presentRun(run!));
    } else {
      const [run] = await db
        .insert(retentionRuns)
        .values({ clubId: c.id, at: now, entranceDetailFrom: today, removed })
        .returning();
      out.push(presentRun(run!));
    }
  }
  return out;
}

/** One batch of entrances before `before` with their quick exits and front-desk overrides (counts by table). */
function entranceBatch(clubId: number, before: SQL, n: number): SQL {
  return sql`with b as (
      select id from entrance_logs where club_id = ${clubId} and at < ${before} order by at limit ${n}
    ),
    q as (delete from quick_exits x using b where x.club_id = ${clubId} and x.entrance_id = b.id returning 1),
    o as (delete from entrance_overrides x using b where x.club_id = ${clubId} and x.entrance_log_id = b.id returning 1),
    e as (delete from entrance_logs x using b where x.club_id = ${clubId} and x.id = b.id returning 1)
    select (select count(*) from e)::int as entrance_logs, (select count(*) from q)::int as quick_exits,
           (select count(*) from o)::int as entrance_overrides`;
}

/** One batch of rapid re-entry guard rows older than `before` (count as `client_entry_guard`). */
function guardBatch(clubId: number, before: SQL, n: number): SQL {
  return sql`with d as (
      delete from client_entry_guard where club_id = ${clubId} and client_id in (
        select client_id from client_entry_guard where club_id = ${clubId} and at < ${before} limit ${n})
      returning 1)
    select count(*)::int as client_entry_guard from d`;
}

/**
 * One batch of area stays entered before `before` that have ended by `ended` (a condition on
 * `left_at`): open stays are the occupancy and anti-passback state (count as `area_presence`).
 */
function closedStaysBatch(clubId: number, before: SQL, ended: SQL, n: number): SQL {
  return sql`with d as (
      delete from area_presence where club_id = ${clubId} and id in (
        select id from area_presence where club_id = ${clubId} and entered_at < ${before} and ${ended} limit ${n})
      returning 1)
    select count(*)::int as area_presence from d`;
}

function presentRun(r: typeof retentionRuns.$inferSelect): RetentionRun {
  return { id: r.id, at: r.at.toISOString(), entranceDetailFrom: r.entranceDetailFrom, removed: r.removed };
}

/** GET /api/Privacy/Retention: the club's rules in force, its horizon and its last 30 runs. */
export async function retentionStatus(db: Db, clubId: number): Promise<RetentionStatus> {
  const [club] = await db.select().from(clubs).where(eq(clubs.id, clubId));
  const s = clubSettings(club!);
  const window = s.visitorMode ? await visitorWindowMinutes(db, clubId, s) : 0;
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
    visitorMode: s.visitorMode,
    visitorWindowHours: Math.ceil(window / 60),
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
 * UTC (03:00–04:00 in Israel), once a day; the visitor-mode job (visitorJob) runs at every check (off under Vitest and when RETENTION_JOBS=0; tests run
 * it explicitly). Each club's removals are logged.
 */
export function startRetentionScheduler(app: FastifyInstance): void {
  if (process.env.VITEST || process.env.RETENTION_JOBS === '0') return;
  const log = app.log.child({ job: 'retention' });
  const options = { pauseMs: RETENTION_PAUSE_MS, yieldFactor: RETENTION_YIELD_FACTOR };
  const logRuns = (runs: RetentionRun[] | null) => {
    for (const r of runs ?? []) log.info({ removed: r.removed, entranceDetailFrom: r.entranceDetailFrom }, 'retention');
  };
  const tick = () => {
    const now = new Date();
    // Visitor mode every hour (the decision window is hours long); the nightly rules once a day.
    trackJob('visitor-mode', () => visitorJob(app.deps.database, now, options))
      .then(logRuns)
      .catch((err) => log.error({ err }, 'visitor-mode job failed'));
    if (now.getUTCHours() < 1) return;
    trackJob('retention', () => retentionJob(app.deps.database, app.deps.bus, now, options))
      .then(logRuns)
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
