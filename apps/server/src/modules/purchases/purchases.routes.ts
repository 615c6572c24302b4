import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AddCreditRequest, AdminPurchaseRequest, BalanceResponse, Purchase, PurchaseItems } from '@venue/domain';
import { IdParams } from '../../lib/validation.js';
import { clearingProvider } from '../../integrations/clearing/sandbox.js';
import { createPurchase, getPurchase, listClientPurchases } from '../../engine/purchase.service.js';
import { addCredit, getBalance, reconcileCharges, saferPayments } from './purchases.service.js';

const SaferPayment = z.object({
  id: z.number(),
  clientId: z.number().nullable(),
  createdAt: z.string(),
  amount: z.number(),
  status: z.string(),
  lastFour: z.string(),
  brand: z.string(),
  reconciledAt: z.string().nullable(),
  result: z.string().nullable(),
});

/** Purchases and balances (seed 000 §7 "Clients" AdminPurchase, getBalance, addCredit; "Reports" Purchase/GetItems). */
export async function purchaseRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;
  const tags = ['purchases'];

  r.post(
    '/api/Client/AdminPurchase',
    {
      config: { permission: 'roleManageClientMoney' },
      schema: { tags, body: AdminPurchaseRequest, response: { 200: Purchase } },
    },
    async (req) =>
      createPurchase(db, clearingProvider(), {
        clubId: req.auth.clubId,
        clientId: req.body.clientId,
        items: req.body.purchaseItems,
        payments: req.body.payments,
        payer: req.body.payer,
        isAdminUser: req.body.IsAdminUser,
        source: 'console',
        userId: req.auth.userId,
        idempotencyKey: req.body.idempotencyKey,
        actor: req.auth,
      }),
  );
  r.get(
    '/api/Purchase/GetItems/:id',
    {
      config: { permission: 'roleViewClientsList' },
      schema: { tags, params: IdParams, response: { 200: PurchaseItems } },
    },
    async (req) => (await getPurchase(db, req.auth.clubId, req.params.id)).items,
  );
  r.get(
    '/api/Purchase/:id',
    { config: { permission: 'roleViewClientsList' }, schema: { tags, params: IdParams, response: { 200: Purchase } } },
    async (req) => getPurchase(db, req.auth.clubId, req.params.id),
  );
  r.get(
    '/api/Purchase/GetByClientId/:id',
    {
      config: { permission: 'roleViewClientsList' },
      schema: { tags, params: IdParams, response: { 200: z.array(Purchase) } },
    },
    async (req) => {
      await getBalance(db, req.auth.clubId, req.params.id); // 404 for another club's client
      return listClientPurchases(db, req.auth.clubId, req.params.id);
    },
  );
  r.get(
    '/api/getBalance/:id',
    {
      config: { permission: 'roleViewClientsList' },
      schema: { tags, params: IdParams, response: { 200: BalanceResponse } },
    },
    async (req) => getBalance(db, req.auth.clubId, req.params.id),
  );
  r.post(
    '/api/addCredit/:id',
    {
      config: { permission: 'roleManageClientMoney' },
      schema: { tags, params: IdParams, body: AddCreditRequest, response: { 200: Purchase } },
    },
    async (req) => addCredit(db, clearingProvider(), req.auth, req.params.id, req.body),
  );
  r.get(
    '/api/Report/GetSaferPayments',
    { config: { permission: 'rolePaymentesReport' }, schema: { tags, response: { 200: z.array(SaferPayment) } } },
    async (req) => saferPayments(db, req.auth.clubId),
  );
  r.post(
    '/api/Report/ReconcileSaferPayments',
    {
      config: { permission: 'rolePaymentesReport' },
      schema: {
        tags,
        response: {
          200: z.object({
            checked: z.number(),
            refunded: z.number(),
            notCharged: z.number(),
            stillUncertain: z.number(),
            linked: z.number().optional(),
          }),
        },
      },
    },
    async (req) => reconcileCharges(db, clearingProvider(), req.auth.clubId),
  );
}
