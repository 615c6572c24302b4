import type { FastifyInstance } from 'fastify';
import { REPORT_DEFINITIONS } from './definitions.js';
import { registerReport } from './framework.js';
import { startActivityDailyCompaction } from './activity-daily.js';

/**
 * Reports (seed 000 §7 "Reports"; filters of seed 001 §2): every definition
 * of definitions.ts becomes `POST /api/Report/<call>` and
 * `POST /api/Report/<call>/Export` (docs/reports.md); and the periodic
 * compaction of the activity_daily summary (activity-daily.ts).
 */
export async function reportsRoutes(app: FastifyInstance): Promise<void> {
  for (const def of REPORT_DEFINITIONS) registerReport(app, def);
  startActivityDailyCompaction(app);
}
