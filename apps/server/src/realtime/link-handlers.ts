import { TERMINAL_PROTOCOL_VERSION, TerminalMessage, type ServerCashState, type TerminalEntrance } from '@venue/domain';
import type { Db } from '../db/index.js';
import { processEntrance } from '../modules/gate/entrance.service.js';
import { isDatabaseUnavailable } from '../lib/error-handler.js';
import {
  cashBegin,
  cashCancel,
  cashComplete,
  cashInsert,
  cashPayoutDone,
  publishCash,
  type CashLink,
} from '../modules/terminals/cash.service.js';
import { authenticateTerminal, recordTerminalReport } from '../modules/terminals/link.service.js';
import { ingestOfflineBatch } from '../modules/terminals/offline.service.js';
import { reportFromTerminal } from '../modules/incidents/incidents.service.js';
import { handleAttendance, handleEnroll, handleExit } from './handlers/gate.js';
import { handlePurchase } from './handlers/purchase.js';
import { raiseAlarm } from '../modules/gate/safety.service.js';
import { admissionOf } from './admission.js';
import { traced } from '../lib/tracing.js';
import { recordDecisionTime } from './gate-timing.js';
import { offlineUploadArrived, recordDatabaseUnavailable, recordGateDecision } from '../lib/metrics.js';
import type { LinkState, TerminalLinkSession } from './terminal-session.js';

/**
 * What the server does with each terminal message (docs/terminal-protocol.md):
 * one handler per message type, in a map typed over the protocol's union, so
 * a message type added to `TerminalMessage` without a handler does not compile.
 * Every message is validated with the zod schemas of packages/domain; a bad
 * one answers an `error` without closing the link.
 */

type MessageType = TerminalMessage['type'];
type MessageOf<K extends MessageType> = Extract<TerminalMessage, { type: K }>;
/** `arrived`: when the frame reached this process (performance.now(), ms), before it waited its turn. */
type Handler<K extends MessageType> = (s: TerminalLinkSession, m: MessageOf<K>, arrived: number) => Promise<void>;
/** One handler per terminal message type. */
export type LinkHandlers = { [K in MessageType]: Handler<K> };

/** How far in the future a terminal's `at` may lie before the server uses its own clock. */
const MAX_CLOCK_SKEW_MS = 5 * 60_000;

/** A handler for an authenticated terminal only; before hello the message answers NOT_AUTHENTICATED. */
function authenticated<K extends MessageType>(
  fn: (s: TerminalLinkSession, link: LinkState, m: MessageOf<K>, arrived: number) => Promise<void>,
): Handler<K> {
  return async (s, m, arrived) => {
    if (!s.link) {
      const eventId = m.type === 'entrance' ? (m as TerminalEntrance).eventId : undefined;
      return s.fail('NOT_AUTHENTICATED', 'Send hello first', eventId);
    }
    return fn(s, s.link, m, arrived);
  };
}

/** A cash message (seed 001 §4 "Cash session"): the session's new state to the terminal and the live feed. */
function cash<K extends MessageType>(
  step: (db: Db, link: CashLink, m: MessageOf<K>) => Promise<ServerCashState>,
): Handler<K> {
  return authenticated<K>(async (s, link, m) => {
    const cashLink = { clubId: link.clubId, terminalId: link.terminalId };
    const state = await step(s.db, cashLink, m);
    s.send(state);
    publishCash(s.deps.bus, cashLink, state);
  });
}

/**
 * `entrance` → `decision`; DECIDE_OFFLINE when the server cannot decide (database out of reach or any other
 * failure). Each answer is timed from the frame's arrival (`arrived`, ms) into the decision metrics (lib/metrics.ts).
 */
async function decideEntrance(
  s: TerminalLinkSession,
  link: LinkState,
  m: TerminalEntrance,
  arrived: number,
): Promise<void> {
  const now = Date.now();
  let at = m.at ? new Date(m.at) : new Date(now);
  if (at.getTime() > now + MAX_CLOCK_SKEW_MS) at = new Date(now);
  try {
    const r = await traced(
      'gate decision',
      {
        'venue.club_id': link.clubId,
        'venue.terminal_id': link.terminalId,
        'venue.identification': m.identification.kind,
      },
      () =>
        processEntrance(s.db, s.deps.bus, {
          clubId: link.clubId,
          terminalId: link.terminalId,
          identification: m.identification,
          at,
          eventId: m.eventId,
        }),
      (d) => ({ 'venue.entrance_status': d.status }),
    );
    s.send({
      type: 'decision',
      eventId: m.eventId,
      status: r.status,
      reason: r.reason,
      gateOpenSeconds: r.gateOpenSeconds,
      message: r.messageKey,
      ...(r.clientName ? { clientName: r.clientName } : {}),
      ...(r.paymentRequired ? { paymentRequired: { amount: r.paymentRequired } } : {}),
    });
    const ms = performance.now() - arrived;
    recordDecisionTime(ms);
    recordGateDecision(r.status, ms / 1000);
  } catch (err) {
    // Degrade, never refuse: whatever kept the server from deciding — the database out of reach, a
    // state it does not recognise, a fault of ours — the terminal decides by its list, as during an
    // outage (docs/terminal-protocol.md "Database outage"). Refusing everyone at the door is never
    // the answer to an error that is not the member's.
    if (isDatabaseUnavailable(err)) {
      recordDatabaseUnavailable('gate');
      s.log.warn({ terminalId: link.terminalId }, 'database unavailable: terminal decides offline');
    } else s.log.error({ err, terminalId: link.terminalId }, 'entrance failed: terminal decides offline');
    s.fail('DECIDE_OFFLINE', 'The server cannot decide now; decide offline', m.eventId);
    recordGateDecision('offline', (performance.now() - arrived) / 1000);
  }
}

/** The handler of every terminal message type. */
export const linkHandlers: LinkHandlers = {
  hello: async (s, m) => {
    if (s.link) return s.fail('BAD_MESSAGE', 'Already authenticated');
    // Admission control (realtime/admission.ts): a bounded number of handshakes at a time. The terminal
    // gives up waiting for its welcome after its own timeout and closes; a closed session's turn is skipped.
    s.helloArrived();
    const release = await admissionOf(s.deps).enter();
    if (!release) return s.closeWith('BUSY', 'Too many terminals connecting; try again later', 1013);
    try {
      if (s.closed) return;
      const t = await authenticateTerminal(s.db, m.serial, m.secret);
      if (!t) {
        s.log.warn({ serial: m.serial }, 'terminal authentication failed');
        return s.closeWith('AUTH_FAILED', 'Unknown serial or wrong secret', 4401);
      }
      if (s.closed) return;
      await s.open(t, m.devices, m.softwareVersion);
    } finally {
      release();
    }
  },
  entrance: authenticated(async (s, link, m, arrived) => {
    // The server is stopping: the terminal decides by its list and uploads it where it moves to.
    if (s.leaving) return s.fail('DECIDE_OFFLINE', 'The server is stopping; decide offline', m.eventId);
    return s.startEntrance(() => decideEntrance(s, link, m, arrived));
  }),
  heartbeat: authenticated(async (s, link, m) => {
    const doorChanged = m.doorState != null && m.doorState !== link.doorState;
    if (doorChanged) {
      link.doorState = m.doorState!;
      s.deps.bus.publish('door', { clubId: link.clubId, terminalId: link.terminalId, doorState: m.doorState! });
    }
    await recordTerminalReport(s.db, link.terminalId, {
      ...(m.devices ? { devices: m.devices } : {}),
      ...(doorChanged ? { doorState: m.doorState } : {}),
    });
    await s.markSeen(link);
  }),
  enroll: authenticated(async (s, link, m) => s.send(await handleEnroll(s.db, s.deps.bus, link, m, s.log))),
  exit: authenticated(async (s, link, m) => s.send(await handleExit(s.db, link, m, s.log))),
  attendance: authenticated(async (s, link, m) => s.send(await handleAttendance(s.db, link, m, s.log))),
  purchase: authenticated(async (s, link, m) => s.send(await handlePurchase(s.db, s.deps.bus, link, m, s.log))),
  'action-reply': authenticated(async (s, _link, m) => {
    const { requestId, ok, data, error } = m;
    s.deps.actions.reply({ requestId, ok, ...(data !== undefined ? { data } : {}), ...(error ? { error } : {}) });
  }),
  'offline-batch': authenticated(async (s, link, m) =>
    // In the offline backlog (lib/metrics.ts) from its arrival until recorded, refused or failed.
    s.queueUpload(
      link.terminalId,
      m.batchId,
      () => ingestOfflineBatch(s.db, s.deps.bus, link, m),
      offlineUploadArrived(m.events.length),
    ),
  ),
  'cash-begin': cash(cashBegin),
  'cash-insert': cash(cashInsert),
  'cash-complete': cash(cashComplete),
  'cash-cancel': cash(cashCancel),
  'cash-payout-done': cash(cashPayoutDone),
  incident: authenticated(async (s, link, m) => {
    const incidentId = await reportFromTerminal(s.db, s.deps.bus, link, m);
    if (incidentId == null) {
      return s.fail(
        'INCIDENT_REFUSED',
        'Incident reports are off, the terminal is not approved, or no such category',
        m.eventId,
      );
    }
    s.send({ type: 'incident-reported', eventId: m.eventId, incidentId });
  }),
  // An alarm input (docs/terminal-protocol.md "Emergency"): the club's open-all or lockdown.
  alarm: authenticated(async (s, link, m) =>
    s.send(
      await raiseAlarm(
        s.db,
        s.deps.bus,
        { clubId: link.clubId, terminalId: link.terminalId, name: link.name, approved: link.approved },
        m.input,
        m.eventId,
      ),
    ),
  ),
  // Remote view: kept and pushed to the console, never answered (docs/terminal-protocol.md "Remote view").
  screen: authenticated(async (s, link, m) => s.deps.screens.report(link.registered, m)),
};

/**
 * Handles one text frame of a terminal: parses and validates it, refuses a hello of another
 * protocol version (closing with 4400), answers BAD_MESSAGE to anything invalid (with the
 * message's eventId when it has one) and hands a valid message to its handler.
 */
export async function handleFrame(s: TerminalLinkSession, raw: string, arrived = performance.now()): Promise<void> {
  s.touch();
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    return s.fail('BAD_MESSAGE', 'Not JSON');
  }
  const obj = (data ?? {}) as { type?: unknown; version?: unknown; eventId?: unknown };
  if (obj.type === 'hello' && obj.version !== TERMINAL_PROTOCOL_VERSION) {
    return s.closeWith('UNSUPPORTED_VERSION', `Protocol version ${TERMINAL_PROTOCOL_VERSION} only`, 4400);
  }
  const parsed = TerminalMessage.safeParse(data);
  if (!parsed.success) {
    const eventId = typeof obj.eventId === 'string' ? obj.eventId : undefined;
    const issue = parsed.error.issues[0];
    return s.fail('BAD_MESSAGE', `${issue?.path.join('.') || 'message'}: ${issue?.message ?? 'invalid'}`, eventId);
  }
  return dispatch(s, parsed.data, arrived);
}

/** Calls the handler of the message's type (the map's key and the message's type agree). */
function dispatch<K extends MessageType>(s: TerminalLinkSession, m: MessageOf<K>, arrived: number): Promise<void> {
  return (linkHandlers[m.type] as Handler<K>)(s, m, arrived);
}
