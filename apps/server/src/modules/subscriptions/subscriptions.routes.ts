import type { FastifyInstance } from 'fastify';
import { contract } from '@venue/domain';
import { route } from '../../lib/contract-route.js';
import { clearingProvider } from '../../integrations/clearing/sandbox.js';
import {
  autoRenewLogsOf,
  autoRenewSettings,
  clientAutoRenewLogs,
  renewQuoteToday,
  runAutoRenewBy,
  subscriptionsToday,
  updateAutoRenewSettings,
} from './subscriptions.service.js';
import { startMoneyScheduler } from './auto-renew.scheduler.js';

/** Subscriptions and automatic renewal (seed 000 §7 "Clients"); the entries are `contract.subscriptions`. */
export async function subscriptionRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps.database;
  const c = contract.subscriptions;
  route(app, c.ofClient, async (req) => subscriptionsToday(db, req.auth.clubId, req.params.id));
  route(app, c.renewQuote, async (req) => renewQuoteToday(db, req.auth.clubId, req.params.id));
  route(app, c.runAutoRenew, async (req) => runAutoRenewBy(app.deps.database, clearingProvider(), req.auth));
  route(app, c.logsOfClient, async (req) => clientAutoRenewLogs(db, req.auth.clubId, req.params.id));
  route(app, c.logs, async (req) => autoRenewLogsOf(db, req.auth.clubId));
  route(app, c.settings, async (req) => autoRenewSettings(db, req.auth.clubId));
  route(app, c.saveSettings, async (req) => updateAutoRenewSettings(db, req.auth, req.body));
  startMoneyScheduler(app);
}
