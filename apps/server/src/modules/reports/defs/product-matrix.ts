import { sql } from 'drizzle-orm';
import { REPORTS, reportText } from '@venue/domain';
import type { ReportDefinition } from '../framework.js';
import { productCells, productName } from '../product-sql.js';

/**
 * Product matrix (`GetProductMatrixReport`, "Product purchases by clubs",
 * seed 000 §2): product lines (item type 10) of the period's purchases that
 * were not refunded, one row per cell product × terminal where it was sold
 * (terminal null = sold in the console, named "Management console" in the
 * caller's `lang`): purchases, units, before VAT, VAT,
 * total (minor units). A console user sees one club, so the club axis of the
 * seed's title is the club's selling points (docs/reports.md "Decisions").
 * `byTerminal`: total per terminal name ('' = console).
 */
export const productMatrixReport: ReportDefinition<'productMatrix'> = {
  meta: REPORTS.productMatrix,
  // The period's cells from the daily summary (productCells), then named.
  from: (c) => sql`${productCells(c, true)}
    left join products pr on pr.id = s.item_id and pr.club_id = ${c.clubId}
    left join terminals t on t.id = s.terminal_id and t.club_id = ${c.clubId}`,
  at: null,
  where: () => [sql`true`],
  select: {
    productId: sql`s.item_id`,
    productName,
    terminalId: sql`s.terminal_id`,
    terminalName: sql`t.name`,
    purchases: sql`s.purchases`,
    quantity: sql`s.quantity::int`,
    amountBeforeVat: sql`s.before_vat`,
    vat: sql`(s.total - s.before_vat)`,
    total: sql`s.total`,
  },
  sort: {
    productName: [productName, sql`t.name`],
    terminal: [sql`t.name`, productName],
    quantity: [sql`s.quantity`],
    total: [sql`s.total`],
  },
  tiebreak: [sql`s.item_id`, sql`s.terminal_id`],
  post: { terminalName: (v, c) => v ?? reportText('title', 'console', c.q.lang) },
  totals: {
    cells: sql`count(*)::int`,
    // Each purchase once (its lines are all at its terminal, so this also adds up per terminal).
    purchases: sql`coalesce(sum(s.firsts), 0)::int`,
    quantity: sql`coalesce(sum(s.quantity), 0)::int`,
    amountBeforeVat: sql`coalesce(sum(s.before_vat), 0)::bigint`,
    vat: sql`coalesce(sum(s.total - s.before_vat), 0)::bigint`,
    total: sql`coalesce(sum(s.total), 0)::bigint`,
  },
  breakdowns: {
    byTerminal: { by: sql`coalesce(t.name, '')`, value: sql`coalesce(sum(s.total), 0)::bigint` },
  },
  // Every total adds up over terminals: byTerminal comes from the totals' scan.
  additive: true,
};
