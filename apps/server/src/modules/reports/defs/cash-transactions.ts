import { sql } from 'drizzle-orm';
import { REPORTS } from '@venue/domain';
import type { ReportDefinition } from '../framework.js';
import { clientName, filters } from '../report-sql.js';

/**
 * Cash transactions (`getCashTransactions`): cash sessions at the terminals
 * begun in the period (seed 001 §4 cash flow): inserted, credited to the
 * balance, change due, change that could not be paid (payout error), excess kept.
 */
export const cashTransactionsReport: ReportDefinition<'cashTransactions'> = {
  meta: REPORTS.cashTransactions,
  from: (c) => sql`cash_sessions s
    left join clients c on c.id = s.client_id and c.club_id = ${c.clubId}
    left join terminals t on t.id = s.terminal_id and t.club_id = ${c.clubId}`,
  at: sql`s.started_at`,
  where: (c) => [
    sql`s.club_id = ${c.clubId}`,
    ...filters(c, { terminalId: sql`s.terminal_id`, clientId: sql`s.client_id` }),
  ],
  select: {
    id: sql`s.id`,
    at: sql`s.started_at`,
    terminalName: sql`t.name`,
    clientId: sql`s.client_id`,
    clientNumber: sql`c.number`,
    clientName: clientName('c'),
    state: sql`s.state`,
    amountDue: sql`s.amount_due`,
    inserted: sql`s.inserted`,
    credited: sql`s.credited`,
    changeDue: sql`s.change_due`,
    unpaid: sql`s.unpaid`,
    excess: sql`s.excess`,
  },
  sort: {
    at: [sql`s.started_at`],
    terminal: [sql`t.name`, sql`s.started_at`],
    client: [sql`c.last_name`, sql`c.first_name`, sql`s.started_at`],
    inserted: [sql`s.inserted`, sql`s.started_at`],
  },
  tiebreak: [sql`s.id`],
  totals: {
    count: sql`count(*)::int`,
    inserted: sql`coalesce(sum(s.inserted), 0)::bigint`,
    credited: sql`coalesce(sum(s.credited), 0)::bigint`,
    changeDue: sql`coalesce(sum(s.change_due), 0)::bigint`,
    unpaid: sql`coalesce(sum(s.unpaid), 0)::bigint`,
    excess: sql`coalesce(sum(s.excess), 0)::bigint`,
  },
};
