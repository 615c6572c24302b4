import { sql, type SQL } from 'drizzle-orm';
import { queryRow } from '../../../db/query.js';
import { PurchasePaymentStatus, REPORTS } from '@venue/domain';
import type { ReportContext, ReportDefinition } from '../framework.js';
import { filters, inList, notRefunded } from '../report-sql.js';

function financialPurchaseFilters(c: ReportContext): SQL[] {
  const w = [
    sql`p.club_id = ${c.clubId}`,
    notRefunded,
    sql`p.at >= ${c.range.start}`,
    sql`p.at < ${c.range.end}`,
    ...filters(c, { terminalId: sql`p.terminal_id`, userId: sql`p.user_id` }),
  ];
  if (c.q.itemType?.length)
    w.push(
      sql`exists (select 1 from purchase_items i2 where i2.purchase_id = p.id and ${inList(sql`i2.item_type`, c.q.itemType)})`,
    );
  return w;
}

/**
 * Partial refunds (docs/money.md "Refunds"): what refunds took of purchases
 * that are still (partly) paid, by the purchase's day like the summary — the
 * summary keeps a purchase whole until it is Refunded, then leaves it out, so
 * these rows are subtracted at read time (refunds are few). `kind` 1: per item
 * type (quantity given back whole, amount before VAT, total; the card fee's VAT
 * counts with the purchase's first line, where the sale carried it); 2: per
 * payment method; 0: the card fee. Negative sums, same columns as the summary.
 */
function refundRows(c: ReportContext, kind: 0 | 1 | 2): SQL {
  const w = [
    sql`r.club_id = ${c.clubId}`,
    sql`p.payment_status <> ${PurchasePaymentStatus.Refunded}`,
    sql`financial_daily_day(p.club_id, p.at) >= ${c.range.from}::date`,
    sql`financial_daily_day(p.club_id, p.at) <= ${c.range.to}::date`,
    ...filters(c, { terminalId: sql`p.terminal_id`, userId: sql`p.user_id` }),
  ];
  if (c.q.itemType?.length)
    w.push(
      sql`exists (select 1 from purchase_items i2 where i2.purchase_id = p.id and ${inList(sql`i2.item_type`, c.q.itemType)})`,
    );
  const base = sql`purchase_refunds r join purchases p on p.club_id = r.club_id and p.id = r.purchase_id`;
  const where = sql.join(w, sql` and `);
  if (kind === 2)
    return sql`select (x->>'method')::int as key, 0 as purchases, 0 as quantity, 0 as amount_before_vat,
        -(x->>'amount')::bigint as total
      from ${base} cross join lateral jsonb_array_elements(r.payments) x where ${where}`;
  if (kind === 0)
    return sql`select 0 as key, 0 as purchases, 0 as quantity, 0 as amount_before_vat, -(x->>'amount')::bigint as total
      from ${base} cross join lateral jsonb_array_elements(r.lines) x where ${where} and (x->>'key')::bigint = 0`;
  return sql`select coalesce((x->>'itemType')::int,
          (select i.item_type from purchase_items i where i.club_id = p.club_id and i.purchase_id = p.id order by i.id limit 1)) as key,
        0 as purchases,
        case when (x->>'key')::bigint = 0 then 0 else -(x->>'quantity')::bigint end as quantity,
        case when (x->>'key')::bigint = 0 then (x->>'vat')::bigint
             else -((x->>'amount')::bigint - (x->>'vat')::bigint) end as amount_before_vat,
        case when (x->>'key')::bigint = 0 then 0 else -(x->>'amount')::bigint end as total
      from ${base} cross join lateral jsonb_array_elements(r.lines) x where ${where}`;
}

/**
 * The financial report reads the daily summary `financial_daily` (schema.ts;
 * kept by triggers, migration 0011) by local day, terminal and seller; an
 * item-type filter limits `byMethod`, `fee` and `purchases` to the purchases
 * that contain such a line, which the summary cannot tell, so it reads the
 * purchases themselves.
 */
const fromSummary = (c: ReportContext): boolean => !c.q.itemType?.length;

/** Summary rows of one kind (0 purchase, 1 item type, 2 payment method) of the club, period and filters. */
function summaryWhere(c: ReportContext, kind: 0 | 1 | 2): SQL {
  const w = [
    sql`f.club_id = ${c.clubId}`,
    sql`f.kind = ${kind}`,
    sql`f.day >= ${c.range.from}::date`,
    sql`f.day <= ${c.range.to}::date`,
  ];
  if (c.q.terminalId) w.push(sql`f.terminal_id = ${c.q.terminalId}`);
  if (c.q.userId) w.push(sql`f.user_id = ${c.q.userId}`);
  return sql.join(w, sql` and `);
}

/**
 * Financial (`GetFinancialReport`): purchases of the period that were not
 * refunded, less what partial refunds took of them (`refundRows`), one row per item type (purchases, quantity, amount before VAT,
 * VAT, total with VAT), and the money received per payment method. Each line
 * carries its share of its purchase's VAT (docs/money.md), so the VAT column
 * sums to the purchases' VAT; card fees are a separate total (`fee`), so
 * `total + fee` equals the purchases' totals. `from` is one row per item type
 * (item_type, purchases, quantity, amount_before_vat, price_with_vat), from
 * the daily summary or, with an item-type filter, from the lines.
 */
export const financialReport: ReportDefinition<'financial'> = {
  meta: REPORTS.financial,
  from: (c) =>
    fromSummary(c)
      ? sql`(select f.key as item_type, sum(f.purchases) as purchases, sum(f.quantity) as quantity,
            sum(f.amount_before_vat) as amount_before_vat, sum(f.total) as price_with_vat
          from (select f.key, f.purchases, f.quantity, f.amount_before_vat, f.total
                from financial_daily f where ${summaryWhere(c, 1)}
                union all ${refundRows(c, 1)}) f
          group by f.key having sum(f.purchases) <> 0) i`
      : sql`(select i.item_type, sum(i.purchases) as purchases, sum(i.quantity) as quantity,
            sum(i.amount_before_vat) as amount_before_vat, sum(i.price_with_vat) as price_with_vat
          from (select i.item_type, count(distinct i.purchase_id) as purchases, sum(i.quantity) as quantity,
                  sum(i.amount_before_vat) as amount_before_vat, sum(i.price_with_vat) as price_with_vat
                from purchase_items i join purchases p on p.id = i.purchase_id and p.club_id = ${c.clubId}
                where i.club_id = ${c.clubId} and ${sql.join(financialPurchaseFilters(c), sql` and `)}
                  and ${inList(sql`i.item_type`, c.q.itemType ?? [])}
                group by i.item_type
                union all
                select r.key, 0, sum(r.quantity), sum(r.amount_before_vat), sum(r.total)
                from (${refundRows(c, 1)}) r where ${inList(sql`r.key`, c.q.itemType ?? [])} group by r.key) i
          group by i.item_type having sum(i.purchases) <> 0) i`,
  at: null,
  where: () => [sql`true`],
  // `from` is already one row per item type: no GROUP BY here, so the row count is in the totals' scan.
  select: {
    itemType: sql`i.item_type`,
    purchases: sql`i.purchases::int`,
    quantity: sql`i.quantity::int`,
    amountBeforeVat: sql`i.amount_before_vat::bigint`,
    vat: sql`(i.price_with_vat - i.amount_before_vat)::bigint`,
    total: sql`i.price_with_vat::bigint`,
  },
  sort: {
    itemType: [sql`i.item_type`],
    quantity: [sql`i.quantity`],
    total: [sql`i.price_with_vat`],
  },
  tiebreak: [sql`i.item_type`],
  totals: {
    // Distinct purchases over all types: from extraTotals (a purchase may have lines of several types).
    purchases: sql`0`,
    quantity: sql`coalesce(sum(i.quantity), 0)::int`,
    amountBeforeVat: sql`coalesce(sum(i.amount_before_vat), 0)::bigint`,
    vat: sql`coalesce(sum(i.price_with_vat - i.amount_before_vat), 0)::bigint`,
    total: sql`coalesce(sum(i.price_with_vat), 0)::bigint`,
  },
  breakdowns: {
    byMethod: {
      by: sql`pp.method`,
      value: sql`coalesce(sum(pp.amount), 0)::bigint`,
      from: (c) =>
        fromSummary(c)
          ? sql`(select f.key as method, sum(f.total) as amount
              from (select f.key, f.purchases, f.total from financial_daily f where ${summaryWhere(c, 2)}
                    union all select r.key, r.purchases, r.total from (${refundRows(c, 2)}) r) f
              group by f.key having sum(f.purchases) <> 0) pp`
          : sql`(select pp.method, sum(pp.amount) as amount
              from (select pp.method, pp.amount
                    from purchase_payments pp join purchases p on p.id = pp.purchase_id and p.club_id = ${c.clubId}
                    where pp.club_id = ${c.clubId} and ${sql.join(financialPurchaseFilters(c), sql` and `)}
                    union all select r.key, r.total from (${refundRows(c, 2)}) r) pp
              group by pp.method) pp`,
      where: () => [sql`true`],
    },
  },
  // From the summary: the purchases and card fees of its kind-0 rows, inside the totals' statement.
  extraTotalsSql: (c) =>
    fromSummary(c)
      ? {
          purchases: sql`(select coalesce(sum(f.purchases), 0)::int from financial_daily f where ${summaryWhere(c, 0)})`,
          fee: sql`(select coalesce(sum(f.total), 0)::bigint from financial_daily f where ${summaryWhere(c, 0)})
            + (select coalesce(sum(r.total), 0)::bigint from (${refundRows(c, 0)}) r)`,
        }
      : null,
  // With an item-type filter: from the purchases and their lines.
  extraTotals: async (db, c) => {
    const one = (q: SQL) => queryRow<Record<string, unknown>>(db, q);
    const [fee, count] = await Promise.all([
      one(
        sql`select coalesce(sum(p.fee), 0)::bigint + (select coalesce(sum(r.total), 0)::bigint from (${refundRows(c, 0)}) r) as fee
          from purchases p where ${sql.join(financialPurchaseFilters(c), sql` and `)}`,
      ),
      one(
        sql`select count(distinct i.purchase_id)::int as purchases
          from purchase_items i join purchases p on p.id = i.purchase_id and p.club_id = ${c.clubId}
          where i.club_id = ${c.clubId} and ${sql.join(financialPurchaseFilters(c), sql` and `)}
            and ${inList(sql`i.item_type`, c.q.itemType ?? [])}`,
      ),
    ]);
    return { purchases: Number(count?.purchases ?? 0), fee: Number(fee?.fee ?? 0) };
  },
};
