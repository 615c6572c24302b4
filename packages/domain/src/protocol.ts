import { z } from 'zod';
import { ENTRANCE_STATES } from './enums.js';
import { Identification } from './schemas/terminals.js';
import {
  ServerEnrolled,
  ServerExitResult,
  ServerMessages,
  ServerTemplates,
  TerminalEnroll,
  TerminalExit,
} from './gate-protocol.js';
import { ServerPurchaseResult, TerminalPurchase } from './kiosk-protocol.js';
import { ServerAttendanceResult, TerminalAttendance } from './attendance-protocol.js';
import { CASH_ERRORS, CASH_SESSION_STATES, ILS_BILLS, ILS_COINS, Inventory, TERMINAL_ACTIONS } from './terminal.js';
import * as parts from './parts.js';
import { ServerIncidentReported, TerminalIncident } from './schemas/messages.js';
import { TerminalScreen } from './screen-protocol.js';
import { SAFETY_MODES, ServerAlarmAck, ServerSafety, TerminalAlarm } from './gate-safety.js';

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
/** Seconds an offline event's time may lie ahead of the server's clock (the terminal's clock drifts). */
export const OFFLINE_CLOCK_SKEW_SECONDS = 300;
/** Hours after the offline window within which a terminal's offline events are still accepted. */
export const OFFLINE_UPLOAD_GRACE_HOURS = 72;

/**
 * Link liveness by WebSocket ping/pong (docs/terminal-protocol.md "Dead
 * links"): the server pings every LINK_PING_SECONDS and ends a link silent for
 * LINK_DEAD_SECONDS; a terminal pings every TERMINAL_PING_SECONDS and, silent
 * for 3 of them, takes the link for dead and decides offline at once.
 */
export const LINK_PING_SECONDS = 5;
export const LINK_DEAD_SECONDS = 15;
export const TERMINAL_PING_SECONDS = 2;

/** Seconds a new connection has to send its hello (terminal) or auth (console) message. */
export const HELLO_TIMEOUT_SECONDS = 10;

/**
 * Offline upload flow control (docs/terminal-protocol.md "Offline uploads"):
 * a terminal sends its queue in batches of at most OFFLINE_BATCH_EVENTS
 * events, with at most OFFLINE_UPLOAD_WINDOW batches sent and not yet
 * answered on one link; it never sends a batch again on the same link, and
 * takes every acknowledgement, however late. A server holding more than
 * OFFLINE_UPLOAD_QUEUE batches of one link answers the next `UPLOAD_BUSY`.
 */
export const OFFLINE_BATCH_EVENTS = 100;
export const OFFLINE_UPLOAD_WINDOW = 2;
export const OFFLINE_UPLOAD_QUEUE = 4;

const eventId = parts.eventId;
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
  /** The terminal software's version label (`38.0.0`), shown in the operator's fleet view (docs/operator.md). */
  softwareVersion: z.string().trim().min(1).max(40).optional(),
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
  /** Devices present now (as in hello); the server keeps the last report (GET /api/Terminal/GetConnectedDevices). */
  devices: z.array(z.string().max(40)).max(20).optional(),
});
export type TerminalHeartbeat = z.infer<typeof TerminalHeartbeat>;

// Gate operations: remote actions, offline uploads, cash (docs/terminal-protocol.md).

const requestId = z.string().trim().min(1).max(100);
const sessionId = z.string().trim().min(1).max(100);

/** The terminal's answer to a server `action` (same `requestId`). */
export const TerminalActionReply = z.object({
  type: z.literal('action-reply'),
  requestId,
  ok: z.boolean(),
  data: z.unknown().optional(),
  error: z.string().max(500).optional(),
});
export type TerminalActionReply = z.infer<typeof TerminalActionReply>;

/** One decision a terminal took on its own while the server was unreachable. */
export const OfflineEvent = z.object({
  eventId,
  identification: Identification,
  at: isoInstant,
  /**
   * 1 approved (from the cached valid list), 3 general error (could not decide offline), or 14
   * refused in a lockdown (docs/gate-safety.md).
   */
  status: z.union([z.literal(1), z.literal(3), z.literal(14)]),
  /**
   * Why, in an emergency the terminal knew of (docs/gate-safety.md "Offline"): 32 admitted by
   * the club's open-all (known card or not), 31 admitted in a lockdown as a listed override,
   * 30 refused by the lockdown. Absent: the ordinary offline rules (0 by the list, 25 not on it).
   */
  reason: z.union([z.literal(30), z.literal(31), z.literal(32)]).optional(),
});
export type OfflineEvent = z.infer<typeof OfflineEvent>;
/** Offline decisions uploaded when the link returns; each applied at most once (by eventId). */
export const TerminalOfflineBatch = z.object({
  type: z.literal('offline-batch'),
  batchId: requestId,
  events: z.array(OfflineEvent).min(1).max(1000),
});
export type TerminalOfflineBatch = z.infer<typeof TerminalOfflineBatch>;

/** A cash session starts: paying `amountDue` (agorot; absent = load whatever is inserted) for a client. */
export const TerminalCashBegin = z.object({
  type: z.literal('cash-begin'),
  sessionId,
  identification: Identification,
  amountDue: z.number().int().min(0).max(10_000_000).optional(),
});
/** A coin or bill went into the acceptor. `eventId` makes a resend harmless. */
export const TerminalCashInsert = z.object({
  type: z.literal('cash-insert'),
  sessionId,
  eventId,
  kind: z.enum(['coin', 'bill']),
  /** Agorot. */
  denomination: z.union([...ILS_COINS, ...ILS_BILLS].map((d) => z.literal(d))),
});
/** The client finished paying (payment completed). */
export const TerminalCashComplete = z.object({ type: z.literal('cash-complete'), sessionId });
/** The client canceled before completing; what was inserted is paid back. */
export const TerminalCashCancel = z.object({ type: z.literal('cash-cancel'), sessionId });
/** The terminal paid out the change it was told to (pieces per denomination), closing the session. */
export const TerminalCashPayoutDone = z.object({
  type: z.literal('cash-payout-done'),
  sessionId,
  coins: Inventory,
  bills: Inventory,
});

/** Any message a terminal may send. */
export const TerminalMessage = z.discriminatedUnion('type', [
  TerminalHello,
  TerminalEntrance,
  TerminalHeartbeat,
  TerminalActionReply,
  TerminalOfflineBatch,
  TerminalCashBegin,
  TerminalCashInsert,
  TerminalCashComplete,
  TerminalCashCancel,
  TerminalCashPayoutDone,
  TerminalEnroll,
  TerminalExit,
  TerminalPurchase,
  TerminalIncident,
  TerminalAttendance,
  TerminalScreen,
  TerminalAlarm,
]);
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
  /**
   * The club's emergency state when it is not normal (open-all or lockdown; docs/gate-safety.md):
   * a terminal that reconnects acts on it at once. Absent: normal.
   */
  safety: ServerSafety.omit({ type: true }).optional(),
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
  /** OpenWithPay: the entrance is sold at the terminal for `amount` agorot (a `purchase` with an Entrance item). */
  paymentRequired: z.object({ amount: z.number().int() }).optional(),
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
  /** An incident report refused: the club's incident reports are off, the terminal is not approved, or the category is not the club's (docs/messages.md). */
  'INCIDENT_REFUSED',
  /**
   * The server cannot decide now (its database is out of reach): the terminal
   * decides this entrance by the offline rules, with the same eventId, and
   * uploads it when the server decides again (docs/terminal-protocol.md
   * "Database outage").
   */
  'DECIDE_OFFLINE',
  /**
   * Too many terminals are connecting at once (admission control, docs/scaling.md "Reconnect storm"):
   * the server closes with 1013 and the terminal retries after its jittered back-off.
   */
  'BUSY',
  /**
   * An offline batch the server will not take now: this link already has
   * OFFLINE_UPLOAD_QUEUE batches waiting (back-pressure). The error names the
   * `batchId`; the terminal sends its events again after its back-off.
   */
  'UPLOAD_BUSY',
  /** An offline batch the server failed to record (its database, a fault): names the `batchId`; sent again after the back-off. */
  'UPLOAD_FAILED',
] as const;
export type TerminalErrorCode = (typeof TERMINAL_ERROR_CODES)[number];

/** An error; `eventId` is set when it answers an entrance message, `batchId` when it answers an offline batch. */
export const ServerError = z.object({
  type: z.literal('error'),
  code: z.string(),
  message: z.string(),
  eventId: z.string().optional(),
  batchId: z.string().optional(),
});
export type ServerError = z.infer<typeof ServerError>;

/** A remote action (DESIGN §8); the terminal answers `action-reply` with the same requestId. */
export const ServerAction = z.object({
  type: z.literal('action'),
  requestId,
  actionName: z.enum(TERMINAL_ACTIONS),
  data: z.unknown().optional(),
});
export type ServerAction = z.infer<typeof ServerAction>;

/**
 * Who the terminal may admit on its own while the server is unreachable
 * (sent after welcome and whenever it changes): clients with a valid
 * subscription, by card serial and client code, until `until` (ISO instant).
 * The terminal uses it for at most `offlineWindowSeconds` after losing the link.
 */
export const ServerValidList = z.object({
  type: z.literal('valid-list'),
  generatedAt: isoInstant,
  offlineWindowSeconds: z.number().int().min(0),
  entries: z.array(
    z.object({ kind: z.enum(['card', 'code']), value: z.string(), until: isoInstant, name: z.string().optional() }),
  ),
  /** The club's emergency mode when the list was made (docs/gate-safety.md); absent from older servers: normal. */
  safety: z.enum(SAFETY_MODES).optional(),
  /** Cards and codes that pass a lockdown (staff with a lockdown override), also offline. */
  lockdownOverrides: z.array(z.object({ kind: z.enum(['card', 'code']), value: z.string() })).optional(),
});
export type ServerValidList = z.infer<typeof ServerValidList>;

/** Answer to an offline-batch: event ids recorded now and those already recorded before. */
export const ServerOfflineAck = z.object({
  type: z.literal('offline-ack'),
  batchId: requestId,
  recorded: z.array(z.string()),
  duplicates: z.array(z.string()),
  /**
   * Events refused whole, never to be sent again: a time more than
   * OFFLINE_CLOCK_SKEW_SECONDS in the future or older than the offline window
   * plus the upload grace (docs/terminal-protocol.md "Offline"). Absent from
   * older servers.
   */
  rejected: z.array(z.object({ eventId: z.string(), code: z.literal('EVENT_TIME_OUT_OF_RANGE') })).optional(),
});
export type ServerOfflineAck = z.infer<typeof ServerOfflineAck>;

/**
 * State of a cash session after each cash message (seed 001 §4). Amounts in
 * agorot. In `startPayout` the terminal pays `change` and answers
 * `cash-payout-done`; `unpaid` is change it could not pay (a payout-error
 * purchase); `excess` is overpayment kept beyond the club's limit.
 */
export const ServerCashState = z.object({
  type: z.literal('cash-state'),
  sessionId,
  state: z.enum(CASH_SESSION_STATES),
  inserted: z.number().int(),
  due: z.number().int().nullable(),
  credited: z.number().int(),
  change: z.object({ coins: Inventory, bills: Inventory, amount: z.number().int() }).optional(),
  unpaid: z.number().int(),
  excess: z.number().int(),
  error: z.enum(CASH_ERRORS).optional(),
  message: z.string().optional(),
});
export type ServerCashState = z.infer<typeof ServerCashState>;

/** Any message the server may send to a terminal. */
export const ServerMessage = z.discriminatedUnion('type', [
  ServerWelcome,
  ServerDecision,
  ServerError,
  ServerAction,
  ServerValidList,
  ServerOfflineAck,
  ServerCashState,
  ServerEnrolled,
  ServerExitResult,
  ServerTemplates,
  ServerMessages,
  ServerPurchaseResult,
  ServerIncidentReported,
  ServerAttendanceResult,
  ServerSafety,
  ServerAlarmAck,
]);
export type ServerMessage = z.infer<typeof ServerMessage>;

// ---------------------------------------------------------------- console live feed (/api/live)

/** First message of the console: its bearer token; an operator may choose a club by its external id. */
export const LiveAuth = z.object({
  type: z.literal('auth'),
  token: z.string().min(1).max(4096),
  clubExternalId: z.number().int().positive().optional(),
});
export type LiveAuth = z.infer<typeof LiveAuth>;

// LiveMessage (what the server pushes on /api/live): live-message.ts, re-exported here.
export { LiveMessage } from './live-message.js';
