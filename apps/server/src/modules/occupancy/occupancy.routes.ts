import type { FastifyInstance } from 'fastify';
import { contract } from '@venue/domain';
import { route } from '../../lib/contract-route.js';
import {
  cardSharing,
  checkOut,
  createArea,
  deleteArea,
  insideList,
  listAreas,
  occupancyView,
  updateArea,
} from './occupancy.service.js';

/** Live occupancy (issue 36, docs/gate-safety.md "Occupancy"); the entries are `contract.occupancy`. */
export async function occupancyRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps.database;
  const { bus } = app.deps;
  const c = contract.occupancy;
  route(app, c.now, async (req) => occupancyView(db, req.auth.clubId));
  route(app, c.inside, async (req) => insideList(db, req.auth));
  route(app, c.checkOut, async (req) => checkOut(db, req.auth, req.params.id));
  route(app, c.areas, async (req) => listAreas(db, req.auth.clubId));
  route(app, c.createArea, async (req) => createArea(db, bus, req.auth, req.body));
  route(app, c.updateArea, async (req) => updateArea(db, bus, req.auth, req.params.id, req.body));
  route(app, c.deleteArea, async (req) => deleteArea(db, bus, req.auth, req.params.id));
  route(app, c.cardSharing, async (req) => cardSharing(db, req.auth.clubId, req.query));
}
