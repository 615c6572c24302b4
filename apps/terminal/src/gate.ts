import { randomUUID } from 'node:crypto';
import type {
  Identification,
  ServerAttendanceResult,
  ServerEnrolled,
  ServerExitResult,
  ServerIncidentReported,
  ServerMessage,
  ServerMessages,
  ServerTemplates,
  TerminalEnroll,
} from '@venue/domain';
import { TerminalError, type TerminalClient } from './client.js';

/**
 * The gate-decision messages of the simulator (docs/terminal-protocol.md
 * "Enrolment", "Quick exit", "Pushed configuration") on top of a connected
 * TerminalClient: a request carries an eventId and resolves with the
 * server's answer of the given type and the same eventId.
 */

type Answer<T extends ServerMessage['type']> = Extract<ServerMessage, { type: T }>;

function request<T extends 'enrolled' | 'exit-result' | 'incident-reported' | 'attendance-result'>(
  client: TerminalClient,
  message: { type: string; eventId: string },
  answerType: T,
  timeoutMs = 10_000,
): Promise<Answer<T>> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: ServerMessage) => {
      const id = (m as { eventId?: string }).eventId;
      if (id !== message.eventId) return;
      if (m.type === answerType) finish(null, m as Answer<T>);
      else if (m.type === 'error') finish(new TerminalError(m.code, m.message));
    };
    const timer = setTimeout(() => finish(new TerminalError('TIMEOUT', `No ${answerType} from the server`)), timeoutMs);
    const finish = (err: Error | null, m?: Answer<T>) => {
      clearTimeout(timer);
      client.off('message', onMessage);
      if (err) reject(err);
      else resolve(m!);
    };
    client.on('message', onMessage);
    client.sendRaw(JSON.stringify(message));
  });
}

/** Enrols a card, fingerprint or face for a client (by number and enrolment password). */
export function enroll(
  client: TerminalClient,
  e: Omit<TerminalEnroll, 'type' | 'eventId'> & { eventId?: string },
  timeoutMs?: number,
): Promise<ServerEnrolled> {
  return request(client, { type: 'enroll', ...e, eventId: e.eventId ?? randomUUID() }, 'enrolled', timeoutMs);
}

/** Presents an identification at a quick-exit terminal's exit. */
export function exitGate(
  client: TerminalClient,
  identification: Identification,
  opts: { eventId?: string; at?: Date; timeoutMs?: number } = {},
): Promise<ServerExitResult> {
  return request(
    client,
    {
      type: 'exit',
      eventId: opts.eventId ?? randomUUID(),
      identification,
      ...(opts.at ? { at: opts.at.toISOString() } : {}),
    } as { type: string; eventId: string },
    'exit-result',
    opts.timeoutMs,
  );
}

/**
 * A client reports an incident at the terminal in a feedback category
 * (docs/messages.md "Incident reports"); resolves with the stored incident's
 * id, rejects with INCIDENT_REFUSED when the club does not take reports.
 */
export function reportIncident(
  client: TerminalClient,
  r: { categoryId: number; note?: string; eventId?: string },
  timeoutMs?: number,
): Promise<ServerIncidentReported> {
  return request(
    client,
    { type: 'incident', eventId: r.eventId ?? randomUUID(), categoryId: r.categoryId, note: r.note ?? '' } as {
      type: string;
      eventId: string;
    },
    'incident-reported',
    timeoutMs,
  );
}

/**
 * An employee clocks in or out (docs/terminal-protocol.md "Attendance"): the
 * server opens a shift, or closes the employee's open one.
 */
export function clock(
  client: TerminalClient,
  identification: Identification,
  opts: { eventId?: string; at?: Date; timeoutMs?: number } = {},
): Promise<ServerAttendanceResult> {
  return request(
    client,
    {
      type: 'attendance',
      eventId: opts.eventId ?? randomUUID(),
      identification,
      ...(opts.at ? { at: opts.at.toISOString() } : {}),
    } as { type: string; eventId: string },
    'attendance-result',
    opts.timeoutMs,
  );
}

/** Resolves with the next pushed message of a type (`messages` or `templates`), or one already received. */
export function nextPush<T extends 'messages' | 'templates'>(
  client: TerminalClient,
  type: T,
  opts: { timeoutMs?: number; since?: number; where?: (m: Answer<T>) => boolean } = {},
): Promise<T extends 'messages' ? ServerMessages : ServerTemplates> {
  type R = T extends 'messages' ? ServerMessages : ServerTemplates;
  const ok = (m: ServerMessage): m is Answer<T> => m.type === type && (!opts.where || opts.where(m as Answer<T>));
  const seen = client.unsolicited.slice(opts.since ?? client.unsolicited.length).find(ok);
  if (seen) return Promise.resolve(seen as unknown as R);
  return new Promise((resolve, reject) => {
    const onMessage = (m: ServerMessage) => {
      if (!ok(m)) return;
      clearTimeout(timer);
      client.off('message', onMessage);
      resolve(m as unknown as R);
    };
    const timer = setTimeout(() => {
      client.off('message', onMessage);
      reject(new TerminalError('TIMEOUT', `No ${type} pushed`));
    }, opts.timeoutMs ?? 5000);
    client.on('message', onMessage);
  });
}
