import { sql } from 'drizzle-orm';
import { REPORTS } from '@venue/domain';
import type { ReportDefinition } from '../framework.js';
import { productLines } from '../product-sql.js';

/**
 * Product summary (`GetProductSummaryReport`): the club's product catalogue
 * (not deleted, plus deleted products sold in the period), one row per
 * product with its price and state and what its lines (item type 10) of the
 * period's purchases that were not refunded sold: purchases, units, before
 * VAT, VAT, total (minor units) — zero for a product that did not sell.
 * Lines whose product row no longer exists are in the products report only.
 */
export const productSummaryReport: ReportDefinition<'productSummary'> = {
  meta: REPORTS.productSummary,
  // The period's product lines aggregated per product (productLines), joined to the catalogue.
  from: (c) => sql`products pr left join ${productLines(c, false)} on s.item_id = pr.id`,
  at: null,
  where: (c) => {
    const w = [sql`pr.club_id = ${c.clubId}`, sql`(pr.deleted = false or s.item_id is not null)`];
    if (c.q.productId) w.push(sql`pr.id = ${c.q.productId}`);
    return w;
  },
  select: {
    productId: sql`pr.id`,
    productName: sql`pr.name`,
    price: sql`pr.price`,
    active: sql`(pr.active and not pr.deleted)`,
    purchases: sql`coalesce(s.purchases, 0)`,
    quantity: sql`coalesce(s.quantity, 0)`,
    amountBeforeVat: sql`coalesce(s.before_vat, 0)`,
    vat: sql`coalesce(s.total - s.before_vat, 0)`,
    total: sql`coalesce(s.total, 0)`,
  },
  sort: {
    productName: [sql`pr.name`],
    quantity: [sql`coalesce(s.quantity, 0)`, sql`pr.name`],
    total: [sql`coalesce(s.total, 0)`, sql`pr.name`],
  },
  tiebreak: [sql`pr.id`],
  totals: {
    products: sql`count(*)::int`,
    sold: sql`(count(*) filter (where s.quantity > 0))::int`,
    quantity: sql`coalesce(sum(s.quantity), 0)::bigint`,
    amountBeforeVat: sql`coalesce(sum(s.before_vat), 0)::bigint`,
    vat: sql`coalesce(sum(s.total - s.before_vat), 0)::bigint`,
    total: sql`coalesce(sum(s.total), 0)::bigint`,
  },
};
