import { and, eq, ne, sql } from 'drizzle-orm';
import { EMPLOYEE_CLIENT_TYPES } from '@venue/domain';
import type { Tx } from '../../db/index.js';
import { attendanceLogs, clients, terminals } from '../../db/schema.js';
import { AppError } from '../../lib/errors.js';
import { scoped } from '../../lib/scoped.js';
import { validationError } from '../../lib/validation.js';

/** A moment no shift reaches: the end of a shift that is still open. */
const OPEN_END = sql`'infinity'::timestamptz`;

/**
 * The employee `clientId` of the club, locked for the rest of the transaction
 * so that two writes for one employee (console and terminal) take turns and
 * the overlap check sees the other's row.
 * @throws AppError NOT_FOUND (404) when the id is not a client of this club (another club's answers the same)
 * @throws AppError VALIDATION_ERROR (400, clientId `notEmployee`) when the client is deleted or not of an
 *   employee type (Manager or Technician, docs/attendance.md "Who is an employee")
 */
export async function lockEmployee(tx: Tx, clubId: number, clientId: number) {
  const c = await scoped(tx, clubId).one(clients, clientId, 'client', { forUpdate: true });
  const live = await scoped(tx, clubId).find(clients, clientId, { live: true });
  if (!live || !EMPLOYEE_CLIENT_TYPES.includes(c.clientType)) {
    throw validationError([{ path: 'clientId', message: 'notEmployee' }]);
  }
  return c;
}

/**
 * Checks that a terminal named on a record is one of the club's.
 * @throws AppError NOT_FOUND (404, "terminal not found") otherwise
 */
export async function assertClubTerminal(tx: Tx, clubId: number, terminalId: number | null): Promise<void> {
  if (terminalId != null) await scoped(tx, clubId).one(terminals, terminalId, 'terminal');
}

/**
 * Refuses a shift that overlaps another of the same employee (seed 001 §5
 * "Attendance", issue 15 "overlapping shifts refused"). A shift runs from its
 * entry (else its exit) to its exit; a shift without an exit runs on (it is
 * open, so no other shift may start after its entry until it is closed).
 * Shifts that only touch (one's exit is the next one's entry) do not overlap.
 * Call after {@link lockEmployee}, in the same transaction.
 * @throws AppError ATTENDANCE_OVERLAP (409, details {id}) naming the other record
 */
export async function assertNoOverlap(
  tx: Tx,
  clubId: number,
  shift: { clientId: number; entryAt: Date | null; exitAt: Date | null; excludeId?: number },
): Promise<void> {
  const start = shift.entryAt ?? shift.exitAt;
  if (!start) return;
  const end = shift.exitAt ? sql`${shift.exitAt.toISOString()}::timestamptz` : OPEN_END;
  const startSql = sql`${start.toISOString()}::timestamptz`;
  const otherStart = sql`coalesce(${attendanceLogs.entryAt}, ${attendanceLogs.exitAt})`;
  const otherEnd = sql`coalesce(${attendanceLogs.exitAt}, ${OPEN_END})`;
  const [hit] = await tx
    .select({ id: attendanceLogs.id })
    .from(attendanceLogs)
    .where(
      and(
        eq(attendanceLogs.clubId, clubId),
        eq(attendanceLogs.clientId, shift.clientId),
        shift.excludeId === undefined ? undefined : ne(attendanceLogs.id, shift.excludeId),
        sql`((${otherStart} < ${end} and ${startSql} < ${otherEnd}) or ${otherStart} = ${startSql})`,
      ),
    )
    .limit(1);
  if (hit) throw new AppError('ATTENDANCE_OVERLAP', 'The shift overlaps another shift of the employee', { id: hit.id });
}
