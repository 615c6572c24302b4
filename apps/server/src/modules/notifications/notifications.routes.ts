import type { FastifyInstance } from 'fastify';
import { contract } from '@venue/domain';
import { route } from '../../lib/contract-route.js';
import { listOutbox } from './outbox.js';
import { transportOf } from './transport.js';

/** Notices to members and the outbox (docs/notifications.md); the entries are `contract.notifications`. */
export async function notificationRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps.database;
  const { notify } = app.deps.config;
  const c = contract.notifications;
  route(app, c.outbox, async (req) => listOutbox(db, req.auth.clubId, req.query));
  route(app, c.transport, async () => transportOf(notify));
}
