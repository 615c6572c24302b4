import { z } from 'zod';
import {
  ClientCopy,
  ClientCopyQuery,
  DataAccessRow,
  EraseClientInput,
  ErasureResult,
  RetentionRun,
  RetentionStatus,
} from '../schemas/privacy.js';
import { EmptyBody, IdParams, routes } from './route.js';

const officer = { permission: 'roleSecurityOfficer' } as const;

/**
 * Privacy (issue 39, docs/privacy.md): the club's retention status and a run of its job now, a
 * client's full copy (JSON and PDF) and erasure, and who opened a client's record. All for the
 * club's security officer (roleSecurityOfficer); the retention status for any signed-in user.
 */
export const privacy = routes(['privacy'], {
  retention: {
    method: 'GET',
    path: '/api/Privacy/Retention',
    response: RetentionStatus,
    // Any signed-in user of the club: the entrance reports say which days are past retention.
    access: {},
  },
  /** Runs the retention job over the club now (the nightly job does it every night): what it removed. */
  runRetention: {
    method: 'POST',
    path: '/api/Privacy/RunRetention',
    body: EmptyBody,
    response: RetentionRun,
    access: officer,
  },
  copy: {
    method: 'GET',
    path: '/api/Privacy/ClientCopy/:id',
    params: IdParams,
    query: ClientCopyQuery,
    response: ClientCopy,
    access: officer,
    personalData: { kind: 'copy', of: 'client' },
  },
  /** The same copy as a readable PDF in the language asked. */
  copyPdf: {
    method: 'GET',
    path: '/api/Privacy/ClientCopyPdf/:id',
    params: IdParams,
    query: ClientCopyQuery,
    access: officer,
    personalData: { kind: 'copy', of: 'client' },
  },
  erase: {
    method: 'POST',
    path: '/api/Privacy/EraseClient/:id',
    params: IdParams,
    body: EraseClientInput,
    response: ErasureResult,
    access: officer,
    personalData: { kind: 'erase', of: 'client' },
  },
  /** Who opened the client's record, newest first (the last 500 reads). */
  accessOfClient: {
    method: 'GET',
    path: '/api/Privacy/ClientAccess/:id',
    params: IdParams,
    response: z.array(DataAccessRow),
    access: officer,
  },
});
