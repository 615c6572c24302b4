import { z } from 'zod';
import { int32, isoDate, text } from './parts.js';

/**
 * The gate's API contract beyond the entrance decision
 * (docs/api-gate.md): quick-exit outcomes, terminal messages, biometric data
 * of a client. Money is integer minor units (agorot); dates YYYY-MM-DD in
 * the club's time zone.
 */

// ---------------------------------------------------------------- quick exit

/**
 * Quick-exit outcomes (seed 001 §4 "Quick-exit outcomes", §8 reasons). The
 * seeds name them without numbers; these are ours, stored in
 * quick_exits.type and sent to terminals, never renumbered
 * (docs/entrance-reasons.md, "Quick exit").
 */
export const QuickExitOutcome = {
  BySubscription: 1,
  ByCharge: 2,
  ByPayment: 3,
  Bonus: 4,
  CreditProcessed: 5,
  Failed: 6,
  MinimumStayNotMet: 7,
  StayExpired: 8,
  BonusEntryNotEligible: 9,
  NoEntryInRecentHours: 10,
  NoQuickExitConfigured: 11,
  QuickExitAlreadyRecorded: 12,
} as const;
export type QuickExitOutcome = (typeof QuickExitOutcome)[keyof typeof QuickExitOutcome];

/** i18n key of a quick-exit outcome (the QuickExitOutcome name). */
export const QUICK_EXIT_KEYS: Record<number, string> = Object.fromEntries(
  Object.entries(QuickExitOutcome).map(([k, v]) => [v, k]),
);

/** Outcomes that earned a reward (a quick exit in the min–max window). */
export function quickExitRewarded(outcome: number): boolean {
  return outcome === QuickExitOutcome.BySubscription || outcome === QuickExitOutcome.ByCharge;
}

/** How far back an exit looks for the client's entrance ("no entry in recent hours", seed 001 §8). */
export const QUICK_EXIT_LOOKBACK_HOURS = 12;

// ---------------------------------------------------------------- terminal messages

/** Message kinds of seed 000 §3 ("Message popup kinds"). */
export const TERMINAL_MESSAGE_TYPES = ['Basic', 'Extra', 'Popup'] as const;
export type TerminalMessageType = (typeof TERMINAL_MESSAGE_TYPES)[number];

/** Display time default (seed 001 §9). */
export const TERMINAL_MESSAGE_DEFAULT_SECONDS = 30;

const messageFields = {
  name: text(100).trim().min(1, { message: 'required' }),
  /** Not shown to the client (seed 001 §3). */
  title: text(200).trim().default(''),
  type: z.enum(TERMINAL_MESSAGE_TYPES).default('Basic'),
  content: text(4000).default(''),
  startDate: isoDate.nullable().default(null),
  endDate: isoDate.nullable().default(null),
  displaySeconds: z.number().int().min(1).max(3600).default(TERMINAL_MESSAGE_DEFAULT_SECONDS),
  active: z.boolean().default(true),
};

/** POST /api/TerminalMessage. An end date before the start date is refused (400 endBeforeStart). */
export const TerminalMessageInput = z.strictObject(messageFields);
export type TerminalMessageInput = z.infer<typeof TerminalMessageInput>;

/** PATCH /api/TerminalMessage/{id}: any subset of the fields; left-out fields stay as stored. */
export const TerminalMessagePatch = z
  .strictObject({
    name: messageFields.name,
    title: messageFields.title.unwrap(),
    type: messageFields.type.unwrap(),
    content: messageFields.content.unwrap(),
    startDate: messageFields.startDate.unwrap(),
    endDate: messageFields.endDate.unwrap(),
    displaySeconds: messageFields.displaySeconds.unwrap(),
    active: messageFields.active.unwrap(),
  })
  .partial();
export type TerminalMessagePatch = z.infer<typeof TerminalMessagePatch>;

/** A terminal message as the API answers it. `showing`: active and today within its dates. */
export const TerminalMessageRecord = z.object({
  id: int32,
  name: z.string(),
  title: z.string(),
  type: z.enum(TERMINAL_MESSAGE_TYPES),
  content: z.string(),
  startDate: z.string().nullable(),
  endDate: z.string().nullable(),
  displaySeconds: int32,
  active: z.boolean(),
  showing: z.boolean(),
  updatedAt: z.string(),
});
export type TerminalMessageRecord = z.infer<typeof TerminalMessageRecord>;

// ---------------------------------------------------------------- biometrics

/** Biometric kinds stored as templates (a card is stored as the client's card serial). */
export const BIOMETRIC_KINDS = ['fingerprint', 'face'] as const;
export type BiometricKind = (typeof BIOMETRIC_KINDS)[number];

/** GET /api/Client/GetFaceImages/{id}: the client's face enrolment images, decrypted. */
export const FaceImage = z.object({
  id: int32,
  /** data:image/...;base64,... as the terminal sent it. */
  image: z.string(),
  createdAt: z.string(),
});
export const FaceImages = z.object({ items: z.array(FaceImage) });
export type FaceImages = z.infer<typeof FaceImages>;

/** Answer of the biometric deletions: how many templates were deleted. */
export const BiometricDeleted = z.object({ deleted: z.number().int() });
export type BiometricDeleted = z.infer<typeof BiometricDeleted>;

// ---------------------------------------------------------------- bonus entrances

/**
 * POST /api/Client/AddBonusEntries/{id}: gives (positive) or takes back
 * (negative) bonus entrances; the count never goes below 0.
 */
export const BonusEntriesInput = z.strictObject({
  count: z
    .number()
    .int()
    .min(-1000)
    .max(1000)
    .refine((n) => n !== 0, { message: 'required' }),
});
export type BonusEntriesInput = z.infer<typeof BonusEntriesInput>;
export const BonusEntries = z.object({ bonusEntries: z.number().int() });
export type BonusEntries = z.infer<typeof BonusEntries>;
