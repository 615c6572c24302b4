import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CashBoxStatus,
  CashReset,
  ConnectedDevices,
  Inventory,
  OkResponse,
  pageOf,
  ResetCashLevelsInput,
  Terminal,
  TerminalActionInput,
  TerminalActionReplyResult,
  TerminalActionResult,
  TerminalActionWithReplyInput,
  TerminalCreated,
  TerminalInput,
  TerminalPatch,
} from '@venue/domain';
import { IdParams } from '../../lib/validation.js';
import { terminalActions } from '../../realtime/terminal-actions.js';
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
  updateTerminal,
} from './terminals.service.js';

const ListQuery = z.object({ deleted: z.union([z.boolean(), z.stringbool()]).optional() });
const LoadCashInput = z.strictObject({ coins: Inventory.default({}), bills: Inventory.default({}) });

/** Entrance terminals of the signed-in club (seed 000 §7 "Terminals", DESIGN §8). */
export async function terminalRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;
  const { terminals: registry, bus } = app.deps;
  const actions = terminalActions(registry, bus);
  const tags = ['terminals'];
  const edit = { permission: 'roleEditTerminals' as const };

  // Reading terminals needs only a sign-in: the console shows them on several screens.
  r.get(
    '/api/Terminal',
    { schema: { tags, querystring: ListQuery, response: { 200: pageOf(Terminal) } } },
    async (req) => listTerminals(db, req.auth.clubId, registry, { deleted: req.query.deleted }),
  );
  r.get('/api/Terminal/:id', { schema: { tags, params: IdParams, response: { 200: Terminal } } }, async (req) =>
    getTerminal(db, req.auth.clubId, req.params.id, registry),
  );
  r.post(
    '/api/Terminal',
    { config: edit, schema: { tags, body: TerminalInput, response: { 200: TerminalCreated } } },
    async (req) => createTerminal(db, req.auth, req.body, registry),
  );
  r.patch(
    '/api/Terminal/:id',
    { config: edit, schema: { tags, params: IdParams, body: TerminalPatch, response: { 200: Terminal } } },
    async (req) => updateTerminal(db, req.auth, req.params.id, req.body, registry, bus),
  );
  r.delete(
    '/api/Terminal/:id',
    { config: edit, schema: { tags, params: IdParams, response: { 200: OkResponse } } },
    async (req) => deleteTerminal(db, req.auth, req.params.id, bus),
  );
  r.patch(
    '/api/Terminal/Restore/:id',
    { config: edit, schema: { tags, params: IdParams, response: { 200: Terminal } } },
    async (req) => restoreTerminal(db, req.auth, req.params.id, registry),
  );
  r.get(
    '/api/Terminal/GetConnectedDevices/:id',
    { schema: { tags, params: IdParams, response: { 200: ConnectedDevices } } },
    async (req) => connectedDevices(db, req.auth.clubId, req.params.id, registry),
  );
  r.get(
    '/api/Terminal/GetCashBoxStatus/:id',
    { schema: { tags, params: IdParams, response: { 200: CashBoxStatus } } },
    async (req) => cashBoxStatus(db, req.auth.clubId, req.params.id),
  );
  r.post(
    '/api/Terminal/CreateResetCashLevels',
    { config: edit, schema: { tags, body: ResetCashLevelsInput, response: { 200: CashReset } } },
    async (req) => resetCashLevels(db, req.auth, req.body.terminalId),
  );
  r.post(
    '/api/Terminal/LoadCash/:id',
    { config: edit, schema: { tags, params: IdParams, body: LoadCashInput, response: { 200: CashBoxStatus } } },
    async (req) => loadCash(db, req.auth, req.params.id, req.body),
  );
  for (const path of ['/api/Terminal/TerminalAction', '/api/Terminal/TerminalPing']) {
    r.post(
      path,
      { config: edit, schema: { tags, body: TerminalActionInput, response: { 200: TerminalActionResult } } },
      async (req) =>
        sendTerminalAction(
          db,
          req.auth,
          path.endsWith('Ping') ? { ...req.body, actionName: req.body.actionName ?? 'ping' } : req.body,
          { registry, bus, actions },
        ),
    );
  }
  r.post(
    '/api/Terminal/TerminalActionWithReply',
    {
      config: edit,
      schema: { tags, body: TerminalActionWithReplyInput, response: { 200: TerminalActionReplyResult } },
    },
    async (req) => sendTerminalActionWithReply(db, req.auth, req.body, { registry, bus, actions }),
  );
}
