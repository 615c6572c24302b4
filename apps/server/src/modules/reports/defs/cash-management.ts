import { sql } from 'drizzle-orm';
import { REPORTS } from '@venue/domain';
import type { ReportDefinition } from '../framework.js';
import { filters } from '../report-sql.js';

/** Cash management (`getResetCashLevels`): every emptying of a terminal's cash box in the period, by whom, how much. */
export const cashManagementReport: ReportDefinition<'cashManagement'> = {
  meta: REPORTS.cashManagement,
  from: (c) => sql`cash_resets r
    left join terminals t on t.id = r.terminal_id and t.club_id = ${c.clubId}
    left join users u on u.id = r.user_id and u.club_id = ${c.clubId}`,
  at: sql`r.at`,
  where: (c) => [
    sql`r.club_id = ${c.clubId}`,
    ...filters(c, { terminalId: sql`r.terminal_id`, userId: sql`r.user_id` }),
  ],
  select: {
    id: sql`r.id`,
    at: sql`r.at`,
    terminalName: sql`t.name`,
    userName: sql`nullif(u.name, '')`,
    cashBoxTotal: sql`r.cash_box_total`,
    excessAmount: sql`r.excess_amount`,
    excessCount: sql`r.excess_count`,
  },
  sort: {
    at: [sql`r.at`],
    terminal: [sql`t.name`, sql`r.at`],
    cashBoxTotal: [sql`r.cash_box_total`, sql`r.at`],
  },
  tiebreak: [sql`r.id`],
  totals: {
    count: sql`count(*)::int`,
    cashBoxTotal: sql`coalesce(sum(r.cash_box_total), 0)::bigint`,
    excessAmount: sql`coalesce(sum(r.excess_amount), 0)::bigint`,
    excessCount: sql`coalesce(sum(r.excess_count), 0)::int`,
  },
  breakdowns: {
    byTerminal: {
      by: sql`coalesce(t.name, '#' || r.terminal_id)`,
      value: sql`coalesce(sum(r.cash_box_total), 0)::bigint`,
    },
  },
};
