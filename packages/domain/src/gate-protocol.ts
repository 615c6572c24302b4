import { z } from 'zod';
import { TERMINAL_MESSAGE_TYPES } from './gate.js';
import { Identification } from './schemas/terminals.js';
import * as parts from './parts.js';

/**
 * Terminal protocol v1 messages of the gate decisions
 * (docs/terminal-protocol.md "Enrolment", "Quick exit", "Pushed
 * configuration"). protocol.ts adds them to its message unions.
 */

const eventId = parts.eventId;
const isoInstant = z.iso.datetime({ offset: true });

/** Largest template a terminal may send (characters; base64 of an ISO/IEC 19794 template is far below). */
export const MAX_TEMPLATE_CHARS = 16_384;
/** Largest face enrolment image (a data URL), characters: fits the 1 MiB frame. */
export const MAX_FACE_IMAGE_CHARS = 700_000;

// ---------------------------------------------------------------- terminal → server

/**
 * Enrolment at the terminal (seed 001 §3: enrolment allowances, the client's
 * enrolment password; seed 000 §3 self-registration settings). The client
 * names itself by client number and types its enrolment password; `template`
 * is what the reader produced (the card serial for `card`, the matcher SDK's
 * template for `fingerprint` and `face`); `image` is the face picture as a
 * data URL, kept for the console (GET /api/Client/GetFaceImages/{id}).
 */
export const TerminalEnroll = z.object({
  type: z.literal('enroll'),
  eventId,
  clientNumber: z.number().int().positive().max(2_147_483_647),
  password: z.string().min(1).max(100),
  kind: z.enum(['fingerprint', 'face', 'card']),
  template: z.string().trim().min(1).max(MAX_TEMPLATE_CHARS),
  image: z
    .string()
    .max(MAX_FACE_IMAGE_CHARS)
    .regex(/^data:image\/(png|jpeg|webp);base64,[A-Za-z0-9+/=]+$/, { message: 'invalidImage' })
    .optional(),
});
export type TerminalEnroll = z.infer<typeof TerminalEnroll>;

/** A client leaving through a quick-exit terminal (seed 001 §3 quick-exit flag, §4 outcomes). */
export const TerminalExit = z.object({
  type: z.literal('exit'),
  eventId,
  identification: Identification,
  at: isoInstant.optional(),
});
export type TerminalExit = z.infer<typeof TerminalExit>;

// ---------------------------------------------------------------- server → terminal

/** Why an enrolment was refused. */
export const ENROLL_ERROR_CODES = [
  'CLIENT_NOT_FOUND',
  'WRONG_PASSWORD',
  'ENROLLMENT_NOT_ALLOWED',
  'TEMPLATE_TAKEN',
  'CARD_TAKEN',
  'TERMINAL_NOT_APPROVED',
] as const;
export type EnrollErrorCode = (typeof ENROLL_ERROR_CODES)[number];

/** Answer to `enroll`: `ok` with the new template's id (none for a card), or the refusal `code`. */
export const ServerEnrolled = z.object({
  type: z.literal('enrolled'),
  eventId,
  ok: z.boolean(),
  code: z.enum(ENROLL_ERROR_CODES).optional(),
  templateId: z.number().int().optional(),
  clientName: z.string().optional(),
});
export type ServerEnrolled = z.infer<typeof ServerEnrolled>;

/**
 * Answer to `exit`: the quick-exit outcome (QuickExitOutcome, its key in
 * `message`), the money credited back (`rewardAmount`, agorot) and the stay.
 * The gate opens for `gateOpenSeconds` (every exit is let out).
 */
export const ServerExitResult = z.object({
  type: z.literal('exit-result'),
  eventId,
  outcome: z.number().int(),
  message: z.string(),
  rewardAmount: z.number().int(),
  durationMinutes: z.number().int().optional(),
  gateOpenSeconds: z.number().int(),
  clientName: z.string().optional(),
});
export type ServerExitResult = z.infer<typeof ServerExitResult>;

/**
 * Template changes for the terminal's local matcher: sent when a client
 * enrols or staff delete biometric data. `added` carries the template
 * (over the authenticated link); `deleted` only ids.
 */
export const ServerTemplates = z.object({
  type: z.literal('templates'),
  changes: z.array(
    z.object({
      action: z.enum(['added', 'deleted']),
      templateId: z.number().int(),
      clientNumber: z.number().int().optional(),
      kind: z.enum(['fingerprint', 'face']),
      template: z.string().optional(),
    }),
  ),
});
export type ServerTemplates = z.infer<typeof ServerTemplates>;

/**
 * The club's terminal messages showing now (active, today within their
 * dates): sent after `welcome` and whenever one changes. Replaces the
 * previous list. The title is not sent (not shown to clients, seed 001 §3).
 */
export const ServerMessages = z.object({
  type: z.literal('messages'),
  items: z.array(
    z.object({
      id: z.number().int(),
      type: z.enum(TERMINAL_MESSAGE_TYPES),
      content: z.string(),
      displaySeconds: z.number().int(),
      startDate: z.string().nullable(),
      endDate: z.string().nullable(),
    }),
  ),
});
export type ServerMessages = z.infer<typeof ServerMessages>;
