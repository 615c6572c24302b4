import { sql } from 'drizzle-orm';
import { REPORTS } from '@venue/domain';
import type { ReportDefinition } from '../framework.js';
import { W_ACCEPTED, W_EXPIRED, W_OFFERED } from '../../appointments/booking-counts.js';

const fulfilment = (accepted: string, joined: string) =>
  sql.raw(`case when ${joined} > 0 then round(100.0 * ${accepted} / ${joined})::int else null end`);

/**
 * Waitlist fulfilment (`GetWaitlistReport`, issue 38 "Reports"; docs/appointments.md "Reports"):
 * one row per club-local date waited for and room kind — clients who joined the waitlist, were
 * offered a freed slot, accepted it, let the offer expire — and fulfilment = accepted ÷ joined in
 * whole percent. Live entries (booking_waitlist) and what retention kept of earlier dates
 * (booking_waitlist_counts) both count; no person.
 */
export const waitlistReport: ReportDefinition<'waitlist'> = {
  meta: REPORTS.waitlist,
  from: (c) => sql`(select u.date, u.kind, sum(u.joined)::int as joined, sum(u.offered)::int as offered,
      sum(u.accepted)::int as accepted, sum(u.expired)::int as expired
    from (
      select w.date, w.kind, 1 as joined, (${W_OFFERED()})::int as offered, (${W_ACCEPTED()})::int as accepted,
             (${W_EXPIRED()})::int as expired
        from booking_waitlist w
       where w.club_id = ${c.clubId} and w.date >= ${c.range.from}::date and w.date <= ${c.range.to}::date
      union all
      select k.date, k.kind, k.joined, k.offered, k.accepted, k.expired
        from booking_waitlist_counts k
       where k.club_id = ${c.clubId} and k.date >= ${c.range.from}::date and k.date <= ${c.range.to}::date
    ) u
    group by u.date, u.kind) x`,
  at: null,
  where: () => [sql`true`],
  select: {
    id: sql`(x.date::text || ':' || x.kind)`,
    date: sql`x.date`,
    roomKind: sql`x.kind`,
    joined: sql`x.joined`,
    offered: sql`x.offered`,
    accepted: sql`x.accepted`,
    expired: sql`x.expired`,
    fulfilment: fulfilment('x.accepted', 'x.joined'),
  },
  sort: {
    date: [sql`x.date`],
    roomKind: [sql`x.kind`],
    joined: [sql`x.joined`],
    offered: [sql`x.offered`],
    accepted: [sql`x.accepted`],
    fulfilment: [fulfilment('x.accepted', 'x.joined')],
  },
  tiebreak: [sql`x.date`, sql`x.kind`],
  totals: {
    joined: sql`coalesce(sum(x.joined), 0)::int`,
    offered: sql`coalesce(sum(x.offered), 0)::int`,
    accepted: sql`coalesce(sum(x.accepted), 0)::int`,
    expired: sql`coalesce(sum(x.expired), 0)::int`,
    fulfilment: fulfilment('coalesce(sum(x.accepted), 0)', 'coalesce(sum(x.joined), 0)'),
  },
};
