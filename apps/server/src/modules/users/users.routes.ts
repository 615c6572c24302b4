import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  DataGridStatesBody,
  ExportQuery,
  OkResponse,
  pageOf,
  TermsAcceptance,
  TermsAccepted,
  User,
  UserInput,
  UserName,
  UserPatch,
} from '@venue/domain';
import { IdParams } from '../../lib/validation.js';
import { once, sendXlsx } from '../../lib/xlsx.js';
import {
  acceptTerms,
  createUser,
  getUser,
  getUserNames,
  listUsers,
  updateDataGridStates,
  updateUser,
} from './users.service.js';

/** Staff users and their permissions (seed 000 §7 "Users", seed 001 §6): admins only, except the caller's own records. */
export async function userRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.deps.database;
  const tags = ['users'];
  const admin = { permission: 'roleIsAdmin' as const };

  r.get('/api/User', { config: admin, schema: { tags, response: { 200: pageOf(User) } } }, async (req) =>
    listUsers(db, req.auth.clubId),
  );
  // Only for users who manage users (docs/security.md): the names are sign-in names.
  r.get(
    '/api/User/GetUserNames',
    { config: { edit: 'users' }, schema: { tags, response: { 200: z.array(UserName) } } },
    async (req) => getUserNames(db, req.auth.clubId),
  );
  r.get('/api/User/Export', { config: admin, schema: { tags, querystring: ExportQuery } }, async (req, reply) => {
    const { items } = await listUsers(db, req.auth.clubId);
    const he = req.query.lang === 'he';
    const h = (a: string, b: string) => (he ? a : b);
    return sendXlsx(
      reply,
      {
        filename: 'users.xlsx',
        sheet: h('משתמשים', 'Users'),
        rtl: he,
        columns: [
          { header: h('שם משתמש', 'User name'), value: (u) => u.username },
          { header: h('שם', 'Name'), value: (u) => u.name },
          { header: h('שפה', 'Language'), value: (u) => u.language },
          { header: h('מנהל מערכת', 'Admin'), value: (u) => (u.isAdmin ? h('כן', 'Yes') : h('לא', 'No')) },
          { header: h('תפקיד', 'Role'), value: (u) => u.role },
          { header: h('מושבת', 'Disabled'), value: (u) => (u.disabled ? h('כן', 'Yes') : h('לא', 'No')) },
          { header: h('נוצר', 'Created'), value: (u) => u.createdAt.slice(0, 10) },
        ],
      },
      once(items),
    );
  });
  r.get('/api/User/:id', { config: admin, schema: { tags, params: IdParams, response: { 200: User } } }, async (req) =>
    getUser(db, req.auth.clubId, req.params.id),
  );
  r.post('/api/User', { config: admin, schema: { tags, body: UserInput, response: { 200: User } } }, async (req) =>
    createUser(db, req.auth, req.body),
  );
  r.patch(
    '/api/User/:id',
    { config: admin, schema: { tags, params: IdParams, body: UserPatch, response: { 200: User } } },
    async (req) => updateUser(db, req.auth, req.params.id, req.body),
  );
  r.patch(
    '/api/User/UpdateDataGridStates/:id',
    { schema: { tags, params: IdParams, body: DataGridStatesBody, response: { 200: OkResponse } } },
    async (req) => updateDataGridStates(db, req.auth, req.params.id, req.body.dataGridStates),
  );
  r.post(
    '/api/User/UpdateUserTermsVersion',
    { schema: { tags, body: TermsAcceptance, response: { 200: TermsAccepted } } },
    async (req) => acceptTerms(db, req.auth, req.body),
  );
}
