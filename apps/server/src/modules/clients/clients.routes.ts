import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  BulkClientsRequest,
  BulkClientsResult,
  Client,
  ClientExportQuery,
  ClientFull,
  ClientHistoryPage,
  ClientHistoryQuery,
  ClientInput,
  ClientLink,
  ClientListQuery,
  ClientPasswords,
  ClientPatch,
  IMPORT_MAX_BYTES,
  ImportClientsQuery,
  ImportResult,
  pageOf,
} from '@venue/domain';
import { z } from 'zod';
import { AppError } from '../../lib/errors.js';
import { IdParams } from '../../lib/validation.js';
import { XLSX_MIME } from '../../lib/xlsx.js';
import { updateBulkClients } from './clients.bulk.js';
import { exportClients } from './clients.export.js';
import { importClients, importSample } from './clients.import.js';
import {
  createClient,
  getAllPasswords,
  getClient,
  getClientFull,
  getClientHistory,
  getParents,
  listClients,
  updateClient,
} from './clients.service.js';

/** Clients of the signed-in club (seed 000 §7 "Clients", docs/api-foundation.md, docs/api-management.md). */
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
    '/api/Client/Export',
    { config: { permission: 'roleViewClientsList' }, schema: { tags, querystring: ClientExportQuery } },
    async (req, reply) => exportClients(db, req.auth.clubId, req.query, req.query.lang, reply),
  );
  r.get(
    '/api/Client/GetAllPasswords',
    { config: { permission: 'roleEditClients' }, schema: { tags, response: { 200: ClientPasswords } } },
    async (req) => getAllPasswords(db, req.auth.clubId),
  );
  r.get(
    '/api/Client/ImportSample',
    { config: { permission: 'roleEditClients' }, schema: { tags } },
    async (_req, reply) =>
      reply
        .header('content-type', XLSX_MIME)
        .header('content-disposition', 'attachment; filename="clients-sample.xlsx"')
        .send(await importSample()),
  );
  r.get(
    '/api/Client/:id',
    { config: { permission: 'roleViewClientsList' }, schema: { tags, params: IdParams, response: { 200: Client } } },
    async (req) => getClient(db, req.auth.clubId, req.params.id),
  );
  r.get(
    '/api/Client/GetClientHistory/:id',
    {
      config: { permission: 'roleViewClientsList' },
      schema: { tags, params: IdParams, querystring: ClientHistoryQuery, response: { 200: ClientHistoryPage } },
    },
    async (req) => getClientHistory(db, req.auth.clubId, req.params.id, req.query),
  );
  r.get(
    '/api/Client/GetParents/:id',
    {
      config: { permission: 'roleViewClientsList' },
      schema: { tags, params: IdParams, response: { 200: z.array(ClientLink) } },
    },
    async (req) => getParents(db, req.auth.clubId, req.params.id),
  );
  r.get(
    '/api/GetClientFull/:id',
    {
      config: { permission: 'roleViewClientsList' },
      schema: { tags, params: IdParams, response: { 200: ClientFull } },
    },
    async (req) => getClientFull(db, req.auth.clubId, req.params.id, req.auth.permissions.roleEditClients),
  );
  r.post(
    '/api/Client',
    { config: { permission: 'roleEditClients' }, schema: { tags, body: ClientInput, response: { 200: Client } } },
    async (req) => createClient(db, req.auth, req.body),
  );
  r.patch(
    '/api/Client/:id',
    {
      config: { permission: 'roleEditClients' },
      schema: { tags, params: IdParams, body: ClientPatch, response: { 200: Client } },
    },
    async (req) => updateClient(db, req.auth, req.params.id, req.body),
  );
  r.post(
    '/api/Client/updateBulkClients',
    {
      config: { permission: 'roleEditClients' },
      schema: { tags, body: BulkClientsRequest, response: { 200: BulkClientsResult } },
    },
    async (req) => updateBulkClients(db, req.auth, req.body),
  );
  r.post(
    '/api/Client/ImportClients',
    {
      config: { permission: 'roleEditClients' },
      schema: {
        tags,
        querystring: ImportClientsQuery,
        response: { 200: ImportResult },
        consumes: ['multipart/form-data'],
      },
    },
    async (req) => importClients(db, req.auth, await uploadedFile(req), req.query.preview),
  );
}

/**
 * The one uploaded file of a multipart request (seed 001 §5 "A file must be
 * chosen to import clients"): 400 FILE_REQUIRED when none or empty, 413
 * FILE_TOO_LARGE above IMPORT_MAX_BYTES.
 */
async function uploadedFile(req: import('fastify').FastifyRequest): Promise<Buffer> {
  if (!req.isMultipart()) throw new AppError('FILE_REQUIRED', 'A file must be chosen');
  const part = await req.file({ limits: { fileSize: IMPORT_MAX_BYTES, files: 1 } });
  if (!part) throw new AppError('FILE_REQUIRED', 'A file must be chosen');
  let buf: Buffer;
  try {
    buf = await part.toBuffer();
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new AppError('FILE_TOO_LARGE', `File too large (max ${IMPORT_MAX_BYTES / 1024 / 1024}MB)`);
    }
    throw err;
  }
  if (buf.length === 0) throw new AppError('FILE_REQUIRED', 'A file must be chosen');
  return buf;
}
