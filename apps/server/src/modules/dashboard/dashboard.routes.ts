import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ChartData, DashboardCount } from '@venue/domain';
import {
  activeClientsCount,
  chartByItemType,
  chartByProduct,
  chartConfirmedEntranceByTime,
  chartEntranceByGroup,
  chartEntranceByStatus,
  chartPaymentData,
  expiredLicensesCount,
  lastWeekArrivalsCount,
  monthlyEntranceCount,
  monthlyIncome,
  validLicensesCount,
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

  const count = { config, schema: { tags: ['dashboard'], body: EmptyBody, response: { 200: DashboardCount } } };
  const chart = { config, schema: { tags: ['dashboard'], body: EmptyBody, response: { 200: ChartData } } };
  r.post('/api/Dashboard/GetMonthlyIncome', count, async (req) => monthlyIncome(db, req.auth.clubId));
  r.post('/api/Dashboard/GetExpiredLicensesCount', count, async (req) => expiredLicensesCount(db, req.auth.clubId));
  r.post('/api/Dashboard/GetChartPaymentData', chart, async (req) => chartPaymentData(db, req.auth.clubId));
  r.post('/api/Dashboard/GetChartDataByItemType', chart, async (req) => chartByItemType(db, req.auth.clubId, 'amount'));
  r.post('/api/Dashboard/GetChartDataQtyByItemType', chart, async (req) =>
    chartByItemType(db, req.auth.clubId, 'quantity'),
  );
  r.post('/api/Dashboard/GetChartDataByProduct', chart, async (req) => chartByProduct(db, req.auth.clubId, 'amount'));
  r.post('/api/Dashboard/GetChartDataQtyByProduct', chart, async (req) =>
    chartByProduct(db, req.auth.clubId, 'quantity'),
  );
  // Ours (seed 000 §2 names the figures, not their calls).
  r.post('/api/Dashboard/GetLastWeekArrivalsCount', count, async (req) => lastWeekArrivalsCount(db, req.auth.clubId));
  r.post('/api/Dashboard/GetValidLicensesCount', count, async (req) => validLicensesCount(db, req.auth.clubId));
  r.post('/api/Dashboard/GetChartEntranceByGroup', chart, async (req) => chartEntranceByGroup(db, req.auth.clubId));
}
