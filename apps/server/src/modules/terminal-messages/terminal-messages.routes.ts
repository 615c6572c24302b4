import type { FastifyInstance } from 'fastify';
import { contract } from '@venue/domain';
import { route } from '../../lib/contract-route.js';
import {
  createTerminalMessage,
  getTerminalMessage,
  listTerminalMessages,
  updateTerminalMessage,
} from './terminal-messages.service.js';

/** Terminal messages of the signed-in club (seed 000 §7; docs/api-gate.md); the entries are `contract.terminalMessages`. */
export async function terminalMessageRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps.database;
  const { bus } = app.deps;
  const c = contract.terminalMessages;
  route(app, c.list, async (req) => listTerminalMessages(db, req.auth.clubId));
  route(app, c.get, async (req) => getTerminalMessage(db, req.auth.clubId, req.params.id));
  route(app, c.create, async (req) => createTerminalMessage(db, bus, req.auth, req.body));
  route(app, c.update, async (req) => updateTerminalMessage(db, bus, req.auth, req.params.id, req.body));
}
