import { z } from 'zod';
import { text } from '../parts.js';

/**
 * Employee positions (seed 001 §3 "Employee position": name, description;
 * seed 001 §5 "Other": name required). A position belongs to one club and is
 * named on users (seed 001 §3 "User": employee position). `hourlyRate` is the
 * pay of an hour at the position in agorot (0 = not set), read by the payroll
 * report (docs/attendance.md).
 */

export const EmployeePositionInput = z.strictObject({
  name: text(100).trim().min(1, { message: 'required' }),
  description: text(500).trim().default(''),
  /** Pay of one regular hour in agorot (integer), 0..100,000 ₪. */
  hourlyRate: z
    .number({ message: 'invalidAmount' })
    .int({ message: 'invalidAmount' })
    .min(0, { message: 'invalidAmount' })
    .max(10_000_000, { message: 'invalidAmount' })
    .default(0),
});
export type EmployeePositionInput = z.infer<typeof EmployeePositionInput>;

/** PUT /api/EmployeePosition/{id}: the whole position, as on create. */
export const EmployeePositionUpdate = EmployeePositionInput;
export type EmployeePositionUpdate = EmployeePositionInput;

/** A position as the API presents it; `usedBy` is how many users and employees (clients) of the club hold it. */
export const EmployeePosition = z.object({
  id: z.number(),
  name: z.string(),
  description: z.string(),
  hourlyRate: z.number(),
  usedBy: z.number(),
  createdAt: z.string(),
});
export type EmployeePosition = z.infer<typeof EmployeePosition>;
