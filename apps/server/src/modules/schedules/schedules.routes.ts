import type { FastifyInstance } from 'fastify';
import { contract } from '@venue/domain';
import { route } from '../../lib/contract-route.js';
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

/** Schedules (seed 000 §7 "Groups, products, schedules"); the entries are `contract.schedules`. */
export async function scheduleRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.deps.database;
  const c = contract.schedules;
  route(app, c.ofGroup, async (req) => getGroupSchedule(db, req.auth.clubId, req.params.id));
  route(app, c.list, async (req) => listSchedules(db, req.auth.clubId, req.query.groupId));
  route(app, c.general, async (req) => listGeneralSchedules(db, req.auth.clubId));
  route(app, c.get, async (req) => getSchedule(db, req.auth.clubId, req.params.id));
  route(app, c.create, async (req) => createGeneralSchedule(db, req.auth, req.body));
  route(app, c.update, async (req) => updateGeneralSchedule(db, req.auth, req.params.id, req.body));
  route(app, c.remove, async (req) => deleteGeneralSchedule(db, req.auth, req.params.id));
  route(app, c.link, async (req) => linkScheduleToGroup(db, req.auth, req.body));
  route(app, c.unlink, async (req) => unlinkScheduleToGroup(db, req.auth, req.params.id));
  route(app, c.weekPreview, async (req) => weekPreview(db, req.auth.clubId, req.params.id, req.query));
}
