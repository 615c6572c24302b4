import type { FastifyInstance } from 'fastify';
import { contract } from '@venue/domain';
import { route } from '../../lib/contract-route.js';
import {
  createPosition,
  deletePosition,
  getPosition,
  listPositions,
  updatePosition,
} from './employee-positions.service.js';

/** Employee positions (seed 000 §7, seed 001 §3); the entries are `contract.employeePositions`. */
export async function employeePositionRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps.database;
  const c = contract.employeePositions;
  route(app, c.list, async (req) => listPositions(db, req.auth.clubId));
  route(app, c.get, async (req) => getPosition(db, req.auth.clubId, req.params.id));
  route(app, c.create, async (req) => createPosition(db, req.auth, req.body));
  route(app, c.update, async (req) => updatePosition(db, req.auth, req.params.id, req.body));
  route(app, c.remove, async (req) => deletePosition(db, req.auth, req.params.id));
}
