import { and, eq, lt, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Database, Db } from '../../db/index.js';
import {
  bookingGateCodes,
  bookingResources,
  bookings,
  bookingSettings,
  bookingWaitlist,
  clubs,
} from '../../db/schema.js';
import { clockNow } from '../../lib/clock.js';
import { trackJob } from '../../lib/metrics.js';
import { BookingSettings } from '@venue/domain';
import { expireOffers } from './appointments.service.js';
import { sendDueReminders } from './booking-messages.js';
import {
  ATTENDED,
  BOOKED,
  BOOKED_MINUTES,
  CANCELLED,
  CLUB_ZONE,
  FROM_WAITLIST,
  NO_SHOW,
  W_ACCEPTED,
  W_EXPIRED,
  W_OFFERED,
} from './booking-counts.js';

/** Advisory-lock namespace of a club's retention run ("BRET"). */
const RETENTION_LOCK = 0x42524554;

/** How often the appointments job runs: reminders due, offers ended. */
const EVERY_MS = 60_000;

/**
 * Retention (docs/appointments.md "Privacy"): a club's bookings whose visit is more than its
 * `retentionDays` ago are folded into booking_counts (per date, room kind and local hour: booked,
 * attended, no-shows, cancellations, taken from the waitlist, service minutes — booking-counts.ts)
 * and deleted; waitlist entries of the dates before that day are folded into
 * booking_waitlist_counts (joined, offered, accepted, expired) and deleted. The booking reports
 * read both the rows and the counts. The privacy work may call it for one club; the hourly run
 * calls it for every club. Idempotent. Returns how many bookings were removed.
 */
export async function applyBookingRetention(db: Db, clubId: number, now = clockNow()): Promise<number> {
  const [row] = await db.select().from(bookingSettings).where(eq(bookingSettings.clubId, clubId));
  const s = BookingSettings.parse(row?.settings ?? {});
  const before = new Date(now.getTime() - s.retentionDays * 86_400_000);
  const beforeDate = before.toISOString().slice(0, 10);
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${RETENTION_LOCK}::int, ${clubId}::int)`);
    const zone = CLUB_ZONE('c');
    await tx.execute(sql`
      insert into booking_counts (club_id, date, kind, hour, bookings, no_shows, cancelled, from_waitlist, attended, minutes)
      select b.club_id,
             (b.starts_at at time zone ${zone})::date,
             r.kind,
             extract(hour from b.starts_at at time zone ${zone})::int,
             count(*) filter (where ${BOOKED()}),
             count(*) filter (where ${NO_SHOW()}),
             count(*) filter (where ${CANCELLED()}),
             count(*) filter (where ${FROM_WAITLIST()}),
             count(*) filter (where ${ATTENDED()}),
             coalesce(sum(${BOOKED_MINUTES()}), 0)
        from bookings b
        join booking_resources r on r.club_id = b.club_id and r.id = b.resource_id
        join clubs c on c.id = b.club_id
       where b.club_id = ${clubId} and b.ends_at < ${before}
       group by 1, 2, 3, 4
      on conflict (club_id, date, kind, hour) do update set
        bookings = booking_counts.bookings + excluded.bookings,
        no_shows = booking_counts.no_shows + excluded.no_shows,
        cancelled = booking_counts.cancelled + excluded.cancelled,
        from_waitlist = booking_counts.from_waitlist + excluded.from_waitlist,
        attended = booking_counts.attended + excluded.attended,
        minutes = booking_counts.minutes + excluded.minutes`);
    await tx.execute(sql`
      insert into booking_waitlist_counts (club_id, date, kind, joined, offered, accepted, expired)
      select w.club_id, w.date, w.kind, count(*),
             count(*) filter (where ${W_OFFERED()}),
             count(*) filter (where ${W_ACCEPTED()}),
             count(*) filter (where ${W_EXPIRED()})
        from booking_waitlist w
       where w.club_id = ${clubId} and w.date < ${beforeDate}
       group by 1, 2, 3
      on conflict (club_id, date, kind) do update set
        joined = booking_waitlist_counts.joined + excluded.joined,
        offered = booking_waitlist_counts.offered + excluded.offered,
        accepted = booking_waitlist_counts.accepted + excluded.accepted,
        expired = booking_waitlist_counts.expired + excluded.expired`);
    const gone = await tx
      .delete(bookings)
      .where(and(eq(bookings.clubId, clubId), lt(bookings.endsAt, before)))
      .returning({ id: bookings.id });
    await tx
      .delete(bookingGateCodes)
      .where(and(eq(bookingGateCodes.clubId, clubId), lt(bookingGateCodes.validUntil, before)));
    await tx
      .delete(bookingWaitlist)
      .where(and(eq(bookingWaitlist.clubId, clubId), lt(bookingWaitlist.date, beforeDate)));
    return gone.length;
  });
}

/**
 * One run of the appointments job over every club with rooms: ended offers passed on, due
 * reminders queued, and (in the run at the top of each hour) retention applied. Safe on two
 * instances at once: offers end by a guarded UPDATE, reminders are claimed with SKIP LOCKED,
 * retention takes the club's lock. Returns how many reminders were queued.
 */
export async function appointmentsJob(database: Database, now = clockNow()): Promise<number> {
  const list = await database.db
    .selectDistinct({ id: bookingResources.clubId })
    .from(bookingResources)
    .innerJoin(clubs, eq(clubs.id, bookingResources.clubId));
  for (const c of list) await expireOffers(database.db, c.id, now);
  const n = await sendDueReminders(database, now);
  if (now.getUTCMinutes() === 0) for (const c of list) await applyBookingRetention(database.db, c.id, now);
  return n;
}

/** Starts the job every minute (off under Vitest and when APPOINTMENT_JOBS=0; tests run it explicitly). */
export function startAppointmentJobs(app: FastifyInstance): void {
  if (process.env.VITEST || process.env.APPOINTMENT_JOBS === '0') return;
  const log = app.log.child({ job: 'appointments' });
  const tick = () => {
    trackJob('appointments', () => appointmentsJob(app.deps.database)).catch((err) =>
      log.error({ err }, 'appointments job failed'),
    );
  };
  const every = setInterval(tick, EVERY_MS);
  every.unref();
  app.addHook('onClose', async () => clearInterval(every));
}
