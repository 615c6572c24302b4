import { sql, type SQL } from 'drizzle-orm';
import { EntranceReport, PurchasePaymentStatus, REPORTS, ReportFilter } from '@venue/domain';
import type { ReportContext, ReportDefinition, SummarySource } from './framework.js';
import { itemsText } from './report-labels.js';
import { AppError } from '../../lib/errors.js';
import { clientName, filters, inList } from './report-sql.js';

/**
 * The reports that read entrance_logs or the payments of the period on their
 * timeline: entrances, payments, activities and a client's entrances
 * (docs/reports.md). Every table is read by its club_id; joined tables are
 * restricted to the club in their ON clause, names read by subquery to the
 * row's club. Their totals come from daily summaries (activity_daily,
 * financial_daily) unless a client is named.
 */

/**
 * The name of a terminal, group or seller of a row, of the row's own club
 * (the row is the report's club's): a subquery by primary key, evaluated for
 * the page's rows only, instead of a join that costs more to plan (≈ 2 ms for
 * a 5-table join against ≈ 0.3 ms) than to run.
 */
const nameOf = (table: 'terminals' | 'groups' | 'users', id: SQL, clubId: SQL): SQL =>
  sql`(select x.name from ${sql.raw(table)} x where x.id = ${id} and x.club_id = ${clubId})`;

// ---------------------------------------------------------------- daily summaries

/**
 * The summary rows (schema.ts activity_daily, merged, and activity_daily_delta,
 * written since the last compaction; migrations 0016/0017) of the club, the
 * period's local days and the filters the summary carries: terminal, group
 * (entrances) and status; the subquery `s` with the summary's columns. A
 * report's range is whole local days in the club's zone (report-range.ts),
 * the same days as the summary's.
 */
function activityDaily(c: ReportContext, kinds: readonly (1 | 2)[], opts: { group?: boolean; status?: boolean }): SQL {
  const w = [
    sql`s.club_id = ${c.clubId}`,
    sql`s.day >= ${c.range.from}::date`,
    sql`s.day <= ${c.range.to}::date`,
    inList(sql`s.kind`, kinds),
  ];
  if (c.q.terminalId) w.push(sql`s.terminal_id = ${c.q.terminalId}`);
  if (opts.group && c.q.groupId) w.push(sql`s.group_id = ${c.q.groupId}`);
  if (opts.status && c.q.status?.length) w.push(inList(sql`s.status`, c.q.status));
  const where = sql.join(w, sql` and `);
  return sql`(select s.kind, s.status, s.n, s.amount from activity_daily s where ${where}
    union all
    select s.kind, s.status, s.n, s.amount from activity_daily_delta s where ${where}) s`;
}

/**
 * The entrance report's totals from the activity summary (kind 1), by status; null
 * with a client filter (the summary has no client: the client's rows are
 * read by their (client_id, at) index).
 */
function entranceSummary(c: ReportContext): SummarySource | null {
  if (c.q.clientId) return null;
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

// ---------------------------------------------------------------- entrances

/** Entrances (`GetEnteracesReport`): entrance_logs of the period (seed 000 §4 statuses). */
export const entrancesReport: ReportDefinition = {
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

// ---------------------------------------------------------------- payments

/**
 * The payments report's totals without reading the period's payments:
 * financial_daily's payment-method rows (kind 2: payment lines and money of
 * the purchases that were not refunded, migration 0011) plus the payments of
 * the period's refunded purchases (few; index purchases_refunded_at), so
 * every payment line of the period counts once, as in the rows. Null with a
 * client filter (neither summary has the client).
 */
function paymentSummary(c: ReportContext): SummarySource | null {
  if (c.q.clientId) return null;
  const f = [
    sql`f.club_id = ${c.clubId}`,
    sql`f.kind = 2`,
    sql`f.day >= ${c.range.from}::date`,
    sql`f.day <= ${c.range.to}::date`,
  ];
  const r = [
    sql`p.club_id = ${c.clubId}`,
    sql`p.payment_status = ${PurchasePaymentStatus.Refunded}`,
    sql`p.at >= ${c.range.start}`,
    sql`p.at < ${c.range.end}`,
    ...filters(c, { terminalId: sql`p.terminal_id`, userId: sql`p.user_id` }),
  ];
  if (c.q.terminalId) f.push(sql`f.terminal_id = ${c.q.terminalId}`);
  if (c.q.userId) f.push(sql`f.user_id = ${c.q.userId}`);
  if (c.q.paymentMethod?.length) {
    f.push(inList(sql`f.key`, c.q.paymentMethod));
    r.push(inList(sql`pp.method`, c.q.paymentMethod));
  }
  return {
    from: sql`(select m.method, sum(m.n) as n, sum(m.amount) as amount from (
        select f.key as method, f.purchases as n, f.total as amount from financial_daily f where ${sql.join(f, sql` and `)}
        union all
        select pp.method, 1, pp.amount
          from purchases p join purchase_payments pp on pp.purchase_id = p.id and pp.club_id = ${c.clubId}
         where ${sql.join(r, sql` and `)}
      ) m group by m.method having sum(m.n) <> 0) s`,
    count: sql`coalesce(sum(s.n), 0)::int`,
    totals: { count: sql`coalesce(sum(s.n), 0)::int`, amount: sql`coalesce(sum(s.amount), 0)::bigint` },
    breakdowns: { byMethod: { by: sql`s.method`, value: sql`coalesce(sum(s.amount), 0)::bigint` } },
  };
}

/** Payments (`GetPaymentsReport`): each payment line of each purchase of the period, by method. */
export const paymentsReport: ReportDefinition = {
  meta: REPORTS.payments,
  from: (c) => sql`purchase_payments pp
    join purchases p on p.id = pp.purchase_id and p.club_id = ${c.clubId}
    left join clients c on c.id = p.client_id and c.club_id = ${c.clubId}`,
  at: sql`p.at`,
  where: (c) => {
    const w = [
      sql`pp.club_id = ${c.clubId}`,
      ...filters(c, { terminalId: sql`p.terminal_id`, clientId: sql`p.client_id`, userId: sql`p.user_id` }),
    ];
    if (c.q.paymentMethod?.length) w.push(inList(sql`pp.method`, c.q.paymentMethod));
    return w;
  },
  select: {
    id: sql`pp.id`,
    at: sql`p.at`,
    invoiceNumber: sql`p.invoice_number`,
    clientId: sql`p.client_id`,
    clientNumber: sql`c.number`,
    clientName: clientName('c'),
    method: sql`pp.method`,
    amount: sql`pp.amount`,
    lastFour: sql`nullif(pp.last_four, '')`,
    terminalName: nameOf('terminals', sql`p.terminal_id`, sql`p.club_id`),
    userName: sql`nullif(${nameOf('users', sql`p.user_id`, sql`p.club_id`)}, '')`,
  },
  sort: {
    at: [sql`p.at`],
    invoiceNumber: [sql`p.invoice_number`],
    client: [sql`c.last_name`, sql`c.first_name`, sql`p.at`],
    method: [sql`pp.method`, sql`p.at`],
    amount: [sql`pp.amount`, sql`p.at`],
  },
  tiebreak: [sql`pp.id`],
  totals: { count: sql`count(*)::int`, amount: sql`coalesce(sum(pp.amount), 0)::bigint` },
  breakdowns: { byMethod: { by: sql`pp.method`, value: sql`coalesce(sum(pp.amount), 0)::bigint` } },
  additive: true,
  summary: paymentSummary,
};

// ---------------------------------------------------------------- activities

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
export const activitiesReport: ReportDefinition = {
  meta: REPORTS.activities,
  from: (c) => {
    const e = [sql`e.club_id = ${c.clubId}`, sql`e.at >= ${c.range.start}`, sql`e.at < ${c.range.end}`];
    const p = [sql`p.club_id = ${c.clubId}`, sql`p.at >= ${c.range.start}`, sql`p.at < ${c.range.end}`];
    e.push(...filters(c, { terminalId: sql`e.terminal_id`, clientId: sql`e.client_id` }));
    p.push(...filters(c, { terminalId: sql`p.terminal_id`, clientId: sql`p.client_id` }));
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
    c.q.clientId
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

// ---------------------------------------------------------------- a client's entrances

/** A client's entrances (`GetClienstEnteraces`): the entrance report of one client (`clientId` required; another club's client → 404). */
export const clientEntrancesReport: ReportDefinition = {
  ...entrancesReport,
  meta: REPORTS.clientEntrances,
  body: undefined,
  response: undefined,
  breakdowns: undefined,
  // The client is always named: its rows, by their (client_id, at) index.
  summary: undefined,
  // In the totals' statement (no round trip of its own); the rows are the club's whatever the client.
  guard: {
    when: (c) => sql`exists (select 1 from clients where id = ${c.q.clientId} and club_id = ${c.clubId})`,
    error: () => new AppError('NOT_FOUND', 'client not found'),
  },
};
