import { ExportQuery, OkResponse, pageOf } from '../schemas/common.js';
import { Group, GroupInput, GroupPatch } from '../schemas/groups.js';
import { GroupsStateNow } from '../group-state.js';
import { IdParams, routes } from './route.js';

const view = { permission: 'roleViewClientGroupList' } as const;
const edit = { permission: 'roleEditClientGroups' } as const;

/** Client groups with their schedules (seed 000 §7 "Groups", seed 001 §3 "Client group"). */
export const groups = routes(['groups'], {
  list: { method: 'GET', path: '/api/Group', response: pageOf(Group), access: view },
  /** Each live group's entrance state now, by its schedule (the client form marks a closed group). */
  stateNow: { method: 'GET', path: '/api/Group/StateNow', response: GroupsStateNow, access: view },
  /** The list as an .xlsx file, headers in `lang`. */
  export: { method: 'GET', path: '/api/Group/Export', query: ExportQuery, access: view },
  get: { method: 'GET', path: '/api/Group/:id', params: IdParams, response: Group, access: view },
  create: { method: 'POST', path: '/api/Group', body: GroupInput, response: Group, access: edit },
  update: {
    method: 'PATCH',
    path: '/api/Group/:id',
    params: IdParams,
    body: GroupPatch,
    response: Group,
    access: edit,
  },
  remove: { method: 'DELETE', path: '/api/Group/:id', params: IdParams, response: OkResponse, access: edit },
});
