import { z } from 'zod';
import { ENTRANCE_STATES } from './enums.js';
import { EntranceRow, Identification } from './schemas.js';

/**
 * Terminal protocol, version 1 (DESIGN §8; docs/terminal-protocol.md), and the
 * console's live feed (`/api/live`, docs/live-feed.md). One JSON object per
 * WebSocket text frame; every message is validated on both ends with these
 * schemas (STYLE points 5 and 10). Unknown fields are ignored, unknown
 * `type`s are refused with an `error` message.
 */

/** The protocol version this server speaks. */
export const TERMINAL_PROTOCOL_VERSION = 1;
/** Seconds between heartbeats a terminal sends; the server drops a link silent for 3 intervals. */
export const HEARTBEAT_INTERVAL_SECONDS = 30;
/** Seconds a new connection has to send its hello (terminal) or auth (console) message. */
export const HELLO_TIMEOUT_SECONDS = 10;

const eventId = z.string().trim().min(1).max(100);
const isoInstant = z.iso.datetime({ offset: true });

// ---------------------------------------------------------------- terminal → server

/** First message of a terminal: who it is and which devices it has. */
export const TerminalHello = z.object({
  type: z.literal('hello'),
  version: z.literal(TERMINAL_PROTOCOL_VERSION),
  serial: z.string().trim().min(1).max(40),
  secret: z.string().min(1).max(200),
  /** Reader and cash devices present, e.g. ['card', 'fingerprint', 'face', 'coins', 'bills']. */
  devices: z.array(z.string().max(40)).max(20).optional(),
});
export type TerminalHello = z.infer<typeof TerminalHello>;

/**
 * An identification presented at the gate. `eventId` is the terminal's own
 * id of this event: a resend (after a lost reply or a reconnect) with the
 * same id answers the original decision and is never counted twice. `at` is
 * when it happened when the terminal uploads an event it handled offline.
 */
export const TerminalEntrance = z.object({
  type: z.literal('entrance'),
  eventId,
  identification: Identification,
  at: isoInstant.optional(),
});
export type TerminalEntrance = z.infer<typeof TerminalEntrance>;

/** Sent every HEARTBEAT_INTERVAL_SECONDS; `doorState` is the physical door's state as the terminal sees it. */
export const TerminalHeartbeat = z.object({
  type: z.literal('heartbeat'),
  doorState: z.union(ENTRANCE_STATES.map((s) => z.literal(s))).optional(),
});
export type TerminalHeartbeat = z.infer<typeof TerminalHeartbeat>;

/** Any message a terminal may send. */
export const TerminalMessage = z.discriminatedUnion('type', [TerminalHello, TerminalEntrance, TerminalHeartbeat]);
export type TerminalMessage = z.infer<typeof TerminalMessage>;

// ---------------------------------------------------------------- server → terminal

/** Answer to a good hello. A terminal that is not approved may stay connected; its entrances answer 11. */
export const ServerWelcome = z.object({
  type: z.literal('welcome'),
  terminalId: z.number().int(),
  name: z.string(),
  approved: z.boolean(),
  /** Seconds the gate stays open on an approved entrance. */
  gateOpenSeconds: z.number().int(),
});
export type ServerWelcome = z.infer<typeof ServerWelcome>;

/**
 * The decision on one entrance: `status` from seed 000 §4, `reason` from the
 * reason table (docs/entrance-reasons.md). The gate opens for
 * `gateOpenSeconds` when it is above 0 (approved entrances only). `message`
 * is the reason's i18n key for the terminal's display.
 */
export const ServerDecision = z.object({
  type: z.literal('decision'),
  eventId,
  status: z.number().int(),
  reason: z.number().int(),
  gateOpenSeconds: z.number().int(),
  message: z.string(),
  clientName: z.string().optional(),
});
export type ServerDecision = z.infer<typeof ServerDecision>;

/** Error codes of the terminal link. */
export const TERMINAL_ERROR_CODES = [
  'BAD_MESSAGE',
  'UNSUPPORTED_VERSION',
  'AUTH_FAILED',
  'NOT_AUTHENTICATED',
  'HELLO_TIMEOUT',
  'REPLACED',
  'GENERAL_ERROR',
] as const;
export type TerminalErrorCode = (typeof TERMINAL_ERROR_CODES)[number];

/** An error; `eventId` is set when it answers an entrance message. */
export const ServerError = z.object({
  type: z.literal('error'),
  code: z.string(),
  message: z.string(),
  eventId: z.string().optional(),
});
export type ServerError = z.infer<typeof ServerError>;

/** Any message the server may send to a terminal. */
export const ServerMessage = z.discriminatedUnion('type', [ServerWelcome, ServerDecision, ServerError]);
export type ServerMessage = z.infer<typeof ServerMessage>;

// ---------------------------------------------------------------- console live feed (/api/live)

/** First message of the console: its bearer token; an operator may choose a club by its external id. */
export const LiveAuth = z.object({
  type: z.literal('auth'),
  token: z.string().min(1).max(4096),
  clubExternalId: z.number().int().positive().optional(),
});
export type LiveAuth = z.infer<typeof LiveAuth>;

/** Messages the server pushes on /api/live. */
export const LiveMessage = z.discriminatedUnion('type', [
  /** Sent once after a good auth message; events follow. */
  z.object({ type: z.literal('ready'), clubId: z.number().int() }),
  z.object({ type: z.literal('entrance'), row: EntranceRow }),
  z.object({ type: z.literal('terminal'), terminalId: z.number().int(), connected: z.boolean() }),
  z.object({ type: z.literal('error'), code: z.string(), message: z.string() }),
]);
export type LiveMessage = z.infer<typeof LiveMessage>;
