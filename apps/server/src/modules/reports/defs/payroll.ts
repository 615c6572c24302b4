import { sql } from 'drizzle-orm';
import { REPORTS } from '@venue/domain';
import type { ReportDefinition } from '../framework.js';
import { payrollRows } from '../attendance-sql.js';
import { clientName } from '../report-sql.js';

/** Pay in agorot: the hourly rate × (regular + 1.25 × first-tier + 1.5 × second-tier overtime hours), rounded. */
const pay = sql`round(coalesce(ep.hourly_rate, 0)::numeric * (p.regular * 100 + p.ot125 * 125 + p.ot150 * 150) / 6000)::bigint`;

/**
 * Payroll (`GetPayrollReport`, seed 001 §2 "payroll"): one row per employee
 * with closed shifts that began in the period — days worked, minutes, regular
 * minutes, overtime at 125% and 150% ({@link payrollRows}: Hours of Work and
 * Rest Law 1951, the club's payroll settings), night and Shabbat minutes
 * (flagged, no premium added), the hourly rate of the employee's position
 * (agorot) and the pay (agorot). docs/attendance.md "Payroll".
 */
export const payrollReport: ReportDefinition<'payroll'> = {
  meta: REPORTS.payroll,
  from: (c) => sql`${payrollRows(c)} p
    join clients c on c.id = p.client_id and c.club_id = ${c.clubId}
    left join employee_positions ep on ep.id = c.employee_position_id and ep.club_id = ${c.clubId}`,
  at: null,
  where: () => [sql`true`],
  select: {
    clientId: sql`p.client_id`,
    clientNumber: sql`c.number`,
    clientName: clientName('c'),
    positionName: sql`ep.name`,
    days: sql`p.days`,
    minutes: sql`p.m`,
    regularMinutes: sql`p.regular`,
    overtime125Minutes: sql`p.ot125`,
    overtime150Minutes: sql`p.ot150`,
    nightMinutes: sql`p.night`,
    shabbatMinutes: sql`p.shabbat`,
    hourlyRate: sql`coalesce(ep.hourly_rate, 0)`,
    pay,
  },
  sort: {
    client: [sql`c.last_name`, sql`c.first_name`],
    minutes: [sql`p.m`],
    pay: [pay],
  },
  tiebreak: [sql`p.client_id`],
  totals: {
    minutes: sql`coalesce(sum(p.m), 0)::int`,
    regularMinutes: sql`coalesce(sum(p.regular), 0)::int`,
    overtime125Minutes: sql`coalesce(sum(p.ot125), 0)::int`,
    overtime150Minutes: sql`coalesce(sum(p.ot150), 0)::int`,
    pay: sql`coalesce(sum(${pay}), 0)::bigint`,
  },
};
