import { sql, type SQL } from 'drizzle-orm';
import type { ReportContext } from './framework.js';
import { filters, notRefunded } from './report-sql.js';

/** SQL of the product reports (products, product summary, product matrix): the period's product lines. */

/**
 * Product lines (item type 10) of the club's purchases of the period that
 * were not refunded, with the call's terminal, seller and product filters,
 * as a subquery `l`: the line's `purchase_id`, `item_id`, `name`,
 * `quantity`, `amount_before_vat`, `price_with_vat` and `first` (1 on
 * exactly one line of each purchase, else 0: `sum(l.first)` counts the
 * purchases once, and adds up over any grouping a purchase does not
 * straddle, such as its terminal). The period's purchase ids are collected
 * first (purchases_club_at) and their lines read by purchase id in one
 * index-only scan of purchase_items_purchase (`= any(array(...))`, keys in
 * order): the cost follows the club's period, never the size of
 * purchase_items (a hash join would scan every club's lines), and the
 * window needs no sort (docs/reports.md "Speed").
 */
function productLineRows(c: ReportContext): SQL {
  const purchases = [
    sql`p.club_id = ${c.clubId}`,
    notRefunded,
    sql`p.at >= ${c.range.start}`,
    sql`p.at < ${c.range.end}`,
    ...filters(c, { terminalId: sql`p.terminal_id`, userId: sql`p.user_id` }),
  ];
  // Less what partial refunds took of each line (docs/money.md "Refunds"; a Refunded purchase is out).
  const took = (field: string) =>
    sql`coalesce((select sum((x->>${field})::bigint) from purchase_refunds r cross join lateral jsonb_array_elements(r.lines) x
      where r.club_id = i.club_id and r.purchase_id = i.purchase_id and (x->>'key')::bigint = i.id), 0)`;
  return sql`(select i.purchase_id, i.item_id, i.name, i.quantity - ${took('quantity')} as quantity,
        i.amount_before_vat - (${took('amount')} - ${took('vat')}) as amount_before_vat,
        i.price_with_vat - ${took('amount')} as price_with_vat,
        (row_number() over (partition by i.purchase_id) = 1)::int as first
      from purchase_items i
      where i.purchase_id = any(array(select p.id from purchases p where ${sql.join(purchases, sql` and `)}))
        and i.club_id = ${c.clubId} and i.item_type = 10
        ${c.q.productId ? sql`and i.item_id = ${c.q.productId}` : sql``}) l`;
}

/**
 * `product_daily` of club `clubId` less what partial refunds took of the product lines of
 * purchases still (partly) paid: the summary's rows (club_id, day, kind, item_id, name,
 * terminal_id, user_id, purchases, quantity, amount_before_vat, total) and, for each refunded
 * product line, a row of the same shape (kind 1, purchases 0, negative quantity given back whole,
 * before VAT and total; minor units) on the purchase's local day, so a reader that sums by day
 * subtracts them (docs/money.md "Refunds": the summary keeps a purchase whole until it is Refunded).
 * Read by the product reports ({@link productCells}) and the dashboard's product charts.
 */
export function productDailyLessRefunds(clubId: number): SQL {
  return sql`(select f.club_id, f.day, f.kind, f.item_id, f.name, f.terminal_id, f.user_id, f.purchases, f.quantity,
        f.amount_before_vat, f.total from product_daily f where f.club_id = ${clubId}
      union all
      select p.club_id, financial_daily_day(p.club_id, p.at) as day, 1::smallint as kind,
        coalesce(i.item_id, 0) as item_id, ''::text as name, coalesce(p.terminal_id, 0) as terminal_id,
        coalesce(p.user_id, 0) as user_id, 0 as purchases, -(x->>'quantity')::bigint as quantity,
        -((x->>'amount')::bigint - (x->>'vat')::bigint) as amount_before_vat, -(x->>'amount')::bigint as total
      from purchase_refunds r
      join purchases p on p.club_id = r.club_id and p.id = r.purchase_id and ${notRefunded}
      cross join lateral jsonb_array_elements(r.lines) x
      join purchase_items i on i.club_id = r.club_id and i.id = (x->>'key')::bigint and i.item_type = 10
      where r.club_id = ${clubId})`;
}

/**
 * The period's product lines ({@link productLineRows}) per product, and per
 * terminal too for the matrix (`byTerminal`: the purchase's terminal, by its
 * id), as a subquery `s`: `item_id` (and `terminal_id`), `line_name` (the
 * lines' name, for a product that is gone), `purchases` (distinct),
 * `firsts`, `quantity`, `before_vat`, `total` (minor units, VAT included).
 */
export function productLines(c: ReportContext, byTerminal: boolean): SQL {
  return sql`(select l.item_id${byTerminal ? sql`, p.terminal_id` : sql``},
      max(nullif(l.name, '')) as line_name,
      count(distinct l.purchase_id)::int as purchases,
      sum(l.first)::int as firsts,
      sum(l.quantity)::bigint as quantity,
      sum(l.amount_before_vat)::bigint as before_vat,
      sum(l.price_with_vat)::bigint as total
    from ${productLineRows(c)}
    ${byTerminal ? sql`join purchases p on p.id = l.purchase_id and p.club_id = ${c.clubId}` : sql``}
    group by l.item_id${byTerminal ? sql`, p.terminal_id` : sql``}) s`;
}

/** A product's current name, the lines' name when the product row is gone. */
export const productName = sql`coalesce(pr.name, s.line_name)`;

/**
 * The period's product lines per product, and per terminal too for the
 * matrix (`byTerminal`), from the daily summary `product_daily` (schema.ts;
 * kept by triggers, migration 0019) by local day, terminal, seller and
 * product — every filter these reports take is one of its keys, so the cost
 * follows the number of days and products, never the period's lines. A
 * subquery `s`: `item_id` (null for lines without one), `terminal_id` (null
 * = the console), `line_name` (the greatest non-empty name of the period's
 * lines, for a product whose row is gone), `purchases` (with such a line),
 * `quantity`, `before_vat`, `total` (minor units, VAT included) and `firsts`:
 * the purchases with a product line counted once — on the row with the
 * least product id of each terminal (over all rows without `byTerminal`),
 * 0 on the others — so `sum(firsts)` counts each purchase once over any
 * grouping a purchase does not straddle (its terminal).
 */
export function productCells(c: ReportContext, byTerminal: boolean): SQL {
  const w = (kinds: SQL, pid: boolean): SQL => {
    const x = [
      sql`f.club_id = ${c.clubId}`,
      sql`f.kind ${kinds}`,
      sql`f.day >= ${c.range.from}::date`,
      sql`f.day <= ${c.range.to}::date`,
    ];
    if (c.q.terminalId) x.push(sql`f.terminal_id = ${c.q.terminalId}`);
    if (c.q.userId) x.push(sql`f.user_id = ${c.q.userId}`);
    if (pid && c.q.productId) x.push(sql`f.item_id = ${c.q.productId}`);
    return sql.join(x, sql` and `);
  };
  const t = byTerminal ? sql`nullif(f.terminal_id, 0)` : sql`null::int`;
  // With a product filter a purchase counts once in its product's row; else the purchases of kind 0.
  const firsts = c.q.productId
    ? sql`k.purchases`
    : sql`case when k.item_id = min(k.item_id) over (partition by k.terminal_id) then coalesce(z.n, 0) else 0 end`;
  return sql`(select nullif(k.item_id, 0) as item_id, k.terminal_id, k.line_name, k.purchases, k.quantity, k.before_vat,
        k.total, (${firsts})::int as firsts
      from (select f.item_id, ${t} as terminal_id,
          max(f.name) filter (where f.kind = 2 and f.purchases > 0) as line_name,
          (sum(f.purchases) filter (where f.kind = 1))::int as purchases,
          (sum(f.quantity) filter (where f.kind = 1))::bigint as quantity,
          (sum(f.amount_before_vat) filter (where f.kind = 1))::bigint as before_vat,
          (sum(f.total) filter (where f.kind = 1))::bigint as total
        from ${productDailyLessRefunds(c.clubId)} f
        where ${w(sql`in (1, 2)`, true)}
        group by 1, 2 having sum(f.purchases) filter (where f.kind = 1) > 0) k
      ${
        c.q.productId
          ? sql``
          : sql`left join (select ${t} as terminal_id, sum(f.purchases) as n from product_daily f
              where ${w(sql`= 0`, false)} group by 1) z on z.terminal_id is not distinct from k.terminal_id`
      }) s`;
}
