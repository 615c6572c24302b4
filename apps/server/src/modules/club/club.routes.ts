import type { FastifyInstance } from 'fastify';
import { contract } from '@venue/domain';
import { route } from '../../lib/contract-route.js';
import { getCapacities, getClubRow, presentClub, updateClub } from './club.service.js';

/** The signed-in club (seed 000 §7 "Club"); the entries are `contract.club`. */
export async function clubRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps.database;
  const { bus } = app.deps;
  const c = contract.club;
  route(app, c.current, async (req) => presentClub(await getClubRow(db, req.auth.clubId)));
  route(app, c.capacities, async (req) => getCapacities(db, req.auth.clubId));
  route(app, c.update, async (req) => updateClub(db, bus, req.auth, req.params.id, req.body));
}
