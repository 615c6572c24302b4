import { sql } from 'drizzle-orm';
import { REPORTS } from '@venue/domain';
import type { ReportContext, ReportDefinition } from '../framework.js';
import { clientName } from '../report-sql.js';
import { BOOKED, NO_SHOW } from '../../appointments/booking-counts.js';

/** Whether the caller may see who did not come (roleViewBookingNames; docs/appointments.md "Privacy"). */
const namesShown = (c: ReportContext): boolean => c.permissions?.roleViewBookingNames === true;

/** A figure of the client shown only to staff who may see booking names (else null: no person). */
const ifNames = (v: unknown, c: ReportContext): unknown => (namesShown(c) ? v : null);

/** Retained counts of the period (booking_counts), summed: a constant subquery. */
const retained = (c: ReportContext, column: 'no_shows' | 'bookings') =>
  sql`(select coalesce(sum(k.${sql.raw(column)}), 0)::int from booking_counts k
        where k.club_id = ${c.clubId} and k.date >= ${c.range.from}::date and k.date <= ${c.range.to}::date)`;

/**
 * No-shows (`GetNoShowsReport`, issue 38 "Reports"; docs/appointments.md "Reports"): every live
 * booking of the period (by its start) the attendant marked `noShow` — time, room kind, room, and
 * the client's number and name only for staff with roleViewBookingNames (without it the rows
 * name no one: a list of times and room kinds). Totals: `noShows` — the listed ones plus the
 * no-shows past the club's booking retention, which booking_counts keeps as counts only
 * (`retained`, not listed); `booked` — every booking of the period, live and retained, for the rate.
 */
export const noShowsReport: ReportDefinition<'noShows'> = {
  meta: REPORTS.noShows,
  from: (c) => sql`bookings b
    join booking_resources r on r.club_id = b.club_id and r.id = b.resource_id and r.club_id = ${c.clubId}
    join clients cl on cl.id = b.client_id and cl.club_id = ${c.clubId}`,
  at: sql`b.starts_at`,
  where: (c) => [sql`b.club_id = ${c.clubId}`, NO_SHOW()],
  select: {
    id: sql`b.id`,
    at: sql`b.starts_at`,
    roomKind: sql`r.kind`,
    roomName: sql`r.name`,
    clientId: sql`cl.id`,
    clientNumber: sql`cl.number`,
    clientName: clientName('cl'),
  },
  post: { clientId: ifNames, clientNumber: ifNames, clientName: ifNames },
  sort: {
    at: [sql`b.starts_at`],
    roomKind: [sql`r.kind`, sql`b.starts_at`],
  },
  tiebreak: [sql`b.id`],
  // Every total counts live rows and retained counts together: constant subqueries of the totals' statement.
  totals: {},
  extraTotalsSql: (c) => ({
    noShows: sql`((select count(*) from bookings b where b.club_id = ${c.clubId} and ${NO_SHOW()}
        and b.starts_at >= ${c.range.start} and b.starts_at < ${c.range.end})::int + ${retained(c, 'no_shows')})`,
    retained: retained(c, 'no_shows'),
    booked: sql`((select count(*) from bookings b where b.club_id = ${c.clubId} and ${BOOKED()}
        and b.starts_at >= ${c.range.start} and b.starts_at < ${c.range.end})::int + ${retained(c, 'bookings')})`,
  }),
};
