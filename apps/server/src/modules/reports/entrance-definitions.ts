import { sql } from 'drizzle-orm';
import { EntranceReport, REPORTS, ReportFilter } from '@venue/domain';
import type { ReportDefinition } from './framework.js';
import { itemsText } from './report-labels.js';
import { AppError } from '../../lib/errors.js';
import { clientName, filters, inList } from './report-sql.js';

/**
 * The reports that read entrance_logs or the payments of the period on their
 * timeline: entrances, payments, activities and a client's entrances
 * (docs/reports.md). Every table is read by its club_id; joined tables are
 * restricted to the club in their ON clause.
 */

// ---------------------------------------------------------------- entrances

/** Entrances (`GetEnteracesReport`): entrance_logs of the period (seed 000 §4 statuses). */
export const entrancesReport: ReportDefinition = {
  meta: REPORTS.entrances,
  body: ReportFilter,
  response: EntranceReport,
  from: (c) => sql`entrance_logs e
    left join clients c on c.id = e.client_id and c.club_id = ${c.clubId}
    left join groups g on g.id = e.group_id and g.club_id = ${c.clubId}
    left join terminals t on t.id = e.terminal_id and t.club_id = ${c.clubId}`,
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
    groupName: sql`g.name`,
    terminalId: sql`e.terminal_id`,
    terminalName: sql`t.name`,
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
    terminal: [sql`t.name`, sql`e.at`],
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
};

// ---------------------------------------------------------------- payments

/** Payments (`GetPaymentsReport`): each payment line of each purchase of the period, by method. */
export const paymentsReport: ReportDefinition = {
  meta: REPORTS.payments,
  from: (c) => sql`purchase_payments pp
    join purchases p on p.id = pp.purchase_id and p.club_id = ${c.clubId}
    left join clients c on c.id = p.client_id and c.club_id = ${c.clubId}
    left join terminals t on t.id = p.terminal_id and t.club_id = ${c.clubId}
    left join users u on u.id = p.user_id and u.club_id = ${c.clubId}`,
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
    terminalName: sql`t.name`,
    userName: sql`nullif(u.name, '')`,
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
};

// ---------------------------------------------------------------- activities

/**
 * Activities (`GetEnteraceAndPayments`): entrances and purchases of the
 * period on one timeline. A row is an entrance (`kind` 1: status, reason,
 * amount charged from the balance) or a purchase (`kind` 2: items, total).
 * Both halves read their club's rows of the period by their (club_id, at)
 * indexes before the union.
 */
export const activitiesReport: ReportDefinition = {
  meta: REPORTS.activities,
  from: (c) => sql`(
    select 'e' || e.id as id, e.at, 1 as kind, e.client_id, e.terminal_id, e.status, e.reason::text as detail,
           e.amount, null::int as total
      from entrance_logs e
     where e.club_id = ${c.clubId} and e.at >= ${c.range.start} and e.at < ${c.range.end}
    union all
    select 'p' || p.id, p.at, 2, p.client_id, p.terminal_id, null::smallint,
           (select json_agg(json_build_object('t', i.item_type, 'n', i.name, 'q', i.quantity) order by i.id)::text
              from purchase_items i where i.purchase_id = p.id),
           p.total, p.total
      from purchases p
     where p.club_id = ${c.clubId} and p.at >= ${c.range.start} and p.at < ${c.range.end}
  ) a
    left join clients c on c.id = a.client_id and c.club_id = ${c.clubId}
    left join terminals t on t.id = a.terminal_id and t.club_id = ${c.clubId}`,
  at: sql`a.at`,
  where: (c) => [sql`true`, ...filters(c, { terminalId: sql`a.terminal_id`, clientId: sql`a.client_id` })],
  select: {
    id: sql`a.id`,
    at: sql`a.at`,
    kind: sql`a.kind`,
    clientId: sql`a.client_id`,
    clientNumber: sql`c.number`,
    clientName: clientName('c'),
    terminalName: sql`t.name`,
    status: sql`a.status`,
    detail: sql`case when a.kind = 2 then a.detail end`,
    amount: sql`a.amount`,
  },
  post: { detail: (v, c) => (v == null ? null : itemsText(v, c.q.lang)) },
  sort: {
    at: [sql`a.at`],
    kind: [sql`a.kind`, sql`a.at`],
    client: [sql`c.last_name`, sql`c.first_name`, sql`a.at`],
    terminal: [sql`t.name`, sql`a.at`],
    amount: [sql`a.amount`, sql`a.at`],
  },
  tiebreak: [sql`a.id`],
  totals: {
    entrances: sql`(count(*) filter (where a.kind = 1))::int`,
    approved: sql`(count(*) filter (where a.kind = 1 and a.status = 1))::int`,
    entranceAmount: sql`coalesce(sum(a.amount) filter (where a.kind = 1), 0)::bigint`,
    purchases: sql`(count(*) filter (where a.kind = 2))::int`,
    purchaseTotal: sql`coalesce(sum(a.total), 0)::bigint`,
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
  check: async (db, c) => {
    const res = await db.execute(sql`select 1 from clients where id = ${c.q.clientId} and club_id = ${c.clubId}`);
    if ((res as unknown as { rows: unknown[] }).rows.length === 0) throw new AppError('NOT_FOUND', 'client not found');
  },
};
