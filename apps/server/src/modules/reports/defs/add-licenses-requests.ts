import { sql } from 'drizzle-orm';
import { ISRAELI_BANKS, LicenseRequestStatus, REPORTS } from '@venue/domain';
import type { ReportDefinition } from '../framework.js';
import { inList } from '../report-sql.js';

/**
 * Add-licenses requests (`GetAddLicensesRequestReport`, seed 000 §2 other
 * screens, §7; seed 001 §3 "License request (bank transfer)"): the club's
 * bank-transfer license requests filed in the period, every status
 * (LicenseRequestStatus 1 Pending … 5 CancelledByManager): licenses asked,
 * price per license-year and transfer amount (minor units), transfer date,
 * reference, payer bank ("code · name" in the caller's `lang`; branch and
 * account stay encrypted), status,
 * the user who filed it. Totals: `pending` = requests still Pending, `loaded`
 * = licenses of requests ApprovedLoaded. The status filter takes the statuses.
 */
export const addLicensesRequestsReport: ReportDefinition<'addLicensesRequests'> = {
  meta: REPORTS.addLicensesRequests,
  from: (c) => sql`license_requests r
    left join users u on u.id = r.user_id and u.club_id = ${c.clubId}`,
  at: sql`r.created_at`,
  where: (c) => {
    const w = [sql`r.club_id = ${c.clubId}`];
    if (c.q.status?.length) w.push(inList(sql`r.status`, c.q.status));
    return w;
  },
  select: {
    id: sql`r.id`,
    at: sql`r.created_at`,
    quantity: sql`r.quantity`,
    price: sql`r.price`,
    amount: sql`r.amount`,
    transferDate: sql`to_char(r.transfer_date, 'YYYY-MM-DD')`,
    reference: sql`nullif(r.reference, '')`,
    bank: sql`nullif(r.bank_code, '')`,
    status: sql`r.status`,
    userName: sql`nullif(u.name, '')`,
  },
  // The payer's bank as "code · name" in the caller's language (packages/domain banks.ts).
  post: { bank: (v, c) => (v == null ? null : `${String(v)} · ${ISRAELI_BANKS[String(v)]?.[c.q.lang] ?? ''}`.trim()) },
  sort: {
    at: [sql`r.created_at`],
    quantity: [sql`r.quantity`, sql`r.created_at`],
    amount: [sql`r.amount`, sql`r.created_at`],
    transferDate: [sql`r.transfer_date`, sql`r.created_at`],
    status: [sql`r.status`, sql`r.created_at`],
  },
  tiebreak: [sql`r.id`],
  totals: {
    count: sql`count(*)::int`,
    quantity: sql`coalesce(sum(r.quantity), 0)::int`,
    amount: sql`coalesce(sum(r.amount), 0)::bigint`,
    pending: sql`(count(*) filter (where r.status = ${LicenseRequestStatus.Pending}))::int`,
    loaded: sql`coalesce(sum(r.quantity) filter (where r.status = ${LicenseRequestStatus.ApprovedLoaded}), 0)::int`,
  },
  breakdowns: { byStatus: { by: sql`r.status`, value: sql`count(*)::int` } },
  additive: true,
};
