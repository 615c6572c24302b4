import { sql } from 'drizzle-orm';
import { REPORTS } from '@venue/domain';
import type { ReportDefinition } from '../framework.js';
import { clientName, filters } from '../report-sql.js';

/** Automatic renewal history (`GetAutoRenewSubscriptionLogs`): every attempt of the period (seed 001 §4), success or error. */
export const autoRenewalReport: ReportDefinition<'autoRenewal'> = {
  meta: REPORTS.autoRenewal,
  from: (c) => sql`auto_renew_logs l left join clients c on c.id = l.client_id and c.club_id = ${c.clubId}`,
  at: sql`l.at`,
  where: (c) => {
    const w = [sql`l.club_id = ${c.clubId}`, ...filters(c, { clientId: sql`l.client_id` })];
    if (c.q.success !== undefined) w.push(sql`l.success = ${c.q.success}`);
    return w;
  },
  select: {
    id: sql`l.id`,
    at: sql`l.at`,
    clientId: sql`l.client_id`,
    clientNumber: sql`c.number`,
    clientName: clientName('c'),
    success: sql`l.success`,
    error: sql`l.error`,
    amount: sql`l.amount`,
    startDate: sql`l.start_date::text`,
    endDate: sql`l.end_date::text`,
    purchaseId: sql`l.purchase_id`,
    debtId: sql`l.debt_id`,
  },
  sort: {
    at: [sql`l.at`],
    client: [sql`c.last_name`, sql`c.first_name`, sql`l.at`],
    success: [sql`l.success`, sql`l.at`],
    amount: [sql`l.amount`, sql`l.at`],
  },
  tiebreak: [sql`l.id`],
  totals: {
    count: sql`count(*)::int`,
    succeeded: sql`(count(*) filter (where l.success))::int`,
    failed: sql`(count(*) filter (where not l.success))::int`,
    amount: sql`coalesce(sum(l.amount) filter (where l.success), 0)::bigint`,
  },
};
