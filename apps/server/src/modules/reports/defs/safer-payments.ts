import { sql } from 'drizzle-orm';
import { REPORTS } from '@venue/domain';
import type { ReportDefinition } from '../framework.js';
import { clientName, filters, inList } from '../report-sql.js';

/** The safer-payments state of charge `k` (1 awaiting, 2 refunded, 3 refund failed, 4 not charged). */
const saferState = sql`(case k.reconcile_result
    when 'charged-refunded' then 2 when 'orphan-refunded' then 2 when 'charged-refund-failed' then 3
    else case when k.reconciled_at is not null then 4 else 1 end end)`;

/**
 * Safer payments (`GetSaferPaymentsReport`, seed 000 §2
 * /reports/app-safer-payments; docs/money.md "Clearing provider and safer
 * payments"): the club's card charges whose outcome was not known when they
 * were made (status uncertain or pending) or that the reconciliation settled
 * (`reconciled_at` set), by the instant of the charge. `saferState`:
 * 1 awaiting the provider, 2 charged and refunded (`charged-refunded`, or
 * `orphan-refunded`: approved, but the request died before its purchase),
 * 3 charged and the refund failed (`charged-refund-failed`: money taken with
 * no purchase, for the manager), 4 not charged. Amounts in minor units; the
 * status filter takes the states; `reference` is the charge's idempotency key
 * (what the provider knows it by).
 */
export const saferPaymentsReport: ReportDefinition<'saferPayments'> = {
  meta: REPORTS.saferPayments,
  from: (c) => sql`charges k
    left join clients c on c.id = k.client_id and c.club_id = ${c.clubId}`,
  at: sql`k.created_at`,
  where: (c) => {
    const w = [
      sql`k.club_id = ${c.clubId}`,
      sql`(k.status in ('uncertain', 'pending', 'refunding') or k.reconciled_at is not null)`,
      ...filters(c, { clientId: sql`k.client_id` }),
    ];
    if (c.q.status?.length) w.push(inList(saferState, c.q.status));
    return w;
  },
  select: {
    id: sql`k.id`,
    at: sql`k.created_at`,
    clientId: sql`k.client_id`,
    clientNumber: sql`c.number`,
    clientName: clientName('c'),
    amount: sql`k.amount`,
    brand: sql`nullif(k.brand, '')`,
    lastFour: sql`nullif(k.last_four, '')`,
    saferState,
    reconciledAt: sql`k.reconciled_at`,
    reference: sql`k.idempotency_key`,
  },
  sort: {
    at: [sql`k.created_at`],
    client: [sql`c.last_name`, sql`c.first_name`, sql`k.created_at`],
    amount: [sql`k.amount`, sql`k.created_at`],
    saferState: [saferState, sql`k.created_at`],
    reconciledAt: [sql`k.reconciled_at`, sql`k.created_at`],
  },
  tiebreak: [sql`k.id`],
  totals: {
    count: sql`count(*)::int`,
    amount: sql`coalesce(sum(k.amount), 0)::bigint`,
    awaiting: sql`coalesce(sum(k.amount) filter (where ${saferState} = 1), 0)::bigint`,
    refunded: sql`coalesce(sum(k.amount) filter (where ${saferState} = 2), 0)::bigint`,
    refundFailed: sql`coalesce(sum(k.amount) filter (where ${saferState} = 3), 0)::bigint`,
    notCharged: sql`coalesce(sum(k.amount) filter (where ${saferState} = 4), 0)::bigint`,
  },
  breakdowns: { byState: { by: saferState, value: sql`count(*)::int` } },
  additive: true,
};
