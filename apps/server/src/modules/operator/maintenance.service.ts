import { createHash, timingSafeEqual } from 'node:crypto';
import { desc, eq } from 'drizzle-orm';
import pg from 'pg';
import {
  MAINTENANCE_ROW_LIMIT,
  MAINTENANCE_TIMEOUT_MS,
  type ExecuteSqlInput,
  type ExecuteSqlResult,
  type ScriptVersion,
  type ScriptVersionInput,
  type ScriptVersionPatch,
} from '@venue/domain';
import type { Actor } from '../../lib/actor.js';
import type { Db } from '../../db/index.js';
import { scriptVersions } from '../../db/schema.js';
import { audit } from '../../lib/audit.js';
import { AppError, notFound } from '../../lib/errors.js';
import { singleQueryStatement } from './maintenance-sql.js';

/**
 * The operator's maintenance (seed 000 §7 "Club"; DESIGN §10; docs/operator.md):
 * the terminal software versions it publishes and the maintenance query.
 * Both belong to no club: their audit rows carry the operator's user id and
 * no club.
 */

type VersionRow = typeof scriptVersions.$inferSelect;

function present(r: VersionRow): ScriptVersion {
  return {
    id: r.id,
    version: r.version,
    notes: r.notes,
    fileUrl: r.fileUrl,
    publishedAt: r.publishedAt.toISOString(),
  };
}

/** The operator as the audit journal sees a no-club action. */
const operatorActor = (actor: Actor) => ({ clubId: null, userId: actor.userId, ip: actor.ip });

/** Every published terminal software version, newest first (GET /Club/GetScriptVersionList). */
export async function listScriptVersions(db: Db): Promise<ScriptVersion[]> {
  const rows = await db
    .select()
    .from(scriptVersions)
    .orderBy(desc(scriptVersions.publishedAt), desc(scriptVersions.id));
  return rows.map(present);
}

/** The newest published version, or null: what a terminal's "check for updates" is offered. */
export async function latestScriptVersion(db: Db): Promise<ScriptVersion | null> {
  const [r] = await db
    .select()
    .from(scriptVersions)
    .orderBy(desc(scriptVersions.publishedAt), desc(scriptVersions.id))
    .limit(1);
  return r ? present(r) : null;
}

/**
 * Publishes a version (operator only). Audited.
 * @throws AppError CONFLICT (409) when the version label exists
 */
export async function createScriptVersion(db: Db, actor: Actor, input: ScriptVersionInput): Promise<ScriptVersion> {
  return db.transaction(async (tx) => {
    const [r] = await tx
      .insert(scriptVersions)
      .values({ ...input, createdBy: actor.userId })
      .onConflictDoNothing()
      .returning();
    if (!r) throw new AppError('CONFLICT', `Version ${input.version} exists`);
    await audit(tx, operatorActor(actor), {
      action: 'create',
      entity: 'scriptVersion',
      entityId: r.id,
      after: present(r),
    });
    return present(r);
  });
}

/**
 * Changes a published version's label, notes or file URL. Audited.
 * @throws AppError NOT_FOUND (404) for an unknown id, CONFLICT (409) for a taken label
 */
export async function updateScriptVersion(
  db: Db,
  actor: Actor,
  id: number,
  patch: ScriptVersionPatch,
): Promise<ScriptVersion> {
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(scriptVersions).where(eq(scriptVersions.id, id)).for('update');
    if (!before) throw notFound('script version');
    if (patch.version && patch.version !== before.version) {
      const [taken] = await tx
        .select({ id: scriptVersions.id })
        .from(scriptVersions)
        .where(eq(scriptVersions.version, patch.version));
      if (taken) throw new AppError('CONFLICT', `Version ${patch.version} exists`);
    }
    const [after] = await tx.update(scriptVersions).set(patch).where(eq(scriptVersions.id, id)).returning();
    await audit(tx, operatorActor(actor), {
      action: 'update',
      entity: 'scriptVersion',
      entityId: id,
      before: present(before),
      after: present(after),
    });
    return present(after);
  });
}

/**
 * Withdraws a published version (terminals are no longer offered it). Audited.
 * @throws AppError NOT_FOUND (404) for an unknown id
 */
export async function deleteScriptVersion(db: Db, actor: Actor, id: number): Promise<{ ok: true }> {
  return db.transaction(async (tx) => {
    const [before] = await tx.delete(scriptVersions).where(eq(scriptVersions.id, id)).returning();
    if (!before) throw notFound('script version');
    await audit(tx, operatorActor(actor), {
      action: 'delete',
      entity: 'scriptVersion',
      entityId: id,
      before: present(before),
    });
    return { ok: true as const };
  });
}

/** Constant-time comparison of two passwords (by their SHA-256, so lengths do not leak). */
function samePassword(given: string, configured: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(configured).digest();
  return timingSafeEqual(a, b);
}

/** The SQLSTATE of a database error, looking through Drizzle's wrapper. */
function sqlState(err: unknown): { code: string; message: string } | null {
  for (let e = err as { code?: unknown; message?: unknown; cause?: unknown } | undefined, i = 0; e && i < 4; i++) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) {
      return { code: e.code, message: typeof e.message === 'string' ? e.message : '' };
    }
    e = e.cause as typeof e;
  }
  return null;
}

/** A database refusal of a maintenance query as the catalogue code it answers. */
function refusal(err: unknown): AppError {
  const state = sqlState(err);
  if (!state) return err instanceof AppError ? err : new AppError('SQL_ERROR', 'The database refused the query');
  // 25006 read_only_sql_transaction; 0A000 a data-modifying WITH below the top level.
  if (['25006', '0A000'].includes(state.code)) {
    return new AppError('SQL_NOT_READ_ONLY', 'Only read-only queries may be run', { sqlState: state.code });
  }
  // 42501 insufficient privilege: a table or function the maintenance role may not use (secrets, files).
  if (state.code === '42501') {
    return new AppError('SQL_NOT_PERMITTED', 'The maintenance role may not read this', { sqlState: state.code });
  }
  if (state.code === '57014') return new AppError('SQL_TIMEOUT', 'The query ran too long', { sqlState: state.code });
  return new AppError('SQL_ERROR', 'The database refused the query', { sqlState: state.code, message: state.message });
}

/**
 * Runs one read-only statement for the operator (seed 000 §7 POST /Db/ExecuteSql,
 * DESIGN §10): in a READ ONLY transaction with `statement_timeout`
 * MAINTENANCE_TIMEOUT_MS (5 s) and at most MAINTENANCE_ROW_LIMIT (1000) rows
 * (the statement is run as a subquery with a LIMIT). The statement's text and
 * its outcome are written to the audit journal (no club, the operator's id),
 * refused ones included.
 * @throws AppError NOT_FOUND (404) when no maintenance password is configured
 * @throws AppError WRONG_PASSWORD (422), SQL_MULTIPLE_STATEMENTS (422),
 *   SQL_NOT_READ_ONLY (422), SQL_TIMEOUT (422), SQL_ERROR (422, details {sqlState, message})
 */
export async function executeMaintenanceSql(
  db: Db,
  actor: Actor,
  input: ExecuteSqlInput,
  configuredPassword: string | undefined,
  maintenanceUrl?: string,
): Promise<ExecuteSqlResult> {
  if (!configuredPassword || !maintenanceUrl) throw notFound('route');
  let outcome = 'ok';
  try {
    const wait = passwordWait(actor.userId);
    if (wait > 0) throw new AppError('TOO_MANY_REQUESTS', 'Too many wrong passwords', { retryAfterSeconds: wait });
    if (!samePassword(input.password, configuredPassword)) {
      passwordFailed(actor.userId);
      throw new AppError('WRONG_PASSWORD', 'Wrong password');
    }
    const statement = singleQueryStatement(input.data);
    const pool = maintenancePool(maintenanceUrl);
    await assertMaintenanceRole(pool);
    return await runReadOnly(pool, statement);
  } catch (err) {
    const answer = refusal(err);
    outcome = answer.code;
    throw answer;
  } finally {
    await audit(db, operatorActor(actor), {
      action: 'execute',
      entity: 'maintenanceSql',
      entityId: 0,
      after: { statement: input.data, outcome },
    });
  }
}

/** Wrong maintenance passwords per operator: at most MAX_PASSWORD_FAILURES in PASSWORD_WINDOW_MS, then a wait. */
const MAX_PASSWORD_FAILURES = 5;
const PASSWORD_WINDOW_MS = 15 * 60_000;
const failures = new Map<number, number[]>();

/** Seconds the operator must wait before another try (0: may try now). Per server instance. */
function passwordWait(userId: number): number {
  const now = Date.now();
  const recent = (failures.get(userId) ?? []).filter((t) => now - t < PASSWORD_WINDOW_MS);
  failures.set(userId, recent);
  return recent.length >= MAX_PASSWORD_FAILURES ? Math.ceil((recent[0] + PASSWORD_WINDOW_MS - now) / 1000) : 0;
}

function passwordFailed(userId: number): void {
  failures.set(userId, [...(failures.get(userId) ?? []), Date.now()]);
}

const pools = new Map<string, pg.Pool>();

/** The maintenance role's own small pool (MAINTENANCE_DATABASE_URL): never the server's connections. */
function maintenancePool(url: string): pg.Pool {
  let p = pools.get(url);
  if (!p) {
    p = new pg.Pool({
      connectionString: url,
      max: 2,
      connectionTimeoutMillis: 5_000,
      options: `-c statement_timeout=${MAINTENANCE_TIMEOUT_MS} -c default_transaction_read_only=on`,
    });
    p.on('error', () => undefined);
    pools.set(url, p);
  }
  return p;
}

/** Ends the maintenance pools (server shutdown). */
export async function closeMaintenancePools(): Promise<void> {
  const all = [...pools.values()];
  pools.clear();
  await Promise.all(all.map((p) => p.end().catch(() => undefined)));
}

/**
 * Refuses to run unless the maintenance connection's role is safe
 * (docs/operator.md "Maintenance query"): not a superuser, no CREATEROLE,
 * CREATEDB, REPLICATION or BYPASSRLS, not in pg_read_server_files,
 * pg_write_server_files or pg_execute_server_program, and unable to read the
 * server's secrets (server_state) or the users' password hashes. A superuser
 * session could leave any SET ROLE with set_config('session_authorization').
 * @throws AppError SQL_NOT_CONFIGURED (422) naming what is wrong
 */
async function assertMaintenanceRole(pool: pg.Pool): Promise<void> {
  const { rows } = await pool.query<{ unsafe: string[] }>(`
    select array_remove(array[
      case when r.rolsuper then 'superuser' end,
      case when r.rolcreaterole then 'createrole' end,
      case when r.rolcreatedb then 'createdb' end,
      case when r.rolreplication then 'replication' end,
      case when r.rolbypassrls then 'bypassrls' end,
      case when pg_has_role(session_user, 'pg_read_server_files', 'member') then 'pg_read_server_files' end,
      case when pg_has_role(session_user, 'pg_write_server_files', 'member') then 'pg_write_server_files' end,
      case when pg_has_role(session_user, 'pg_execute_server_program', 'member') then 'pg_execute_server_program' end,
      case when has_table_privilege(session_user, 'server_state', 'select') then 'server_state' end,
      case when has_column_privilege(session_user, 'users', 'password_hash', 'select') then 'users.password_hash' end
    ], null) as unsafe
    from pg_roles r where r.rolname = session_user`);
  const unsafe = rows[0]?.unsafe ?? ['unknown role'];
  if (unsafe.length)
    throw new AppError('SQL_NOT_CONFIGURED', 'The maintenance role is not read-only by construction', { unsafe });
}

async function runReadOnly(pool: pg.Pool, statement: string): Promise<ExecuteSqlResult> {
  const client = await pool.connect();
  let res: { rows: Record<string, unknown>[]; fields?: { name: string }[] };
  try {
    await client.query('BEGIN READ ONLY');
    await client.query(`SET LOCAL statement_timeout = ${MAINTENANCE_TIMEOUT_MS}`);
    const wrapped = `SELECT * FROM (\n${statement}\n) AS maintenance_query LIMIT ${MAINTENANCE_ROW_LIMIT + 1}`;
    res = await client.query(wrapped);
  } finally {
    await client.query('ROLLBACK').catch(() => undefined);
    client.release();
  }
  const truncated = res.rows.length > MAINTENANCE_ROW_LIMIT;
  const rows = truncated ? res.rows.slice(0, MAINTENANCE_ROW_LIMIT) : res.rows;
  const columns = res.fields?.map((f) => f.name) ?? Object.keys(rows[0] ?? {});
  return { columns, rows, rowCount: rows.length, truncated };
}
