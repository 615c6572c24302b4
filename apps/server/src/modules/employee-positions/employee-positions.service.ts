import { asc, sql, type SQL } from 'drizzle-orm';
import type { EmployeePosition, EmployeePositionInput } from '@venue/domain';
import type { Db, Tx } from '../../db/index.js';
import { queryRow } from '../../db/query.js';
import { clients, employeePositions, users } from '../../db/schema.js';
import type { Actor } from '../../lib/actor.js';
import { audit } from '../../lib/audit.js';
import { AppError } from '../../lib/errors.js';
import { scoped } from '../../lib/scoped.js';
import { validationError } from '../../lib/validation.js';

type PositionRow = typeof employeePositions.$inferSelect;

/** Maps a position row and the count of users and employees holding it to the API shape (seed 001 §3 "Employee position"); rate in agorot. */
export function presentPosition(r: PositionRow, usedBy: number): EmployeePosition {
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    hourlyRate: r.hourlyRate,
    usedBy,
    createdAt: r.createdAt.toISOString(),
  };
}

/**
 * The number of users and employees (clients, docs/attendance.md) of the club holding the
 * position whose club and id are the SQL expressions given: the one count the list, the
 * single read and the delete check share. The position's columns are qualified by the table
 * name on purpose: drizzle writes a column of the selected table unqualified inside a
 * select list, and unqualified `"id"` in the subqueries meant `u.id`/`c.id` — the list
 * counted 0 holders of a held position while delete refused it (issue 34).
 */
function holdersOf(clubId: SQL, positionId: SQL): SQL<number> {
  return sql<number>`((select count(*)::int from ${users} u where u.club_id = ${clubId} and u.employee_position_id = ${positionId})
    + (select count(*)::int from ${clients} c where c.club_id = ${clubId} and c.employee_position_id = ${positionId}))`;
}

/** How many users and employees of the club hold position `id`. */
async function usersHolding(db: Db | Tx, clubId: number, id: number): Promise<number> {
  const r = await queryRow<{ n: number }>(db, sql`select ${holdersOf(sql`${clubId}`, sql`${id}`)} as n`);
  return Number(r?.n ?? 0);
}

/** The club's positions by name, each with the number of users holding it (GET /api/EmployeePosition). */
export async function listPositions(db: Db, clubId: number): Promise<{ items: EmployeePosition[]; total: number }> {
  const rows = await db
    .select({
      p: employeePositions,
      usedBy: holdersOf(
        sql`${employeePositions}.${sql.identifier('club_id')}`,
        sql`${employeePositions}.${sql.identifier('id')}`,
      ),
    })
    .from(employeePositions)
    .where(scoped(db, clubId).where(employeePositions))
    .orderBy(asc(employeePositions.name), asc(employeePositions.id));
  return { items: rows.map((r) => presentPosition(r.p, Number(r.usedBy))), total: rows.length };
}

/**
 * One position of the club (GET /api/EmployeePosition/{id}).
 * @throws AppError NOT_FOUND (404) when the id is not a position of this club
 */
export async function getPosition(db: Db | Tx, clubId: number, id: number): Promise<EmployeePosition> {
  const row = await scoped(db, clubId).one(employeePositions, id, 'employee position');
  return presentPosition(row, await usersHolding(db, clubId, id));
}

/**
 * Checks that `id` (when not null) is a position of the club: the user form's
 * position field (POST/PATCH /api/User). Locks the position row for the rest of
 * the caller's transaction, so a delete cannot slip between check and write.
 * @throws AppError VALIDATION_ERROR (400, path employeePositionId, message invalidId) otherwise
 */
export async function assertPositionOfClub(db: Db | Tx, clubId: number, id: number | null | undefined): Promise<void> {
  if (id == null) return;
  if (!(await scoped(db, clubId).find(employeePositions, id, { forUpdate: true }))) {
    throw validationError([{ path: 'employeePositionId', message: 'invalidId' }]);
  }
}

/** Creates a position (POST /api/EmployeePosition; seed 001 §5 "Employee position: name required"), audited. */
export async function createPosition(db: Db, actor: Actor, input: EmployeePositionInput): Promise<EmployeePosition> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(employeePositions)
      .values({ ...input, clubId: actor.clubId })
      .returning();
    const created = presentPosition(row, 0);
    await audit(tx, actor, { action: 'create', entity: 'employeePosition', entityId: row.id, after: created });
    return created;
  });
}

/**
 * Replaces a position's fields (PUT /api/EmployeePosition/{id}), audited with before and after.
 * @throws AppError NOT_FOUND (404) when the id is not a position of this club
 */
export async function updatePosition(
  db: Db,
  actor: Actor,
  id: number,
  input: EmployeePositionInput,
): Promise<EmployeePosition> {
  return db.transaction(async (tx) => {
    const s = scoped(tx, actor.clubId);
    await s.one(employeePositions, id, 'employee position', { forUpdate: true });
    const before = await getPosition(tx, actor.clubId, id);
    await s.update(employeePositions, id, input);
    const after = await getPosition(tx, actor.clubId, id);
    await audit(tx, actor, { action: 'update', entity: 'employeePosition', entityId: id, before, after });
    return after;
  });
}

/**
 * Deletes a position (DELETE /api/EmployeePosition/{id}) that no user or employee holds.
 * The row is locked first, so a user cannot be given it between the check and the delete
 * (the user service checks the position under the same transaction).
 * @throws AppError NOT_FOUND (404) when the id is not a position of this club
 * @throws AppError POSITION_IN_USE (409, details {users}) when users or employees hold it (seed 001 §8 "delete failure")
 */
export async function deletePosition(db: Db, actor: Actor, id: number): Promise<{ ok: true }> {
  return db.transaction(async (tx) => {
    const s = scoped(tx, actor.clubId);
    const row = await s.one(employeePositions, id, 'employee position', { forUpdate: true });
    const holding = await usersHolding(tx, actor.clubId, id);
    if (holding > 0) {
      throw new AppError('POSITION_IN_USE', `${holding} users hold this position`, { users: holding });
    }
    await s.remove(employeePositions, id);
    await audit(tx, actor, {
      action: 'delete',
      entity: 'employeePosition',
      entityId: id,
      before: presentPosition(row, 0),
    });
    return { ok: true as const };
  });
}
