import { and, asc, eq, gte, inArray, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import {
  attendanceIssues,
  EMPLOYEE_CLIENT_TYPES,
  type AttendanceEmployee,
  type EmployeePositionAssignment,
  type AttendanceLog,
  type AttendanceLogInput,
  type AttendanceLogQuery,
  type AttendanceLogUpdate,
  type AttendanceModification,
  type AttendanceTimes,
  isoDate as formatIsoDate,
} from '@venue/domain';
import type { Db, Tx } from '../../db/index.js';
import { attendanceLogs, clients } from '../../db/schema.js';
import type { Actor } from '../../lib/actor.js';
import { audit } from '../../lib/audit.js';
import { notFound } from '../../lib/errors.js';
import { scoped } from '../../lib/scoped.js';
import { assertValid } from '../../lib/validation.js';
import { clubTimeZone, todayIn, toInstants } from '../reports/report-range.js';
import { attendanceById, firstTime, selectAttendance, timesOf } from './attendance.present.js';
import { assertPositionOfClub } from '../employee-positions/employee-positions.service.js';
import { assertClubTerminal, assertNoOverlap, lockEmployee } from './attendance.rules.js';

/**
 * Records of the club (POST /api/AttendanceLog/GetAttendanceLogs): those whose
 * first time falls on the club's local days `from`..`to` (`to` defaults to
 * today, `from` to `to`), or
 * with `openOnly` every shift without an exit ("who is in now"); optionally
 * of one employee; newest first, paged.
 */
export async function listAttendance(
  db: Db,
  clubId: number,
  q: AttendanceLogQuery,
): Promise<{ items: AttendanceLog[]; total: number }> {
  const s = scoped(db, clubId);
  const byClient = q.clientId === undefined ? undefined : eq(attendanceLogs.clientId, q.clientId);
  let when;
  if (q.openOnly) {
    when = and(isNotNull(attendanceLogs.entryAt), isNull(attendanceLogs.exitAt));
  } else {
    const tz = await clubTimeZone(db, clubId);
    const to = q.to ?? formatIsoDate(todayIn(tz));
    const from = q.from ?? to;
    const r = toInstants(from <= to ? { from, to } : { from, to: from }, tz);
    when = and(gte(firstTime, r.start), lt(firstTime, r.end));
  }
  const where = s.where(attendanceLogs, byClient, when);
  const [{ n }] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(attendanceLogs)
    .where(where);
  const items = await selectAttendance(db, where, { limit: q.pageSize, offset: (q.page - 1) * q.pageSize });
  return { items, total: n };
}

/** The instants of a record's request fields. */
function instants(r: { entryAt: string | null; exitAt: string | null }) {
  return { entryAt: r.entryAt ? new Date(r.entryAt) : null, exitAt: r.exitAt ? new Date(r.exitAt) : null };
}

/**
 * Checks a record a person writes, beyond its schema: the rules of seed 001 §5
 * against the server's clock, the employee, the terminals, no overlap.
 */
async function checkRecord(
  tx: Tx,
  clubId: number,
  r: AttendanceLogInput,
  excludeId?: number,
): Promise<{ clientId: number; entryAt: Date | null; exitAt: Date | null }> {
  assertValid(attendanceIssues(r));
  const clientId = r.clientId as number;
  await lockEmployee(tx, clubId, clientId);
  await assertClubTerminal(tx, clubId, r.entryTerminalId);
  await assertClubTerminal(tx, clubId, r.exitTerminalId);
  const t = instants(r);
  await assertNoOverlap(tx, clubId, { clientId, ...t, excludeId });
  return { clientId, ...t };
}

/**
 * Writes a record by hand (POST /api/AttendanceLog/CreateAttendanceLog; seed
 * 001 §5 "Attendance"): the given times are marked `manual`; audited.
 * @throws AppError VALIDATION_ERROR (400) clientRequired, timeRequired, futureTime, exitBeforeEntry, notEmployee
 * @throws AppError NOT_FOUND (404) for a client or terminal that is not the club's
 * @throws AppError ATTENDANCE_OVERLAP (409, details {id}) when it overlaps another shift of the employee
 */
export async function createAttendance(db: Db, actor: Actor, input: AttendanceLogInput): Promise<AttendanceLog> {
  return db.transaction(async (tx) => {
    const { clientId, entryAt, exitAt } = await checkRecord(tx, actor.clubId, input);
    const [row] = await tx
      .insert(attendanceLogs)
      .values({
        clubId: actor.clubId,
        clientId,
        entryAt,
        entryTerminalId: input.entryTerminalId,
        entrySource: entryAt ? 'manual' : null,
        exitAt,
        exitTerminalId: input.exitTerminalId,
        exitSource: exitAt ? 'manual' : null,
        comment: input.comment,
        createdByUserId: actor.userId,
      })
      .returning();
    const created = (await attendanceById(tx, actor.clubId, row.id))!;
    await audit(tx, actor, { action: 'create', entity: 'attendanceLog', entityId: row.id, after: created });
    return created;
  });
}

/** The source of a time after a person's change: `manual` when the time changed, else as it was. */
function sourceAfter<S>(before: Date | null, after: Date | null, was: S): S | 'manual' | null {
  if (!after) return null;
  return before && before.getTime() === after.getTime() ? was : 'manual';
}

/**
 * Changes a record by hand (PUT /api/AttendanceLog/UpdateAttendanceLog): the
 * record is replaced whole, the times a person changed are marked `manual`,
 * the record as first written is kept in `original`, and the change is
 * appended to `modifications` (who, when, before, after; seed 001 §3
 * "modification info"); audited. The employee may be changed too.
 * @throws AppError NOT_FOUND (404) for a record, client or terminal that is not the club's
 * @throws AppError VALIDATION_ERROR (400), ATTENDANCE_OVERLAP (409) as on create
 */
export async function updateAttendance(db: Db, actor: Actor, input: AttendanceLogUpdate): Promise<AttendanceLog> {
  return db.transaction(async (tx) => {
    const row = await scoped(tx, actor.clubId).one(attendanceLogs, input.id, 'attendance record', {
      forUpdate: true,
    });
    const { clientId, entryAt, exitAt } = await checkRecord(tx, actor.clubId, input, input.id);
    const before = timesOf(row);
    const after: AttendanceTimes = {
      entryAt: entryAt?.toISOString() ?? null,
      entryTerminalId: input.entryTerminalId,
      exitAt: exitAt?.toISOString() ?? null,
      exitTerminalId: input.exitTerminalId,
      comment: input.comment,
    };
    const change: AttendanceModification = {
      userId: actor.userId,
      username: actor.username,
      at: new Date().toISOString(),
      before,
      after,
    };
    await tx
      .update(attendanceLogs)
      .set({
        clientId,
        entryAt,
        entryTerminalId: input.entryTerminalId,
        entrySource: sourceAfter(row.entryAt, entryAt, row.entrySource),
        exitAt,
        exitTerminalId: input.exitTerminalId,
        exitSource: sourceAfter(row.exitAt, exitAt, row.exitSource),
        comment: input.comment,
        original: row.original ?? before,
        modifications: [...(row.modifications ?? []), change],
      })
      .where(eq(attendanceLogs.id, row.id));
    const updated = await attendanceById(tx, actor.clubId, row.id);
    if (!updated) throw notFound('attendance record');
    await audit(tx, actor, { action: 'update', entity: 'attendanceLog', entityId: row.id, before, after });
    return updated;
  });
}

/** The club's employees, live clients of type Manager or Technician, by name (GET /api/AttendanceLog/GetEmployees). */
export async function listEmployees(db: Db, clubId: number): Promise<AttendanceEmployee[]> {
  const rows = await db
    .select({
      id: clients.id,
      firstName: clients.firstName,
      lastName: clients.lastName,
      number: clients.number,
      clientType: clients.clientType,
      employeePositionId: clients.employeePositionId,
    })
    .from(clients)
    .where(scoped(db, clubId).live(clients, inArray(clients.clientType, [...EMPLOYEE_CLIENT_TYPES])))
    .orderBy(asc(clients.firstName), asc(clients.lastName), asc(clients.id));
  return rows.map((r) => ({
    id: r.id,
    name: `${r.firstName} ${r.lastName}`.trim(),
    number: r.number,
    clientType: r.clientType,
    employeePositionId: r.employeePositionId,
  }));
}

/**
 * Sets an employee's position (PUT /api/AttendanceLog/SetEmployeePosition), audited.
 * @throws AppError NOT_FOUND (404) for a client that is not the club's
 * @throws AppError VALIDATION_ERROR (400) clientId `notEmployee`, employeePositionId `invalidId` (not the club's)
 */
export async function setEmployeePosition(
  db: Db,
  actor: Actor,
  body: EmployeePositionAssignment,
): Promise<AttendanceEmployee> {
  return db.transaction(async (tx) => {
    const before = await lockEmployee(tx, actor.clubId, body.clientId);
    await assertPositionOfClub(tx, actor.clubId, body.employeePositionId);
    await tx.update(clients).set({ employeePositionId: body.employeePositionId }).where(eq(clients.id, before.id));
    await audit(tx, actor, {
      action: 'update',
      entity: 'client',
      entityId: before.id,
      before: { employeePositionId: before.employeePositionId },
      after: { employeePositionId: body.employeePositionId },
    });
    return {
      id: before.id,
      name: `${before.firstName} ${before.lastName}`.trim(),
      number: before.number,
      clientType: before.clientType,
      employeePositionId: body.employeePositionId,
    };
  });
}
