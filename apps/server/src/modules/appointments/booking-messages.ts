import { and, eq, isNotNull, lte, or, sql } from 'drizzle-orm';
import { localParts, type ClubLocation } from '@venue/domain';
import type { Database, Db, Tx } from '../../db/index.js';
import { bookingResources, bookings, clients, clubs, notificationChoices } from '../../db/schema.js';
import { clockNow } from '../../lib/clock.js';
import { queueMessage } from '../notifications/outbox.js';
import { clubLocation } from '../club/club.service.js';

/**
 * Messages about bookings (docs/appointments.md "Reminders" and "Privacy"): the day-before and
 * hour-before reminders and the waitlist's offer of a freed slot, queued through the outbox
 * (notifications/outbox.ts queueMessage). A message names the time and the room kind only — never
 * the client's name, the purpose, or anything else about the visit.
 */

/** Kinds of booking message in the outbox. */
export type BookingMessageKind = 'booking-reminder-day' | 'booking-reminder-hour' | 'booking-offer';

const KIND_WORDS: Record<string, [string, string]> = {
  prepBath: ['חדר הכנה עם אמבטיה', 'preparation room (bath)'],
  prepShower: ['חדר הכנה עם מקלחת', 'preparation room (shower)'],
  pool: ['בור טבילה', 'immersion pool'],
};

/** The text of a booking message in the client's language: date, time and room kind. */
export function bookingMessageText(
  kind: BookingMessageKind,
  startsAt: Date,
  roomKind: string,
  loc: ClubLocation,
  lang: 'he' | 'en',
): { subject: string; text: string } {
  const p = localParts(startsAt, loc.timeZone);
  const two = (n: number) => String(n).padStart(2, '0');
  const when = `${two(p.day)}/${two(p.month)} ${two(p.hour)}:${two(p.minute)}`;
  const room = (KIND_WORDS[roomKind] ?? KIND_WORDS.pool)[lang === 'he' ? 0 : 1];
  if (lang === 'en') {
    if (kind === 'booking-offer') {
      return {
        subject: 'A place is free',
        text: `A place is free for you on ${when}, ${room}. Take it in the app or call us.`,
      };
    }
    return { subject: 'Appointment reminder', text: `Reminder: your appointment on ${when}, ${room}.` };
  }
  if (kind === 'booking-offer') {
    return { subject: 'התפנה מקום', text: `התפנה עבורך מקום ב-${when}, ${room}. אפשר לקבל אותו באפליקציה או בטלפון.` };
  }
  return { subject: 'תזכורת לתור', text: `תזכורת: התור שלך ב-${when}, ${room}.` };
}

/**
 * Queues one booking message to the client: by e-mail when she has an address, else SMS to her
 * phone; nothing when she has neither. Inside the caller's transaction when given one.
 * @returns the outbox id, or null when the client has no address
 */
export async function queueBookingMessage(
  db: Db | Tx,
  m: {
    clubId: number;
    clientId: number;
    kind: BookingMessageKind;
    startsAt: Date;
    roomKind: string;
    loc: ClubLocation;
  },
): Promise<number | null> {
  const [c] = await db
    .select({ email: clients.email, phone: clients.phone, lang: notificationChoices.lang })
    .from(clients)
    .leftJoin(
      notificationChoices,
      and(eq(notificationChoices.clubId, clients.clubId), eq(notificationChoices.clientId, clients.id)),
    )
    .where(and(eq(clients.clubId, m.clubId), eq(clients.id, m.clientId)));
  if (!c) return null;
  const to = c.email.trim() || c.phone.trim();
  if (!to) return null;
  const lang = c.lang === 'en' ? 'en' : 'he';
  const { subject, text } = bookingMessageText(m.kind, m.startsAt, m.roomKind, m.loc, lang);
  const { id } = await queueMessage(db, {
    clubId: m.clubId,
    clientId: m.clientId,
    channel: c.email.trim() ? 'email' : 'sms',
    to,
    kind: m.kind,
    subject,
    text,
  });
  return id;
}

/**
 * Queues every booking reminder due at `now` across clubs (day before, hour before: the times
 * planReminders set when the booking was made or moved), clearing each one as it is queued. Rows
 * are claimed with FOR UPDATE SKIP LOCKED, so two server instances never queue one reminder twice.
 * Returns how many reminders were queued.
 */
export async function sendDueReminders(database: Database | { db: Db }, now = clockNow()): Promise<number> {
  const db = database.db;
  return db.transaction(async (tx) => {
    const due = await tx
      .select({
        clubId: bookings.clubId,
        id: bookings.id,
        clientId: bookings.clientId,
        startsAt: bookings.startsAt,
        remindDayAt: bookings.remindDayAt,
        remindHourAt: bookings.remindHourAt,
        kind: bookingResources.kind,
        location: clubs.location,
      })
      .from(bookings)
      .innerJoin(
        bookingResources,
        and(eq(bookingResources.clubId, bookings.clubId), eq(bookingResources.id, bookings.resourceId)),
      )
      .innerJoin(clubs, eq(clubs.id, bookings.clubId))
      .where(
        and(
          eq(bookings.status, 'booked'),
          or(
            and(isNotNull(bookings.remindDayAt), lte(bookings.remindDayAt, now)),
            and(isNotNull(bookings.remindHourAt), lte(bookings.remindHourAt, now)),
          ),
        ),
      )
      .limit(500)
      .for('update', { of: bookings, skipLocked: true });
    let n = 0;
    for (const b of due) {
      const loc = clubLocation({ location: b.location });
      const dayDue = b.remindDayAt != null && b.remindDayAt <= now;
      const hourDue = b.remindHourAt != null && b.remindHourAt <= now;
      // When both are due (a late job run), the nearer one says it all.
      const kind: BookingMessageKind = hourDue ? 'booking-reminder-hour' : 'booking-reminder-day';
      if (b.startsAt > now) {
        await queueBookingMessage(tx, {
          clubId: b.clubId,
          clientId: b.clientId,
          kind,
          startsAt: b.startsAt,
          roomKind: b.kind,
          loc,
        });
        n++;
      }
      await tx
        .update(bookings)
        .set({
          ...(dayDue || hourDue ? { remindDayAt: null } : {}),
          ...(hourDue ? { remindHourAt: null } : {}),
        })
        .where(and(eq(bookings.clubId, b.clubId), eq(bookings.id, b.id)));
    }
    return n;
  });
}

/** SQL of a booking's local hour at its club (for counts kept after retention). */
export const localHourSql = sql`extract(hour from ${bookings.startsAt} at time zone coalesce(${clubs.location}->>'timeZone', 'Asia/Jerusalem'))::int`;
