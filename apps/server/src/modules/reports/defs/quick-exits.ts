import { sql } from 'drizzle-orm';
import { REPORTS } from '@venue/domain';
import type { ReportDefinition } from '../framework.js';
import { clientName, filters, inList } from '../report-sql.js';

/**
 * Quick exit (`GetQuickExitsReport`): the recorded quick exits of the period
 * (by exit time; docs/entrance-reasons.md "Quick exit"): the stay, the
 * outcome and the money credited back. Status filter = outcome types.
 */
export const quickExitsReport: ReportDefinition<'quickExits'> = {
  meta: REPORTS.quickExits,
  from: (c) => sql`quick_exits q
    left join clients c on c.id = q.client_id and c.club_id = ${c.clubId}
    left join terminals t on t.id = q.terminal_id and t.club_id = ${c.clubId}`,
  at: sql`q.exit_at`,
  where: (c) => {
    const w = [
      sql`q.club_id = ${c.clubId}`,
      ...filters(c, { terminalId: sql`q.terminal_id`, clientId: sql`q.client_id` }),
    ];
    if (c.q.status?.length) w.push(inList(sql`q.type`, c.q.status));
    return w;
  },
  select: {
    id: sql`q.id`,
    at: sql`q.exit_at`,
    clientId: sql`q.client_id`,
    clientNumber: sql`c.number`,
    clientName: clientName('c'),
    terminalName: sql`t.name`,
    type: sql`q.type`,
    entranceAt: sql`q.entrance_at`,
    durationMinutes: sql`q.duration_minutes`,
    rewardAmount: sql`q.reward_amount`,
  },
  sort: {
    at: [sql`q.exit_at`],
    client: [sql`c.last_name`, sql`c.first_name`, sql`q.exit_at`],
    terminal: [sql`t.name`, sql`q.exit_at`],
    type: [sql`q.type`, sql`q.exit_at`],
    durationMinutes: [sql`q.duration_minutes`, sql`q.exit_at`],
    rewardAmount: [sql`q.reward_amount`, sql`q.exit_at`],
  },
  tiebreak: [sql`q.id`],
  totals: {
    count: sql`count(*)::int`,
    rewarded: sql`(count(*) filter (where q.reward_amount > 0))::int`,
    rewardAmount: sql`coalesce(sum(q.reward_amount), 0)::bigint`,
    averageMinutes: sql`coalesce(round(avg(q.duration_minutes)), 0)::int`,
  },
  breakdowns: { byType: { by: sql`q.type`, value: sql`count(*)::int` } },
};
