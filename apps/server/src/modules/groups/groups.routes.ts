import type { FastifyInstance } from 'fastify';
import { contract } from '@venue/domain';
import { route } from '../../lib/contract-route.js';
import { exportGroups } from './groups.export.js';
import { createGroup, deleteGroup, getGroup, groupsStateNow, listGroups, updateGroup } from './groups.service.js';

/** Client groups with their schedules (seed 000 §7 "Groups", seed 001 §3 "Client group"). */
export async function groupRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps.database;
  const c = contract.groups;
  route(app, c.list, async (req) => listGroups(db, req.auth.clubId));
  route(app, c.stateNow, async (req) => groupsStateNow(db, req.auth.clubId));
  route(app, c.export, async (req, reply) => exportGroups(db, req.auth.clubId, req.query.lang, reply));
  route(app, c.get, async (req) => getGroup(db, req.auth.clubId, req.params.id));
  route(app, c.create, async (req) => createGroup(db, req.auth, req.body));
  route(app, c.update, async (req) => updateGroup(db, req.auth, req.params.id, req.body));
  route(app, c.remove, async (req) => deleteGroup(db, req.auth, req.params.id));
}
