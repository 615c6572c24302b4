// Hand-tuned SQL for the reports of bench/report-framework.bench.mjs that its
// own HAND table does not cover, by report id: (clubId, range, query) => SQL[],
// the same figures as the framework's first page with totals, in the fewest
// statements, written for that report only.
import { sql } from 'drizzle-orm';

export const HAND_MORE = {
  // e.g. debts: (clubId, r) => [sql`...`],
};
void sql;
