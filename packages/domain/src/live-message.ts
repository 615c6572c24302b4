import { z } from 'zod';
import { EntranceRow } from './schemas/reports.js';
import { CASH_SESSION_STATES } from './terminal.js';
import { TerminalScreenState } from './screen-protocol.js';
import { SafetyState } from './gate-safety.js';

// In a module of its own, not protocol.ts: the console's signed-in frame
// checks every live message against it, and protocol.ts's other schemas bring
// the kiosk's purchase schemas, hebcal and libphonenumber with them (issue 19
// load speed). protocol.ts re-exports it.

/** Messages the server pushes on /api/live. */
export const LiveMessage = z.discriminatedUnion('type', [
  /** Sent once after a good auth message; events follow. */
  z.object({ type: z.literal('ready'), clubId: z.number().int() }),
  z.object({ type: z.literal('entrance'), row: EntranceRow }),
  z.object({ type: z.literal('terminal'), terminalId: z.number().int(), connected: z.boolean() }),
  /** Door state reported by a terminal, or set from the console. */
  z.object({ type: z.literal('door'), terminalId: z.number().int(), doorState: z.number().int() }),
  /** A cash session changed state at a terminal (amounts in agorot). */
  z.object({
    type: z.literal('cash'),
    terminalId: z.number().int(),
    sessionId: z.string(),
    state: z.enum(CASH_SESSION_STATES),
    inserted: z.number().int(),
    error: z.string().optional(),
  }),
  /** A global message was published to the user's club (docs/messages.md): the console refreshes its inbox. */
  z.object({ type: z.literal('message'), id: z.number().int(), kind: z.enum(['Basic', 'Extra', 'Popup']) }),
  /** An incident was reported or handled in the club (docs/messages.md): the console refreshes its incident list. */
  z.object({ type: z.literal('incident'), id: z.number().int() }),
  /** A terminal's screen changed (remote view, docs/terminal-protocol.md): to users who may control terminals. */
  z.object({
    type: z.literal('screen'),
    terminalId: z.number().int(),
    screen: TerminalScreenState,
    at: z.string(),
    receivedAt: z.string(),
  }),
  /**
   * The operator answered one of the club's license requests (its id and new
   * status, seed 001 §4) or loaded licenses by hand (both null): the console
   * refreshes its requests list and the club's license count (docs/operator.md).
   */
  z.object({
    type: z.literal('licenses'),
    requestId: z.number().int().nullable(),
    status: z.number().int().nullable(),
  }),
  /** The club's emergency state changed (open-all, lockdown; docs/gate-safety.md): every console shows its banner. */
  z.object({ type: z.literal('safety'), state: SafetyState }),
  z.object({ type: z.literal('error'), code: z.string(), message: z.string() }),
]);
export type LiveMessage = z.infer<typeof LiveMessage>;
