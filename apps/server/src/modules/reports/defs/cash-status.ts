import { sql, type SQL } from 'drizzle-orm';
import { REPORTS } from '@venue/domain';
import type { ReportDefinition } from '../framework.js';
import { filters } from '../report-sql.js';

/** Value of an inventory `{denomination in agorot: pieces}` (jsonb) in minor units. */
const inventoryValue = (col: SQL): SQL =>
  sql`coalesce((select sum(k::bigint * v::bigint) from jsonb_each_text(${col}) as inv(k, v)), 0)`;

/**
 * Cash status (`GetCashStatusReport`): every terminal of the club (not
 * deleted) with the cash it holds now (docs/cash.md "Inventories"): the coin
 * hopper and bill recycler (change float), the cash box, the excess box
 * (amount and count), all of it together (`cashTotal`), the last emptying,
 * and the cash inserted in sessions begun in the period (`insertedInPeriod`).
 * The period limits only that last figure (the rows are terminals, `at: null`).
 * A terminal that never handled cash shows zeros. Money in minor units.
 */
export const cashStatusReport: ReportDefinition<'cashStatus'> = {
  meta: REPORTS.cashStatus,
  from: (c) => sql`(select t.id, t.name,
        ${inventoryValue(sql`tc.coins`)} as coins,
        ${inventoryValue(sql`tc.bills`)} as bills,
        ${inventoryValue(sql`tc.cash_box`)} as cash_box,
        coalesce(tc.excess_amount, 0) as excess_amount,
        coalesce(tc.excess_count, 0) as excess_count,
        tc.last_reset_at,
        coalesce((select sum(s.inserted) from cash_sessions s
           where s.club_id = ${c.clubId} and s.terminal_id = t.id
             and s.started_at >= ${c.range.start} and s.started_at < ${c.range.end}), 0) as inserted
      from terminals t
      left join terminal_cash tc on tc.terminal_id = t.id and tc.club_id = ${c.clubId}
      where t.club_id = ${c.clubId} and t.deleted = false) k`,
  at: null,
  where: (c) => [sql`true`, ...filters(c, { terminalId: sql`k.id` })],
  select: {
    terminalId: sql`k.id`,
    terminalName: sql`k.name`,
    coins: sql`k.coins`,
    bills: sql`k.bills`,
    cashBoxTotal: sql`k.cash_box`,
    excessAmount: sql`k.excess_amount`,
    excessCount: sql`k.excess_count`,
    cashTotal: sql`(k.coins + k.bills + k.cash_box + k.excess_amount)`,
    insertedInPeriod: sql`k.inserted`,
    lastResetAt: sql`k.last_reset_at`,
  },
  sort: {
    terminal: [sql`k.name`],
    cashBoxTotal: [sql`k.cash_box`, sql`k.name`],
    cashTotal: [sql`(k.coins + k.bills + k.cash_box + k.excess_amount)`, sql`k.name`],
    insertedInPeriod: [sql`k.inserted`, sql`k.name`],
  },
  tiebreak: [sql`k.id`],
  totals: {
    terminals: sql`count(*)::int`,
    coins: sql`coalesce(sum(k.coins), 0)::bigint`,
    bills: sql`coalesce(sum(k.bills), 0)::bigint`,
    cashBoxTotal: sql`coalesce(sum(k.cash_box), 0)::bigint`,
    excessAmount: sql`coalesce(sum(k.excess_amount), 0)::bigint`,
    excessCount: sql`coalesce(sum(k.excess_count), 0)::int`,
    cashTotal: sql`coalesce(sum(k.coins + k.bills + k.cash_box + k.excess_amount), 0)::bigint`,
    insertedInPeriod: sql`coalesce(sum(k.inserted), 0)::bigint`,
  },
};
