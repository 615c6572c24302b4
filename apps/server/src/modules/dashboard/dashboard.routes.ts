import type { FastifyInstance } from 'fastify';
import { contract, type ApiRoute } from '@venue/domain';
import { replicaRoute } from '../../lib/replica-route.js';
import { route } from '../../lib/contract-route.js';
import { historyWriting } from '../../lib/history-writing.js';
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
  const c = contract.dashboard;
  // Every counter and chart only reads: from the replica when one is configured and fresh enough.
  const read = (entry: ApiRoute, work: Parameters<typeof replicaRoute>[2]) => replicaRoute(app, entry, work);
  read(c.monthlyEntrances, monthlyEntranceCount);
  read(c.activeClients, activeClientsCount);
  read(c.entranceByStatus, chartEntranceByStatus);
  read(c.confirmedEntranceByTime, chartConfirmedEntranceByTime);
  read(c.monthlyIncome, monthlyIncome);
  read(c.expiredLicenses, expiredLicensesCount);
  read(c.payments, chartPaymentData);
  read(c.amountByItemType, (db, clubId) => chartByItemType(db, clubId, 'amount'));
  read(c.quantityByItemType, (db, clubId) => chartByItemType(db, clubId, 'quantity'));
  read(c.amountByProduct, (db, clubId) => chartByProduct(db, clubId, 'amount'));
  read(c.quantityByProduct, (db, clubId) => chartByProduct(db, clubId, 'quantity'));
  read(c.lastWeekArrivals, lastWeekArrivalsCount);
  read(c.validLicenses, validLicensesCount);
  read(c.entranceByGroup, chartEntranceByGroup);
  // Held by the process writing the history (lib/history-writing.ts): no database read.
  route(app, c.historyStatus, async (req) => {
    const p = historyWriting(req.auth.clubId);
    return { writing: p != null, day: p?.day ?? null, days: p?.days ?? null };
  });
}
