import type { FastifyInstance } from 'fastify';
import { contract } from '@venue/domain';
import { route } from '../../lib/contract-route.js';
import { terminalActions } from '../../lib/terminal-actions.js';
import { clearingProvider } from '../../integrations/clearing/sandbox.js';
import { checkIn, deskGates, findClients, glance, sellEntrance } from './front-desk.service.js';

/** The front desk (issue 35, docs/front-desk.md); the entries are `contract.frontDesk`. */
export async function frontDeskRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps.database;
  const { terminals: registry, bus } = app.deps;
  const link = { bus, registry, actions: terminalActions(registry, bus) };
  const c = contract.frontDesk;
  route(app, c.gates, async (req) => deskGates(db, req.auth.clubId, registry));
  route(app, c.find, async (req) => findClients(db, req.auth.clubId, req.query.q));
  route(app, c.glance, async (req) => glance(db, req.auth.clubId, req.params.id, req.query.terminalId));
  route(app, c.checkIn, async (req) => checkIn(db, link, req.auth, req.body));
  route(app, c.sellEntrance, async (req) => sellEntrance(db, link, clearingProvider(), req.auth, req.body));
}
