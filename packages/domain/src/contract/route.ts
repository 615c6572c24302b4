import { z } from 'zod';
import type { EditArea } from '../access.js';
import type { NAV_RULES } from '../navigation.js';
import type { PermissionFlag } from '../permissions.js';
import { idParam } from '../parts.js';

/** HTTP verbs of the API. */
export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/**
 * What a caller needs to reach a route (the server's route `config`, checked
 * by the auth plugin after sign-in; 401 without a session, 403 without the
 * access). No key: any signed-in user of the club.
 */
export interface RouteAccess {
  /** No sign-in needed (login, the provider's payment page). */
  public?: boolean;
  /** The permission flag of seed 001 §6 the caller needs. */
  permission?: PermissionFlag;
  /** Only the service operator (user level SuperUser, seed 000 §3). */
  operator?: boolean;
  /** The navigation entry whose rule of seed 000 §6 the caller must pass. */
  nav?: keyof typeof NAV_RULES;
  /** The area the caller must be allowed to edit (seed 001 §6, `EDIT_FLAGS`). */
  edit?: EditArea;
  /** `false` only for a page another site's form posts to (no session acted on). */
  antiForgery?: false;
  /** Any signed-in caller, the operator without a chosen club too (sign-out). */
  anyClub?: boolean;
  /**
   * A member route (docs/members.md): only a member token reaches it (a staff
   * token is 401), and a member token reaches no other route (401).
   */
  member?: boolean;
}

/** What a read of personal data is about (issue 39, docs/privacy.md "Who looked"). */
export const PERSONAL_DATA_KINDS = [
  'details',
  'entrances',
  'documents',
  'money',
  'biometrics',
  'copy',
  'erase',
] as const;
export type PersonalDataKind = (typeof PERSONAL_DATA_KINDS)[number];

/**
 * A route that reads one person's data (issue 39): each successful answer writes one access row
 * (who, when, what, from where; apps/server/src/plugins/access-log.ts). `of` names what the
 * route's `:id` is — a client, a purchase or a document; a route without `:id` names the client
 * by `clientId` in its body or query (a report of one client).
 */
export interface PersonalDataRead {
  kind: PersonalDataKind;
  of: 'client' | 'purchase' | 'document';
}

/**
 * One HTTP route of the API, shared by the server (which registers, validates
 * and documents it from this entry) and the console (which calls it with
 * `api.call(entry, ...)`). `path` is the Fastify path, `:name` for a path
 * parameter. `response` is the schema of the 200 answer; a route without it
 * answers a file (xlsx) or another non-JSON body.
 */
export interface ApiRoute {
  method: HttpMethod;
  path: `/api/${string}`;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  response?: z.ZodType;
  access: RouteAccess;
  /** OpenAPI tags (the area). */
  tags: readonly string[];
  /** Request content types other than JSON (a multipart upload). */
  consumes?: readonly string[];
  /** OpenAPI `security` override (`[]` for a route that needs no sign-in). */
  security?: readonly Record<string, readonly string[]>[];
  /** Left out of the OpenAPI document (a provider's page). */
  hide?: boolean;
  /** Reads one person's data: every 200 answer is written to the access log (issue 39). */
  personalData?: PersonalDataRead;
}

/** An entry as written in an area file: the tags come from the area. */
export type ApiRouteSpec = Omit<ApiRoute, 'tags'> & { tags?: readonly string[] };

/**
 * The routes of one area, each given the area's OpenAPI `tags` unless it
 * names its own. Types of each entry are kept exactly (params, query, body,
 * response), so the server's handlers and the console's calls infer from them.
 */
export function routes<const T extends Record<string, ApiRouteSpec>>(
  tags: readonly string[],
  entries: T,
): { [K in keyof T]: T[K] & { tags: readonly string[] } } {
  return Object.fromEntries(Object.entries(entries).map(([k, e]) => [k, { ...e, tags: e.tags ?? tags }])) as {
    [K in keyof T]: T[K] & { tags: readonly string[] };
  };
}

/** Route parameter `{id}`: a positive integer that fits the id column (larger ids would be a database error, not a 404). */
export const IdParams = z.object({ id: idParam });

/** An empty (or absent) body: calls that take no filter (the dashboard's). */
export const EmptyBody = z.object({}).optional();

/** The parsed params, query or body of an entry (`undefined` when the entry has none). */
export type RouteInput<S> = S extends z.ZodType ? z.output<S> : undefined;
/** What a caller sends for params, query or body of an entry, before the server's parsing. */
export type RouteArg<S> = S extends z.ZodType ? z.input<S> : undefined;
/** The 200 answer of an entry, as the console receives it. */
export type RouteResponse<E extends ApiRoute> = E['response'] extends z.ZodType ? z.output<E['response']> : unknown;
