import { z } from 'zod';
import { ClientType } from '../enums.js';
import { id, isoDate, text } from '../parts.js';

/**
 * Attendance records (seed 001 §3 "Attendance record": client, employee,
 * entry time and terminal, exit time and terminal, comment, automatic flags,
 * modification info; seed 001 §5 "Attendance"; seed 000 §7 `/AttendanceLog/*`).
 * The employee is a client of type Manager or Technician (EMPLOYEE_CLIENT_TYPES,
 * docs/attendance.md). Times are instants, ISO 8601 with an offset.
 */

/** Client types that count as employees (seed 001 §6 client types; docs/attendance.md "Who is an employee"). */
export const EMPLOYEE_CLIENT_TYPES: readonly number[] = [ClientType.Manager, ClientType.Technician];

/** How a time of a record was written: at a terminal, by a person in the console, or by the closing job. */
export const ATTENDANCE_SOURCES = ['terminal', 'manual', 'automatic'] as const;
export type AttendanceSource = (typeof ATTENDANCE_SOURCES)[number];

/** Clock skew a console may have: a time up to one minute ahead of the server is still "now". */
export const ATTENDANCE_FUTURE_SLACK_MS = 60_000;

/** An instant in a request: ISO 8601 with `Z` or an offset, e.g. `2026-11-25T08:00:00+02:00`. */
const instant = z.iso.datetime({ offset: true, message: 'invalidDate' });

const recordShape = {
  clientId: id.nullable().optional(),
  entryAt: instant.nullable().default(null),
  entryTerminalId: id.nullable().default(null),
  exitAt: instant.nullable().default(null),
  exitTerminalId: id.nullable().default(null),
  comment: text(500).trim().default(''),
};

/**
 * The rules of seed 001 §5 "Attendance" on a record: a client must be
 * selected (`clientRequired`); an entry or an exit time is required
 * (`timeRequired`, on entryAt); times not in the future (`futureTime`); exit
 * after entry (`exitBeforeEntry`, on exitAt). `now` in ms (the server's clock;
 * a console's up to ATTENDANCE_FUTURE_SLACK_MS behind is accepted).
 */
export function attendanceIssues(
  r: { clientId?: number | null; entryAt: string | null; exitAt: string | null },
  now: number = Date.now(),
): { path: string; message: string }[] {
  const out: { path: string; message: string }[] = [];
  if (r.clientId == null) out.push({ path: 'clientId', message: 'clientRequired' });
  if (r.entryAt == null && r.exitAt == null) out.push({ path: 'entryAt', message: 'timeRequired' });
  const entry = r.entryAt == null ? null : Date.parse(r.entryAt);
  const exit = r.exitAt == null ? null : Date.parse(r.exitAt);
  if (entry != null && entry > now + ATTENDANCE_FUTURE_SLACK_MS) out.push({ path: 'entryAt', message: 'futureTime' });
  if (exit != null && exit > now + ATTENDANCE_FUTURE_SLACK_MS) out.push({ path: 'exitAt', message: 'futureTime' });
  if (entry != null && exit != null && exit <= entry) out.push({ path: 'exitAt', message: 'exitBeforeEntry' });
  return out;
}

function withRules<T extends z.ZodType<{ clientId?: number | null; entryAt: string | null; exitAt: string | null }>>(
  schema: T,
) {
  return schema.superRefine((r, ctx) => {
    for (const issue of attendanceIssues(r)) {
      ctx.addIssue({ code: 'custom', path: [issue.path], message: issue.message });
    }
  });
}

/** POST /api/AttendanceLog/CreateAttendanceLog: a record written by a person (seed 001 §5 rules). */
export const AttendanceLogInput = withRules(z.strictObject(recordShape));
export type AttendanceLogInput = z.infer<typeof AttendanceLogInput>;

/** PUT /api/AttendanceLog/UpdateAttendanceLog: the record `id` replaced whole; the original is kept. */
export const AttendanceLogUpdate = withRules(z.strictObject({ id, ...recordShape }));
export type AttendanceLogUpdate = z.infer<typeof AttendanceLogUpdate>;

/** The fields a person may change, as kept in `original` and in each modification's before and after. */
export const AttendanceTimes = z.object({
  entryAt: z.string().nullable(),
  entryTerminalId: z.number().nullable(),
  exitAt: z.string().nullable(),
  exitTerminalId: z.number().nullable(),
  comment: z.string(),
});
export type AttendanceTimes = z.infer<typeof AttendanceTimes>;

/** One manual change of a record: who (user id and name), when, before and after. */
export const AttendanceModification = z.object({
  userId: z.number().nullable(),
  username: z.string(),
  at: z.string(),
  before: AttendanceTimes,
  after: AttendanceTimes,
});
export type AttendanceModification = z.infer<typeof AttendanceModification>;

/** A record as the API presents it. `minutes` is the shift's length when both times are known. */
export const AttendanceLog = z.object({
  id: z.number(),
  clientId: z.number(),
  clientName: z.string(),
  clientNumber: z.number(),
  clientType: z.number(),
  entryAt: z.string().nullable(),
  entryTerminalId: z.number().nullable(),
  entryTerminalName: z.string().nullable(),
  entrySource: z.enum(ATTENDANCE_SOURCES).nullable(),
  exitAt: z.string().nullable(),
  exitTerminalId: z.number().nullable(),
  exitTerminalName: z.string().nullable(),
  exitSource: z.enum(ATTENDANCE_SOURCES).nullable(),
  /** Seed 001 §3 "automatic flags": the exit was written by the closing job (docs/attendance.md). */
  exitAutomatic: z.boolean(),
  minutes: z.number().nullable(),
  comment: z.string(),
  /** The record as first written, once a person changed it; null while unchanged. */
  original: AttendanceTimes.nullable(),
  modifications: z.array(AttendanceModification),
  createdAt: z.string(),
});
export type AttendanceLog = z.infer<typeof AttendanceLog>;

/**
 * POST /api/AttendanceLog/GetAttendanceLogs: records whose first time (entry,
 * else exit) falls on the local days `from`..`to` of the club (default today),
 * optionally of one employee; `openOnly` lists the shifts without an exit
 * whatever their day ("who is in now"). Newest first, paged.
 */
export const AttendanceLogQuery = z
  .strictObject({
    from: isoDate.optional(),
    to: isoDate.optional(),
    clientId: id.optional(),
    openOnly: z.boolean().default(false),
    page: z.number().int().min(1).max(100_000).default(1),
    pageSize: z.number().int().min(1).max(500).default(50),
  })
  .superRefine((q, ctx) => {
    if (q.from && q.to && q.from > q.to) ctx.addIssue({ code: 'custom', path: ['to'], message: 'dateRangeOrder' });
  });
export type AttendanceLogQuery = z.infer<typeof AttendanceLogQuery>;

/** GET /api/AttendanceLog/GetEmployees: an employee as the attendance screen's pickers show it. */
export const AttendanceEmployee = z.object({
  id: z.number(),
  name: z.string(),
  number: z.number(),
  clientType: z.number(),
  /** The employee's position (its hourly rate pays the payroll report), or null. */
  employeePositionId: z.number().nullable(),
});

/** PUT /api/AttendanceLog/SetEmployeePosition: an employee's position (null = none). */
export const EmployeePositionAssignment = z.strictObject({
  clientId: id,
  employeePositionId: id.nullable(),
});
export type EmployeePositionAssignment = z.infer<typeof EmployeePositionAssignment>;
export type AttendanceEmployee = z.infer<typeof AttendanceEmployee>;
