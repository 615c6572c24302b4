import { and, desc, eq, inArray, isNotNull, isNull, or, sql } from 'drizzle-orm';
import {
  EMPLOYEE_CLIENT_TYPES,
  type AttendanceErrorCode,
  type ServerAttendanceResult,
  type TerminalAttendance,
} from '@venue/domain';
import type { Db, Tx } from '../../db/index.js';
import { attendanceLogs, clients, clubs, terminals } from '../../db/schema.js';
import { identificationMatch } from '../gate/entrance.service.js';
import { AppError } from '../../lib/errors.js';
import { scoped } from '../../lib/scoped.js';
import { clubSettings } from '../club/club.service.js';
import { shiftMinutes } from './attendance.present.js';
import { assertNoOverlap, lockEmployee } from './attendance.rules.js';

/** The terminal a clocking came through (its link). */
export interface ClockLink {
  clubId: number;
  terminalId: number;
}

type Answer = ServerAttendanceResult;

function refused(eventId: string, code: AttendanceErrorCode): Answer {
  return { type: 'attendance-result', eventId, ok: false, code };
}

/** The answer of a record a clocking wrote (the first write or a resend). */
function clocked(eventId: string, row: typeof attendanceLogs.$inferSelect, action: 'in' | 'out', name: string): Answer {
  const at = (action === 'in' ? row.entryAt : row.exitAt)!;
  const minutes = action === 'out' ? shiftMinutes(row.entryAt, row.exitAt) : null;
  return {
    type: 'attendance-result',
    eventId,
    ok: true,
    action,
    at: at.toISOString(),
    clientName: name,
    ...(minutes != null ? { minutes } : {}),
  };
}

/** The employee an identification names (a live client of type Manager or Technician), or undefined. */
async function employeeOf(db: Db, clubId: number, m: TerminalAttendance) {
  const match = await identificationMatch(db, clubId, m.identification);
  if (!match) return undefined;
  const [c] = await db
    .select({ id: clients.id, firstName: clients.firstName, lastName: clients.lastName })
    .from(clients)
    .where(scoped(db, clubId).live(clients, match, inArray(clients.clientType, [...EMPLOYEE_CLIENT_TYPES])))
    .orderBy(sql`(${clients.clientCode} = ${m.identification.value}) desc`)
    .limit(1);
  return c;
}

/**
 * The toggle, for a locked employee: a resend of the same event answers what
 * it wrote; an open shift is closed at `at`; else a shift opens at `at`.
 * @throws AppError ATTENDANCE_OVERLAP when `at` falls inside another shift (an old offline event)
 */
async function toggle(tx: Tx, link: ClockLink, clientId: number, eventId: string, at: Date, name: string) {
  const mine = and(eq(attendanceLogs.clubId, link.clubId), eq(attendanceLogs.clientId, clientId));
  const [resent] = await tx
    .select()
    .from(attendanceLogs)
    .where(
      and(
        mine,
        or(
          and(eq(attendanceLogs.entryTerminalId, link.terminalId), eq(attendanceLogs.entryEventId, eventId)),
          and(eq(attendanceLogs.exitTerminalId, link.terminalId), eq(attendanceLogs.exitEventId, eventId)),
        ),
      ),
    );
  if (resent) return clocked(eventId, resent, resent.exitEventId === eventId ? 'out' : 'in', name);
  const [open] = await tx
    .select()
    .from(attendanceLogs)
    .where(and(mine, isNotNull(attendanceLogs.entryAt), isNull(attendanceLogs.exitAt)))
    .orderBy(desc(attendanceLogs.entryAt))
    .limit(1);
  if (open && open.entryAt! < at) {
    await assertNoOverlap(tx, link.clubId, { clientId, entryAt: open.entryAt, exitAt: at, excludeId: open.id });
    const [row] = await tx
      .update(attendanceLogs)
      .set({ exitAt: at, exitTerminalId: link.terminalId, exitSource: 'terminal', exitEventId: eventId })
      .where(eq(attendanceLogs.id, open.id))
      .returning();
    return clocked(eventId, row, 'out', name);
  }
  await assertNoOverlap(tx, link.clubId, { clientId, entryAt: at, exitAt: null });
  const [row] = await tx
    .insert(attendanceLogs)
    .values({
      clubId: link.clubId,
      clientId,
      entryAt: at,
      entryTerminalId: link.terminalId,
      entrySource: 'terminal',
      entryEventId: eventId,
    })
    .returning();
  return clocked(eventId, row, 'in', name);
}

/**
 * An employee clocking at a terminal (docs/terminal-protocol.md "Attendance",
 * docs/attendance.md): with the club's attendance on (isEmployeeAttendanceEnabled,
 * seed 000 §3) and an approved terminal, the employee the identification
 * names (a Manager or Technician client) clocks out of an open shift, or in.
 * A fingerprint or face counts only with isEmployeeBiometricAuthEnabled.
 * Idempotent on (terminal, eventId). `at` is already bounded by the caller.
 */
export async function clockAtTerminal(db: Db, link: ClockLink, m: TerminalAttendance, at: Date): Promise<Answer> {
  const [t] = await db
    .select({ approved: terminals.approved, club: clubs.settings })
    .from(terminals)
    .innerJoin(clubs, eq(clubs.id, terminals.clubId))
    .where(scoped(db, link.clubId).live(terminals, eq(terminals.id, link.terminalId)));
  if (!t?.approved) return refused(m.eventId, 'TERMINAL_NOT_APPROVED');
  const settings = clubSettings({ settings: t.club });
  if (!settings.isEmployeeAttendanceEnabled) return refused(m.eventId, 'ATTENDANCE_DISABLED');
  const biometric = m.identification.kind === 'fingerprint' || m.identification.kind === 'face';
  if (biometric && !settings.isEmployeeBiometricAuthEnabled) return refused(m.eventId, 'BIOMETRIC_NOT_ALLOWED');
  const employee = await employeeOf(db, link.clubId, m);
  if (!employee) return refused(m.eventId, 'NOT_EMPLOYEE');
  const name = `${employee.firstName} ${employee.lastName}`.trim();
  try {
    return await db.transaction(async (tx) => {
      await lockEmployee(tx, link.clubId, employee.id);
      return toggle(tx, link, employee.id, m.eventId, at, name);
    });
  } catch (err) {
    if (err instanceof AppError && err.code === 'ATTENDANCE_OVERLAP') return refused(m.eventId, 'OVERLAP');
    throw err;
  }
}
