import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ExportQuery, Group, GroupInput, GroupPatch, OkResponse, pageOf } from '@venue/domain';
import { IdParams } from '../../lib/validation.js';
import { once, sendXlsx } from '../../lib/xlsx.js';
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
    '/api/Group/Export',
    { config: { permission: 'roleViewClientGroupList' }, schema: { tags, querystring: ExportQuery } },
    async (req, reply) => {
      const { items } = await listGroups(db, req.auth.clubId);
      const he = req.query.lang === 'he';
      const h = (a: string, b: string) => (he ? a : b);
      const yes = (v: boolean) => (v ? h('כן', 'Yes') : h('לא', 'No'));
      return sendXlsx(
        reply,
        {
          filename: 'groups.xlsx',
          sheet: h('קבוצות', 'Groups'),
          rtl: he,
          columns: [
            { header: h('שם', 'Name'), value: (g) => g.name },
            { header: h('לקוחות', 'Clients'), value: (g) => g.clientCount },
            { header: h('מצב כניסה', 'Entrance state'), value: (g) => g.entranceState },
            { header: h('כניסה מותרת', 'Allow entrance'), value: (g) => yes(g.allowEntrance) },
            { header: h('תשלום מותר', 'Allow payment'), value: (g) => yes(g.allowPayment) },
            { header: h('רכישות מותרות', 'Allow purchases'), value: (g) => yes(g.allowPurchases) },
            { header: h('בונוס', 'Bonus'), value: (g) => g.bonus / 100 },
            { header: h('טעינה מינימלית', 'Min charge'), value: (g) => g.minChargeAmount / 100 },
            { header: h('טעינה מקסימלית', 'Max charge'), value: (g) => g.maxChargeAmount / 100 },
            { header: h('כניסות ביום', 'Entries per day'), value: (g) => g.maxEntriesPerDay },
            { header: h('עדיפות', 'Priority'), value: (g) => g.priority },
            { header: h('שורות לוח זמנים', 'Schedule rows'), value: (g) => g.schedule.length },
          ],
        },
        once(items),
      );
    },
  );
  r.get(
    '/api/Group/:id',
    { config: { permission: 'roleViewClientGroupList' }, schema: { tags, params: IdParams, response: { 200: Group } } },
    async (req) => getGroup(db, req.auth.clubId, req.params.id),
  );
  r.post(
    '/api/Group',
    { config: { permission: 'roleEditClientGroups' }, schema: { tags, body: GroupInput, response: { 200: Group } } },
    async (req) => createGroup(db, req.auth, req.body),
  );
  r.patch(
    '/api/Group/:id',
    {
      config: { permission: 'roleEditClientGroups' },
      schema: { tags, params: IdParams, body: GroupPatch, response: { 200: Group } },
    },
    async (req) => updateGroup(db, req.auth, req.params.id, req.body),
  );
  r.delete(
    '/api/Group/:id',
    {
      config: { permission: 'roleEditClientGroups' },
      schema: { tags, params: IdParams, response: { 200: OkResponse } },
    },
    async (req) => deleteGroup(db, req.auth, req.params.id),
  );
}
