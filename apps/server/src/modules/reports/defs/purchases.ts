import { sql } from 'drizzle-orm';
import { REPORTS } from '@venue/domain';
import type { ReportDefinition } from '../framework.js';
import { itemsText, methodsText } from '../report-labels.js';
import { clientName, clientSearch, filters, inList } from '../report-sql.js';

/** Purchases (`GetPurchases`): purchases of the period with VAT and the split by how they were paid. */
export const purchasesReport: ReportDefinition<'purchases'> = {
  meta: REPORTS.purchases,
  from: (c) => sql`purchases p
    left join clients c on c.id = p.client_id and c.club_id = ${c.clubId}
    left join terminals t on t.id = p.terminal_id and t.club_id = ${c.clubId}
    left join users u on u.id = p.user_id and u.club_id = ${c.clubId}`,
  at: sql`p.at`,
  where: (c) => {
    const w = [
      sql`p.club_id = ${c.clubId}`,
      ...filters(c, { terminalId: sql`p.terminal_id`, clientId: sql`p.client_id`, userId: sql`p.user_id` }),
      ...clientSearch(c, sql`p.client_id`),
    ];
    if (c.q.status?.length) w.push(inList(sql`p.payment_status`, c.q.status));
    if (c.q.itemType?.length)
      w.push(
        sql`exists (select 1 from purchase_items i where i.purchase_id = p.id and ${inList(sql`i.item_type`, c.q.itemType)})`,
      );
    if (c.q.productId)
      w.push(
        sql`exists (select 1 from purchase_items i where i.purchase_id = p.id and i.item_type = 10 and i.item_id = ${c.q.productId})`,
      );
    if (c.q.paymentMethod?.length)
      w.push(
        sql`exists (select 1 from purchase_payments pp where pp.purchase_id = p.id and ${inList(sql`pp.method`, c.q.paymentMethod)})`,
      );
    return w;
  },
  select: {
    id: sql`p.id`,
    at: sql`p.at`,
    invoiceNumber: sql`p.invoice_number`,
    clientId: sql`p.client_id`,
    clientNumber: sql`c.number`,
    clientName: clientName('c'),
    items: sql`(select json_agg(json_build_object('t', i.item_type, 'n', i.name, 'q', i.quantity) order by i.id) from purchase_items i where i.purchase_id = p.id)`,
    amountBeforeVat: sql`p.amount_before_vat`,
    vat: sql`p.vat`,
    total: sql`p.total`,
    paidBy: sql`(select json_agg(distinct pp.method) from purchase_payments pp where pp.purchase_id = p.id)`,
    paymentStatus: sql`p.payment_status`,
    refundedAmount: sql`p.refunded`,
    paidCash: sql`p.paid_cash`,
    paidCredit: sql`p.paid_credit`,
    paidBeats: sql`p.paid_beats`,
    paidTemp: sql`p.paid_temp`,
    paidOther: sql`p.paid_other`,
    terminalName: sql`t.name`,
    userName: sql`nullif(u.name, '')`,
  },
  sort: {
    at: [sql`p.at`],
    invoiceNumber: [sql`p.invoice_number`],
    client: [sql`c.last_name`, sql`c.first_name`, sql`p.at`],
    total: [sql`p.total`, sql`p.at`],
    paymentStatus: [sql`p.payment_status`, sql`p.at`],
  },
  tiebreak: [sql`p.id`],
  post: { items: (v, c) => itemsText(v, c.q.lang), paidBy: (v, c) => methodsText(v, c.q.lang) },
  totals: {
    count: sql`count(*)::int`,
    amountBeforeVat: sql`coalesce(sum(p.amount_before_vat), 0)::bigint`,
    vat: sql`coalesce(sum(p.vat), 0)::bigint`,
    total: sql`coalesce(sum(p.total), 0)::bigint`,
    refundedAmount: sql`coalesce(sum(p.refunded), 0)::bigint`,
    paidCash: sql`coalesce(sum(p.paid_cash), 0)::bigint`,
    paidCredit: sql`coalesce(sum(p.paid_credit), 0)::bigint`,
    paidBeats: sql`coalesce(sum(p.paid_beats), 0)::bigint`,
    paidTemp: sql`coalesce(sum(p.paid_temp), 0)::bigint`,
    paidOther: sql`coalesce(sum(p.paid_other), 0)::bigint`,
  },
};
