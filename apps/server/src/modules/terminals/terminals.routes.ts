import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { pageOf, Terminal, TerminalCreated, TerminalInput, TerminalPatch } from '@venue/domain';
import { IdParams } from '../../lib/validation.js';
import { createTerminal, getTerminal, listTerminals, updateTerminal } from './terminals.service.js';

/** Entrance terminals of the signed-in club (seed 000 §7 "Terminals", DESIGN §8). */
export async function terminalRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;
  const { terminals: registry } = app.deps;
  const tags = ['terminals'];

  // Reading terminals needs only a sign-in: the console shows them on several screens.
  r.get('/api/Terminal', { schema: { tags, response: { 200: pageOf(Terminal) } } }, async (req) =>
    listTerminals(db, req.auth.clubId, registry),
  );
  r.get('/api/Terminal/:id', { schema: { tags, params: IdParams, response: { 200: Terminal } } }, async (req) =>
    getTerminal(db, req.auth.clubId, req.params.id, registry),
  );
  r.post(
    '/api/Terminal',
    {
      config: { permission: 'roleEditTerminals' },
      schema: { tags, body: TerminalInput, response: { 200: TerminalCreated } },
    },
    async (req) => createTerminal(db, req, req.body, registry),
  );
  r.patch(
    '/api/Terminal/:id',
    {
      config: { permission: 'roleEditTerminals' },
      schema: { tags, params: IdParams, body: TerminalPatch, response: { 200: Terminal } },
    },
    async (req) => updateTerminal(db, req, req.params.id, req.body, registry),
  );
}
