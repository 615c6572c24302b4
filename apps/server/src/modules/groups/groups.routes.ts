import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { Group, GroupInput, GroupPatch, OkResponse, pageOf } from '@venue/domain';
import { IdParams } from '../../lib/validation.js';
import { createGroup, deleteGroup, getGroup, listGroups, updateGroup } from './groups.service.js';

/** Client groups with their schedules (seed 000 §7 "Groups", seed 001 §3 "Client group"). */
export async function groupRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;
  const tags = ['groups'];

  r.get(
    '/api/Group',
    { config: { permission: 'roleViewClientGroupList' }, schema: { tags, response: { 200: pageOf(Group) } } },
    async (req) => listGroups(db, req.auth.clubId),
  );
  r.get(
    '/api/Group/:id',
    { config: { permission: 'roleViewClientGroupList' }, schema: { tags, params: IdParams, response: { 200: Group } } },
    async (req) => getGroup(db, req.auth.clubId, req.params.id),
  );
  r.post(
    '/api/Group',
    { config: { permission: 'roleEditClientGroups' }, schema: { tags, body: GroupInput, response: { 200: Group } } },
    async (req) => createGroup(db, req, req.body),
  );
  r.patch(
    '/api/Group/:id',
    {
      config: { permission: 'roleEditClientGroups' },
      schema: { tags, params: IdParams, body: GroupPatch, response: { 200: Group } },
    },
    async (req) => updateGroup(db, req, req.params.id, req.body),
  );
  r.delete(
    '/api/Group/:id',
    {
      config: { permission: 'roleEditClientGroups' },
      schema: { tags, params: IdParams, response: { 200: OkResponse } },
    },
    async (req) => deleteGroup(db, req, req.params.id),
  );
}
