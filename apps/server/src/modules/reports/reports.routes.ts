import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { EntranceReport, ReportFilter } from '@venue/domain';
import { entranceReport } from './reports.service.js';

/** Reports (seed 000 §7 "Reports"; filters of seed 001 §2). */
export async function reportsRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;

  r.post(
    '/api/Report/GetEnteracesReport',
    {
      config: { permission: 'roleEntrancesReport' },
      schema: { tags: ['reports'], body: ReportFilter, response: { 200: EntranceReport } },
    },
    async (req) => entranceReport(db, req.auth.clubId, req.body),
  );
}
