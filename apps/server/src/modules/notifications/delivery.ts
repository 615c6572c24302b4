import { and, asc, eq, lte, sql } from 'drizzle-orm';
import { nextSendMoment, type ClubLocation } from '@venue/domain';
import type { Db } from '../../db/index.js';
import { clubs, notificationOutbox } from '../../db/schema.js';
import { clubLocation } from '../club/club.service.js';
import { SendFailure, type EmailSender } from './email.js';
import { choicesOf, getNotificationSettings } from './settings.js';
import type { SmsProvider } from './sms.js';
import { unsubscribeUrl } from './unsubscribe.js';

/**
 * The delivery worker (docs/notifications.md "Delivery and retries"): sends the outbox's due
 * messages. Each is claimed first (its next attempt moved a lease ahead, so two server instances
 * never send one twice at once); a notice that falls on Shabbat, a yom tov or the club's quiet
 * hours is moved to the first allowed moment (an urgent one — a sign-in code — never is); a member
 * who turned the channel or the kind off is skipped; without a transport the message is held in
 * the outbox; a failure is retried with back-off until MAX_ATTEMPTS; an address the server refused
 * is bounced.
 */

/** Attempts before a message is given up (failed). */
export const MAX_ATTEMPTS = 6;
/** Wait after the first failed attempt, doubled after each further one: 1, 2, 4, 8, 16 min, at most 1 h. */
export const BACKOFF_FIRST_MS = 60_000;
export const BACKOFF_MAX_MS = 60 * 60_000;
/** A claimed message is tried again after this lease if its sender died. */
const LEASE_MS = 2 * 60_000;

/** The wait (ms) after the `attempts`-th failed attempt. */
export function backoffMs(attempts: number): number {
  return Math.min(BACKOFF_FIRST_MS * 2 ** Math.max(0, attempts - 1), BACKOFF_MAX_MS);
}

/** What the worker sends with: the install's transports (null = held in the outbox) and defaults. */
export interface Transports {
  email: EmailSender | null;
  sms: SmsProvider | null;
  /** The install's SMS sender id when the club set none. */
  smsSender: string;
  /** The server's public address (links in headers). */
  publicUrl: string;
  /**
   * A tax document as an e-mail attachment (modules/documents `documentAttachment`, handed in by
   * routes.ts: the documents area imports purchases, which import this one's hooks).
   */
  documentPdf?: (db: Db, clubId: number, documentId: number) => Promise<Attachment | null>;
}

/** An e-mail attachment. */
export interface Attachment {
  filename: string;
  content: Buffer;
  contentType: string;
}

type Row = typeof notificationOutbox.$inferSelect;
type Outcome = Partial<Row>;

/**
 * Sends the messages due at `now` (at most `limit`, oldest due first); returns how many were
 * attempted (deferrals, skips and holds included).
 */
export async function deliverDue(db: Db, t: Transports, now = new Date(), limit = 50): Promise<number> {
  const due = await db
    .select({ clubId: notificationOutbox.clubId, id: notificationOutbox.id })
    .from(notificationOutbox)
    .where(and(eq(notificationOutbox.status, 'queued'), lte(notificationOutbox.nextAttemptAt, now)))
    .orderBy(asc(notificationOutbox.nextAttemptAt))
    .limit(limit);
  let attempted = 0;
  for (const { clubId, id } of due) {
    const [claimed] = await db
      .update(notificationOutbox)
      .set({ nextAttemptAt: new Date(now.getTime() + LEASE_MS) })
      .where(
        and(
          eq(notificationOutbox.clubId, clubId),
          eq(notificationOutbox.id, id),
          eq(notificationOutbox.status, 'queued'),
          lte(notificationOutbox.nextAttemptAt, now),
        ),
      )
      .returning();
    if (!claimed) continue;
    attempted += 1;
    const outcome = await attempt(db, claimed, t, now);
    await db
      .update(notificationOutbox)
      .set(outcome)
      .where(and(eq(notificationOutbox.clubId, clubId), eq(notificationOutbox.id, id)));
  }
  return attempted;
}

/** What one claimed message becomes. */
async function attempt(db: Db, m: Row, t: Transports, now: Date): Promise<Outcome> {
  const [club] = await db.select().from(clubs).where(eq(clubs.id, m.clubId));
  const settings = await getNotificationSettings(db, m.clubId);
  if (!m.urgent) {
    const loc: ClubLocation = clubLocation(club ?? { location: null });
    const next = nextSendMoment(now, loc, settings);
    if (next.reason) return { nextAttemptAt: next.at, deferredReason: next.reason };
    if (m.clientId != null) {
      const choices = await choicesOf(db, m.clubId, m.clientId);
      const off = m.channel === 'email' ? !choices.email : !choices.sms;
      if (off || (choices.offKinds as string[]).includes(m.kind)) return { status: 'skipped', nextAttemptAt: null };
    }
  }
  if (!m.to) return { status: 'failed', lastError: 'noAddress', nextAttemptAt: null };
  const transport = m.channel === 'email' ? t.email : t.sms;
  if (!transport) return { status: 'held', lastError: 'notConfigured', nextAttemptAt: null };
  try {
    const providerId =
      m.channel === 'email'
        ? await sendEmail(db, m, t, settings.senderName || club?.name || '', settings.replyTo)
        : (
            await t.sms!.send({
              to: m.to,
              text: m.text,
              sender: settings.smsSender || t.smsSender,
              reference: `${m.clubId}-${m.id}`,
            })
          ).id;
    return { status: 'sent', attempts: m.attempts + 1, sentAt: now, providerId, lastError: null, nextAttemptAt: null };
  } catch (err) {
    const f = err instanceof SendFailure ? err : new SendFailure('retry', (err as Error).message.slice(0, 300));
    const attempts = m.attempts + 1;
    if (f.kind === 'bounce') return { status: 'bounced', attempts, lastError: f.message, nextAttemptAt: null };
    if (f.kind === 'permanent' || attempts >= MAX_ATTEMPTS)
      return { status: 'failed', attempts, lastError: f.message, nextAttemptAt: null };
    return { attempts, lastError: f.message, nextAttemptAt: new Date(now.getTime() + backoffMs(attempts)) };
  }
}

/** One e-mail: the club's sender name, the document as PDF when named, List-Unsubscribe for notices. */
async function sendEmail(db: Db, m: Row, t: Transports, fromName: string, replyTo: string): Promise<string> {
  const attachments: Attachment[] = [];
  const doc = m.documentId != null && t.documentPdf ? await t.documentPdf(db, m.clubId, m.documentId) : null;
  if (doc) attachments.push(doc);
  const headers: Record<string, string> = {};
  if (m.clientId != null && m.kind !== 'member-code') {
    const url = await unsubscribeUrl(db, t.publicUrl, m.clubId, m.clientId, 'email');
    headers['List-Unsubscribe'] = `<${url}>`;
    headers['List-Unsubscribe-Post'] = 'List-Unsubscribe=One-Click';
  }
  const sent = await t.email!({
    fromName,
    replyTo,
    to: m.to,
    subject: m.subject,
    text: m.text,
    html: m.html ?? undefined,
    attachments,
    headers,
  });
  return sent.messageId;
}

/** Messages still waiting to be sent (operations: a growing number means a transport is down). */
export async function queuedMessages(db: Db): Promise<number> {
  const [r] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(notificationOutbox)
    .where(eq(notificationOutbox.status, 'queued'));
  return r?.n ?? 0;
}
