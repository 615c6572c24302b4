import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { Client, ClientInput, ClientListQuery, ClientPatch, pageOf } from '@venue/domain';
import { IdParams } from '../../lib/validation.js';
import { createClient, getClient, listClients, updateClient } from './clients.service.js';

/** Clients of the signed-in club (seed 000 §7 "Clients", docs/api-foundation.md). */
export async function clientRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;
  const tags = ['clients'];

  r.get(
    '/api/Client',
    {
      config: { permission: 'roleViewClientsList' },
      schema: { tags, querystring: ClientListQuery, response: { 200: pageOf(Client) } },
    },
    async (req) => listClients(db, req.auth.clubId, req.query),
  );
  r.get(
    '/api/Client/:id',
    { config: { permission: 'roleViewClientsList' }, schema: { tags, params: IdParams, response: { 200: Client } } },
    async (req) => getClient(db, req.auth.clubId, req.params.id),
  );
  r.post(
    '/api/Client',
    { config: { permission: 'roleEditClients' }, schema: { tags, body: ClientInput, response: { 200: Client } } },
    async (req) => createClient(db, req, req.body),
  );
  r.patch(
    '/api/Client/:id',
    {
      config: { permission: 'roleEditClients' },
      schema: { tags, params: IdParams, body: ClientPatch, response: { 200: Client } },
    },
    async (req) => updateClient(db, req, req.params.id, req.body),
  );
}
