import { sql } from 'drizzle-orm';
import { parseIsoDate, REPORTS } from '@venue/domain';
import type { ReportContext, ReportDefinition } from '../framework.js';
import { BOOKED, BOOKED_MINUTES } from '../../appointments/booking-counts.js';
import { bookableMinutes, type BookableMinutes } from '../../appointments/appointments.service.js';

/** Days from one ISO date to another, inclusive. */
const daysBetween = (from: string, to: string): number =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;

/** The bookable minutes the call prepared, as a VALUES list (kind, hour, minutes). */
function bookableValues(c: ReportContext) {
  const list = (c.prepared ?? []) as BookableMinutes[];
  if (list.length === 0) return sql`(select null::text as kind, null::int as hour, null::int as minutes where false)`;
  return sql`(values ${sql.join(
    list.map((m) => sql`(${m.kind}::text, ${m.hour}::int, ${m.minutes}::int)`),
    sql`, `,
  )})`;
}

const occupancy = (booked: string, bookable: string) =>
  sql.raw(`case when ${bookable} > 0 then round(100.0 * ${booked} / ${bookable})::int else null end`);

/**
 * Room use by hour (`GetRoomUseReport`, issue 38 "Reports"; docs/appointments.md "Reports"): one
 * row per room kind and club-local hour of the period — bookings that held a room starting in that
 * hour, their service minutes, the bookable minutes (every active room's slots on the period's
 * days, from the real opening windows: appointments.service bookableMinutes, computed before the
 * statements) and occupancy = booked ÷ bookable minutes, in whole percent (null without bookable
 * minutes). Live bookings and booking_counts (past retention) both count. Minutes are counted in
 * the hour a service starts.
 */
export const roomUseReport: ReportDefinition<'roomUse'> = {
  meta: REPORTS.roomUse,
  prepare: (db, c) => bookableMinutes(db, c.clubId, parseIsoDate(c.range.from), daysBetween(c.range.from, c.range.to)),
  from: (c) => sql`(select coalesce(u.kind, m.kind) as kind, coalesce(u.hour, m.hour) as hour,
      coalesce(u.bookings, 0)::int as bookings, coalesce(u.minutes, 0)::int as booked, coalesce(m.minutes, 0)::int as bookable
    from (
      select v.kind, v.hour, sum(v.bookings) as bookings, sum(v.minutes) as minutes from (
        select r.kind, extract(hour from b.starts_at at time zone ${c.range.timeZone})::int as hour,
               (${BOOKED()})::int as bookings, ${BOOKED_MINUTES()} as minutes
          from bookings b
          join booking_resources r on r.club_id = b.club_id and r.id = b.resource_id
         where b.club_id = ${c.clubId} and b.starts_at >= ${c.range.start} and b.starts_at < ${c.range.end}
        union all
        select k.kind, k.hour, k.bookings, k.minutes
          from booking_counts k
         where k.club_id = ${c.clubId} and k.date >= ${c.range.from}::date and k.date <= ${c.range.to}::date
      ) v group by v.kind, v.hour having sum(v.bookings) > 0
    ) u
    full join ${bookableValues(c)} m(kind, hour, minutes) on m.kind = u.kind and m.hour = u.hour) x`,
  at: null,
  where: () => [sql`true`],
  select: {
    id: sql`(x.kind || ':' || x.hour::text)`,
    roomKind: sql`x.kind`,
    hour: sql`lpad(x.hour::text, 2, '0') || ':00'`,
    bookings: sql`x.bookings`,
    bookedMinutes: sql`x.booked`,
    bookableMinutes: sql`x.bookable`,
    occupancy: occupancy('x.booked', 'x.bookable'),
  },
  sort: {
    roomKind: [sql`x.kind`, sql`x.hour`],
    hour: [sql`x.hour`, sql`x.kind`],
    bookings: [sql`x.bookings`],
    occupancy: [occupancy('x.booked', 'x.bookable')],
  },
  tiebreak: [sql`x.kind`, sql`x.hour`],
  totals: {
    bookings: sql`coalesce(sum(x.bookings), 0)::int`,
    bookedMinutes: sql`coalesce(sum(x.booked), 0)::int`,
    bookableMinutes: sql`coalesce(sum(x.bookable), 0)::int`,
    occupancy: occupancy('coalesce(sum(x.booked), 0)', 'coalesce(sum(x.bookable), 0)'),
  },
};
