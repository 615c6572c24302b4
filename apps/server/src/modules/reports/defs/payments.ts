import { sql } from 'drizzle-orm';
import { PurchasePaymentStatus, REPORTS } from '@venue/domain';
import type { ReportContext, ReportDefinition, SummarySource } from '../framework.js';
import { clientName, clientSearch, filters, inList, nameOf } from '../report-sql.js';

/**
 * The payments report's totals without reading the period's payments:
 * financial_daily's payment-method rows (kind 2: payment lines and money of
 * the purchases that were neither refunded nor cancelled, migrations 0011,
 * 0036) plus the payments of the period's refunded purchases (few; index
 * purchases_refunded_at), less those of its MASAV sales not yet collected
 * (Pending: few), so every payment line the rows list counts once. Null with
 * a client filter (neither summary has the client).
 */
function paymentSummary(c: ReportContext): SummarySource | null {
  if (c.q.clientId || c.q.client) return null;
  const f = [
    sql`f.club_id = ${c.clubId}`,
    sql`f.kind = 2`,
    sql`f.day >= ${c.range.from}::date`,
    sql`f.day <= ${c.range.to}::date`,
  ];
  const r = [
    sql`p.club_id = ${c.clubId}`,
    sql`p.payment_status in (${PurchasePaymentStatus.Refunded}, ${PurchasePaymentStatus.Pending})`,
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
        select pp.method, s.sign, s.sign * pp.amount
          from purchases p cross join lateral (select case when p.payment_status = ${PurchasePaymentStatus.Pending}
                                                  then -1 else 1 end as sign) s join purchase_payments pp on pp.purchase_id = p.id and pp.club_id = ${c.clubId}
         where ${sql.join(r, sql` and `)}
      ) m group by m.method having sum(m.n) <> 0) s`,
    count: sql`coalesce(sum(s.n), 0)::int`,
    totals: { count: sql`coalesce(sum(s.n), 0)::int`, amount: sql`coalesce(sum(s.amount), 0)::bigint` },
    breakdowns: { byMethod: { by: sql`s.method`, value: sql`coalesce(sum(s.amount), 0)::bigint` } },
  };
}

/**
 * Payments (`GetPaymentsReport`): each payment line of each purchase of the period, by method — money
 * received: a MASAV sale the bank has not collected (Pending) or that was closed without collection
 * (Cancelled) is not listed (docs/money.md "MASAV: rejected, then paid another way").
 */
export const paymentsReport: ReportDefinition<'payments'> = {
  meta: REPORTS.payments,
  from: (c) => sql`purchase_payments pp
    join purchases p on p.id = pp.purchase_id and p.club_id = ${c.clubId}
    left join clients c on c.id = p.client_id and c.club_id = ${c.clubId}`,
  at: sql`p.at`,
  where: (c) => {
    const w = [
      sql`pp.club_id = ${c.clubId}`,
      ...filters(c, { terminalId: sql`p.terminal_id`, clientId: sql`p.client_id`, userId: sql`p.user_id` }),
      ...clientSearch(c, sql`p.client_id`),
      sql`p.payment_status not in (${PurchasePaymentStatus.Pending}, ${PurchasePaymentStatus.Cancelled})`,
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
