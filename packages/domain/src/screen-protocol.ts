import { z } from 'zod';
import { CASH_ERRORS, CASH_SESSION_STATES } from './terminal.js';

/**
 * Remote view (seed 001 §2 "Terminals … remote view"; docs/terminal-protocol.md
 * "Remote view"): what a terminal's screen shows, reported by the terminal
 * whenever it changes, kept by the server (the latest per terminal) and pushed
 * live to the technician's console. protocol.ts adds the `screen` message to
 * the terminal's union and `screen` to the live feed's.
 *
 * Every field is bounded so that one report fits one PostgreSQL NOTIFY
 * (the cross-instance bus, docs/live-feed.md): at most ~3 KB of JSON.
 */

/** What the screen shows as a whole (the terminal's own view names map onto these). */
export const SCREEN_VIEWS = ['idle', 'decision', 'cash', 'purchase', 'enroll', 'exit', 'message', 'offline'] as const;
export type ScreenView = (typeof SCREEN_VIEWS)[number];

/** The last entrance decision shown (the server's `decision`, or the terminal's own when offline). */
export const ScreenDecision = z.object({
  eventId: z.string().max(100).optional(),
  /** Entrance status (seed 000 §4): 1 approved, 2–13 refusals. */
  status: z.number().int().min(0).max(99),
  /** Reason code 0–28 (docs/entrance-reasons.md). */
  reason: z.number().int().min(0).max(99),
  /** The reason's key as shown (the decision's `message`). */
  message: z.string().max(100),
  clientName: z.string().max(130).optional(),
  /** Decided by the terminal itself while the server was out of reach. */
  offline: z.boolean().optional(),
  /** When it was shown, ISO instant (the terminal's clock). */
  at: z.iso.datetime({ offset: true }),
});
export type ScreenDecision = z.infer<typeof ScreenDecision>;

/** The cash display: the session in progress (amounts in agorot), as the terminal shows it. */
export const ScreenCash = z.object({
  sessionId: z.string().max(100),
  state: z.enum(CASH_SESSION_STATES),
  /** Inserted so far, agorot. */
  inserted: z.number().int().min(0).max(100_000_000),
  /** Amount due, agorot; null = load whatever is inserted. */
  due: z.number().int().min(0).max(100_000_000).nullable(),
  /** Change being paid out, agorot. */
  change: z.number().int().min(0).max(100_000_000).optional(),
  error: z.enum(CASH_ERRORS).optional(),
});
export type ScreenCash = z.infer<typeof ScreenCash>;

/** A message on the screen: a pushed terminal message (`id`), or the terminal's own notice. */
export const ScreenMessage = z.object({
  text: z.string().max(500),
  /** The terminal message's id (docs/terminal-protocol.md "messages"), when it is one. */
  id: z.number().int().optional(),
  kind: z.enum(['Basic', 'Extra', 'Popup', 'notice']).optional(),
});
export type ScreenMessage = z.infer<typeof ScreenMessage>;

/** The terminal's screen now. */
export const TerminalScreenState = z.object({
  view: z.enum(SCREEN_VIEWS),
  /** The prompt (what the screen asks of the client), as shown, e.g. "Present your card". */
  prompt: z.string().max(200),
  /** Messages shown now (at most 5; a longer list shows the first five). */
  messages: z.array(ScreenMessage).max(5),
  lastDecision: ScreenDecision.nullable(),
  cash: ScreenCash.nullable(),
  /** The gate is open now (after an approval or a remote open). */
  gateOpen: z.boolean(),
  /** Language of the screen's texts. */
  language: z.enum(['he', 'en']).optional(),
  /** The club's emergency as the terminal acts on it (docs/gate-safety.md); absent: normal. */
  safety: z.enum(['normal', 'openAll', 'lockdown']).optional(),
});
export type TerminalScreenState = z.infer<typeof TerminalScreenState>;

/**
 * `screen` (terminal → server): the screen changed. `seq` grows with every
 * report of one terminal run (a report with a lower `seq` than the last one
 * kept is stale and ignored); `at` is when the screen changed, by the
 * terminal's clock. No answer.
 */
export const TerminalScreen = z.object({
  type: z.literal('screen'),
  seq: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  at: z.iso.datetime({ offset: true }),
  screen: TerminalScreenState,
});
export type TerminalScreen = z.infer<typeof TerminalScreen>;

/** GET /api/Terminal/GetScreen/{id}: the latest screen the server holds for a terminal. */
export const TerminalScreenView = z.object({
  terminalId: z.number(),
  connected: z.boolean(),
  /** Null when the terminal has not reported a screen since the server started (or never). */
  screen: TerminalScreenState.nullable(),
  /** When the terminal said its screen changed (its clock), ISO; null with no screen. */
  at: z.string().nullable(),
  /** When the server received it, ISO; null with no screen. */
  receivedAt: z.string().nullable(),
});
export type TerminalScreenView = z.infer<typeof TerminalScreenView>;

/** Milliseconds GET /api/Terminal/GetScreen waits for the instance holding the terminal's link to answer. */
export const SCREEN_REQUEST_TIMEOUT_MS = 1500;
