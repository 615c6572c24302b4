import { sql } from 'drizzle-orm';
import { REPORTS } from '@venue/domain';
import type { ReportDefinition } from '../framework.js';
import { productCells, productName } from '../product-sql.js';

/**
 * Products (`GetProductsReport`): product lines (item type 10) of the
 * purchases of the period that were not refunded, one row per product, by
 * the product's current name (the line's name when the product is gone).
 * The rows come from the daily summary (`productCells`); `purchases` in the
 * totals counts each purchase once however many products it has.
 */
export const productsReport: ReportDefinition<'products'> = {
  meta: REPORTS.products,
  from: (c) => sql`${productCells(c, false)}
    left join products pr on pr.id = s.item_id and pr.club_id = ${c.clubId}`,
  at: null,
  where: () => [sql`true`],
  select: {
    productId: sql`s.item_id`,
    productName,
    purchases: sql`s.purchases`,
    quantity: sql`s.quantity::int`,
    amountBeforeVat: sql`s.before_vat`,
    vat: sql`(s.total - s.before_vat)`,
    total: sql`s.total`,
  },
  sort: {
    productName: [productName],
    quantity: [sql`s.quantity`],
    total: [sql`s.total`],
  },
  tiebreak: [sql`s.item_id`],
  totals: {
    purchases: sql`coalesce(sum(s.firsts), 0)::int`,
    quantity: sql`coalesce(sum(s.quantity), 0)::int`,
    amountBeforeVat: sql`coalesce(sum(s.before_vat), 0)::bigint`,
    vat: sql`coalesce(sum(s.total - s.before_vat), 0)::bigint`,
    total: sql`coalesce(sum(s.total), 0)::bigint`,
  },
};
