import type { FastifyInstance, FastifyRequest } from 'fastify';
import { contract, IMPORT_MAX_BYTES } from '@venue/domain';
import { AppError } from '../../lib/errors.js';
import { uploadBuffer } from '../../lib/upload.js';
import { route, sendDownload } from '../../lib/contract-route.js';
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

/** Clients of the signed-in club (seed 000 §7 "Clients"); the entries are `contract.clients`. */
export async function clientRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps.database;
  const c = contract.clients;
  route(app, c.list, async (req) => listClients(db, req.auth.clubId, req.query));
  route(app, c.export, async (req, reply) => exportClients(db, req.auth.clubId, req.query, req.query.lang, reply));
  route(app, c.passwords, async (req) => getAllPasswords(db, req.auth.clubId));
  route(app, c.importSample, async (_req, reply) =>
    sendDownload(reply, 'clients-sample.xlsx', await importSample(), XLSX_MIME),
  );
  route(app, c.get, async (req) => getClient(db, req.auth.clubId, req.params.id));
  route(app, c.history, async (req) => getClientHistory(db, req.auth.clubId, req.params.id, req.query));
  route(app, c.parents, async (req) => getParents(db, req.auth.clubId, req.params.id));
  route(app, c.full, async (req) =>
    getClientFull(db, req.auth.clubId, req.params.id, req.auth.permissions.roleEditClients),
  );
  route(app, c.create, async (req) => createClient(db, req.auth, req.body));
  route(app, c.update, async (req) => updateClient(db, req.auth, req.params.id, req.body));
  route(app, c.bulkUpdate, async (req) => updateBulkClients(db, req.auth, req.body));
  route(app, c.import, async (req) => importClients(db, req.auth, await uploadedFile(req), req.query.preview));
}

/**
 * The one uploaded file of a multipart request (seed 001 §5 "A file must be
 * chosen to import clients"): 400 FILE_REQUIRED when none or empty, 413
 * FILE_TOO_LARGE above IMPORT_MAX_BYTES.
 */
async function uploadedFile(req: FastifyRequest): Promise<Buffer> {
  if (!req.isMultipart()) throw new AppError('FILE_REQUIRED', 'A file must be chosen');
  const part = await req.file({ limits: { fileSize: IMPORT_MAX_BYTES, files: 1 } });
  if (!part) throw new AppError('FILE_REQUIRED', 'A file must be chosen');
  const buf = await uploadBuffer(part, IMPORT_MAX_BYTES, `File too large (max ${IMPORT_MAX_BYTES / 1024 / 1024}MB)`);
  if (buf.length === 0) throw new AppError('FILE_REQUIRED', 'A file must be chosen');
  return buf;
}
