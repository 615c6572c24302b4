import { sql, type SQL } from 'drizzle-orm';
import {
  KALA_CLUB_FROM,
  LicenseRequestStatus,
  LOW_LICENSE_THRESHOLD,
  PurchasePaymentStatus,
  REPORTS,
  USA_CLUB_FROM,
  EntranceStatus,
} from '@venue/domain';
import type { ReportContext, ReportDefinition } from '../framework.js';
import { inList } from '../report-sql.js';

/**
 * The service operator's cross-club reports (issue 17; docs/operator.md
 * "Cross-club reports"): every club's rows, never one club's, so they are
 * operator only (the catalogue's `operator: true`: 403 to every club user).
 * The status filter is the club class of seed 000 §1 (1 regular < 4000 ≤
 * 2 USA < 7000 ≤ 3 kala). Local days of a period are the operator's days
 * (Asia/Jerusalem), compared with the clubs' own local days of the daily
 * summaries. Money in minor units.
 */

/** Class of a club by its externalClubId as the status filter numbers it (seed 000 §1). */
const CLASS_SQL = sql`(case when c.external_club_id >= ${KALA_CLUB_FROM} then 3
  when c.external_club_id >= ${USA_CLUB_FROM} then 2 else 1 end)`;

function classWhere(c: ReportContext): SQL[] {
  return c.q.status?.length ? [inList(CLASS_SQL, c.q.status)] : [sql`true`];
}

const club = { clubId: sql`c.id`, externalClubId: sql`c.external_club_id`, clubName: sql`c.name` };

/**
 * Product purchases by clubs (seed 001 §1 "product purchases by clubs"): one
 * row per club × product of the period's product lines (item type 10) that
 * were not refunded, from the daily summary `product_daily` (kind 1):
 * purchases with the product, units, total with VAT. A product whose row is
 * gone shows the name of its lines (kind 2).
 */
export const clubProductsReport: ReportDefinition<'clubProducts'> = {
  meta: REPORTS.clubProducts,
  from: (c) => sql`(select f.club_id, f.item_id,
        (sum(f.purchases) filter (where f.kind = 1))::int as purchases,
        (sum(f.quantity) filter (where f.kind = 1))::bigint as quantity,
        (sum(f.total) filter (where f.kind = 1))::bigint as total,
        max(f.name) filter (where f.kind = 2 and f.purchases > 0) as line_name
      from product_daily f
      where f.kind in (1, 2) and f.day >= ${c.range.from}::date and f.day <= ${c.range.to}::date
      group by 1, 2 having sum(f.purchases) filter (where f.kind = 1) > 0) s
    join clubs c on c.id = s.club_id
    left join products pr on pr.id = s.item_id and pr.club_id = s.club_id`,
  at: null,
  where: classWhere,
  select: {
    ...club,
    productId: sql`nullif(s.item_id, 0)`,
    productName: sql`coalesce(pr.name, s.line_name, '')`,
    purchases: sql`s.purchases`,
    quantity: sql`s.quantity`,
    total: sql`s.total`,
  },
  sort: {
    club: [sql`c.external_club_id`, sql`coalesce(pr.name, s.line_name)`],
    product: [sql`coalesce(pr.name, s.line_name)`, sql`c.external_club_id`],
    quantity: [sql`s.quantity`],
    total: [sql`s.total`],
  },
  tiebreak: [sql`c.id`, sql`s.item_id`],
  totals: {
    cells: sql`count(*)::int`,
    quantity: sql`coalesce(sum(s.quantity), 0)::bigint`,
    total: sql`coalesce(sum(s.total), 0)::bigint`,
  },
  additive: true,
};

/**
 * Licenses by club: the licenses left in each club's pool now
 * (`licancesAmount`), the license-years loaded in the period (card orders
 * paid, bank-transfer requests by the day they were approved and loaded, as
 * the loaded-licenses report — and loads by the operator), the license-years
 * given to clients in the period (License lines, item type 6, of purchases
 * not refunded), the licenses of its pending requests, and whether the club
 * is low (seed 000 §9: externalClubId < 7000 and fewer than 11 left).
 */
export const clubLicensesReport: ReportDefinition<'clubLicenses'> = {
  meta: REPORTS.clubLicenses,
  from: (c) => sql`clubs c
    left join lateral (select
      (select coalesce(sum(o.quantity), 0) from license_orders o
        where o.club_id = c.id and o.status = 'paid' and o.created_at >= ${c.range.start} and o.created_at < ${c.range.end})
      + (select coalesce(sum(r.quantity), 0) from license_requests r
        where r.club_id = c.id and r.status = ${LicenseRequestStatus.ApprovedLoaded}
          and coalesce(r.decided_at, r.created_at) >= ${c.range.start}
          and coalesce(r.decided_at, r.created_at) < ${c.range.end})
      + (select coalesce(sum(l.quantity), 0) from license_loads l
        where l.club_id = c.id and l.created_at >= ${c.range.start} and l.created_at < ${c.range.end}) as loaded,
      (select coalesce(sum(i.quantity), 0) from purchase_items i join purchases p on p.id = i.purchase_id and p.club_id = c.id
        where i.club_id = c.id and i.item_type = 6
          and p.payment_status not in (${PurchasePaymentStatus.Refunded}, ${PurchasePaymentStatus.Cancelled})
          and p.at >= ${c.range.start} and p.at < ${c.range.end}) as used,
      (select coalesce(sum(r.quantity), 0) from license_requests r
        where r.club_id = c.id and r.status = ${LicenseRequestStatus.Pending}) as pending) x on true`,
  at: null,
  where: classWhere,
  select: {
    ...club,
    licensesLeft: sql`c.licenses_amount`,
    loaded: sql`x.loaded::int`,
    used: sql`x.used::int`,
    pending: sql`x.pending::int`,
    low: sql`(c.external_club_id < ${KALA_CLUB_FROM} and c.licenses_amount < ${LOW_LICENSE_THRESHOLD})`,
  },
  sort: {
    club: [sql`c.external_club_id`],
    licensesLeft: [sql`c.licenses_amount`],
    loaded: [sql`x.loaded`],
    used: [sql`x.used`],
  },
  tiebreak: [sql`c.id`],
  totals: {
    clubs: sql`count(*)::int`,
    licensesLeft: sql`coalesce(sum(c.licenses_amount), 0)::int`,
    loaded: sql`coalesce(sum(x.loaded), 0)::int`,
    used: sql`coalesce(sum(x.used), 0)::int`,
  },
  additive: true,
};

/**
 * Entrances and income by club per month: approved entrances and the total
 * of purchases not refunded, per club and calendar month of the period, from
 * the daily summary (activity_daily and what is not compacted yet,
 * activity_daily_delta; by each club's local day). Rows only for months with
 * either. `month` is YYYY-MM.
 */
export const clubMonthlyReport: ReportDefinition<'clubMonthly'> = {
  meta: REPORTS.clubMonthly,
  from: (c) => {
    const w = sql`s.day >= ${c.range.from}::date and s.day <= ${c.range.to}::date and s.kind in (1, 2)`;
    return sql`(select s.club_id, to_char(s.day, 'YYYY-MM') as month,
          coalesce(sum(s.n) filter (where s.kind = 1 and s.status = ${EntranceStatus.Approved}), 0)::int as entrances,
          coalesce(sum(s.amount) filter (where s.kind = 2
            and s.status not in (${PurchasePaymentStatus.Refunded}, ${PurchasePaymentStatus.Cancelled})), 0)::bigint as income
        from (select club_id, day, kind, status, n, amount from activity_daily s where ${w}
              union all
              select club_id, day, kind, status, n, amount from activity_daily_delta s where ${w}) s
        group by 1, 2) m
      join clubs c on c.id = m.club_id`;
  },
  at: null,
  where: (c) => [...classWhere(c), sql`(m.entrances <> 0 or m.income <> 0)`],
  select: { ...club, month: sql`m.month`, entrances: sql`m.entrances`, income: sql`m.income` },
  sort: {
    club: [sql`c.external_club_id`, sql`m.month`],
    month: [sql`m.month`, sql`c.external_club_id`],
    entrances: [sql`m.entrances`],
    income: [sql`m.income`],
  },
  tiebreak: [sql`c.id`, sql`m.month`],
  totals: {
    entrances: sql`coalesce(sum(m.entrances), 0)::int`,
    income: sql`coalesce(sum(m.income), 0)::bigint`,
  },
  additive: true,
};

/**
 * Clubs with low licenses (seed 000 §9 low-license warning: externalClubId
 * below 7000 and fewer than 11 licenses left), not disabled, now — the
 * period does not apply: the licenses of their pending requests and their
 * last load of any kind (card order paid, request approved, operator load).
 */
export const clubLowLicensesReport: ReportDefinition<'clubLowLicenses'> = {
  meta: REPORTS.clubLowLicenses,
  from: () => sql`clubs c
    left join lateral (select
      (select coalesce(sum(r.quantity), 0) from license_requests r
        where r.club_id = c.id and r.status = ${LicenseRequestStatus.Pending}) as pending,
      greatest(
        (select max(o.created_at) from license_orders o where o.club_id = c.id and o.status = 'paid'),
        (select max(coalesce(r.decided_at, r.created_at)) from license_requests r
          where r.club_id = c.id and r.status = ${LicenseRequestStatus.ApprovedLoaded}),
        (select max(l.created_at) from license_loads l where l.club_id = c.id)) as last_load) x on true`,
  at: null,
  where: (c) => [
    ...classWhere(c),
    sql`c.external_club_id < ${KALA_CLUB_FROM}`,
    sql`c.licenses_amount < ${LOW_LICENSE_THRESHOLD}`,
    sql`c.disabled_at is null`,
  ],
  select: { ...club, licensesLeft: sql`c.licenses_amount`, pending: sql`x.pending::int`, lastLoadAt: sql`x.last_load` },
  sort: {
    club: [sql`c.external_club_id`],
    licensesLeft: [sql`c.licenses_amount`],
    lastLoadAt: [sql`x.last_load`],
  },
  tiebreak: [sql`c.id`],
  totals: {
    clubs: sql`count(*)::int`,
    licensesLeft: sql`coalesce(sum(c.licenses_amount), 0)::int`,
  },
  additive: true,
};
