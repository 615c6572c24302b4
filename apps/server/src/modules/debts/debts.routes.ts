import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Debt, DebtInput, DebtPatch } from '@venue/domain';
import { IdParams } from '../../lib/validation.js';
import { createDebt, debtsOfClient, deleteDebt, updateDebt } from './debts.service.js';

/** Debts (seed 000 §7 "Debts"). */
export async function debtRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;
  const tags = ['debts'];
  const edit = { config: { permission: 'roleManageClientMoney' as const } };
  r.get(
    '/api/Debts/GetByClientId/:id',
    {
      config: { permission: 'roleViewClientsList' },
      schema: { tags, params: IdParams, response: { 200: z.array(Debt) } },
    },
    async (req) => debtsOfClient(db, req.auth.clubId, req.params.id),
  );
  r.post('/api/Debts', { ...edit, schema: { tags, body: DebtInput, response: { 200: Debt } } }, async (req) =>
    createDebt(db, req.auth, req.body),
  );
  r.patch(
    '/api/Debts/:id',
    { ...edit, schema: { tags, params: IdParams, body: DebtPatch, response: { 200: Debt } } },
    async (req) => updateDebt(db, req.auth, req.params.id, req.body),
  );
  r.patch(
    '/api/Debts/Delete/:id',
    { ...edit, schema: { tags, params: IdParams, response: { 200: Debt } } },
    async (req) => deleteDebt(db, req.auth, req.params.id),
  );
}
