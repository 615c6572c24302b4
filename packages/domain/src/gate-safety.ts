import { z } from 'zod';
import { int32, text } from './parts.js';

/**
 * The gate in an emergency (issue 36; docs/gate-safety.md): a club-wide
 * open-all (evacuation) and a club-wide lockdown. Each is either off or on
 * with who started it, when and why; both may be on at once, and then open-all
 * wins (life safety): the gates stay open. Shared by the server (the state,
 * the routes, the push to terminals), the console (the banner, the safety
 * screen) and the simulator (its screen and its offline decisions).
 */

/** The state a gate acts on: normal (its schedule), every gate open, every gate refusing. */
export const SAFETY_MODES = ['normal', 'openAll', 'lockdown'] as const;
export type SafetyMode = (typeof SAFETY_MODES)[number];

/** Where an emergency step came from: a user at the console, or a terminal's alarm input. */
export const SAFETY_SOURCES = ['console', 'terminal'] as const;

/** One emergency that is on: since when (ISO instant), why, who (user name or terminal name). */
export const SafetyStep = z.object({
  since: z.string(),
  reason: z.string(),
  source: z.enum(SAFETY_SOURCES),
  /** The user's name, or the terminal's name for an alarm input. */
  by: z.string(),
});
export type SafetyStep = z.infer<typeof SafetyStep>;

/** A club's emergency state (GET /api/GateSafety/State; the live feed's `safety`). */
export const SafetyState = z.object({
  /** What the gates do now: open-all wins over lockdown. */
  mode: z.enum(SAFETY_MODES),
  openAll: SafetyStep.nullable(),
  lockdown: SafetyStep.nullable(),
});
export type SafetyState = z.infer<typeof SafetyState>;

/** The mode the gates act on: open-all when on (it wins, life safety), else lockdown when on, else normal. */
export function safetyMode(s: { openAll: unknown; lockdown: unknown }): SafetyMode {
  if (s.openAll) return 'openAll';
  if (s.lockdown) return 'lockdown';
  return 'normal';
}

/** The state with nothing on. */
export const NORMAL_SAFETY: SafetyState = { mode: 'normal', openAll: null, lockdown: null };

/** Shortest reason a user must give to start or release an emergency (characters, trimmed). */
export const SAFETY_REASON_MIN = 3;

/**
 * POST /api/GateSafety/{OpenAll,ReleaseOpenAll,Lockdown,ReleaseLockdown}: the reason (kept in the
 * audit log and shown on the banner) and the second step of the console's confirmation (`confirm`
 * must be true: a call without it is refused, so no single click starts an emergency).
 */
export const SafetyCommand = z.strictObject({
  reason: text(300).trim().min(SAFETY_REASON_MIN, { message: 'tooShort' }),
  // Missing: `required` as every field; present but not true: the step was not confirmed.
  confirm: z.literal(true, { error: (iss) => (iss.input === undefined ? 'required' : 'confirmRequired') }),
});
export type SafetyCommand = z.infer<typeof SafetyCommand>;

/** A client whose card and code pass a lockdown (staff: attendants, security). */
export const LockdownOverride = z.object({
  clientId: int32,
  number: int32,
  name: z.string(),
  grantedAt: z.string(),
});
export type LockdownOverride = z.infer<typeof LockdownOverride>;
export const LockdownOverrides = z.object({ items: z.array(LockdownOverride) });
export type LockdownOverrides = z.infer<typeof LockdownOverrides>;

// ---------------------------------------------------------------- terminal protocol

/** Alarm inputs of a terminal (docs/terminal-protocol.md "Emergency"): a fire panel's contact, a panic button. */
export const ALARM_INPUTS = ['fire-alarm', 'panic'] as const;
export type AlarmInput = (typeof ALARM_INPUTS)[number];

/**
 * Server → terminal: the club's emergency state, pushed to every connected terminal of the club
 * the moment it changes, and carried in `welcome` and `valid-list` (a terminal that was offline
 * gets it when it reconnects). `openAll`: hold the gate open until told otherwise; `lockdown`:
 * refuse everyone but the lockdown overrides; `normal`: back to the schedule.
 */
export const ServerSafety = z.object({
  type: z.literal('safety'),
  mode: z.enum(SAFETY_MODES),
  since: z.string().nullable(),
  reason: z.string().nullable(),
});
export type ServerSafety = z.infer<typeof ServerSafety>;

/**
 * Terminal → server: an alarm input fired (`fire-alarm` starts the club's open-all, `panic` its
 * lockdown). The terminal acts on it at once by itself (opens, or locks) before any answer; the
 * server answers `alarm-ack` and pushes the new state to every terminal of the club. `eventId`
 * makes a resend (after a reconnect) harmless; `at` is when it fired (offline).
 */
export const TerminalAlarm = z.object({
  type: z.literal('alarm'),
  eventId: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,99}$/),
  input: z.enum(ALARM_INPUTS),
  at: z.iso.datetime({ offset: true }).optional(),
});
export type TerminalAlarm = z.infer<typeof TerminalAlarm>;

/** Answer to `alarm`: the club's mode after it (an unapproved terminal's alarm changes nothing: `applied` false). */
export const ServerAlarmAck = z.object({
  type: z.literal('alarm-ack'),
  eventId: z.string(),
  applied: z.boolean(),
  mode: z.enum(SAFETY_MODES),
});
export type ServerAlarmAck = z.infer<typeof ServerAlarmAck>;

/** The protocol's safety message of a state. */
export function safetyMessage(s: SafetyState): ServerSafety {
  const step = s.mode === 'openAll' ? s.openAll : s.mode === 'lockdown' ? s.lockdown : null;
  return { type: 'safety', mode: s.mode, since: step?.since ?? null, reason: step?.reason ?? null };
}
