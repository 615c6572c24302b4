import { sql } from 'drizzle-orm';
import { REPORTS } from '@venue/domain';
import type { ReportDefinition } from '../framework.js';
import { clientName, filters, notRefunded } from '../report-sql.js';

/**
 * Licenses used (`GetLicensesUsedReport`): License lines (item type 6) of the
 * purchases of the period that were not refunded — one row per line: who got
 * how many license-years from the club's pool, until when (the line's
 * expiry), for how much (minor units, VAT included), sold by whom.
 */
export const licensesUsedReport: ReportDefinition<'licensesUsed'> = {
  meta: REPORTS.licensesUsed,
  // The club's license lines (purchase_items_license, a partial index: few lines) and their purchases by id.
  from: (c) => sql`purchase_items i
    join purchases p on p.id = i.purchase_id and p.club_id = ${c.clubId}
    left join clients c on c.id = p.client_id and c.club_id = ${c.clubId}
    left join users u on u.id = p.user_id and u.club_id = ${c.clubId}`,
  at: sql`p.at`,
  where: (c) => [
    sql`i.club_id = ${c.clubId}`,
    sql`i.item_type = 6`,
    notRefunded,
    ...filters(c, { terminalId: sql`p.terminal_id`, clientId: sql`p.client_id`, userId: sql`p.user_id` }),
  ],
  select: {
    id: sql`i.id`,
    at: sql`p.at`,
    clientId: sql`p.client_id`,
    clientNumber: sql`c.number`,
    clientName: clientName('c'),
    invoiceNumber: sql`p.invoice_number`,
    quantity: sql`i.quantity`,
    licenseExpiry: sql`to_char(i.expiry, 'YYYY-MM-DD')`,
    total: sql`i.price_with_vat`,
    userName: sql`nullif(u.name, '')`,
  },
  sort: {
    at: [sql`p.at`],
    client: [sql`c.last_name`, sql`c.first_name`, sql`p.at`],
    quantity: [sql`i.quantity`, sql`p.at`],
    licenseExpiry: [sql`i.expiry`, sql`p.at`],
    total: [sql`i.price_with_vat`, sql`p.at`],
  },
  tiebreak: [sql`i.id`],
  totals: {
    count: sql`count(*)::int`,
    quantity: sql`coalesce(sum(i.quantity), 0)::int`,
    clients: sql`count(distinct p.client_id)::int`,
    total: sql`coalesce(sum(i.price_with_vat), 0)::bigint`,
  },
};
