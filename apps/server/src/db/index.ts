import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema.js';

/** The Drizzle database handle, the same type on PGlite and on PostgreSQL. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A handle inside a transaction (same query API). */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
  /** Connection string when on PostgreSQL (for LISTEN/NOTIFY clients). */
  url?: string;
}

/** The gate's own pool of each PostgreSQL handle (see openDatabase). */
const gatePools = new WeakMap<Db, unknown>();

/**
 * The pool the gate's batched statements run on (engine/gate-batch.ts), when
 * the handle is PostgreSQL: its sessions use generic plans
 * (`plan_cache_mode = force_generic_plan`), so a named statement is planned
 * once per connection instead of at every execution. Undefined on PGlite and
 * inside a transaction.
 */
export function gatePoolOf(db: Db): unknown {
  return gatePools.get(db);
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
      options: '-c jit=off',
    });
    // An idle pooled connection that the server closes (restart, failover,
    // administrator command) emits 'error' on the pool; unhandled, it would
    // end the process. The pool replaces the connection on the next query.
    const lost = (err: Error) => console.warn(`database connection lost: ${err.message}`);
    pool.on('error', lost);
    const db = drizzle(pool, { schema }) as unknown as Db;
    await migrate(db as never, { migrationsFolder });
    // The gate's batched read and log insert (engine/gate-batch.ts) are named statements that
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
      options: '-c plan_cache_mode=force_generic_plan -c enable_seqscan=off -c jit=off',
    });
    gatePool.on('error', lost);
    gatePools.set(db, gatePool);
    return {
      db,
      kind: 'postgres',
      url: opts.databaseUrl,
      close: async () => {
        await Promise.all([pool.end(), gatePool.end()]);
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
  if (dir === 'memory://') client = new PGlite({ extensions: { pg_trgm } });
  else {
    mkdirSync(dir, { recursive: true });
    client = new PGlite(path.join(dir, 'pgdata'), { extensions: { pg_trgm } });
  }
  await client.waitReady;
  const db = drizzle(client, { schema }) as unknown as Db;
  await migrate(db as never, { migrationsFolder });
  return { db, kind: 'pglite', close: () => client.close() };
}

export { schema };
