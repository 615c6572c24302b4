import { sql } from 'drizzle-orm';
import { REPORTS } from '@venue/domain';
import type { ReportDefinition } from '../framework.js';
import { attendanceDays } from '../attendance-sql.js';
import { clientName } from '../report-sql.js';

const breaks = sql`(floor(extract(epoch from (d.last_out - d.first_in)) / 60)::int - d.m)`;

/**
 * Stamps (`GetStampsReport`, seed 001 §2 "stamps"): one row per employee and
 * local day of the period — the first entry and the last exit of the shifts
 * that began that day (a night shift belongs to the day it began), how many
 * shifts, the minutes worked and the breaks between them (the span from first
 * in to last out less the minutes worked). Open shifts and exit-only records
 * are left out (docs/attendance.md "Reports").
 */
export const stampsReport: ReportDefinition<'stamps'> = {
  meta: REPORTS.stamps,
  from: (c) => sql`${attendanceDays(c)} d join clients c on c.id = d.client_id and c.club_id = ${c.clubId}`,
  at: null,
  where: () => [sql`true`],
  select: {
    clientId: sql`d.client_id`,
    clientNumber: sql`c.number`,
    clientName: clientName('c'),
    day: sql`d.day`,
    firstIn: sql`d.first_in`,
    lastOut: sql`d.last_out`,
    shifts: sql`d.shifts`,
    minutes: sql`d.m`,
    breakMinutes: breaks,
  },
  sort: {
    day: [sql`d.day`, sql`c.last_name`, sql`c.first_name`],
    client: [sql`c.last_name`, sql`c.first_name`, sql`d.day`],
    minutes: [sql`d.m`],
  },
  tiebreak: [sql`d.client_id`, sql`d.day`],
  totals: {
    count: sql`count(*)::int`,
    minutes: sql`coalesce(sum(d.m), 0)::int`,
    breakMinutes: sql`coalesce(sum(${breaks}), 0)::int`,
  },
};
