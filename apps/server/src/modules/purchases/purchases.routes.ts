import type { FastifyInstance } from 'fastify';
import { contract } from '@venue/domain';
import { route } from '../../lib/contract-route.js';
import { clearingProvider } from '../../integrations/clearing/sandbox.js';
import { getPurchase } from './purchase.service.js';
import {
  addCredit,
  adminPurchase,
  clientPurchases,
  getBalance,
  reconcileCharges,
  saferPayments,
} from './purchases.service.js';

/** Purchases and balances (seed 000 §7 "Clients", "Reports" Purchase/GetItems); the entries are `contract.purchases`. */
export async function purchaseRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps.database;
  const c = contract.purchases;
  route(app, c.adminPurchase, async (req) => adminPurchase(db, clearingProvider(), req.auth, req.body));
  route(app, c.items, async (req) => (await getPurchase(db, req.auth.clubId, req.params.id)).items);
  route(app, c.get, async (req) => getPurchase(db, req.auth.clubId, req.params.id));
  route(app, c.ofClient, async (req) => clientPurchases(db, req.auth.clubId, req.params.id));
  route(app, c.balance, async (req) => getBalance(db, req.auth.clubId, req.params.id));
  route(app, c.addCredit, async (req) => addCredit(db, clearingProvider(), req.auth, req.params.id, req.body));
  route(app, c.saferPayments, async (req) => saferPayments(db, req.auth.clubId));
  route(app, c.reconcileSaferPayments, async (req) => reconcileCharges(db, clearingProvider(), req.auth.clubId));
}
