import { sql } from 'drizzle-orm';
import { REPORTS } from '@venue/domain';
import type { ReportDefinition } from '../framework.js';
import { AppError } from '../../../lib/errors.js';
import { entrancesReport } from './entrances.js';

/** A client's entrances (`GetClienstEnteraces`): the entrance report of one client (`clientId` required; another club's client → 404). */
export const clientEntrancesReport: ReportDefinition<'clientEntrances'> = {
  ...entrancesReport,
  meta: REPORTS.clientEntrances,
  body: undefined,
  response: undefined,
  breakdowns: undefined,
  // The client is always named: its rows, by their (client_id, at) index.
  summary: undefined,
  // In the totals' statement (no round trip of its own); the rows are the club's whatever the client.
  guard: {
    when: (c) => sql`exists (select 1 from clients where id = ${c.q.clientId} and club_id = ${c.clubId})`,
    error: () => new AppError('NOT_FOUND', 'client not found'),
  },
};
