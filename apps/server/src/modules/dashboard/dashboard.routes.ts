import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ChartData, DashboardCount } from '@venue/domain';
import {
  activeClientsCount,
  chartConfirmedEntranceByTime,
  chartEntranceByStatus,
  monthlyEntranceCount,
} from './dashboard.service.js';

/** An empty (or absent) body: the dashboard calls take no filter. */
const EmptyBody = z.object({}).optional();

/** Dashboard counters and charts (seed 000 §2, §7 "Dashboard"). */
export async function dashboardRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;
  const config = { permission: 'roleViewDashboard' } as const;

  r.post(
    '/api/Dashboard/GetMonthlyEntranceCount',
    { config, schema: { tags: ['dashboard'], body: EmptyBody, response: { 200: DashboardCount } } },
    async (req) => monthlyEntranceCount(db, req.auth.clubId),
  );
  r.post(
    '/api/Dashboard/GetActiveClientsCount',
    { config, schema: { tags: ['dashboard'], body: EmptyBody, response: { 200: DashboardCount } } },
    async (req) => activeClientsCount(db, req.auth.clubId),
  );
  r.post(
    '/api/Dashboard/GetChartEntranceByStatus',
    { config, schema: { tags: ['dashboard'], body: EmptyBody, response: { 200: ChartData } } },
    async (req) => chartEntranceByStatus(db, req.auth.clubId),
  );
  r.post(
    '/api/Dashboard/GetChartConfirmedEntranceByTime',
    { config, schema: { tags: ['dashboard'], body: EmptyBody, response: { 200: ChartData } } },
    async (req) => chartConfirmedEntranceByTime(db, req.auth.clubId),
  );
}
