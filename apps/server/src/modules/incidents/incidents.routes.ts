import type { FastifyInstance } from 'fastify';
import { contract } from '@venue/domain';
import { route } from '../../lib/contract-route.js';
import { createIncident, handleIncident, listIncidents } from './incidents.service.js';
import { startIncidentDeliveries } from './webhook.job.js';
import { getWebhook, listDeliveries, setWebhook } from './webhook.service.js';

/** Incident reports of the signed-in club and their webhook (docs/messages.md); the entries are `contract.incidents`. */
export async function incidentRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps.database;
  const { bus } = app.deps;
  const c = contract.incidents;
  route(app, c.list, async (req) => listIncidents(db, req.auth.clubId, req.query.status));
  route(app, c.create, async (req) => createIncident(db, bus, req.auth, req.body));
  route(app, c.handle, async (req) => handleIncident(db, bus, req.auth, req.params.id));
  route(app, c.getWebhook, async (req) => getWebhook(db, req.auth));
  route(app, c.setWebhook, async (req) =>
    setWebhook(db, req.auth, req.body, { allow: app.deps.config.webhookAllow ?? [] }),
  );
  route(app, c.deliveries, async (req) => listDeliveries(db, req.auth.clubId));
  startIncidentDeliveries(app);
}
