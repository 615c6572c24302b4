import { sql } from 'drizzle-orm';
import { REPORTS } from '@venue/domain';
import type { ReportDefinition } from '../framework.js';
import { clientName, filters } from '../report-sql.js';

const first = sql`coalesce(l.entry_at, l.exit_at)`;
const minutes = sql`case when l.entry_at is not null and l.exit_at is not null
  then floor(extract(epoch from (l.exit_at - l.entry_at)) / 60)::int end`;

/**
 * Attendance (`GetAttendanceReport`, seed 001 §2 "attendance"): every
 * attendance record whose first time (entry, else exit) falls in the period,
 * with its terminals, minutes worked (entry to exit), whether the exit was
 * written by the closing job and whether a person changed it
 * (docs/attendance.md). Terminal filter: entry or exit terminal.
 */
export const attendanceReport: ReportDefinition<'attendance'> = {
  meta: REPORTS.attendance,
  from: (c) => sql`attendance_logs l
    join clients c on c.id = l.client_id and c.club_id = ${c.clubId}
    left join terminals te on te.id = l.entry_terminal_id and te.club_id = ${c.clubId}
    left join terminals tx on tx.id = l.exit_terminal_id and tx.club_id = ${c.clubId}`,
  at: first,
  where: (c) => {
    const w = [sql`l.club_id = ${c.clubId}`, ...filters(c, { clientId: sql`l.client_id` })];
    if (c.q.terminalId)
      w.push(sql`(l.entry_terminal_id = ${c.q.terminalId} or l.exit_terminal_id = ${c.q.terminalId})`);
    return w;
  },
  select: {
    id: sql`l.id`,
    clientId: sql`l.client_id`,
    clientNumber: sql`c.number`,
    clientName: clientName('c'),
    entryAt: sql`l.entry_at`,
    entryTerminalName: sql`te.name`,
    exitAt: sql`l.exit_at`,
    exitTerminalName: sql`tx.name`,
    minutes,
    exitAutomatic: sql`(l.exit_source = 'automatic')`,
    edited: sql`(l.original is not null)`,
    comment: sql`l.comment`,
  },
  sort: {
    entryAt: [first],
    exitAt: [sql`l.exit_at`],
    client: [sql`c.last_name`, sql`c.first_name`, first],
    minutes: [minutes],
  },
  tiebreak: [sql`l.id`],
  totals: {
    count: sql`count(*)::int`,
    minutes: sql`coalesce(sum(${minutes}), 0)::int`,
    open: sql`(count(*) filter (where l.entry_at is not null and l.exit_at is null))::int`,
    automatic: sql`(count(*) filter (where l.exit_source = 'automatic'))::int`,
  },
  additive: true,
};
