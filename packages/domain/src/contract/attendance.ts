import { pageOf } from '../schemas/common.js';
import { z } from 'zod';
import {
  AttendanceEmployee,
  AttendanceLog,
  AttendanceLogInput,
  AttendanceLogQuery,
  AttendanceLogUpdate,
  EmployeePositionAssignment,
} from '../schemas/attendance.js';
import { routes } from './route.js';

/**
 * Viewing: the navigation rule of seed 000 §6 (attendance switched on and
 * roleViewAttendanceLogs, "view attendance, including downloads", seed 001 §6);
 * adding and editing also "manage attendance" (roleManageAttendance).
 */
const view = { permission: 'roleViewAttendanceLogs', nav: 'attendance' } as const;
const manage = { permission: 'roleManageAttendance', nav: 'attendance' } as const;

/** Attendance records (seed 000 §7 "Attendance"; seed 001 §3, §5; docs/attendance.md). */
export const attendance = routes(['attendance'], {
  list: {
    method: 'POST',
    path: '/api/AttendanceLog/GetAttendanceLogs',
    body: AttendanceLogQuery,
    response: pageOf(AttendanceLog),
    access: view,
  },
  create: {
    method: 'POST',
    path: '/api/AttendanceLog/CreateAttendanceLog',
    body: AttendanceLogInput,
    response: AttendanceLog,
    access: manage,
  },
  /**
   * The club's employees (live clients of type Manager or Technician), for the
   * screen's pickers: not a catalogue call of seed 000 §7 (ours), so that
   * attendance needs no client-list permission.
   */
  employees: {
    method: 'GET',
    path: '/api/AttendanceLog/GetEmployees',
    response: z.array(AttendanceEmployee),
    access: view,
  },
  /** An employee's position, whose hourly rate the payroll report pays (ours, docs/attendance.md). */
  setPosition: {
    method: 'PUT',
    path: '/api/AttendanceLog/SetEmployeePosition',
    body: EmployeePositionAssignment,
    response: AttendanceEmployee,
    access: manage,
  },
  update: {
    method: 'PUT',
    path: '/api/AttendanceLog/UpdateAttendanceLog',
    body: AttendanceLogUpdate,
    response: AttendanceLog,
    access: manage,
  },
});
