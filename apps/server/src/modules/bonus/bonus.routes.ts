import type { FastifyInstance } from 'fastify';
import { contract } from '@venue/domain';
import { route } from '../../lib/contract-route.js';
import { addBonusEntries } from './bonus.service.js';

/** Bonus entrances of a client (docs/api-gate.md "Bonus entrances"); the entry is `contract.bonus.add`. */
export async function bonusRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps.database;
  route(app, contract.bonus.add, async (req) => addBonusEntries(db, req.auth, req.params.id, req.body.count));
}
