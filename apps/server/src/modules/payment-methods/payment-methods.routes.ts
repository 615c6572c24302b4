import type { FastifyInstance } from 'fastify';
import type { Actor } from '../../lib/actor.js';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BankDetailsPatch, CardPatch, OkResponse, PaymentMethodInput, PaymentMethodView } from '@venue/domain';
import { IdParams } from '../../lib/validation.js';
import { clearingProvider } from '../../integrations/clearing/sandbox.js';
import {
  createPaymentMethod,
  deletePaymentMethod,
  getByClient,
  getPaymentMethod,
  listPaymentMethods,
  updateBankDetails,
  updateCard,
} from './payment-methods.service.js';

/** Credit cards and bank details (seed 000 §7). */
export async function paymentMethodRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;
  const tags = ['payment-methods'];
  const view = { config: { permission: 'roleViewClientsList' as const } };
  const edit = { config: { permission: 'roleManageClientMoney' as const } };

  r.get('/api/CreditCard', { ...view, schema: { tags, response: { 200: z.array(PaymentMethodView) } } }, async (req) =>
    listPaymentMethods(db, req.auth.clubId),
  );
  const create = async (req: { auth: Actor; body: PaymentMethodInput }) =>
    createPaymentMethod(db, clearingProvider(), req.auth, req.body);
  r.post(
    '/api/CreditCard',
    { ...edit, schema: { tags, body: PaymentMethodInput, response: { 200: PaymentMethodView } } },
    create,
  );
  r.post(
    '/api/CreditCard/',
    { ...edit, schema: { tags, body: PaymentMethodInput, response: { 200: PaymentMethodView } } },
    create,
  );
  r.get(
    '/api/CreditCard/GetByClientId/:id',
    { ...view, schema: { tags, params: IdParams, response: { 200: PaymentMethodView.nullable() } } },
    async (req) => getByClient(db, req.auth.clubId, req.params.id),
  );
  r.get(
    '/api/CreditCard/:id',
    { ...view, schema: { tags, params: IdParams, response: { 200: PaymentMethodView } } },
    async (req) => getPaymentMethod(db, req.auth.clubId, req.params.id),
  );
  r.patch(
    '/api/CreditCard/:id',
    { ...edit, schema: { tags, params: IdParams, body: CardPatch, response: { 200: PaymentMethodView } } },
    async (req) => updateCard(db, req.auth, req.params.id, req.body),
  );
  r.delete(
    '/api/CreditCard/:id',
    { ...edit, schema: { tags, params: IdParams, response: { 200: OkResponse } } },
    async (req) => deletePaymentMethod(db, req.auth, req.params.id),
  );
  r.patch(
    '/api/CreditCard/UpdateBankPaymentDetails/:id',
    { ...edit, schema: { tags, params: IdParams, body: BankDetailsPatch, response: { 200: PaymentMethodView } } },
    async (req) => updateBankDetails(db, req.auth, req.params.id, req.body),
  );
}
