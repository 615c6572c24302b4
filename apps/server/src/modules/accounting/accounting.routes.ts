import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AutoRenewRunResponse, HashavshevetDetails, MoveinRequest, SumitSettings } from '@venue/domain';
import { IdParams } from '../../lib/validation.js';
import { audit } from '../../lib/audit.js';
import { buildMoveinPrm } from '../../integrations/accounting/movein.js';
import { clearingProvider } from '../../integrations/clearing/sandbox.js';
import { runClubMoneyJobs } from '../subscriptions/subscriptions.service.js';
import { getHashavshevet, updateHashavshevet, updateSumit, writeMovein } from './accounting.service.js';

/** Accounting export and the club's invoicing/charging settings (seed 000 §7). */
export async function accountingRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;
  const tags = ['accounting'];
  const settings = { config: { permission: 'roleEditGeneralSettings' as const } };

  r.post(
    '/api/Report/WriteMoveinDat',
    { config: { permission: 'roleFinanicalReport' }, schema: { tags, body: MoveinRequest } },
    async (req, reply) => {
      const buf = await writeMovein(db, req.auth.clubId, req.body.from, req.body.to);
      return reply
        .header('content-type', 'application/octet-stream')
        .header('content-disposition', 'attachment; filename="MOVEIN.DAT"')
        .send(buf);
    },
  );
  r.get(
    '/api/Report/MoveinPrm',
    { config: { permission: 'roleFinanicalReport' }, schema: { tags } },
    async (_req, reply) =>
      reply
        .header('content-type', 'application/octet-stream')
        .header('content-disposition', 'attachment; filename="MOVEIN.PRM"')
        .send(buildMoveinPrm()),
  );
  r.get(
    '/api/Club/GetHasavshevetDetails',
    {
      config: { permission: 'roleViewGeneralSettings' },
      schema: { tags, response: { 200: HashavshevetDetails.nullable() } },
    },
    async (req) => getHashavshevet(db, req.auth.clubId),
  );
  r.patch(
    '/api/Club/UpdateHasavshevetDetails/:id',
    {
      ...settings,
      schema: { tags, params: IdParams, body: HashavshevetDetails, response: { 200: HashavshevetDetails } },
    },
    async (req) => updateHashavshevet(db, req.auth, req.params.id, req.body),
  );
  r.post(
    '/api/Club/UpdateClubSumitSettings/:id',
    {
      ...settings,
      schema: {
        tags,
        params: IdParams,
        body: SumitSettings,
        response: { 200: z.object({ companyId: z.string(), sendInvoices: z.boolean(), apiKeySet: z.boolean() }) },
      },
    },
    async (req) => updateSumit(db, req.auth, req.params.id, req.body),
  );
  r.post(
    '/api/Club/StartChargeClub',
    {
      config: { permission: 'roleManageClientMoney' },
      schema: {
        tags,
        response: {
          200: z.object({
            renewal: AutoRenewRunResponse,
            saferPayments: z.object({
              checked: z.number(),
              refunded: z.number(),
              notCharged: z.number(),
              stillUncertain: z.number(),
              linked: z.number().optional(),
            }),
          }),
        },
      },
    },
    async (req) => {
      const { renewal, saferPayments } = await runClubMoneyJobs(
        app.deps.database,
        clearingProvider(),
        req.auth.clubId,
        {
          userId: req.auth.userId,
          reconcile: true,
        },
      );
      await audit(db, req.auth, {
        action: 'run',
        entity: 'chargeClub',
        entityId: req.auth.clubId,
        after: { renewal, saferPayments },
      });
      return { renewal, saferPayments };
    },
  );
}
