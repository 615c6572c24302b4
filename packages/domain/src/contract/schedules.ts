import { z } from 'zod';
import { idParam } from '../parts.js';
import {
  GeneralScheduleInput,
  GeneralSchedulePatch,
  ScheduleToGroup,
  ScheduleToGroupInput,
  ScheduleWithLinks,
  WeekPreview,
  WeekPreviewQuery,
  ScheduleRow,
} from '../schemas/groups.js';
import { OkResponse } from '../schemas/common.js';
import { IdParams, routes } from './route.js';

const view = { permission: 'roleViewClientGroupList' } as const;
const edit = { permission: 'roleEditClientGroups' } as const;

/** Query of GET /api/Schedule: only the rows linked to (or of) one group when given. */
export const ScheduleListQuery = z.object({ groupId: idParam.optional() });

/**
 * Schedules (seed 000 §7 "Groups, products, schedules"). A group's own rows
 * are written with the group (PATCH /api/Group/{id}); general schedules are
 * rows of no group, linked to groups through ScheduleToGroup.
 */
export const schedules = routes(['schedules'], {
  ofGroup: {
    method: 'GET',
    path: '/api/Schedule/GetByGroupId/:id',
    params: IdParams,
    response: z.array(ScheduleRow),
    access: view,
  },
  list: {
    method: 'GET',
    path: '/api/Schedule',
    query: ScheduleListQuery,
    response: z.array(ScheduleWithLinks),
    access: view,
  },
  general: { method: 'GET', path: '/api/Schedule/GetGeneral', response: z.array(ScheduleWithLinks), access: view },
  get: { method: 'GET', path: '/api/Schedule/:id', params: IdParams, response: ScheduleWithLinks, access: view },
  create: {
    method: 'POST',
    path: '/api/Schedule',
    body: GeneralScheduleInput,
    response: ScheduleWithLinks,
    access: edit,
  },
  update: {
    method: 'PATCH',
    path: '/api/Schedule/:id',
    params: IdParams,
    body: GeneralSchedulePatch,
    response: ScheduleWithLinks,
    access: edit,
  },
  remove: { method: 'DELETE', path: '/api/Schedule/:id', params: IdParams, response: OkResponse, access: edit },
  link: {
    method: 'POST',
    path: '/api/ScheduleToGroup',
    body: ScheduleToGroupInput,
    response: ScheduleToGroup,
    access: edit,
  },
  unlink: { method: 'DELETE', path: '/api/ScheduleToGroup/:id', params: IdParams, response: OkResponse, access: edit },
  /** The group's week as the gate would decide it, day by day (minutes from midnight). */
  weekPreview: {
    method: 'GET',
    path: '/api/Group/:id/WeekPreview',
    params: IdParams,
    query: WeekPreviewQuery,
    response: WeekPreview,
    access: view,
  },
});
