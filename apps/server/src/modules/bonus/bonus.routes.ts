import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { BonusEntries, BonusEntriesInput } from '@venue/domain';
import { IdParams } from '../../lib/validation.js';
import { addBonusEntries } from './bonus.service.js';

/** Bonus entrances of a client (docs/api-gate.md "Bonus entrances"). */
export async function bonusRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;
  r.post(
    '/api/Client/AddBonusEntries/:id',
    {
      config: { permission: 'roleManageClientMoney' },
      schema: { tags: ['clients'], params: IdParams, body: BonusEntriesInput, response: { 200: BonusEntries } },
    },
    async (req) => addBonusEntries(db, req.auth, req.params.id, req.body.count),
  );
}
