import type { FastifyBaseLogger } from 'fastify';
import type { ServerError, TerminalAttendance, TerminalEnroll, TerminalExit } from '@venue/domain';
import type { Db } from '../../db/index.js';
import { processExit } from '../../modules/gate/quick-exit.service.js';
import { exitByIdentification } from '../../modules/gate/area-exit.js';
import { clockAtTerminal } from '../../modules/attendance/attendance.terminal.js';
import { enrollAtTerminal } from '../../modules/biometrics/biometrics.service.js';
import { messagesForTerminals } from '../../modules/terminal-messages/terminal-messages.service.js';
import type { EventBus } from '../../lib/event-bus.js';

/**
 * Terminal-link handlers of the gate decisions (docs/terminal-protocol.md
 * "Enrolment", "Quick exit", "Pushed configuration"), called by
 * realtime/link-handlers.ts for an authenticated terminal.
 */

export interface GateLink {
  clubId: number;
  terminalId: number;
}

/** The request logger of the terminal's connection. */
export type Log = Pick<FastifyBaseLogger, 'error'>;

/** How far in the future a terminal's `at` may lie before the server uses its own clock (as for entrances). */
const MAX_CLOCK_SKEW_MS = 5 * 60_000;

/** A failure answers an `error` carrying the event id (the terminal may resend it); it is logged. */
function generalError(eventId: string): ServerError {
  return { type: 'error', code: 'GENERAL_ERROR', message: 'General error', eventId };
}

/** `enroll` → `enrolled` (or `error` GENERAL_ERROR with the eventId). */
export async function handleEnroll(db: Db, bus: EventBus, link: GateLink, m: TerminalEnroll, log: Log) {
  try {
    return await enrollAtTerminal(db, bus, link, m);
  } catch (err) {
    log.error({ err, terminalId: link.terminalId }, 'enroll failed');
    return generalError(m.eventId);
  }
}

/** `exit` → `exit-result` (or `error` GENERAL_ERROR with the eventId). */
export async function handleExit(db: Db, link: GateLink, m: TerminalExit, log: Log) {
  const now = Date.now();
  let at = m.at ? new Date(m.at) : new Date(now);
  if (at.getTime() > now + MAX_CLOCK_SKEW_MS) at = new Date(now);
  try {
    const result = await processExit(db, { ...link, identification: m.identification, at, eventId: m.eventId });
    // Every exit read counts for the occupancy (docs/gate-safety.md), a quick exit or a plain exit reader.
    await exitByIdentification(db, link.clubId, m.identification, at);
    return result;
  } catch (err) {
    log.error({ err, terminalId: link.terminalId }, 'exit failed');
    return generalError(m.eventId);
  }
}

/** `attendance` → `attendance-result` (or `error` GENERAL_ERROR with the eventId); docs/attendance.md. */
export async function handleAttendance(db: Db, link: GateLink, m: TerminalAttendance, log: Log) {
  const now = Date.now();
  let at = m.at ? new Date(m.at) : new Date(now);
  if (at.getTime() > now + MAX_CLOCK_SKEW_MS) at = new Date(now);
  try {
    return await clockAtTerminal(db, link, m, at);
  } catch (err) {
    log.error({ err, terminalId: link.terminalId }, 'attendance failed');
    return generalError(m.eventId);
  }
}

/** Reads of a club's terminal messages under way, shared by the hellos that arrive meanwhile. */
const messagesInFlight = new WeakMap<Db, Map<number, ReturnType<typeof messagesForTerminals>>>();

/**
 * What a terminal gets right after its welcome: the club's terminal messages.
 * When a club's terminals reconnect together (a server restart), their hellos
 * share one read under way instead of one each; nothing is kept after it
 * ends, and a message saved meanwhile reaches them by its own push.
 */
export async function gateWelcomeMessages(db: Db, link: GateLink) {
  let perClub = messagesInFlight.get(db);
  if (!perClub) messagesInFlight.set(db, (perClub = new Map()));
  let read = perClub.get(link.clubId);
  if (!read) {
    read = messagesForTerminals(db, link.clubId);
    perClub.set(link.clubId, read);
    const done = () => perClub.delete(link.clubId);
    read.then(done, done);
  }
  return [await read];
}
