import type { ErrorCode } from '@venue/domain';
import { ApiError } from '../platform/api/apiClient';
import { readSession } from '../platform/auth/authStorage';

function readCookie(name: string): string | null {
  const m = document.cookie.split('; ').find((c) => c.startsWith(`${name}=`));
  return m ? decodeURIComponent(m.slice(name.length + 1)) : null;
}

/** An upload refused by the server, with its raw `details` (e.g. the row errors of an import). */
export class UploadError extends ApiError {
  readonly rawDetails: unknown;
  constructor(status: number, code: ErrorCode, message: string, rawDetails: unknown) {
    super(status, code, message);
    this.rawDetails = rawDetails;
  }
}

/**
 * Uploads one file as multipart/form-data (field `file`) to the API with the
 * usual headers (bearer, clubExternalId, anti-forgery) and answers the JSON
 * body; an error answer becomes an {@link ApiError} with its code and details.
 */
export async function uploadFile<T>(
  path: string,
  file: File,
  query: Record<string, string | undefined> = {},
): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const session = readSession();
  if (session?.token) headers.Authorization = `Bearer ${session.token}`;
  if (session?.externalClubId != null) headers.clubExternalId = String(session.externalClubId);
  let xsrf = readCookie('XSRF-TOKEN');
  if (!xsrf) {
    await fetch('/api/health', { credentials: 'same-origin' }).catch(() => undefined);
    xsrf = readCookie('XSRF-TOKEN');
  }
  if (xsrf) headers['X-XSRF-TOKEN'] = xsrf;
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) qs.set(k, v);
  const form = new FormData();
  form.append('file', file, file.name);
  const res = await fetch(`/api${path}${qs.toString() ? `?${qs.toString()}` : ''}`, {
    method: 'POST',
    headers,
    credentials: 'same-origin',
    body: form,
  }).catch(() => {
    throw new ApiError(0, 'GENERAL_ERROR', 'network error');
  });
  const data = (await res.json().catch(() => null)) as unknown;
  if (!res.ok) {
    const body = (data ?? {}) as { code?: string; message?: string; details?: unknown };
    throw new UploadError(res.status, (body.code ?? 'GENERAL_ERROR') as ErrorCode, body.message ?? '', body.details);
  }
  return data as T;
}
