import { sql } from 'drizzle-orm';
import { LicenseRequestStatus, REPORTS } from '@venue/domain';
import type { ReportDefinition } from '../framework.js';
import { inList } from '../report-sql.js';

/**
 * Loaded licenses (`GetLoadedLicensesReport`, "Licenses loaded by manager",
 * seed 000 §2): license-years added to the club's pool in the period
 * (docs/money.md "Licenses"): card orders that were paid (source 1, by the
 * order's day), bank transfer requests approved and loaded by the operator
 * (source 2, status ApprovedLoaded, by the day of the approval — the load —
 * or the request's day for a row approved before decisions were stored), and
 * loads by the service operator by hand (source 3, `license_loads`,
 * docs/operator.md: amount 0, no price, the reason as the reference).
 * Quantity, unit price, amount paid (minor units, as charged), the order
 * code, transfer reference or reason, and who loaded them (`loadedBy`): the
 * operator who approved the transfer (`decided_by`) or loaded by hand; none
 * for a card order (the payment loads it). The club's user who asked for a
 * transfer is not its approver (issue 34). Status filter = sources.
 */
export const loadedLicensesReport: ReportDefinition<'loadedLicenses'> = {
  meta: REPORTS.loadedLicenses,
  from: (c) => sql`(
    select 'o' || o.id as id, o.created_at as at, 1 as source, o.quantity, o.amount,
           case when o.quantity > 0 then o.amount / o.quantity end as price,
           o.code as reference, null::int as user_id
      from license_orders o
     where o.club_id = ${c.clubId} and o.status = 'paid'
    union all
    select 'r' || r.id, coalesce(r.decided_at, r.created_at), 2, r.quantity, r.amount, r.price, r.reference,
           r.decided_by
      from license_requests r
     where r.club_id = ${c.clubId} and r.status = ${LicenseRequestStatus.ApprovedLoaded}
    union all
    select 'l' || d.id, d.created_at, 3, d.quantity, 0, null::int, d.reason, d.user_id
      from license_loads d
     where d.club_id = ${c.clubId}
  ) l
    left join users u on u.id = l.user_id and u.club_id is null`,
  at: sql`l.at`,
  where: (c) => {
    const w = [sql`true`];
    if (c.q.status?.length) w.push(inList(sql`l.source`, c.q.status));
    return w;
  },
  select: {
    id: sql`l.id`,
    at: sql`l.at`,
    source: sql`l.source`,
    quantity: sql`l.quantity`,
    price: sql`l.price`,
    amount: sql`l.amount`,
    reference: sql`nullif(l.reference, '')`,
    loadedBy: sql`nullif(u.name, '')`,
  },
  sort: {
    at: [sql`l.at`],
    source: [sql`l.source`, sql`l.at`],
    quantity: [sql`l.quantity`, sql`l.at`],
    amount: [sql`l.amount`, sql`l.at`],
  },
  tiebreak: [sql`l.id`],
  totals: {
    count: sql`count(*)::int`,
    quantity: sql`coalesce(sum(l.quantity), 0)::int`,
    amount: sql`coalesce(sum(l.amount), 0)::bigint`,
  },
  breakdowns: { bySource: { by: sql`l.source`, value: sql`coalesce(sum(l.quantity), 0)::int` } },
  additive: true,
};
