import type { ApiRoute, ErrorCode, FieldError, RouteArg, RouteResponse } from '@venue/domain';
import { readSession } from '../auth/authStorage';

/**
 * The one fetch wrapper of the console (seed 000 §7): every call carries the
 * bearer token and the clubExternalId header when stored; calls other than
 * GET/HEAD carry the anti-forgery header read from the XSRF-TOKEN cookie.
 * Failures become {@link ApiError} with the server's code and field details.
 */

export class ApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly details: FieldError[];
  /** The answer's `details` as sent, when they are not field errors (e.g. PAYMENTS_DO_NOT_MATCH_TOTAL {expected}). */
  readonly raw: unknown;

  constructor(status: number, code: ErrorCode, message: string, details: FieldError[] = [], raw?: unknown) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.details = details;
    this.raw = raw;
  }
}

type UnauthorizedListener = () => void;
let onUnauthorized: UnauthorizedListener | null = null;

/** The auth provider registers what a 401 does (clear the session, go to /login). */
export function setUnauthorizedHandler(fn: UnauthorizedListener | null): void {
  onUnauthorized = fn;
}

/** The session was refused elsewhere than by a call (the live socket closed with 4401): the same as a 401. */
export function notifyUnauthorized(): void {
  onUnauthorized?.();
}

function readCookie(name: string): string | null {
  const m = document.cookie.split('; ').find((c) => c.startsWith(`${name}=`));
  return m ? decodeURIComponent(m.slice(name.length + 1)) : null;
}

/** The server sets XSRF-TOKEN on any GET under /api; fetch one when the cookie is missing. */
async function ensureXsrfToken(): Promise<string | null> {
  let token = readCookie('XSRF-TOKEN');
  if (!token) {
    await fetch('/api/health', { credentials: 'same-origin' }).catch(() => undefined);
    token = readCookie('XSRF-TOKEN');
  }
  return token;
}

function toDetails(raw: unknown): FieldError[] {
  if (!Array.isArray(raw)) return [];
  return raw
    .filter((d): d is { path: unknown; message: unknown } => typeof d === 'object' && d !== null)
    .map((d) => ({ path: String(d.path ?? ''), message: String(d.message ?? '') }));
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined | null>;
  /** Do not treat 401 as an expired session (the login call itself). */
  skipAuthRedirect?: boolean;
  signal?: AbortSignal;
}

export async function apiRequest<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  const method = opts.method ?? 'GET';
  const headers: Record<string, string> = { Accept: 'application/json' };
  const session = readSession();
  if (session?.token) headers.Authorization = `Bearer ${session.token}`;
  if (session?.externalClubId != null) headers.clubExternalId = String(session.externalClubId);
  if (opts.body !== undefined) headers['Content-Type'] = 'application/json';
  if (method !== 'GET') {
    const xsrf = await ensureXsrfToken();
    if (xsrf) headers['X-XSRF-TOKEN'] = xsrf;
  }
  let url = `/api${path}`;
  if (opts.query) {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(opts.query)) {
      if (v !== undefined && v !== null && v !== '') qs.set(k, String(v));
    }
    const s = qs.toString();
    if (s) url += `?${s}`;
  }
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      headers,
      credentials: 'same-origin',
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      signal: opts.signal,
    });
  } catch (e) {
    if (e instanceof DOMException && e.name === 'AbortError') throw e;
    throw new ApiError(0, 'GENERAL_ERROR', 'network error');
  }
  const text = await res.text();
  let data: unknown = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = null;
    }
  }
  if (!res.ok) {
    const body = (data ?? {}) as { code?: string; message?: string; details?: unknown };
    const code = (body.code ?? (res.status === 401 ? 'UNAUTHORIZED' : 'GENERAL_ERROR')) as ErrorCode;
    const err = new ApiError(res.status, code, body.message ?? res.statusText, toDetails(body.details), body.details);
    if (res.status === 401 && !opts.skipAuthRedirect) onUnauthorized?.();
    throw err;
  }
  return data as T;
}

/** `{ id: ... }` for a path `/api/Group/:id`: one value per `:name` segment. */
type PathParams<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? { [K in Name]: string | number } & PathParams<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? { [K in Name]: string | number }
    : Record<never, never>;

type HasParams<E extends ApiRoute> = keyof PathParams<E['path']> extends never ? false : true;

/** What `api.call` takes for an entry: its path params, query and body as the entry declares them. */
export type CallArgs<E extends ApiRoute> = (HasParams<E> extends true
  ? { params: PathParams<E['path']> }
  : { params?: undefined }) &
  (E extends { query: infer Q } ? { query?: RouteArg<Q> } : { query?: undefined }) &
  (E extends { body: infer B } ? { body: RouteArg<B> } : { body?: undefined }) & { signal?: AbortSignal };

/** Arguments may be left out only by an entry with neither path params nor a body. */
type CallRest<E extends ApiRoute> =
  HasParams<E> extends true
    ? [args: CallArgs<E>]
    : E extends { body: object }
      ? [args: CallArgs<E>]
      : [args?: CallArgs<E>];

/** The URL path (below /api) of an entry with its `:name` segments filled in. */
export function pathOf(entry: ApiRoute, params: Record<string, string | number> = {}): string {
  const path = entry.path.replace(/:(\w+)/g, (_m, name: string) => {
    const v = params[name];
    if (v === undefined) throw new Error(`missing path parameter ${name} of ${entry.path}`);
    return encodeURIComponent(String(v));
  });
  return path.slice('/api'.length);
}

/**
 * Calls one route of the contract (`contract.<area>.<name>` of @venue/domain):
 * path params substituted, query and body typed from the entry's schemas, the
 * answer typed from its 200 schema. A body defaults to `{}` on POST, PATCH and
 * PUT, as `api.post` does. In development the answer is checked against the
 * schema and a mismatch is logged (the data is returned as received either
 * way, so development and production behave alike).
 */
async function call<E extends ApiRoute>(entry: E, ...[args]: CallRest<E>): Promise<RouteResponse<E>> {
  const a = (args ?? {}) as {
    params?: Record<string, string | number>;
    query?: unknown;
    body?: unknown;
    signal?: AbortSignal;
  };
  const body = a.body ?? (entry.method === 'GET' || entry.method === 'DELETE' ? undefined : {});
  const data = await apiRequest<RouteResponse<E>>(pathOf(entry, a.params), {
    method: entry.method,
    query: a.query as RequestOptions['query'],
    body,
    signal: a.signal,
  });
  if (import.meta.env.DEV && entry.response) {
    const checked = entry.response.safeParse(data);
    if (!checked.success)
      console.error(`answer of ${entry.method} ${entry.path} does not match the contract`, checked.error);
  }
  return data;
}

export const api = {
  call,
  get: <T>(path: string, query?: RequestOptions['query'], signal?: AbortSignal) =>
    apiRequest<T>(path, { query, signal }),
  post: <T>(path: string, body: unknown = {}) => apiRequest<T>(path, { method: 'POST', body }),
  patch: <T>(path: string, body: unknown) => apiRequest<T>(path, { method: 'PATCH', body }),
  delete: <T>(path: string) => apiRequest<T>(path, { method: 'DELETE' }),
};

/** Paged list answer (DESIGN §5). */
export interface Page<T> {
  items: T[];
  total: number;
}
