import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MasavFile, MasavSettings, parts } from '@venue/domain';
import { IdParams } from '../../lib/validation.js';
import {
  createMasavFile,
  downloadMasavFile,
  listMasavFiles,
  masavSettings,
  saveMasavSettings,
} from './masav.service.js';

const flag = z.union([z.boolean(), z.stringbool()]);

/** MASAV files (seed 000 §7 "Masav files"). */
export async function masavRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;
  const tags = ['masav'];
  const perm = { config: { permission: 'roleManageClientMoney' as const } };

  r.get('/api/MasavFile', { ...perm, schema: { tags, response: { 200: z.array(MasavFile) } } }, async (req) =>
    listMasavFiles(db, req.auth.clubId),
  );
  r.post(
    '/api/MasavFile',
    {
      ...perm,
      schema: {
        tags,
        querystring: z.object({
          testMode: flag.default(false),
          valueDate: parts.isoDate.optional(),
        }),
        response: { 200: MasavFile },
      },
    },
    async (req) => createMasavFile(db, req.auth, { testMode: req.query.testMode, valueDate: req.query.valueDate }),
  );
  r.get('/api/MasavFile/Download/:id', { ...perm, schema: { tags, params: IdParams } }, async (req, reply) => {
    const f = await downloadMasavFile(db, req.auth.clubId, req.params.id);
    return reply
      .header('content-type', 'application/octet-stream')
      .header('content-disposition', `attachment; filename="${f.name}"`)
      .send(f.content);
  });
  r.get(
    '/api/MasavFile/Settings',
    { ...perm, schema: { tags, response: { 200: MasavSettings.nullable() } } },
    async (req) => masavSettings(db, req.auth.clubId),
  );
  r.put(
    '/api/MasavFile/Settings',
    {
      config: { permission: 'roleEditGeneralSettings' },
      schema: { tags, body: MasavSettings, response: { 200: MasavSettings } },
    },
    async (req) => saveMasavSettings(db, req.auth, req.body),
  );
}
