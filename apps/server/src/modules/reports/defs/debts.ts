import { sql } from 'drizzle-orm';
import { REPORTS } from '@venue/domain';
import type { ReportDefinition } from '../framework.js';
import { clientName, filters } from '../report-sql.js';

/**
 * Debts (`GetDebts`): debts registered in the period (not deleted). Status
 * filter: 1 = open (something left to pay), 2 = paid in full. `returnReason`
 * is the bank's code when the debt's last MASAV debit was returned (docs/money.md
 * "MASAV return file").
 */
export const debtsReport: ReportDefinition<'debts'> = {
  meta: REPORTS.debts,
  from: (c) => sql`debts d
    left join clients c on c.id = d.client_id and c.club_id = ${c.clubId}
    left join users u on u.id = d.user_id and u.club_id = ${c.clubId}`,
  at: sql`d.created_at`,
  where: (c) => {
    const w = [
      sql`d.club_id = ${c.clubId}`,
      sql`d.deleted = false`,
      ...filters(c, { clientId: sql`d.client_id`, userId: sql`d.user_id` }),
    ];
    const s = c.q.status ?? [];
    if (s.length && !(s.includes(1) && s.includes(2))) {
      if (s.includes(1)) w.push(sql`d.paid < d.amount`);
      else if (s.includes(2)) w.push(sql`d.paid >= d.amount`);
      else w.push(sql`false`);
    }
    return w;
  },
  select: {
    id: sql`d.id`,
    at: sql`d.created_at`,
    clientId: sql`d.client_id`,
    clientNumber: sql`c.number`,
    clientName: clientName('c'),
    description: sql`nullif(d.description, '')`,
    source: sql`d.source`,
    returnReason: sql`nullif(d.return_reason, '')`,
    amount: sql`d.amount`,
    paid: sql`d.paid`,
    open: sql`greatest(d.amount - d.paid, 0)`,
    userName: sql`nullif(u.name, '')`,
  },
  sort: {
    at: [sql`d.created_at`],
    client: [sql`c.last_name`, sql`c.first_name`, sql`d.created_at`],
    amount: [sql`d.amount`, sql`d.created_at`],
    open: [sql`greatest(d.amount - d.paid, 0)`, sql`d.created_at`],
  },
  tiebreak: [sql`d.id`],
  totals: {
    count: sql`count(*)::int`,
    amount: sql`coalesce(sum(d.amount), 0)::bigint`,
    paid: sql`coalesce(sum(d.paid), 0)::bigint`,
    open: sql`coalesce(sum(greatest(d.amount - d.paid, 0)), 0)::bigint`,
  },
};
