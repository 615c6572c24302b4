import { sql } from 'drizzle-orm';
import { ACCESS_ANOMALY_RECORDS, REPORTS } from '@venue/domain';
import type { ReportDefinition } from '../framework.js';
import { clientName, filters } from '../report-sql.js';

/**
 * Distinct records (a client, or the purchase or document of a row without one) the row's user
 * opened in the hour up to the row: by the (club_id, user_id, at) index.
 */
const recordsInHour = sql`(select count(distinct coalesce(a2.client_id::text, a2.subject))::int
  from data_access_log a2
  where a2.club_id = a.club_id and a2.user_id = a.user_id
    and a2.at > a.at - interval '1 hour' and a2.at <= a.at)`;

/**
 * Who looked (`GetDataAccessReport`; issue 39, docs/privacy.md "Who looked"): the reads of one
 * person's data in the period, newest first, each with how many distinct records its user opened
 * in the hour up to it and the anomaly flag from ACCESS_ANOMALY_RECORDS on; for the club's
 * security officer (roleSecurityOfficer).
 */
export const dataAccessReport: ReportDefinition<'dataAccess'> = {
  meta: REPORTS.dataAccess,
  from: (c) => sql`data_access_log a
    left join clients c on c.id = a.client_id and c.club_id = ${c.clubId}`,
  at: sql`a.at`,
  where: (c) => [sql`a.club_id = ${c.clubId}`, ...filters(c, { userId: sql`a.user_id`, clientId: sql`a.client_id` })],
  select: {
    id: sql`a.id`,
    at: sql`a.at`,
    userName: sql`a.username`,
    kind: sql`a.kind`,
    clientId: sql`a.client_id`,
    clientNumber: sql`c.number`,
    clientName: clientName('c'),
    subject: sql`a.subject`,
    ip: sql`a.ip`,
    recordsInHour,
    anomaly: sql`${recordsInHour} >= ${ACCESS_ANOMALY_RECORDS}`,
  },
  sort: {
    at: [sql`a.at`],
    user: [sql`a.username`, sql`a.at`],
    kind: [sql`a.kind`, sql`a.at`],
    client: [sql`c.last_name`, sql`c.first_name`, sql`a.at`],
  },
  tiebreak: [sql`a.id`],
  totals: {
    count: sql`count(*)::int`,
    users: sql`count(distinct a.user_id)::int`,
    clients: sql`count(distinct a.client_id)::int`,
    anomalies: sql`(count(*) filter (where ${recordsInHour} >= ${ACCESS_ANOMALY_RECORDS}))::int`,
  },
  breakdowns: { byKind: { by: sql`a.kind`, value: sql`count(*)::int` } },
};
