import type { FastifyInstance } from 'fastify';
import { BUILT_IN_CITIES, contract } from '@venue/domain';
import { route } from '../../lib/contract-route.js';
import { citiesOf } from './reference.service.js';

/** Reference data for forms (seed 000 §3); the entries are `contract.reference`. */
export async function referenceRoutes(app: FastifyInstance): Promise<void> {
  route(app, contract.reference.cities, async (req) => citiesOf(req.query.country));
  route(app, contract.reference.locations, async () => [...BUILT_IN_CITIES]);
}
