import type { FastifyInstance } from 'fastify';
import { contract } from '@venue/domain';
import { route } from '../../lib/contract-route.js';
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

/** Dashboard counters and charts (seed 000 §2, §7 "Dashboard"); the entries are `contract.dashboard`. */
export async function dashboardRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps.database;
  const c = contract.dashboard;
  route(app, c.monthlyEntrances, async (req) => monthlyEntranceCount(db, req.auth.clubId));
  route(app, c.activeClients, async (req) => activeClientsCount(db, req.auth.clubId));
  route(app, c.entranceByStatus, async (req) => chartEntranceByStatus(db, req.auth.clubId));
  route(app, c.confirmedEntranceByTime, async (req) => chartConfirmedEntranceByTime(db, req.auth.clubId));
  route(app, c.monthlyIncome, async (req) => monthlyIncome(db, req.auth.clubId));
  route(app, c.expiredLicenses, async (req) => expiredLicensesCount(db, req.auth.clubId));
  route(app, c.payments, async (req) => chartPaymentData(db, req.auth.clubId));
  route(app, c.amountByItemType, async (req) => chartByItemType(db, req.auth.clubId, 'amount'));
  route(app, c.quantityByItemType, async (req) => chartByItemType(db, req.auth.clubId, 'quantity'));
  route(app, c.amountByProduct, async (req) => chartByProduct(db, req.auth.clubId, 'amount'));
  route(app, c.quantityByProduct, async (req) => chartByProduct(db, req.auth.clubId, 'quantity'));
  route(app, c.lastWeekArrivals, async (req) => lastWeekArrivalsCount(db, req.auth.clubId));
  route(app, c.validLicenses, async (req) => validLicensesCount(db, req.auth.clubId));
  route(app, c.entranceByGroup, async (req) => chartEntranceByGroup(db, req.auth.clubId));
}
