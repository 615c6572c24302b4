import { z } from 'zod';
import { INT32_MAX, text } from '../parts.js';
import { PERMISSION_FLAGS } from '../permissions.js';

/**
 * Sign-in and the current user (seed 000 §3 "Login", "Current user").
 */

/** POST /api/Account (seed 000 §3 "Login"). */
export const LoginRequest = z.object({
  username: text(100).trim().min(1, { message: 'required' }),
  password: text(200).min(1, { message: 'required' }),
  /** The club's number; a form sends it as text. Left out or not a number (coerced to NaN): `required`. */
  externalClubId: z.coerce
    .number({ message: 'required' })
    .int()
    .positive({ message: 'required' })
    .max(INT32_MAX, { message: 'invalidId' }),
});
export type LoginRequest = z.infer<typeof LoginRequest>;

/**
 * Login response: a bearer token and its lifetime in seconds, and the idle
 * timeout of its session in seconds (docs/security.md "Sessions"): a session
 * without a request for that long ends, and the console signs out after that
 * long without the user's input.
 */
export const LoginResponse = z.object({
  token: z.string(),
  expiresIn: z.number().int(),
  idleTimeoutSeconds: z.number().int(),
});
export type LoginResponse = z.infer<typeof LoginResponse>;

export const PermissionsSchema = z.object(
  Object.fromEntries(PERMISSION_FLAGS.map((f) => [f, z.boolean()])) as Record<
    (typeof PERMISSION_FLAGS)[number],
    z.ZodBoolean
  >,
);

/** GET /api/Account/GetCurrent (seed 000 §3 "Current user"): flags are effective (admin implies all). */
export const CurrentUser = PermissionsSchema.extend({
  id: z.number(),
  username: z.string(),
  name: z.string(),
  language: z.enum(['he', 'en']),
  role: z.number(),
  level: z.number(),
  clubId: z.number().nullable(),
  externalClubId: z.number().nullable(),
  termsVersion: z.number(),
  dataGridStates: z.record(z.string(), z.unknown()),
});
export type CurrentUser = z.infer<typeof CurrentUser>;
