import { sql } from 'drizzle-orm';
import { REPORTS } from '@venue/domain';
import type { ReportDefinition } from '../framework.js';
import { cashTransactionsReport } from './cash-transactions.js';

/**
 * Payout-error (surplus) purchases (`GetPayoutErrorPurchases`): cash
 * sessions of the period whose change could not be paid out (seed 001 §4):
 * what the club owes the client.
 */
export const payoutErrorsReport: ReportDefinition<'payoutErrors'> = {
  ...cashTransactionsReport,
  meta: REPORTS.payoutErrors,
  where: (c) => [...cashTransactionsReport.where(c), sql`s.unpaid > 0`],
  select: { ...cashTransactionsReport.select, error: sql`s.error` },
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
