import type { FastifyInstance } from 'fastify';
import { contract } from '@venue/domain';
import { route, sendDownload } from '../../lib/contract-route.js';
import {
  createMasavFile,
  downloadMasavFile,
  listMasavFiles,
  masavSettings,
  saveMasavSettings,
} from './masav.service.js';

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
}
