import type { FastifyInstance } from 'fastify';
import { contract } from '@venue/domain';
import { route } from '../../lib/contract-route.js';
import { createDebt, debtsOfClient, deleteDebt, updateDebt } from './debts.service.js';

/** Debts (seed 000 §7 "Debts"); the entries are `contract.debts`. */
export async function debtRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps.database;
  const c = contract.debts;
  route(app, c.ofClient, async (req) => debtsOfClient(db, req.auth.clubId, req.params.id));
  route(app, c.create, async (req) => createDebt(db, req.auth, req.body));
  route(app, c.update, async (req) => updateDebt(db, req.auth, req.params.id, req.body));
  route(app, c.remove, async (req) => deleteDebt(db, req.auth, req.params.id));
}
