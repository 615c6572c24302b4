import { z } from 'zod';
import {
  BulkClientsRequest,
  BulkClientsResult,
  ClientExportQuery,
  ClientFull,
  ClientHistoryPage,
  ClientHistoryQuery,
  ClientLink,
  ClientPasswords,
  ImportClientsQuery,
  ImportResult,
  Client,
  ClientInput,
  ClientListQuery,
  ClientPatch,
} from '../schemas/clients.js';
import { pageOf } from '../schemas/common.js';
import { IdParams, routes } from './route.js';

const view = { permission: 'roleViewClientsList' } as const;
const edit = { permission: 'roleEditClients' } as const;

/** Clients of the signed-in club (seed 000 §7 "Clients", docs/api-foundation.md, docs/api-management.md). */
export const clients = routes(['clients'], {
  list: { method: 'GET', path: '/api/Client', query: ClientListQuery, response: pageOf(Client), access: view },
  /** The filtered list as an .xlsx file, headers in `lang`. */
  export: { method: 'GET', path: '/api/Client/Export', query: ClientExportQuery, access: view },
  passwords: { method: 'GET', path: '/api/Client/GetAllPasswords', response: ClientPasswords, access: edit },
  /** An .xlsx file with the import columns and one sample row. */
  importSample: { method: 'GET', path: '/api/Client/ImportSample', access: edit },
  get: {
    method: 'GET',
    path: '/api/Client/:id',
    params: IdParams,
    response: Client,
    access: view,
    personalData: { kind: 'details', of: 'client' },
  },
  history: {
    method: 'GET',
    path: '/api/Client/GetClientHistory/:id',
    personalData: { kind: 'details', of: 'client' },
    params: IdParams,
    query: ClientHistoryQuery,
    response: ClientHistoryPage,
    access: view,
  },
  parents: {
    method: 'GET',
    path: '/api/Client/GetParents/:id',
    params: IdParams,
    response: z.array(ClientLink),
    access: view,
  },
  /** The client with its group, balances and links; the password only for those who edit clients. */
  full: {
    method: 'GET',
    path: '/api/GetClientFull/:id',
    params: IdParams,
    response: ClientFull,
    access: view,
    personalData: { kind: 'details', of: 'client' },
  },
  create: { method: 'POST', path: '/api/Client', body: ClientInput, response: Client, access: edit },
  update: {
    method: 'PATCH',
    path: '/api/Client/:id',
    params: IdParams,
    body: ClientPatch,
    response: Client,
    access: edit,
  },
  bulkUpdate: {
    method: 'POST',
    path: '/api/Client/updateBulkClients',
    body: BulkClientsRequest,
    response: BulkClientsResult,
    access: edit,
  },
  /** An .xlsx or CSV upload (multipart, up to IMPORT_MAX_BYTES); `preview` checks without writing. */
  import: {
    method: 'POST',
    path: '/api/Client/ImportClients',
    query: ImportClientsQuery,
    response: ImportResult,
    consumes: ['multipart/form-data'],
    access: edit,
  },
});
