import type { FastifyInstance } from 'fastify';
import { contract } from '@venue/domain';
import { route } from '../../lib/contract-route.js';
import { startAttendanceScheduler } from './attendance.autoclose.js';
import {
  createAttendance,
  listAttendance,
  listEmployees,
  setEmployeePosition,
  updateAttendance,
} from './attendance.service.js';

/**
 * Attendance records (seed 000 §7 `/AttendanceLog/*`, docs/attendance.md); the entries are
 * `contract.attendance`. Also starts the job that closes forgotten exits.
 */
export async function attendanceRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps.database;
  const c = contract.attendance;
  route(app, c.list, async (req) => listAttendance(db, req.auth.clubId, req.body));
  route(app, c.create, async (req) => createAttendance(db, req.auth, req.body));
  route(app, c.employees, async (req) => listEmployees(db, req.auth.clubId));
  route(app, c.setPosition, async (req) => setEmployeePosition(db, req.auth, req.body));
  route(app, c.update, async (req) => updateAttendance(db, req.auth, req.body));
  startAttendanceScheduler(app);
}
