import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as schema from './schema.js';
import type { Db } from './handle.js';
import { ReadRouter } from './replica.js';

export type { Db, Tx } from './handle.js';

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
  /** Connection string when on PostgreSQL (for LISTEN/NOTIFY clients). */
  url?: string;
  /**
   * The read replica's router, when `DATABASE_REPLICA_URL` is set on PostgreSQL:
   * reports, exports and the dashboard read through it (db/replica.ts).
   */
  reads?: ReadRouter;
  /**
   * The connections of each pool at this moment (lib/metrics.ts, docs/operations.md "Metrics"): on
   * PostgreSQL the console's (`main`), the gate's (`gate`) and the replica's (`replica`) pools; on
   * PGlite, which runs one statement or transaction at a time, `pglite` with 1 in use while one
   * runs and the rest waiting.
   */
  poolStats(): PoolStats[];
}

/** One pool's connections: in use, idle, statements waiting for one, and its size. */
export interface PoolStats {
  pool: string;
  inUse: number;
  idle: number;
  waiting: number;
  max: number;
}

/** A node-postgres pool's stats under `name`. */
function pgPoolStats(name: string, pool: import('pg').Pool): PoolStats {
  return {
    pool: name,
    inUse: pool.totalCount - pool.idleCount,
    idle: pool.idleCount,
    waiting: pool.waitingCount,
    max: pool.options.max ?? 10,
  };
}

/** The gate's own pool of each PostgreSQL handle (see openDatabase). */
const gatePools = new WeakMap<Db, unknown>();

/**
 * The pool the gate's batched statements run on (modules/gate/gate-batch.ts), when
 * the handle is PostgreSQL: its sessions use generic plans
 * (`plan_cache_mode = force_generic_plan`), so a named statement is planned
 * once per connection instead of at every execution. Undefined on PGlite and
 * inside a transaction.
 */
export function gatePoolOf(db: Db): unknown {
  return gatePools.get(db);
}

/**
 * Time limits of PostgreSQL work (docs/operations.md "Database outage"), so a
 * call never hangs for the length of an outage or a network partition:
 * opening a connection (ms), one statement of the console's pool (server
 * side, ms; a yearly export runs well inside it), one statement of the gate's
 * pool (a decision is a few ms: 500 ms is 50 times the gate's p99 at 2,000
 * decisions/s, and a member at a stalled gate waits under a second before the
 * terminal decides by its list), and the client-side limit that also ends a
 * statement whose answer never comes back (a partition, where the server-side
 * limit cannot reach us).
 */
export const DB_LIMITS = {
  connectMs: 5_000,
  statementMs: 60_000,
  /**
   * Longest a console or job statement waits for a lock (ms; PostgreSQL `lock_timeout`): a
   * request stuck behind a lock that is not released answers 503 (55P03, lib/error-handler.ts)
   * instead of hanging (docs/operations.md "Database outage": one call hung 19.4 s).
   */
  lockMs: 10_000,
  gateStatementMs: 500,
  /** Opening a connection of the gate's pool (ms): a database that does not answer is an outage at once. */
  gateConnectMs: 1_000,
  /** Added to a pool's statement limit for the client-side read limit. */
  readGraceMs: 2_000,
  /** Added to the gate's statement limit for its client-side read limit (swept every 100 ms). */
  gateReadGraceMs: 250,
} as const;

/**
 * Handlers for the whole life of every pooled connection: PostgreSQL ending a
 * connection (restart `57P01`, `pg_terminate_backend`, failover) emits
 * 'error' on the client — on the pool while it is idle, on the client itself
 * while a request holds it. Unhandled, either would end the process;
 * handled, the request in flight fails (503, lib/error-handler.ts)
 * and the pool opens a new connection for the next one.
 */
function guardPool(pool: import('pg').Pool, lost: (err: Error) => void): void {
  pool.on('error', lost);
  pool.on('connect', (client) => client.on('error', lost));
}

const migrationsFolder = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../drizzle');

/**
 * Opens the database: PostgreSQL when `databaseUrl` is given, otherwise
 * PGlite (PostgreSQL in WebAssembly) in `dataDir` (or in memory when
 * `dataDir` is 'memory://'), and applies the migrations (DESIGN §3).
 */
export async function openDatabase(opts: {
  databaseUrl?: string;
  dataDir?: string;
  poolSize?: number;
  /** Connections of the gate's own pool (PostgreSQL; default 8: 4 reads and 4 log inserts in flight). */
  gatePoolSize?: number;
  /** A streaming replica of `databaseUrl` for reports (DATABASE_REPLICA_URL; db/replica.ts); ignored on PGlite. */
  replicaUrl?: string;
  /** Oldest a replica read may be, ms (REPLICA_MAX_STALENESS_MS, default 30 000). */
  replicaMaxStalenessMs?: number;
  /**
   * PGlite only: start from this data directory (a `dumpDataDir` tarball of an
   * already migrated database) instead of an empty one; the migrations then
   * find nothing to do. The tests' one migration per run (test/global-setup.ts).
   */
  pgliteSnapshot?: Blob;
}): Promise<Database> {
  if (opts.databaseUrl) {
    const { default: pg } = await import('pg');
    const { drizzle } = await import('drizzle-orm/node-postgres');
    const { migrate } = await import('drizzle-orm/node-postgres/migrator');
    // DATE columns come back as 'YYYY-MM-DD' strings, not Date objects at local midnight.
    pg.types.setTypeParser(1082, (v: string) => v);
    // JIT compilation off: it starts on estimated cost, and on a report over a year it spent
    // ~335 ms compiling a query that runs in less (docs/reports.md "Speed").
    const pool = new pg.Pool({
      connectionString: opts.databaseUrl,
      max: opts.poolSize ?? 10,
      options: `-c jit=off -c statement_timeout=${DB_LIMITS.statementMs} -c lock_timeout=${DB_LIMITS.lockMs}`,
      connectionTimeoutMillis: DB_LIMITS.connectMs,
      query_timeout: DB_LIMITS.statementMs + DB_LIMITS.readGraceMs,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    });
    const lost = (err: Error) => console.warn(`database connection lost: ${err.message}`);
    guardPool(pool, lost);
    const db = drizzle(pool, { schema }) as unknown as Db;
    // Migrations on a connection of their own, with no statement limit (an index
    // built over years of entrances may take longer than a request may).
    const migrator = new pg.Client({
      connectionString: opts.databaseUrl,
      connectionTimeoutMillis: DB_LIMITS.connectMs,
    });
    await migrator.connect();
    try {
      await migrate(drizzle(migrator, { schema }) as never, { migrationsFolder });
    } finally {
      await migrator.end();
    }
    // The gate's batched read and log insert (modules/gate/gate-batch.ts) are named statements that
    // PostgreSQL would plan again at every execution (their custom plans look cheaper than the
    // generic one), and planning the read costs more than running it: 0.70–0.82 ms against
    // 1.3–1.5 ms per 8-card statement (docs/gate-benchmark.md "Generic plans"). Their own pool's
    // sessions take the generic plan, built once per connection, with sequential scans off: every
    // part of those statements is an index lookup, and a generic plan built while entrance_logs
    // was still empty chose sequential scans of it for the whole session. The other queries
    // (reports with date ranges) keep custom plans. Connections open on first use.
    const gatePool = new pg.Pool({
      connectionString: opts.databaseUrl,
      max: opts.gatePoolSize ?? 8,
      // Kept open between bursts (a new session plans the statements again), but renewed every
      // 10 minutes: a generic plan is built from the tables as they were when the session first
      // ran the statement (an empty entrance_logs on a new server), and ANALYZE is not the only
      // way they change.
      idleTimeoutMillis: 120_000,
      maxLifetimeSeconds: 600,
      options: `-c plan_cache_mode=force_generic_plan -c enable_seqscan=off -c jit=off -c statement_timeout=${DB_LIMITS.gateStatementMs}`,
      connectionTimeoutMillis: DB_LIMITS.gateConnectMs,
      // No query_timeout: the gate's client-side read limit is modules/gate/gate-batch.ts's ReadDeadlines
      // (db/read-deadline.ts), which keeps no statement's rows reachable for the limit's length.
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    });
    guardPool(gatePool, lost);
    gatePools.set(db, gatePool);
    let reads: ReadRouter | undefined;
    let replicaStats: (() => PoolStats) | undefined;
    if (opts.replicaUrl) {
      // The replica's own pool: reports and exports only (no migrations: the replica replays the primary's).
      // Its connections fail fast, so a replica that is down costs a report a moment, then the primary.
      const replicaPool = new pg.Pool({
        connectionString: opts.replicaUrl,
        max: opts.poolSize ?? 10,
        options: `-c jit=off -c statement_timeout=${DB_LIMITS.statementMs}`,
        connectionTimeoutMillis: 2_000,
        query_timeout: DB_LIMITS.statementMs + DB_LIMITS.readGraceMs,
        keepAlive: true,
        keepAliveInitialDelayMillis: 10_000,
      });
      guardPool(replicaPool, (err) => console.warn(`replica connection lost: ${err.message}`));
      const replica = drizzle(replicaPool, { schema }) as unknown as Db;
      reads = new ReadRouter(db, pool, replica, replicaPool, { maxStalenessMs: opts.replicaMaxStalenessMs });
      replicaStats = () => pgPoolStats('replica', replicaPool);
    }
    return {
      db,
      kind: 'postgres',
      url: opts.databaseUrl,
      reads,
      poolStats: () => [
        pgPoolStats('main', pool),
        pgPoolStats('gate', gatePool),
        ...(replicaStats ? [replicaStats()] : []),
      ],
      close: async () => {
        await Promise.all([pool.end(), gatePool.end(), reads?.close()]);
      },
    };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  // pg_trgm backs the client search index (migration 0001_client_search).
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const dir = opts.dataDir ?? './data';
  let client;
  if (dir === 'memory://')
    client = new PGlite({
      extensions: { pg_trgm },
      ...(opts.pgliteSnapshot ? { loadDataDir: opts.pgliteSnapshot } : {}),
    });
  else {
    mkdirSync(dir, { recursive: true });
    client = new PGlite(path.join(dir, 'pgdata'), { extensions: { pg_trgm } });
  }
  await client.waitReady;
  const running = countCalls(client);
  const db = drizzle(client, { schema }) as unknown as Db;
  await migrate(db as never, { migrationsFolder });
  if (opts.replicaUrl) console.warn('DATABASE_REPLICA_URL is ignored without DATABASE_URL (PGlite has no replicas)');
  return {
    db,
    kind: 'pglite',
    poolStats: () => [
      {
        pool: 'pglite',
        inUse: Math.min(1, running()),
        idle: running() ? 0 : 1,
        waiting: Math.max(0, running() - 1),
        max: 1,
      },
    ],
    close: () => client.close(),
  };
}

/**
 * Counts the calls under way on a PGlite instance (its `query`, `exec` and `transaction`, the
 * ones drizzle makes): PGlite runs one at a time, so all but one of them are waiting. Statements
 * inside a transaction go through the transaction's own handle and are not counted again.
 * @returns the number of calls under way now
 */
function countCalls(client: object): () => number {
  let n = 0;
  const c = client as Record<string, (...args: unknown[]) => Promise<unknown>>;
  for (const name of ['query', 'exec', 'transaction']) {
    const original = c[name].bind(client);
    c[name] = (...args: unknown[]) => {
      n++;
      return original(...args).finally(() => n--);
    };
  }
  return () => n;
}

export { schema };
