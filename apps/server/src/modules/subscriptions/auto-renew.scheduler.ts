import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/index.js';
import { queryRow } from '../../db/query.js';
import { clubs, serverState } from '../../db/schema.js';
import { clearingProvider } from '../../integrations/clearing/sandbox.js';
import { reconcileCharges } from '../../integrations/clearing/charges.js';
import { runClubMoneyJobs } from './subscriptions.service.js';
import { anyHistoryWriting } from '../../lib/history-writing.js';
import { trackJob } from '../../lib/metrics.js';

const pgliteLocks = new WeakMap<Database, Promise<unknown>>();

/** Advisory-lock key of the daily money jobs ("AREN"). */
const LOCK_KEY = 0x4152454e;

/**
 * The daily automatic renewal and safer-payments reconciliation (seed 001
 * §4; DESIGN §12 "scheduled jobs take a database lock"). Once per UTC day:
 * on PostgreSQL the run holds `pg_try_advisory_xact_lock` and records the day
 * in server_state inside the same transaction, so with two server instances
 * exactly one runs it and the other skips; PGlite is one process by nature.
 * Returns false when another instance holds the lock or the day is done, and
 * while a club's demo history is still being written (lib/history-writing.ts):
 * the day is not marked, so the next hourly check runs it once the history,
 * which renews up to its own present, is in.
 */
export async function dailyMoneyJobs(database: Database, now = new Date()): Promise<boolean> {
  if (anyHistoryWriting()) return false;
  const day = now.toISOString().slice(0, 10);
  const key = 'money_jobs_last_day';
  const work = async () => {
    const list = await database.db.select({ id: clubs.id }).from(clubs);
    for (const c of list) {
      await runClubMoneyJobs(database, clearingProvider(), c.id, { at: now });
    }
    await reconcileCharges(database.db, clearingProvider());
  };
  if (database.kind === 'pglite') {
    // One process owns a PGlite database: a promise chain is the lock.
    const prev = pgliteLocks.get(database) ?? Promise.resolve();
    const run = prev.then(async () => {
      const [r] = await database.db.select().from(serverState).where(eq(serverState.key, key));
      if (r?.value === day) return false;
      await work();
      await database.db
        .insert(serverState)
        .values({ key, value: day })
        .onConflictDoUpdate({ target: serverState.key, set: { value: day } });
      return true;
    });
    pgliteLocks.set(
      database,
      run.catch(() => false),
    );
    return run;
  }
  return database.db.transaction(async (tx) => {
    const got = await queryRow<{ ok: boolean }>(tx, sql`select pg_try_advisory_xact_lock(${LOCK_KEY}) as ok`);
    if (!got?.ok) return false;
    const [r] = await tx.select().from(serverState).where(eq(serverState.key, key));
    if (r?.value === day) return false;
    await work();
    await tx
      .insert(serverState)
      .values({ key, value: day })
      .onConflictDoUpdate({ target: serverState.key, set: { value: day } });
    return true;
  });
}

/**
 * Starts the hourly check of the daily jobs (off under Vitest and when
 * MONEY_JOBS=0, so that tests run them explicitly).
 */
export function startMoneyScheduler(app: FastifyInstance): void {
  if (process.env.VITEST || process.env.MONEY_JOBS === '0') return;
  const log = app.log.child({ job: 'money-daily' });
  const tick = () => {
    trackJob('money-daily', () => dailyMoneyJobs(app.deps.database)).catch((err) =>
      log.error({ err }, 'daily money jobs failed'),
    );
  };
  const first = setTimeout(tick, 60_000);
  const every = setInterval(tick, 3_600_000);
  first.unref();
  every.unref();
  app.addHook('onClose', async () => {
    clearTimeout(first);
    clearInterval(every);
  });
}
