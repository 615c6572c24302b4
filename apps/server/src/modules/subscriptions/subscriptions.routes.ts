import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AutoRenewLog,
  AutoRenewRunResponse,
  AutoRenewSettings,
  RenewQuoteResponse,
  SubscriptionsResponse,
} from '@venue/domain';
import { IdParams } from '../../lib/validation.js';
import { clearingProvider } from '../../integrations/clearing/sandbox.js';
import { clubToday } from '../../engine/purchase.service.js';
import { getClubRow } from '../club/club.service.js';
import { audit } from '../../lib/audit.js';
import {
  autoRenewLogsOf,
  autoRenewSettings,
  getSubscriptions,
  renewQuoteFor,
  runClubMoneyJobs,
  saveAutoRenewSettings,
} from './subscriptions.service.js';
import { startMoneyScheduler } from './auto-renew.scheduler.js';

/** Subscriptions and automatic renewal (seed 000 §7 "Clients"). */
export async function subscriptionRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;
  const tags = ['subscriptions'];
  const today = async (clubId: number) => clubToday((await getClubRow(db, clubId)).location, new Date());

  r.get(
    '/api/GetSubscriptions/:id',
    {
      config: { permission: 'roleViewClientsList' },
      schema: { tags, params: IdParams, response: { 200: SubscriptionsResponse } },
    },
    async (req) => getSubscriptions(db, req.auth.clubId, req.params.id, await today(req.auth.clubId)),
  );
  r.post(
    '/api/GetRenewSubscriptionStartAndEndDatesAndPrice/:id',
    {
      config: { permission: 'roleViewClientsList' },
      schema: { tags, params: IdParams, response: { 200: RenewQuoteResponse } },
    },
    async (req) => renewQuoteFor(db, req.auth.clubId, req.params.id, await today(req.auth.clubId)),
  );
  r.post(
    '/api/AutoRenew/DoAutoRenrenew',
    { config: { permission: 'roleManageClientMoney' }, schema: { tags, response: { 200: AutoRenewRunResponse } } },
    async (req) => {
      const { renewal: res } = await runClubMoneyJobs(app.deps.database, clearingProvider(), req.auth.clubId, {
        userId: req.auth.userId,
      });
      await audit(db, req.auth, { action: 'run', entity: 'autoRenew', entityId: req.auth.clubId, after: res });
      return res;
    },
  );
  r.get(
    '/api/AutoRenew/GetLogsByClientId/:id',
    {
      config: { permission: 'roleViewClientsList' },
      schema: { tags, params: IdParams, response: { 200: z.array(AutoRenewLog) } },
    },
    async (req) => {
      await getSubscriptions(db, req.auth.clubId, req.params.id, '1970-01-01'); // 404 for another club's client
      return autoRenewLogsOf(db, req.auth.clubId, req.params.id);
    },
  );
  r.get(
    '/api/AutoRenew/GetLogs',
    { config: { permission: 'roleAutoOperationsReport' }, schema: { tags, response: { 200: z.array(AutoRenewLog) } } },
    async (req) => autoRenewLogsOf(db, req.auth.clubId),
  );
  r.get(
    '/api/AutoRenew/Settings',
    { config: { permission: 'roleViewGeneralSettings' }, schema: { tags, response: { 200: AutoRenewSettings } } },
    async (req) => autoRenewSettings(db, req.auth.clubId),
  );
  r.patch(
    '/api/AutoRenew/Settings',
    {
      config: { permission: 'roleEditGeneralSettings' },
      schema: { tags, body: AutoRenewSettings, response: { 200: AutoRenewSettings } },
    },
    async (req) => {
      const before = await autoRenewSettings(db, req.auth.clubId);
      const after = await saveAutoRenewSettings(db, req.auth.clubId, req.body);
      await audit(db, req.auth, {
        action: 'update',
        entity: 'autoRenewSettings',
        entityId: req.auth.clubId,
        before,
        after,
      });
      return after;
    },
  );
  startMoneyScheduler(app);
}
