import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  GeneralScheduleInput,
  GeneralSchedulePatch,
  OkResponse,
  ScheduleRow,
  ScheduleToGroup,
  ScheduleToGroupInput,
  ScheduleWithLinks,
  WeekPreview,
  WeekPreviewQuery,
  parts,
} from '@venue/domain';
import { IdParams } from '../../lib/validation.js';
import { getGroupSchedule } from '../groups/groups.service.js';
import {
  createGeneralSchedule,
  deleteGeneralSchedule,
  getSchedule,
  linkScheduleToGroup,
  listGeneralSchedules,
  listSchedules,
  unlinkScheduleToGroup,
  updateGeneralSchedule,
  weekPreview,
} from './schedules.service.js';

/**
 * Schedules (seed 000 §7 "Groups, products, schedules"). A group's own rows
 * are written with the group (PATCH /api/Group/{id}); general schedules are
 * rows of no group, linked to groups through ScheduleToGroup.
 */
export async function scheduleRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;
  const tags = ['schedules'];
  const view = { permission: 'roleViewClientGroupList' as const };
  const edit = { permission: 'roleEditClientGroups' as const };

  r.get(
    '/api/Schedule/GetByGroupId/:id',
    { config: view, schema: { tags, params: IdParams, response: { 200: z.array(ScheduleRow) } } },
    async (req) => getGroupSchedule(db, req.auth.clubId, req.params.id),
  );
  r.get(
    '/api/Schedule',
    {
      config: view,
      schema: {
        tags,
        querystring: z.object({ groupId: parts.idParam.optional() }),
        response: { 200: z.array(ScheduleWithLinks) },
      },
    },
    async (req) => listSchedules(db, req.auth.clubId, req.query.groupId),
  );
  r.get(
    '/api/Schedule/GetGeneral',
    { config: view, schema: { tags, response: { 200: z.array(ScheduleWithLinks) } } },
    async (req) => listGeneralSchedules(db, req.auth.clubId),
  );
  r.get(
    '/api/Schedule/:id',
    { config: view, schema: { tags, params: IdParams, response: { 200: ScheduleWithLinks } } },
    async (req) => getSchedule(db, req.auth.clubId, req.params.id),
  );
  r.post(
    '/api/Schedule',
    { config: edit, schema: { tags, body: GeneralScheduleInput, response: { 200: ScheduleWithLinks } } },
    async (req) => createGeneralSchedule(db, req.auth, req.body),
  );
  r.patch(
    '/api/Schedule/:id',
    {
      config: edit,
      schema: { tags, params: IdParams, body: GeneralSchedulePatch, response: { 200: ScheduleWithLinks } },
    },
    async (req) => updateGeneralSchedule(db, req.auth, req.params.id, req.body),
  );
  r.delete(
    '/api/Schedule/:id',
    { config: edit, schema: { tags, params: IdParams, response: { 200: OkResponse } } },
    async (req) => deleteGeneralSchedule(db, req.auth, req.params.id),
  );
  r.post(
    '/api/ScheduleToGroup',
    { config: edit, schema: { tags, body: ScheduleToGroupInput, response: { 200: ScheduleToGroup } } },
    async (req) => linkScheduleToGroup(db, req.auth, req.body),
  );
  r.delete(
    '/api/ScheduleToGroup/:id',
    { config: edit, schema: { tags, params: IdParams, response: { 200: OkResponse } } },
    async (req) => unlinkScheduleToGroup(db, req.auth, req.params.id),
  );
  r.get(
    '/api/Group/:id/WeekPreview',
    { config: view, schema: { tags, params: IdParams, querystring: WeekPreviewQuery, response: { 200: WeekPreview } } },
    async (req) => weekPreview(db, req.auth.clubId, req.params.id, req.query),
  );
}
