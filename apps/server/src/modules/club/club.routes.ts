import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Capacity, Club, ClubPatch } from '@venue/domain';
import { IdParams } from '../../lib/validation.js';
import { getCapacities, getClubRow, presentClub, updateClub } from './club.service.js';

/** The signed-in club (seed 000 §7 "Club"). */
export async function clubRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;

  r.get('/api/Club/GetCurrent', { schema: { tags: ['club'], response: { 200: Club } } }, async (req) =>
    presentClub(await getClubRow(db, req.auth.clubId)),
  );
  r.get('/api/Club/GetCapacities', { schema: { tags: ['club'], response: { 200: z.array(Capacity) } } }, async (req) =>
    getCapacities(db, req.auth.clubId),
  );
  r.patch(
    '/api/Club/:id',
    {
      config: { permission: 'roleEditGeneralSettings' },
      schema: { tags: ['club'], params: IdParams, body: ClubPatch, response: { 200: Club } },
    },
    async (req) => updateClub(db, req.auth, req.params.id, req.body),
  );
}
