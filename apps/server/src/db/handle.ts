import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type * as schema from './schema.js';

/** The Drizzle database handle, the same type on PGlite and on PostgreSQL. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A handle inside a transaction (same query API). */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
