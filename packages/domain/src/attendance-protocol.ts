import { z } from 'zod';
import { Identification } from './schemas/terminals.js';
import * as parts from './parts.js';

/**
 * Terminal protocol v1 messages of employee attendance
 * (docs/terminal-protocol.md "Attendance", docs/attendance.md). protocol.ts
 * adds them to its message unions. A terminal that does not know them never
 * sends them; the server sends `attendance-result` only as an answer.
 */

/**
 * An employee clocking at a terminal: the card, fingerprint or face (or
 * code) presented, with the terminal's event id. The server toggles: an open
 * shift of the employee is closed at `at`, else a shift is opened at `at`.
 * `at` (ISO with offset) is when it happened, for an event kept while offline;
 * default when the server receives it.
 */
export const TerminalAttendance = z.object({
  type: z.literal('attendance'),
  eventId: parts.eventId,
  identification: Identification,
  at: z.iso.datetime({ offset: true }).optional(),
});
export type TerminalAttendance = z.infer<typeof TerminalAttendance>;

/** Why a clocking was refused. */
export const ATTENDANCE_ERROR_CODES = [
  /** The club has not switched employee attendance on (isEmployeeAttendanceEnabled). */
  'ATTENDANCE_DISABLED',
  /** The terminal is not approved. */
  'TERMINAL_NOT_APPROVED',
  /** Nobody of an employee type (Manager, Technician) matches the identification. */
  'NOT_EMPLOYEE',
  /** A fingerprint or face while the club does not allow employees to clock with them (isEmployeeBiometricAuthEnabled). */
  'BIOMETRIC_NOT_ALLOWED',
  /** The time falls inside a closed shift of the employee (an offline upload): a person must fix it in the console. */
  'OVERLAP',
] as const;
export type AttendanceErrorCode = (typeof ATTENDANCE_ERROR_CODES)[number];

/**
 * Answer to `attendance`: `ok` with `action` `in` (a shift opened) or `out`
 * (the open shift closed), the instant recorded and the employee's name; or
 * the refusal `code`. A resend with the same `eventId` answers the same.
 */
export const ServerAttendanceResult = z.object({
  type: z.literal('attendance-result'),
  eventId: parts.eventId,
  ok: z.boolean(),
  action: z.enum(['in', 'out']).optional(),
  at: z.string().optional(),
  clientName: z.string().optional(),
  /** Minutes of the shift just closed (`out`). */
  minutes: z.number().int().optional(),
  code: z.enum(ATTENDANCE_ERROR_CODES).optional(),
});
export type ServerAttendanceResult = z.infer<typeof ServerAttendanceResult>;
