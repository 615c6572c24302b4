import { and, desc, eq, ilike, sql } from 'drizzle-orm';
import type { OutboxMessage, OutboxQuery } from '@venue/domain';
import type { Db, Tx } from '../../db/index.js';
import { clients, notificationOutbox } from '../../db/schema.js';
import { clockNow } from '../../lib/clock.js';
import { scoped } from '../../lib/scoped.js';

/**
 * The outbox of e-mails and SMS to members (issue 37, docs/notifications.md
 * "The outbox"): every message is a row, queued here and sent by the delivery
 * worker (delivery.ts); the row is its own delivery log. Without SMTP or SMS
 * settings a message is `held`: it stays in the outbox, readable in the
 * console (the embedded default of `npm start`).
 */

/** The two channels a message goes out on. */
export type NoticeChannel = 'email' | 'sms';

/** One message to queue. */
export interface OutgoingMessage {
  clubId: number;
  /** The client the message is about or to (their choices apply to notices); null for none. */
  clientId?: number | null;
  channel: NoticeChannel;
  /** An e-mail address, or a phone number (E.164 or Israeli local form) for SMS. */
  to: string;
  /** 'member-code' | a notice kind (domain NOTICE_KINDS). */
  kind: string;
  /** The e-mail subject (unused for SMS). */
  subject?: string;
  /** The plain text (the whole SMS; the e-mail's text part). */
  text: string;
  /** The e-mail's HTML part (none = text only). */
  html?: string;
  /** Sign-in codes: sent at once, never deferred by Shabbat, a holiday or quiet hours. */
  urgent?: boolean;
  /** A tax document (purchase_documents.id of the same club) attached to the e-mail as PDF. */
  documentId?: number | null;
}

/** Longest stored text of a message (characters): longer text is cut, never refused. */
const MAX_TEXT = 20_000;

/**
 * Queues a message: one `queued` row, due now (the worker decides a deferral for Shabbat, a holiday
 * or quiet hours when it comes to send it; an urgent one is never deferred). Works inside a
 * caller's transaction (`Tx`): the message is queued only when that transaction commits.
 * @returns the outbox id
 */
export async function queueMessage(db: Db | Tx, m: OutgoingMessage): Promise<{ id: number }> {
  const [row] = await db
    .insert(notificationOutbox)
    .values({
      clubId: m.clubId,
      clientId: m.clientId ?? null,
      channel: m.channel,
      to: m.to.trim(),
      kind: m.kind,
      subject: (m.subject ?? '').slice(0, 500),
      text: m.text.slice(0, MAX_TEXT),
      html: m.html ? m.html.slice(0, MAX_TEXT * 4) : null,
      urgent: m.urgent === true,
      documentId: m.documentId ?? null,
      nextAttemptAt: clockNow(),
    })
    .returning({ id: notificationOutbox.id });
  return { id: row.id };
}

/** The row as the console and the tests read it. */
export function presentMessage(r: typeof notificationOutbox.$inferSelect, clientName: string | null): OutboxMessage {
  return {
    id: r.id,
    clientId: r.clientId,
    clientName,
    channel: r.channel as OutboxMessage['channel'],
    to: r.to,
    kind: r.kind,
    subject: r.subject,
    text: r.text,
    urgent: r.urgent,
    status: r.status as OutboxMessage['status'],
    attempts: r.attempts,
    nextAttemptAt: r.status === 'queued' ? (r.nextAttemptAt?.toISOString() ?? null) : null,
    deferredReason: (r.deferredReason as OutboxMessage['deferredReason']) ?? null,
    lastError: r.lastError,
    documentId: r.documentId,
    sentAt: r.sentAt?.toISOString() ?? null,
    createdAt: r.createdAt.toISOString(),
  };
}

/**
 * GET /api/Notification/Outbox: the club's messages, newest first, at most `q.limit` (default 100,
 * at most 500), filtered by status, channel, kind, client and part of the address. Tests read sign-in
 * codes and notices here; another club's messages are never listed.
 */
export async function listOutbox(db: Db | Tx, clubId: number, q: Partial<OutboxQuery> = {}): Promise<OutboxMessage[]> {
  const s = scoped(db, clubId);
  const rows = await db
    .select({
      m: notificationOutbox,
      name: sql<string | null>`nullif(trim(${clients.firstName} || ' ' || ${clients.lastName}), '')`,
    })
    .from(notificationOutbox)
    .leftJoin(clients, and(eq(clients.clubId, notificationOutbox.clubId), eq(clients.id, notificationOutbox.clientId)))
    .where(
      s.where(
        notificationOutbox,
        q.status ? eq(notificationOutbox.status, q.status) : undefined,
        q.channel ? eq(notificationOutbox.channel, q.channel) : undefined,
        q.kind ? eq(notificationOutbox.kind, q.kind) : undefined,
        q.clientId ? eq(notificationOutbox.clientId, q.clientId) : undefined,
        q.to ? ilike(notificationOutbox.to, `%${q.to.replace(/[\\%_]/g, (c) => `\\${c}`)}%`) : undefined,
      ),
    )
    .orderBy(desc(notificationOutbox.id))
    .limit(Math.min(q.limit ?? 100, 500));
  return rows.map((r) => presentMessage(r.m, r.name));
}
