import type { FastifyInstance } from 'fastify';
import { purchaseRoutes } from './purchases/purchases.routes.js';
import { paymentMethodRoutes } from './payment-methods/payment-methods.routes.js';
import { debtRoutes } from './debts/debts.routes.js';
import { subscriptionRoutes } from './subscriptions/subscriptions.routes.js';
import { masavRoutes } from './masav/masav.routes.js';
import { licenseRoutes } from './licenses/licenses.routes.js';
import { accountingRoutes } from './accounting/accounting.routes.js';

/** The money areas (docs/money.md): one registration point, so modules/index.ts has one line for them. */
export async function moneyModules(app: FastifyInstance): Promise<void> {
  await app.register(purchaseRoutes);
  await app.register(paymentMethodRoutes);
  await app.register(debtRoutes);
  await app.register(subscriptionRoutes);
  await app.register(masavRoutes);
  await app.register(licenseRoutes);
  await app.register(accountingRoutes);
}
