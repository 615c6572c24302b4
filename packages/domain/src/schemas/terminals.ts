import { z } from 'zod';
import { text } from '../parts.js';
import { ENTRANCE_STATES, IdentificationKind } from '../enums.js';
import { TerminalSettings } from '../terminal.js';
import { withoutDefaults } from './helpers.js';

/**
 * Terminals as the console manages them (create, patch, list; the secret
 * shown once), and the identification a client presents at a terminal.
 * The terminal protocol itself is in protocol.ts.
 */

/** POST /api/Terminal: a new terminal; the answer carries its secret once. */
export const TerminalInput = z
  .strictObject({
    serial: z
      .string()
      .trim()
      .min(1, { message: 'required' })
      .max(40)
      .regex(/^[A-Za-z0-9._-]+$/, { message: 'invalidSerial' }),
    name: text(60).trim().min(1, { message: 'required' }),
    isMain: z.boolean().default(false),
    gateOpenSeconds: z.number().int().min(1).max(120).default(5),
    doorState: z.union(ENTRANCE_STATES.map((s) => z.literal(s))).default(2),
    // Every other field of seed 001 §3 (packages/domain/src/terminal.ts); omitted = default.
    ...withoutDefaults(TerminalSettings.shape),
  })
  .partial({ ...Object.fromEntries(Object.keys(TerminalSettings.shape).map((k) => [k, true])) } as {
    [K in keyof typeof TerminalSettings.shape]: true;
  });
export type TerminalInput = z.infer<typeof TerminalInput>;
/** PATCH /api/Terminal/{id}: editable fields, and `approved` for the technician's approval. */
export const TerminalPatch = z
  .strictObject(withoutDefaults(TerminalInput.omit({ serial: true }).shape))
  .partial()
  .extend({ approved: z.boolean().optional() });
export type TerminalPatch = z.infer<typeof TerminalPatch>;

export const Terminal = z.object({
  id: z.number(),
  serial: z.string(),
  name: z.string(),
  isMain: z.boolean(),
  approved: z.boolean(),
  gateOpenSeconds: z.number(),
  doorState: z.number(),
  connected: z.boolean(),
  lastConnection: z.string().nullable(),
  /** Soft-deleted (only in the list with `deleted=true`); a deleted terminal cannot connect. */
  deleted: z.boolean(),
  ...TerminalSettings.shape,
});
export type Terminal = z.infer<typeof Terminal>;
/** POST /api/Terminal answer: the terminal and its secret, shown this once (only a hash is stored). */
export const TerminalCreated = Terminal.extend({ secret: z.string() });

// ---------------------------------------------------------------- identification

/** Identification presented at a terminal. */
export const Identification = z.object({
  kind: z.enum(IdentificationKind),
  value: text(4096).trim().min(1),
});
export type Identification = z.infer<typeof Identification>;
