import { sql } from 'drizzle-orm';
import { REPORTS } from '@venue/domain';
import type { ReportDefinition, ReportContext } from '../framework.js';
import { ATTENDED, BOOKED, CANCELLED, FROM_WAITLIST, NO_SHOW } from '../../appointments/booking-counts.js';

/**
 * Per club-local day and room kind of the period: the live bookings (by their start) and what
 * retention kept of the days before (booking_counts), added — so a day past retention shows its
 * counts. Rules of each figure: appointments/booking-counts.ts.
 */
export function bookingDays(c: ReportContext) {
  return sql`(select u.date, u.kind, sum(u.booked)::int as booked, sum(u.attended)::int as attended,
      sum(u.no_shows)::int as no_shows, sum(u.cancelled)::int as cancelled, sum(u.from_waitlist)::int as from_waitlist
    from (
      select (b.starts_at at time zone ${c.range.timeZone})::date as date, r.kind,
             (${BOOKED()})::int as booked, (${ATTENDED()})::int as attended, (${NO_SHOW()})::int as no_shows,
             (${CANCELLED()})::int as cancelled, (${FROM_WAITLIST()})::int as from_waitlist
        from bookings b
        join booking_resources r on r.club_id = b.club_id and r.id = b.resource_id
       where b.club_id = ${c.clubId} and b.starts_at >= ${c.range.start} and b.starts_at < ${c.range.end}
      union all
      select k.date, k.kind, k.bookings, k.attended, k.no_shows, k.cancelled, k.from_waitlist
        from booking_counts k
       where k.club_id = ${c.clubId} and k.date >= ${c.range.from}::date and k.date <= ${c.range.to}::date
    ) u
    group by u.date, u.kind) x`;
}

/**
 * Bookings (`GetBookingsReport`, issue 38 "Reports"; docs/appointments.md "Reports"): one row per
 * club-local day and room kind — booked (held a room), attended, no-shows, cancelled, taken from
 * the waitlist — counts only, no person. Days past the club's booking retention come from
 * booking_counts. `byRoomKind`: booked per room kind.
 */
export const bookingsReport: ReportDefinition<'bookings'> = {
  meta: REPORTS.bookings,
  from: bookingDays,
  at: null,
  where: () => [sql`true`],
  select: {
    id: sql`(x.date::text || ':' || x.kind)`,
    date: sql`x.date`,
    roomKind: sql`x.kind`,
    booked: sql`x.booked`,
    attended: sql`x.attended`,
    noShows: sql`x.no_shows`,
    cancelled: sql`x.cancelled`,
    fromWaitlist: sql`x.from_waitlist`,
  },
  sort: {
    date: [sql`x.date`],
    roomKind: [sql`x.kind`],
    booked: [sql`x.booked`],
    attended: [sql`x.attended`],
    noShows: [sql`x.no_shows`],
    cancelled: [sql`x.cancelled`],
  },
  tiebreak: [sql`x.date`, sql`x.kind`],
  totals: {
    booked: sql`coalesce(sum(x.booked), 0)::int`,
    attended: sql`coalesce(sum(x.attended), 0)::int`,
    noShows: sql`coalesce(sum(x.no_shows), 0)::int`,
    cancelled: sql`coalesce(sum(x.cancelled), 0)::int`,
    fromWaitlist: sql`coalesce(sum(x.from_waitlist), 0)::int`,
  },
  breakdowns: { byRoomKind: { by: sql`x.kind`, value: sql`coalesce(sum(x.booked), 0)::int` } },
  additive: true,
};
