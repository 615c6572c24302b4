import type { EntranceReport, ReportFilter } from '@venue/domain';
import type { Db } from '../../db/index.js';
import { entrancesReport } from './defs/entrances.js';
import { runReport } from './framework.js';

/**
 * The entrance report (seed 000 §7 `POST /Report/GetEnteracesReport`, seed
 * 001 §2 filters), run by the report framework from its definition
 * (defs/entrances.ts).
 *
 * - The period resolves to an inclusive local-date range in the club's time
 *   zone, and that to the instants [start, end) (see report-range.ts).
 * - Filters: terminal, group (the group logged with the entrance), client,
 *   statuses.
 * - `totals`: count, approved (status 1), failed (statuses 2–13), amount (sum
 *   of `amount`, agorot) and `byStatus` (count per status). `total` is the
 *   number of matching rows.
 * - `items` is one page, joined with the client's name and number, the
 *   group's name and the terminal's name.
 *
 * Both queries use the (club_id, at) index of entrance_logs.
 */
export async function entranceReport(
  db: Db,
  clubId: number,
  filter: ReportFilter,
  now: Date = new Date(),
): Promise<EntranceReport> {
  return (await runReport(db, entrancesReport, clubId, { ...filter, lang: 'he' }, now)) as EntranceReport;
}
