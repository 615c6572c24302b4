import type { FastifyInstance } from 'fastify';
import { purchaseRoutes } from './purchases/purchases.routes.js';

/** The money areas (docs/money.md): one registration point, so modules/index.ts has one line for them. */
export async function moneyModules(app: FastifyInstance): Promise<void> {
  await app.register(purchaseRoutes);
}
