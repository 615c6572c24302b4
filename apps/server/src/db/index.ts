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
}): Promise<Database> {
  if (opts.databaseUrl) {
    const { default: pg } = await import('pg');
    const { drizzle } = await import('drizzle-orm/node-postgres');
    const { migrate } = await import('drizzle-orm/node-postgres/migrator');
    // DATE columns come back as 'YYYY-MM-DD' strings, not Date objects at local midnight.
    pg.types.setTypeParser(1082, (v: string) => v);
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: opts.poolSize ?? 10 });
    // An idle pooled connection that the server closes (restart, failover,
    // administrator command) emits 'error' on the pool; unhandled, it would
    // end the process. The pool replaces the connection on the next query.
    pool.on('error', (err) => console.warn(`database connection lost: ${err.message}`));
    const db = drizzle(pool, { schema }) as unknown as Db;
    await migrate(db as never, { migrationsFolder });
    return { db, kind: 'postgres', url: opts.databaseUrl, close: () => pool.end() };
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
