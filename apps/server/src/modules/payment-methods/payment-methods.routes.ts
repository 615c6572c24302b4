import type { FastifyInstance } from 'fastify';
import { contract } from '@venue/domain';
import { route, type ContractRequest } from '../../lib/contract-route.js';
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

/** Credit cards and bank details (seed 000 §7); the entries are `contract.paymentMethods`. */
export async function paymentMethodRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps.database;
  const c = contract.paymentMethods;
  const create = async (req: ContractRequest<typeof c.create>) =>
    createPaymentMethod(db, clearingProvider(), req.auth, req.body);
  route(app, c.list, async (req) => listPaymentMethods(db, req.auth.clubId));
  route(app, c.create, create);
  route(app, c.createSlash, create);
  route(app, c.ofClient, async (req) => getByClient(db, req.auth.clubId, req.params.id));
  route(app, c.get, async (req) => getPaymentMethod(db, req.auth.clubId, req.params.id));
  route(app, c.updateCard, async (req) => updateCard(db, req.auth, req.params.id, req.body));
  route(app, c.remove, async (req) => deletePaymentMethod(db, req.auth, req.params.id));
  route(app, c.updateBank, async (req) => updateBankDetails(db, req.auth, req.params.id, req.body));
}
