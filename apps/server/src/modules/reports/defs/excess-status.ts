import { sql, type SQL } from 'drizzle-orm';
import { REPORTS } from '@venue/domain';
import type { ReportContext, ReportDefinition } from '../framework.js';
import { clientName, filters } from '../report-sql.js';

/** When the excess of session `s` left the terminal: the first emptying of its cash box after the session settled. */
const excessCollectedAt = (c: ReportContext): SQL =>
  sql`(select min(r.at) from cash_resets r where r.club_id = ${c.clubId} and r.terminal_id = s.terminal_id and r.at >= s.updated_at)`;

/**
 * Excess status (`GetExcessStatusReport`): cash sessions of the period that
 * kept an excess (overpayment above the club's maxCashOverpayment,
 * docs/cash.md step 4), per client, with its state: 1 still in the
 * terminal's excess box, 2 collected (the box was emptied by
 * CreateResetCashLevels after the session settled; `collectedAt`). Status
 * filter = these states. Money in minor units.
 */
export const excessStatusReport: ReportDefinition<'excessStatus'> = {
  meta: REPORTS.excessStatus,
  from: (c) => sql`(select s.*, ${excessCollectedAt(c)} as collected_at
      from cash_sessions s where s.club_id = ${c.clubId} and s.excess > 0) x
    left join clients c on c.id = x.client_id and c.club_id = ${c.clubId}
    left join terminals t on t.id = x.terminal_id and t.club_id = ${c.clubId}`,
  at: sql`x.started_at`,
  where: (c) => {
    const w = [
      sql`x.club_id = ${c.clubId}`,
      ...filters(c, { terminalId: sql`x.terminal_id`, clientId: sql`x.client_id` }),
    ];
    const st = c.q.status ?? [];
    if (st.length && !(st.includes(1) && st.includes(2))) {
      if (st.includes(1)) w.push(sql`x.collected_at is null`);
      else if (st.includes(2)) w.push(sql`x.collected_at is not null`);
      else w.push(sql`false`);
    }
    return w;
  },
  select: {
    id: sql`x.id`,
    at: sql`x.started_at`,
    terminalName: sql`t.name`,
    clientId: sql`x.client_id`,
    clientNumber: sql`c.number`,
    clientName: clientName('c'),
    amountDue: sql`x.amount_due`,
    inserted: sql`x.inserted`,
    excess: sql`x.excess`,
    excessState: sql`case when x.collected_at is null then 1 else 2 end`,
    collectedAt: sql`x.collected_at`,
  },
  sort: {
    at: [sql`x.started_at`],
    terminal: [sql`t.name`, sql`x.started_at`],
    client: [sql`c.last_name`, sql`c.first_name`, sql`x.started_at`],
    excess: [sql`x.excess`, sql`x.started_at`],
    excessState: [sql`(x.collected_at is not null)`, sql`x.started_at`],
  },
  tiebreak: [sql`x.id`],
  totals: {
    count: sql`count(*)::int`,
    excess: sql`coalesce(sum(x.excess), 0)::bigint`,
    inBox: sql`coalesce(sum(x.excess) filter (where x.collected_at is null), 0)::bigint`,
    collected: sql`coalesce(sum(x.excess) filter (where x.collected_at is not null), 0)::bigint`,
  },
  breakdowns: {
    byState: {
      by: sql`case when x.collected_at is null then 1 else 2 end`,
      value: sql`coalesce(sum(x.excess), 0)::bigint`,
    },
  },
  additive: true,
};
