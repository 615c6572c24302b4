import { sql } from 'drizzle-orm';
import { REPORTS } from '@venue/domain';
import type { ReportDefinition } from '../framework.js';
import { itemsText } from '../report-labels.js';
import { activityDaily, clientName, clientSearch, filters, nameOf } from '../report-sql.js';

/**
 * Activities (`GetEnteraceAndPayments`): entrances and purchases of the
 * period on one timeline. A row is an entrance (`kind` 1: status, reason,
 * amount charged from the balance) or a purchase (`kind` 2: items, total).
 * Both halves read their club's rows of the period by their (club_id, at)
 * indexes, with the filters, before the union (a page in time order only
 * its first rows of each); a purchase's items (`detail`) are read in the
 * select list, after the sort and the limit: for the page's rows only. The
 * totals come from the activity summary (kinds 1 and 2) unless a client is named.
 */
export const activitiesReport: ReportDefinition<'activities'> = {
  meta: REPORTS.activities,
  from: (c) => {
    const e = [sql`e.club_id = ${c.clubId}`, sql`e.at >= ${c.range.start}`, sql`e.at < ${c.range.end}`];
    const p = [sql`p.club_id = ${c.clubId}`, sql`p.at >= ${c.range.start}`, sql`p.at < ${c.range.end}`];
    e.push(
      ...filters(c, { terminalId: sql`e.terminal_id`, clientId: sql`e.client_id` }),
      ...clientSearch(c, sql`e.client_id`),
    );
    p.push(
      ...filters(c, { terminalId: sql`p.terminal_id`, clientId: sql`p.client_id` }),
      ...clientSearch(c, sql`p.client_id`),
    );
    // A page in time order needs at most its first rows of each half, in that order (by the (club_id, at)
    // or (client_id, at) index): the union then sorts those instead of the whole period.
    const cut = (alias: 'e' | 'p') => {
      if (!c.firstRows || (c.q.sort ?? activitiesReport.meta.defaultSort) !== 'at') return sql``;
      const dir = sql.raw((c.q.order ?? activitiesReport.meta.defaultOrder ?? 'desc') === 'asc' ? 'asc' : 'desc');
      return sql` order by ${sql.raw(alias)}.at ${dir}, ${sql.raw(alias)}.id ${dir} limit ${c.firstRows}`;
    };
    return sql`(
    (select 'e' || e.id as id, e.id as rid, e.club_id, e.at, 1 as kind, e.client_id, e.terminal_id, e.status, e.amount,
            null::int as total, null::bigint as purchase_id
       from entrance_logs e where ${sql.join(e, sql` and `)}${cut('e')})
    union all
    (select 'p' || p.id, p.id, p.club_id, p.at, 2, p.client_id, p.terminal_id, null::smallint, p.total, p.total, p.id
       from purchases p where ${sql.join(p, sql` and `)}${cut('p')})
  ) a
    left join clients c on c.id = a.client_id and c.club_id = ${c.clubId}`;
  },
  at: sql`a.at`,
  // The filters apply inside each half (see `from`).
  where: () => [sql`true`],
  select: {
    id: sql`a.id`,
    at: sql`a.at`,
    kind: sql`a.kind`,
    clientId: sql`a.client_id`,
    clientNumber: sql`c.number`,
    clientName: clientName('c'),
    terminalName: nameOf('terminals', sql`a.terminal_id`, sql`a.club_id`),
    status: sql`a.status`,
    detail: sql`(select json_agg(json_build_object('t', i.item_type, 'n', i.name, 'q', i.quantity) order by i.id)::text
      from purchase_items i where i.purchase_id = a.purchase_id)`,
    amount: sql`a.amount`,
  },
  post: { detail: (v, c) => (v == null ? null : itemsText(v, c.q.lang)) },
  sort: {
    at: [sql`a.at`],
    kind: [sql`a.kind`, sql`a.at`],
    client: [sql`c.last_name`, sql`c.first_name`, sql`a.at`],
    terminal: [nameOf('terminals', sql`a.terminal_id`, sql`a.club_id`), sql`a.at`],
    amount: [sql`a.amount`, sql`a.at`],
  },
  // Purchases before entrances of the same instant (descending), then by row id.
  tiebreak: [sql`a.kind`, sql`a.rid`],
  totals: {
    entrances: sql`(count(*) filter (where a.kind = 1))::int`,
    approved: sql`(count(*) filter (where a.kind = 1 and a.status = 1))::int`,
    entranceAmount: sql`coalesce(sum(a.amount) filter (where a.kind = 1), 0)::bigint`,
    purchases: sql`(count(*) filter (where a.kind = 2))::int`,
    purchaseTotal: sql`coalesce(sum(a.total), 0)::bigint`,
  },
  summary: (c) =>
    c.q.clientId || c.q.client
      ? null
      : {
          from: sql`(select s.kind, s.status, sum(s.n) as n, sum(s.amount) as amount
            from ${activityDaily(c, [1, 2], {})} group by s.kind, s.status having sum(s.n) <> 0) s`,
          count: sql`coalesce(sum(s.n), 0)::int`,
          totals: {
            entrances: sql`coalesce(sum(s.n) filter (where s.kind = 1), 0)::int`,
            approved: sql`coalesce(sum(s.n) filter (where s.kind = 1 and s.status = 1), 0)::int`,
            entranceAmount: sql`coalesce(sum(s.amount) filter (where s.kind = 1), 0)::bigint`,
            purchases: sql`coalesce(sum(s.n) filter (where s.kind = 2), 0)::int`,
            purchaseTotal: sql`coalesce(sum(s.amount) filter (where s.kind = 2), 0)::bigint`,
          },
        },
};
