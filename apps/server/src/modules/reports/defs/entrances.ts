import { sql } from 'drizzle-orm';
import { EntranceReport, REPORTS, ReportFilter } from '@venue/domain';
import type { ReportContext, ReportDefinition, SummarySource } from '../framework.js';
import { activityDaily, clientName, clientSearch, filters, inList, nameOf } from '../report-sql.js';

/**
 * The entrance report's totals from the activity summary (kind 1), by status; null
 * with a client filter (the summary has no client: the client's rows are
 * read by their (client_id, at) index).
 */
function entranceSummary(c: ReportContext): SummarySource | null {
  if (c.q.clientId || c.q.client) return null;
  return {
    from: sql`(select s.status, sum(s.n) as n, sum(s.amount) as amount
      from ${activityDaily(c, [1], { group: true, status: true })} group by s.status having sum(s.n) <> 0) s`,
    count: sql`coalesce(sum(s.n), 0)::int`,
    totals: {
      count: sql`coalesce(sum(s.n), 0)::int`,
      approved: sql`coalesce(sum(s.n) filter (where s.status = 1), 0)::int`,
      failed: sql`coalesce(sum(s.n) filter (where s.status between 2 and 13), 0)::int`,
      amount: sql`coalesce(sum(s.amount), 0)::bigint`,
    },
    breakdowns: { byStatus: { by: sql`s.status`, value: sql`sum(s.n)::int` } },
  };
}

/** Entrances (`GetEnteracesReport`): entrance_logs of the period (seed 000 §4 statuses). */
export const entrancesReport: ReportDefinition<'entrances'> = {
  meta: REPORTS.entrances,
  body: ReportFilter,
  response: EntranceReport,
  from: (c) => sql`entrance_logs e
    left join clients c on c.id = e.client_id and c.club_id = ${c.clubId}`,
  at: sql`e.at`,
  where: (c) => {
    const w = [
      sql`e.club_id = ${c.clubId}`,
      ...filters(c, { terminalId: sql`e.terminal_id`, groupId: sql`e.group_id`, clientId: sql`e.client_id` }),
      ...clientSearch(c, sql`e.client_id`),
    ];
    if (c.q.status?.length) w.push(inList(sql`e.status`, c.q.status));
    return w;
  },
  select: {
    id: sql`e.id`,
    at: sql`e.at`,
    clientId: sql`e.client_id`,
    clientNumber: sql`c.number`,
    clientName: clientName('c'),
    groupName: nameOf('groups', sql`e.group_id`, sql`e.club_id`),
    terminalId: sql`e.terminal_id`,
    terminalName: nameOf('terminals', sql`e.terminal_id`, sql`e.club_id`),
    status: sql`e.status`,
    reason: sql`e.reason`,
    identificationKind: sql`e.identification_kind`,
    amount: sql`e.amount`,
    paymentType: sql`e.payment_type`,
  },
  sort: {
    at: [sql`e.at`],
    status: [sql`e.status`, sql`e.at`],
    client: [sql`c.last_name`, sql`c.first_name`, sql`e.at`],
    terminal: [nameOf('terminals', sql`e.terminal_id`, sql`e.club_id`), sql`e.at`],
  },
  tiebreak: [sql`e.id`],
  totals: {
    count: sql`count(*)::int`,
    approved: sql`(count(*) filter (where e.status = 1))::int`,
    failed: sql`(count(*) filter (where e.status between 2 and 13))::int`,
    amount: sql`coalesce(sum(e.amount), 0)::bigint`,
  },
  breakdowns: { byStatus: { by: sql`e.status`, value: sql`count(*)::int` } },
  additive: true,
  summary: entranceSummary,
};
