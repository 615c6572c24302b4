import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { MultipartFile } from '@fastify/multipart';
import { uploadBuffer } from '../../lib/upload.js';
import { contract } from '@venue/domain';
import { route, sendDownload } from '../../lib/contract-route.js';
import {
  createMasavFile,
  downloadMasavFile,
  listMasavFiles,
  masavSettings,
  readMasavReturn,
  saveMasavSettings,
} from './masav.service.js';

/** Largest return file read (a return of 100,000 debits is about 13 MB). */
const MAX_RETURN_FILE_BYTES = 20 * 1024 * 1024;

/**
 * The one file of a multipart upload, or null when the request has none.
 * @throws FILE_TOO_LARGE above MAX_RETURN_FILE_BYTES.
 */
async function readOneFile(req: FastifyRequest): Promise<Buffer | null> {
  if (!req.isMultipart()) return null;
  let buf: Buffer | null = null;
  for await (const part of req.parts({ limits: { fileSize: MAX_RETURN_FILE_BYTES, files: 1, fields: 5 } })) {
    if (part.type !== 'file') continue;
    buf = await uploadBuffer(part as MultipartFile, MAX_RETURN_FILE_BYTES);
  }
  return buf;
}

/** MASAV files (seed 000 §7 "Masav files"); the entries are `contract.masav`. */
export async function masavRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps.database;
  const c = contract.masav;
  route(app, c.list, async (req) => listMasavFiles(db, req.auth.clubId));
  route(app, c.create, async (req) =>
    createMasavFile(db, req.auth, { testMode: req.query.testMode, valueDate: req.query.valueDate }),
  );
  route(app, c.download, async (req, reply) => {
    const f = await downloadMasavFile(db, req.auth.clubId, req.params.id);
    return sendDownload(reply, f.name, f.content);
  });
  route(app, c.settings, async (req) => masavSettings(db, req.auth.clubId));
  route(app, c.saveSettings, async (req) => saveMasavSettings(db, req.auth, req.body));
  route(app, c.readReturn, async (req) => readMasavReturn(db, req.auth, await readOneFile(req)));
}
