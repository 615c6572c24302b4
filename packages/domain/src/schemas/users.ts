import { z } from 'zod';
import { id, text } from '../parts.js';
import { PERMISSION_FLAGS } from '../permissions.js';

/**
 * Staff users and permissions: password rules, create and patch bodies,
 * the user as the API presents it, terms-of-use acceptance, and the stored
 * data-grid states.
 */

/** Password rules of staff users: at least 8 characters, with a letter and a digit. */
export const UserPassword = z
  .string()
  .min(8, { message: 'passwordTooShort' })
  .max(200)
  .refine((v) => /\p{L}/u.test(v) && /\d/.test(v), { message: 'passwordWeak' });

const permissionsShape = z
  .strictObject(
    Object.fromEntries(PERMISSION_FLAGS.map((f) => [f, z.boolean()])) as Record<
      (typeof PERMISSION_FLAGS)[number],
      z.ZodBoolean
    >,
  )
  .partial();

export const UserInput = z.strictObject({
  username: z
    .string()
    .trim()
    .min(3, { message: 'required' })
    .max(60)
    .regex(/^[\p{L}\p{N}._@-]+$/u, { message: 'invalidUserName' }),
  password: UserPassword,
  name: text(100).trim().default(''),
  language: z.enum(['he', 'en']).default('he'),
  isAdmin: z.boolean().default(false),
  role: z.number().int().min(1).max(7).default(1),
  employeePositionId: id.nullable().default(null),
  /** Flags not given are off; roleIsAdmin follows isAdmin. */
  permissions: permissionsShape.default({}),
  disabled: z.boolean().default(false),
});
export type UserInput = z.infer<typeof UserInput>;
export const UserPatch = z
  .strictObject({
    username: UserInput.shape.username,
    password: UserPassword,
    name: text(100).trim(),
    language: z.enum(['he', 'en']),
    isAdmin: z.boolean(),
    role: z.number().int().min(1).max(7),
    employeePositionId: id.nullable(),
    permissions: permissionsShape,
    disabled: z.boolean(),
    /**
     * The caller's current password: required when callers change their own
     * password (docs/security.md "Sessions"), ignored otherwise.
     */
    currentPassword: text(200),
  })
  .partial();
export type UserPatch = z.infer<typeof UserPatch>;

/** A staff user as the API presents it: never the password (stored flags, not the admin-implied ones). */
export const User = z.object({
  id: z.number(),
  username: z.string(),
  name: z.string(),
  language: z.string(),
  isAdmin: z.boolean(),
  role: z.number(),
  employeePositionId: z.number().nullable(),
  permissions: z.record(z.string(), z.boolean()),
  disabled: z.boolean(),
  termsVersion: z.number(),
  termsAcceptedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type User = z.infer<typeof User>;
export const UserName = z.object({ id: z.number(), username: z.string(), name: z.string() });

/** Largest signature image, characters of the data URL (about 150 kB of PNG). */
export const SIGNATURE_MAX_CHARS = 200_000;
/** POST /api/User/UpdateUserTermsVersion: accepted version and the drawn signature (PNG data URL). */
export const TermsAcceptance = z.strictObject({
  version: z.number().int().min(1),
  signature: z
    .string()
    .max(SIGNATURE_MAX_CHARS, { message: 'tooLarge' })
    .regex(/^data:image\/png;base64,[A-Za-z0-9+/]+=*$/, { message: 'invalidSignature' }),
});
export const TermsAccepted = z.object({ termsVersion: z.number(), termsAcceptedAt: z.string() });

// ---------------------------------------------------------------- data-grid states

/** Largest stored data-grid state record, bytes of JSON. */
export const DATA_GRID_STATES_MAX_BYTES = 64 * 1024;
/** PATCH /api/User/UpdateDataGridStates/{id}: grid key → its state (columns, widths, sort, filters). */
export const DataGridStatesBody = z
  .strictObject({
    dataGridStates: z
      .record(text(100), z.unknown())
      .refine((v) => JSON.stringify(v).length <= DATA_GRID_STATES_MAX_BYTES, { message: 'tooLarge' }),
  })
  .partial();
