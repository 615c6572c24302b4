import { aliasedTable, and, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { AttendanceLog, AttendanceModification, AttendanceTimes } from '@venue/domain';
import type { Db, Tx } from '../../db/index.js';
import { attendanceLogs, clients, terminals } from '../../db/schema.js';

export type AttendanceRow = typeof attendanceLogs.$inferSelect;

const entryTerminal = aliasedTable(terminals, 'entry_terminal');
const exitTerminal = aliasedTable(terminals, 'exit_terminal');

/** The first time of a record (entry, else exit): what lists sort and filter days by. */
export const firstTime = sql<Date>`coalesce(${attendanceLogs.entryAt}, ${attendanceLogs.exitAt})`;

/** The fields a person may change, as kept in `original` and in each modification (instants as ISO strings). */
export function timesOf(r: AttendanceRow): AttendanceTimes {
  return {
    entryAt: r.entryAt?.toISOString() ?? null,
    entryTerminalId: r.entryTerminalId,
    exitAt: r.exitAt?.toISOString() ?? null,
    exitTerminalId: r.exitTerminalId,
    comment: r.comment,
  };
}

/** Minutes between entry and exit (rounded down), or null when either is missing. */
export function shiftMinutes(entryAt: Date | null, exitAt: Date | null): number | null {
  if (!entryAt || !exitAt) return null;
  return Math.floor((exitAt.getTime() - entryAt.getTime()) / 60_000);
}

interface JoinedRow {
  log: AttendanceRow;
  firstName: string;
  lastName: string;
  number: number;
  clientType: number;
  entryTerminalName: string | null;
  exitTerminalName: string | null;
}

/** Maps a record with its client and terminals to the API shape (seed 001 §3 "Attendance record"). */
export function presentAttendance(j: JoinedRow): AttendanceLog {
  const r = j.log;
  return {
    id: r.id,
    clientId: r.clientId,
    clientName: `${j.firstName} ${j.lastName}`.trim(),
    clientNumber: j.number,
    clientType: j.clientType,
    entryAt: r.entryAt?.toISOString() ?? null,
    entryTerminalId: r.entryTerminalId,
    entryTerminalName: j.entryTerminalName,
    entrySource: r.entrySource ?? null,
    exitAt: r.exitAt?.toISOString() ?? null,
    exitTerminalId: r.exitTerminalId,
    exitTerminalName: j.exitTerminalName,
    exitSource: r.exitSource ?? null,
    exitAutomatic: r.exitSource === 'automatic',
    minutes: shiftMinutes(r.entryAt, r.exitAt),
    comment: r.comment,
    original: (r.original as AttendanceTimes | null) ?? null,
    modifications: (r.modifications ?? []) as AttendanceModification[],
    createdAt: r.createdAt.toISOString(),
  };
}

/**
 * Records of the club matching `where` (already club-scoped by the caller),
 * newest first, with client and terminal names; `limit`/`offset` page them.
 */
export async function selectAttendance(
  db: Db | Tx,
  where: SQL,
  page: { limit?: number; offset?: number } = {},
): Promise<AttendanceLog[]> {
  let q = db
    .select({
      log: attendanceLogs,
      firstName: clients.firstName,
      lastName: clients.lastName,
      number: clients.number,
      clientType: clients.clientType,
      entryTerminalName: entryTerminal.name,
      exitTerminalName: exitTerminal.name,
    })
    .from(attendanceLogs)
    .innerJoin(clients, eq(clients.id, attendanceLogs.clientId))
    .leftJoin(entryTerminal, eq(entryTerminal.id, attendanceLogs.entryTerminalId))
    .leftJoin(exitTerminal, eq(exitTerminal.id, attendanceLogs.exitTerminalId))
    .where(where)
    .orderBy(desc(firstTime), desc(attendanceLogs.id))
    .$dynamic();
  if (page.limit !== undefined) q = q.limit(page.limit);
  if (page.offset !== undefined) q = q.offset(page.offset);
  return (await q).map(presentAttendance);
}

/** One record of the club, presented; undefined when there is none. */
export async function attendanceById(db: Db | Tx, clubId: number, id: number): Promise<AttendanceLog | undefined> {
  const [r] = await selectAttendance(db, and(eq(attendanceLogs.clubId, clubId), eq(attendanceLogs.id, id))!);
  return r;
}
