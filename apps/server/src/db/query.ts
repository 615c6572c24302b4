import { sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from './index.js';

/**
 * Runs a raw statement and returns its rows, of type `T`: the one place
 * where the result of `db.execute` is given a shape. PGlite and
 * node-postgres both answer `{ rows }`; Drizzle types the answer by the
 * driver, so without this every caller would cast it.
 *
 * `T` is the caller's promise about the selected columns, not a check:
 * PostgreSQL `bigint` and `numeric` come back as strings (convert in SQL,
 * e.g. `count(*)::int`, or convert with `Number`).
 */
export async function queryRows<T extends Record<string, unknown>>(db: Db | Tx, query: SQL): Promise<T[]> {
  const res = (await db.execute(query)) as unknown as { rows: T[] };
  return res.rows;
}

/** The first row of `queryRows`, or undefined when the statement returned none. */
export async function queryRow<T extends Record<string, unknown>>(db: Db | Tx, query: SQL): Promise<T | undefined> {
  return (await queryRows<T>(db, query))[0];
}

/** True when the database answers `select 1` within `ms` milliseconds (readiness, the metrics' `venue_database_up`). */
export async function databaseAnswers(db: Db, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  const query = db.execute(sql`select 1`).then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([query, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
