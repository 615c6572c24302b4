import { z } from 'zod';
import { OkResponse } from '../schemas/common.js';
import {
  ExecuteSqlInput,
  ExecuteSqlResult,
  LicenseLoadInput,
  LicenseRequestDecision,
  OperatorLicenseRequest,
  OperatorLicenseRequestQuery,
  OperatorClub,
  OperatorClubCreated,
  OperatorClubInput,
  OperatorClubListQuery,
  ScriptVersion,
  ScriptVersionInput,
  ScriptVersionPatch,
} from '../schemas/operator.js';
import { IdParams, routes } from './route.js';

const operator = { operator: true } as const;

/**
 * The service operator's maintenance calls (seed 000 §7 "Club", DESIGN §10;
 * docs/operator.md): the terminal software versions it publishes — listed to
 * every signed-in user by `GET /Club/GetScriptVersionList`, written by the
 * operator — and the maintenance query `POST /Db/ExecuteSql`.
 */
export const operatorMaintenance = routes(['operator'], {
  /** Every published version, newest first (seed 000 §7). Any signed-in user. */
  scriptVersions: {
    method: 'GET',
    path: '/api/Club/GetScriptVersionList',
    response: z.array(ScriptVersion),
    access: {},
    tags: ['club'],
  },
  createScriptVersion: {
    method: 'POST',
    path: '/api/ScriptVersion',
    body: ScriptVersionInput,
    response: ScriptVersion,
    access: operator,
  },
  updateScriptVersion: {
    method: 'PATCH',
    path: '/api/ScriptVersion/:id',
    params: IdParams,
    body: ScriptVersionPatch,
    response: ScriptVersion,
    access: operator,
  },
  deleteScriptVersion: {
    method: 'DELETE',
    path: '/api/ScriptVersion/:id',
    params: IdParams,
    response: OkResponse,
    access: operator,
  },
  /**
   * One read-only statement (seed 000 §7 `POST /Db/ExecuteSql {data, password}`,
   * DESIGN §10): 404 unless MAINTENANCE_PASSWORD is configured; 422
   * WRONG_PASSWORD, SQL_MULTIPLE_STATEMENTS, SQL_NOT_READ_ONLY, SQL_TIMEOUT,
   * SQL_ERROR.
   */
  executeSql: {
    method: 'POST',
    path: '/api/Db/ExecuteSql',
    body: ExecuteSqlInput,
    response: ExecuteSqlResult,
    access: operator,
  },
});

/**
 * The operator's clubs (issue 17 "Clubs"; docs/operator.md): the list with
 * licenses, activity and terminals, create with the first admin, disable and
 * re-enable (nothing deleted). Operator only: 403 to every club user.
 */
export const operatorClubs = routes(['operator'], {
  list: {
    method: 'GET',
    path: '/api/Operator/Club',
    query: OperatorClubListQuery,
    response: z.array(OperatorClub),
    access: operator,
  },
  create: {
    method: 'POST',
    path: '/api/Operator/Club',
    body: OperatorClubInput,
    response: OperatorClubCreated,
    access: operator,
  },
  disable: {
    method: 'POST',
    path: '/api/Operator/Club/:id/Disable',
    params: IdParams,
    response: OperatorClub,
    access: operator,
  },
  enable: {
    method: 'POST',
    path: '/api/Operator/Club/:id/Enable',
    params: IdParams,
    response: OperatorClub,
    access: operator,
  },
});

/**
 * The operator's licenses (issue 17 "Licenses"; seed 001 §3 "License request",
 * §4 statuses; docs/operator.md): the bank-transfer requests of every club in
 * one queue (pending first), the reference file, the answer, and loads by hand
 * with a reason. Operator only.
 */
export const operatorLicenses = routes(['operator'], {
  requests: {
    method: 'GET',
    path: '/api/Operator/LicenseRequest',
    query: OperatorLicenseRequestQuery,
    response: z.array(OperatorLicenseRequest),
    access: operator,
  },
  /** The request's reference file (pdf, png or jpeg), shown inline. */
  requestFile: { method: 'GET', path: '/api/Operator/LicenseRequest/:id/File', params: IdParams, access: operator },
  decide: {
    method: 'POST',
    path: '/api/Operator/LicenseRequest/:id/Decide',
    params: IdParams,
    body: LicenseRequestDecision,
    response: OperatorLicenseRequest,
    access: operator,
  },
  load: {
    method: 'POST',
    path: '/api/Operator/Club/:id/LoadLicenses',
    params: IdParams,
    body: LicenseLoadInput,
    response: OperatorClub,
    access: operator,
  },
});
