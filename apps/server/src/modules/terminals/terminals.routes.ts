import type { FastifyInstance } from 'fastify';
import { contract } from '@venue/domain';
import { route } from '../../lib/contract-route.js';
import { terminalActions } from '../../lib/terminal-actions.js';
import { terminalScreens } from '../../lib/terminal-screens.js';
import { cashBoxStatus, loadCash, resetCashLevels } from './cash.service.js';
import {
  connectedDevices,
  createTerminal,
  deleteTerminal,
  getTerminal,
  listTerminals,
  restoreTerminal,
  sendTerminalAction,
  sendTerminalActionWithReply,
  terminalScreen,
  updateTerminal,
} from './terminals.service.js';

/** Entrance terminals of the signed-in club (seed 000 §7 "Terminals", DESIGN §8); the entries are `contract.terminals`. */
export async function terminalRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps.database;
  const { terminals: registry, bus } = app.deps;
  const link = { registry, bus, actions: terminalActions(registry, bus), screens: terminalScreens(registry, bus) };
  const c = contract.terminals;
  route(app, c.list, async (req) => listTerminals(db, req.auth.clubId, registry, { deleted: req.query.deleted }));
  route(app, c.get, async (req) => getTerminal(db, req.auth.clubId, req.params.id, registry));
  route(app, c.create, async (req) => createTerminal(db, req.auth, req.body, registry));
  route(app, c.update, async (req) => updateTerminal(db, req.auth, req.params.id, req.body, registry, bus));
  route(app, c.remove, async (req) => deleteTerminal(db, req.auth, req.params.id, bus));
  route(app, c.restore, async (req) => restoreTerminal(db, req.auth, req.params.id, registry));
  route(app, c.connectedDevices, async (req) => connectedDevices(db, req.auth.clubId, req.params.id, registry));
  route(app, c.screen, async (req) => terminalScreen(db, req.auth.clubId, req.params.id, link));
  route(app, c.cashBox, async (req) => cashBoxStatus(db, req.auth.clubId, req.params.id));
  route(app, c.resetCash, async (req) => resetCashLevels(db, req.auth, req.body.terminalId));
  route(app, c.loadCash, async (req) => loadCash(db, req.auth, req.params.id, req.body));
  route(app, c.action, async (req) => sendTerminalAction(db, req.auth, req.body, link));
  route(app, c.ping, async (req) =>
    sendTerminalAction(db, req.auth, { ...req.body, actionName: req.body.actionName ?? 'ping' }, link),
  );
  route(app, c.actionWithReply, async (req) => sendTerminalActionWithReply(db, req.auth, req.body, link));
}
