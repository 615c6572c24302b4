import type { FastifyInstance } from 'fastify';
import { contract } from '@venue/domain';
import { route } from '../../lib/contract-route.js';
import { exportUsers } from './users.export.js';
import {
  acceptTerms,
  createUser,
  getUser,
  getUserNames,
  listUsers,
  updateDataGridStates,
  updateUser,
} from './users.service.js';

/** Staff users and their permissions (seed 000 §7 "Users", seed 001 §6); the entries are `contract.users`. */
export async function userRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps.database;
  const c = contract.users;
  route(app, c.list, async (req) => listUsers(db, req.auth.clubId));
  route(app, c.names, async (req) => getUserNames(db, req.auth.clubId));
  route(app, c.export, async (req, reply) => exportUsers(db, req.auth.clubId, req.query.lang, reply));
  route(app, c.get, async (req) => getUser(db, req.auth.clubId, req.params.id));
  route(app, c.create, async (req) => createUser(db, req.auth, req.body));
  route(app, c.update, async (req) => updateUser(db, app.deps.bus, req.auth, req.params.id, req.body));
  route(app, c.gridStates, async (req) => updateDataGridStates(db, req.auth, req.params.id, req.body.dataGridStates));
  route(app, c.acceptTerms, async (req) => acceptTerms(db, req.auth, req.body));
}
