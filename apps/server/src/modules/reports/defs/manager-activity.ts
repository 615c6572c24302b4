import { sql } from 'drizzle-orm';
import { REPORTS } from '@venue/domain';
import type { ReportDefinition } from '../framework.js';
import { filters } from '../report-sql.js';

/** Manager activity (`GetManagerActivityReport`): the audit rows of the club's staff in the period (DESIGN §10), newest first. */
export const managerActivityReport: ReportDefinition<'managerActivity'> = {
  meta: REPORTS.managerActivity,
  from: (c) =>
    sql`audit_log l left join users u on u.id = l.user_id and (u.club_id = ${c.clubId} or u.club_id is null)`,
  at: sql`l.at`,
  where: (c) => [sql`l.club_id = ${c.clubId}`, ...filters(c, { userId: sql`l.user_id` })],
  select: {
    id: sql`l.id`,
    at: sql`l.at`,
    userName: sql`coalesce(nullif(u.name, ''), u.username)`,
    action: sql`l.action`,
    entity: sql`l.entity`,
    entityId: sql`l.entity_id`,
    ip: sql`l.ip`,
  },
  sort: {
    at: [sql`l.at`],
    user: [sql`coalesce(nullif(u.name, ''), u.username)`, sql`l.at`],
    action: [sql`l.action`, sql`l.at`],
    entity: [sql`l.entity`, sql`l.at`],
  },
  tiebreak: [sql`l.id`],
  totals: { count: sql`count(*)::int`, users: sql`count(distinct l.user_id)::int` },
  breakdowns: { byEntity: { by: sql`l.entity`, value: sql`count(*)::int` } },
};
