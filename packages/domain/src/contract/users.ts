import { z } from 'zod';
import {
  DataGridStatesBody,
  TermsAcceptance,
  TermsAccepted,
  User,
  UserInput,
  UserName,
  UserPatch,
} from '../schemas/users.js';
import { ExportQuery, OkResponse, pageOf } from '../schemas/common.js';
import { IdParams, routes } from './route.js';

const admin = { permission: 'roleIsAdmin' } as const;

/** Staff users and their permissions (seed 000 §7 "Users", seed 001 §6): admins only, except the caller's own records. */
export const users = routes(['users'], {
  list: { method: 'GET', path: '/api/User', response: pageOf(User), access: admin },
  /** Only for users who manage users (docs/security.md): the names are sign-in names. */
  names: { method: 'GET', path: '/api/User/GetUserNames', response: z.array(UserName), access: { edit: 'users' } },
  /** The list as an .xlsx file, headers in `lang`. */
  export: { method: 'GET', path: '/api/User/Export', query: ExportQuery, access: admin },
  get: { method: 'GET', path: '/api/User/:id', params: IdParams, response: User, access: admin },
  create: { method: 'POST', path: '/api/User', body: UserInput, response: User, access: admin },
  update: { method: 'PATCH', path: '/api/User/:id', params: IdParams, body: UserPatch, response: User, access: admin },
  /** The caller's own grid layouts (any signed-in user, own id only). */
  gridStates: {
    method: 'PATCH',
    path: '/api/User/UpdateDataGridStates/:id',
    params: IdParams,
    body: DataGridStatesBody,
    response: OkResponse,
    access: {},
  },
  /** The caller accepts the terms of use of a version (seed 000 §7). */
  acceptTerms: {
    method: 'POST',
    path: '/api/User/UpdateUserTermsVersion',
    body: TermsAcceptance,
    response: TermsAccepted,
    access: {},
  },
});
