import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { pageOf, TerminalMessageInput, TerminalMessagePatch, TerminalMessageRecord } from '@venue/domain';
import { IdParams } from '../../lib/validation.js';
import {
  createTerminalMessage,
  getTerminalMessage,
  listTerminalMessages,
  updateTerminalMessage,
} from './terminal-messages.service.js';

/** Terminal messages of the signed-in club (seed 000 §7 "Terminal messages"; docs/api-gate.md). */
export async function terminalMessageRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;
  const { bus } = app.deps;
  const tags = ['terminal messages'];

  r.get(
    '/api/TerminalMessage',
    {
      config: { permission: 'roleViewTerminalMessages' },
      schema: { tags, response: { 200: pageOf(TerminalMessageRecord) } },
    },
    async (req) => listTerminalMessages(db, req.auth.clubId),
  );
  r.get(
    '/api/TerminalMessage/:id',
    {
      config: { permission: 'roleViewTerminalMessages' },
      schema: { tags, params: IdParams, response: { 200: TerminalMessageRecord } },
    },
    async (req) => getTerminalMessage(db, req.auth.clubId, req.params.id),
  );
  r.post(
    '/api/TerminalMessage',
    {
      config: { permission: 'roleEditTerminalMessages' },
      schema: { tags, body: TerminalMessageInput, response: { 200: TerminalMessageRecord } },
    },
    async (req) => createTerminalMessage(db, bus, req.auth, req.body),
  );
  r.patch(
    '/api/TerminalMessage/:id',
    {
      config: { permission: 'roleEditTerminalMessages' },
      schema: { tags, params: IdParams, body: TerminalMessagePatch, response: { 200: TerminalMessageRecord } },
    },
    async (req) => updateTerminalMessage(db, bus, req.auth, req.params.id, req.body),
  );
}
