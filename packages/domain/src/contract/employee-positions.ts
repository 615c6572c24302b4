import { OkResponse, pageOf } from '../schemas/common.js';
import { EmployeePosition, EmployeePositionInput, EmployeePositionUpdate } from '../schemas/employee-positions.js';
import { IdParams, routes } from './route.js';

/**
 * Reading needs roleViewAttendanceLogs (seed 001 §6 "view attendance"; an
 * admin holds every flag, so the user form's position select always loads);
 * changing needs the positions flag and the navigation entry's rule of seed
 * 000 §6 (attendance switched on for the club).
 */
const view = { permission: 'roleViewAttendanceLogs' } as const;
const edit = { permission: 'roleEditEmployeePositions', nav: 'employeePositions' } as const;

/** Employee positions (seed 000 §7 "Employee positions", seed 001 §3 "Employee position"). */
export const employeePositions = routes(['employee-positions'], {
  list: { method: 'GET', path: '/api/EmployeePosition', response: pageOf(EmployeePosition), access: view },
  get: { method: 'GET', path: '/api/EmployeePosition/:id', params: IdParams, response: EmployeePosition, access: view },
  create: {
    method: 'POST',
    path: '/api/EmployeePosition',
    body: EmployeePositionInput,
    response: EmployeePosition,
    access: edit,
  },
  update: {
    method: 'PUT',
    path: '/api/EmployeePosition/:id',
    params: IdParams,
    body: EmployeePositionUpdate,
    response: EmployeePosition,
    access: edit,
  },
  remove: { method: 'DELETE', path: '/api/EmployeePosition/:id', params: IdParams, response: OkResponse, access: edit },
});
