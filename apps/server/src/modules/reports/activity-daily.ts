import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/index.js';

/** Advisory-lock key of the activity_daily summary ('ADAY'), as in migration 0014. */
const LOCK_KEY = 1094992217;

/** (club, day) pairs merged per statement: one statement stays short however far behind the job is. */
const DAYS_PER_STATEMENT = 500;

/**
 * Merges activity_daily's delta rows (migration 0014: one row per key of each
 * write statement on entrance_logs or purchases) into one row per (club, day,
 * key), until no delta row is left; returns how many (club, day) pairs were
 * merged. Each call of `activity_daily_compact` is one statement, so readers
 * see a day before or after its merge, and rows written meanwhile stay as
 * deltas for the next run. On PostgreSQL a run that finds the summary's
 * advisory lock taken (another server instance compacting, or a rebuild)
 * skips and returns 0.
 */
export async function compactActivityDaily(database: Database): Promise<number> {
  const { db } = database;
  let merged = 0;
  for (;;) {
    const n = await db.transaction(async (tx) => {
      if (database.kind === 'postgres') {
        const got = await tx.execute(sql`select pg_try_advisory_xact_lock(${LOCK_KEY}) as ok`);
        if (!(got as unknown as { rows: { ok: boolean }[] }).rows[0].ok) return -1;
      }
      const res = await tx.execute(sql`select activity_daily_compact(${DAYS_PER_STATEMENT}::int) as n`);
      return Number((res as unknown as { rows: { n: number }[] }).rows[0].n);
    });
    if (n < 0) return merged;
    merged += n;
    if (n < DAYS_PER_STATEMENT) return merged;
  }
}

/** How often the compaction runs (ms): at 2 000 entrances/s, about 5 000 delta rows between runs. */
const EVERY_MS = Number(process.env.ACTIVITY_DAILY_COMPACT_MS ?? 60_000);

/**
 * Starts the periodic compaction of activity_daily (off under Vitest, where
 * tests call {@link compactActivityDaily} themselves, and when
 * ACTIVITY_DAILY_COMPACT_MS=0). Readers are exact without it; it keeps the
 * rows a report sums at one per key and day.
 */
export function startActivityDailyCompaction(app: FastifyInstance): void {
  if (process.env.VITEST || EVERY_MS <= 0) return;
  let running = false;
  const tick = () => {
    if (running) return;
    running = true;
    compactActivityDaily(app.deps.database)
      .catch((err: unknown) => app.log.error({ err }, 'activity_daily compaction failed'))
      .finally(() => (running = false));
  };
  const every = setInterval(tick, EVERY_MS);
  every.unref();
  app.addHook('onClose', async () => {
    clearInterval(every);
  });
}
