import type { FastifyInstance } from 'fastify';
import { accountRoutes } from './account/account.routes.js';
import { clubRoutes } from './club/club.routes.js';
import { clientRoutes } from './clients/clients.routes.js';
import { groupRoutes } from './groups/groups.routes.js';
import { scheduleRoutes } from './schedules/schedules.routes.js';
import { terminalRoutes } from './terminals/terminals.routes.js';
import { terminalLinkRoutes } from '../realtime/terminal-link.js';
import { liveRoutes } from '../realtime/live.js';
import { reportsRoutes } from './reports/reports.routes.js';
import { dashboardRoutes } from './dashboard/dashboard.routes.js';
import { gateModules } from './gate-modules.js';
import { moneyModules } from './money-modules.js';
import { managementModules } from './management-modules.js';

/** Registers every API area (one folder per area, STYLE point 2). */
export async function registerModules(app: FastifyInstance): Promise<void> {
  await app.register(accountRoutes);
  await app.register(clubRoutes);
  await app.register(clientRoutes);
  await app.register(groupRoutes);
  await app.register(scheduleRoutes);
  await app.register(terminalRoutes);
  await app.register(terminalLinkRoutes);
  await app.register(liveRoutes);
  await app.register(reportsRoutes);
  await app.register(dashboardRoutes);
  await app.register(gateModules);
  await app.register(moneyModules);
  await app.register(managementModules);
}
