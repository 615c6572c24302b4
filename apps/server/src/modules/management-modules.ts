import type { FastifyInstance } from 'fastify';
import { productRoutes } from './products/products.routes.js';
import { referenceRoutes } from './reference/reference.routes.js';
import { userRoutes } from './users/users.routes.js';

/** The club-management areas of issue 5 (docs/api-management.md) beyond clients, groups, schedules and club. */
export async function managementModules(app: FastifyInstance): Promise<void> {
  await app.register(productRoutes);
  await app.register(userRoutes);
  await app.register(referenceRoutes);
}
