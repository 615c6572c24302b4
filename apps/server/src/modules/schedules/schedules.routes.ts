import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ScheduleRow } from '@venue/domain';
import { IdParams } from '../../lib/validation.js';
import { getGroupSchedule } from '../groups/groups.service.js';

/**
 * Schedules (seed 000 §7 "Groups, products, schedules"). A group's rows are
 * written with the group (PATCH /api/Group/{id}); this area reads them.
 */
export async function scheduleRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;

  r.get(
    '/api/Schedule/GetByGroupId/:id',
    {
      config: { permission: 'roleViewClientGroupList' },
      schema: { tags: ['schedules'], params: IdParams, response: { 200: z.array(ScheduleRow) } },
    },
    async (req) => getGroupSchedule(db, req.auth.clubId, req.params.id),
  );
}
