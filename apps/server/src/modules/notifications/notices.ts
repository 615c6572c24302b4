import { and, eq, gte, sql } from 'drizzle-orm';
import { ClientStatus, type NoticeKind } from '@venue/domain';
import type { Db, Tx } from '../../db/index.js';
import { clients, clubs, notificationOutbox } from '../../db/schema.js';
import { clockNow } from '../../lib/clock.js';
import { loadNotifyConfig } from '../../config.js';
import { queueMessage } from './outbox.js';
import { choicesOf, getNotificationSettings } from './settings.js';
import { emailHtml, fill, templateOf } from './templates.js';
import { unsubscribeUrl } from './unsubscribe.js';

/**
 * Notices to a member on money events (docs/notifications.md "Notices"): the club's wording in the
 * member's language, one message per channel the member has an address for and has not turned off,
 * queued in the caller's transaction. Nothing is queued when the club turned notices (or this kind)
 * off, the member opted out of the kind, or the event is history older than a day (the demo's year
 * of history runs the money services under a past clock: no notices about the past).
 */

/** The values of one notice: amounts in agorot, dates YYYY-MM-DD. */
export interface NoticeValues {
  amount?: number;
  balance?: number;
  endDate?: string | null;
  reason?: string;
  days?: number;
}

export interface NoticeRequest {
  clubId: number;
  clientId: number;
  kind: NoticeKind;
  values?: NoticeValues;
  /** A tax document of the club to attach to the e-mail (purchase_documents.id). */
  documentId?: number | null;
  /** Skip when a notice of this kind went to this client within this many days (no repeats). */
  onceInDays?: number;
}

/** The address members reach the server at (PUBLIC_URL), for links in messages. */
export function publicUrl(): string {
  return loadNotifyConfig(process.env, Number(process.env.PORT ?? 3000)).publicUrl;
}

const shekels = (agorot: number, lang: 'he' | 'en') =>
  new Intl.NumberFormat(lang === 'he' ? 'he-IL' : 'en-IL', { style: 'currency', currency: 'ILS' }).format(agorot / 100);
const dateText = (iso: string | null | undefined) => (iso ? iso.split('-').reverse().join('/') : '');

/**
 * Queues a notice (see the module's comment). Returns the outbox ids queued (none when skipped).
 * Never throws for a missing address or a turned-off choice: those are skips.
 */
export async function queueNotice(db: Db | Tx, n: NoticeRequest): Promise<number[]> {
  if (clockNow().getTime() < Date.now() - 86_400_000) return [];
  const settings = await getNotificationSettings(db, n.clubId);
  if (!settings.enabled || !settings.kinds.includes(n.kind)) return [];
  const [row] = await db
    .select({ c: clients, clubName: clubs.name })
    .from(clients)
    .innerJoin(clubs, eq(clubs.id, clients.clubId))
    .where(and(eq(clients.clubId, n.clubId), eq(clients.id, n.clientId)));
  if (!row || row.c.status === ClientStatus.Deleted) return [];
  const choices = await choicesOf(db, n.clubId, n.clientId);
  if (choices.offKinds.includes(n.kind)) return [];
  if (n.onceInDays && (await sentWithin(db, n, n.onceInDays))) return [];
  const lang = choices.lang;
  const base = publicUrl();
  const v = n.values ?? {};
  const values: Record<string, string> = {
    club: settings.senderName || row.clubName,
    name: row.c.firstName,
    endDate: dateText(v.endDate),
    amount: v.amount != null ? shekels(v.amount, lang) : '',
    balance: v.balance != null ? shekels(v.balance, lang) : '',
    reason: v.reason ?? '',
    days: v.days != null ? String(v.days) : '',
    payLink: `${base}/m`,
    docLink: `${base}/m`,
  };
  const ids: number[] = [];
  if (row.c.email && choices.email) {
    const t = await templateOf(db, n.clubId, n.kind, lang, 'email');
    const text = fill(t.body, values);
    const url = await unsubscribeUrl(db, base, n.clubId, n.clientId, 'email');
    const label = lang === 'he' ? 'להפסקת הודעות בדוא״ל' : 'Stop e-mail notices';
    const m = await queueMessage(db, {
      clubId: n.clubId,
      clientId: n.clientId,
      channel: 'email',
      to: row.c.email,
      kind: n.kind,
      subject: fill(t.subject, values),
      text: `${text}\n\n${label}: ${url}`,
      html: emailHtml(text, lang, { url, label }),
      documentId: n.documentId ?? null,
    });
    ids.push(m.id);
  }
  if (row.c.phone && choices.sms) {
    const t = await templateOf(db, n.clubId, n.kind, lang, 'sms');
    const m = await queueMessage(db, {
      clubId: n.clubId,
      clientId: n.clientId,
      channel: 'sms',
      to: row.c.phone,
      kind: n.kind,
      text: fill(t.body, values),
    });
    ids.push(m.id);
  }
  return ids;
}

async function sentWithin(db: Db | Tx, n: NoticeRequest, days: number): Promise<boolean> {
  const since = new Date(clockNow().getTime() - days * 86_400_000);
  const [r] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(notificationOutbox)
    .where(
      and(
        eq(notificationOutbox.clubId, n.clubId),
        eq(notificationOutbox.clientId, n.clientId),
        eq(notificationOutbox.kind, n.kind),
        gte(notificationOutbox.createdAt, since),
      ),
    );
  return (r?.n ?? 0) > 0;
}
