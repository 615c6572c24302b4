import { sql } from 'drizzle-orm';
import { REPORTS } from '@venue/domain';
import type { ReportDefinition } from '../framework.js';
import { cashTransactionsReport } from './cash-transactions.js';

/**
 * Payout-error (surplus) purchases (`GetPayoutErrorPurchases`): cash
 * sessions of the period whose change could not be paid out (seed 001 §4):
 * what the club owes the client, with the invoice of the payout-error
 * purchase that loaded it onto the client's balance (cash.service.ts
 * `recordPayoutError`; none for an anonymous session).
 */
export const payoutErrorsReport: ReportDefinition<'payoutErrors'> = {
  ...cashTransactionsReport,
  meta: REPORTS.payoutErrors,
  from: (c) => sql`${cashTransactionsReport.from(c)}
    left join purchases pe on pe.club_id = ${c.clubId}
      and pe.idempotency_key = 'payout-error:' || s.terminal_id || ':' || s.session_id`,
  where: (c) => [...cashTransactionsReport.where(c), sql`s.unpaid > 0`],
  select: { ...cashTransactionsReport.select, error: sql`s.error`, invoiceNumber: sql`pe.invoice_number` },
  sort: {
    at: cashTransactionsReport.sort.at,
    terminal: cashTransactionsReport.sort.terminal,
    client: cashTransactionsReport.sort.client,
    unpaid: [sql`s.unpaid`, sql`s.started_at`],
  },
  totals: {
    count: sql`count(*)::int`,
    inserted: sql`coalesce(sum(s.inserted), 0)::bigint`,
    unpaid: sql`coalesce(sum(s.unpaid), 0)::bigint`,
  },
};
