import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/index.js';
import { queryRow } from '../../db/query.js';
import { trackJob } from '../../lib/metrics.js';

/** Advisory-lock key of the activity_daily summary ('ADAY'), as in migration 0014. */
const LOCK_KEY = 1094992217;

/**
 * Moves activity_daily_delta's rows (migrations 0016/0017: one row per key of
 * each write statement on entrance_logs or purchases) into activity_daily,
 * merged into one row per (club, day, key); returns how many (club, day)
 * pairs were merged. `activity_daily_compact()` is one statement, so readers
 * (who sum both tables) see a day before or after its merge, and rows written
 * meanwhile stay for the next run. On PostgreSQL a run that finds the
 * summary's advisory lock taken (another server instance compacting, or a
 * rebuild) skips and returns 0; on PGlite, which has no autovacuum, the delta
 * table is vacuumed after a merge so that it does not grow with dead rows.
 */
export async function compactActivityDaily(database: Database): Promise<number> {
  const { db } = database;
  const merged = await db.transaction(async (tx) => {
    if (database.kind === 'postgres') {
      const got = await queryRow<{ ok: boolean }>(tx, sql`select pg_try_advisory_xact_lock(${LOCK_KEY}) as ok`);
      if (!got?.ok) return 0;
    }
    const res = await queryRow<{ n: number }>(tx, sql`select activity_daily_compact() as n`);
    return Number(res?.n);
  });
  if (merged > 0 && database.kind === 'pglite') await db.execute(sql`vacuum activity_daily_delta`);
  return merged;
}

/**
 * How often the compaction runs (ms). Readers scan the delta table whole: at
 * 2 000 entrances/s, one row per key of each 256-row batch, it holds at most
 * a few thousand rows (one club) to 20 000 (every row another club) between runs.
 */
const EVERY_MS = Number(process.env.ACTIVITY_DAILY_COMPACT_MS ?? 10_000);

/**
 * Starts the periodic compaction of activity_daily (off under Vitest, where
 * tests call {@link compactActivityDaily} themselves, and when
 * ACTIVITY_DAILY_COMPACT_MS=0). Readers are exact without it; it keeps the
 * delta table small.
 */
export function startActivityDailyCompaction(app: FastifyInstance): void {
  if (process.env.VITEST || EVERY_MS <= 0) return;
  let running = false;
  const log = app.log.child({ job: 'activity-daily' });
  const tick = () => {
    if (running) return;
    running = true;
    trackJob('activity-daily', () => compactActivityDaily(app.deps.database))
      .catch((err: unknown) => log.error({ err }, 'activity_daily compaction failed'))
      .finally(() => (running = false));
  };
  const every = setInterval(tick, EVERY_MS);
  every.unref();
  app.addHook('onClose', async () => {
    clearInterval(every);
  });
}
