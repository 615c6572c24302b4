import type { ErrorCode } from '@venue/domain';
import { ApiError } from '../platform/api/apiClient';
import { readSession } from '../platform/auth/authStorage';

function readCookie(name: string): string | null {
  const m = document.cookie.split('; ').find((c) => c.startsWith(`${name}=`));
  return m ? decodeURIComponent(m.slice(name.length + 1)) : null;
}

/** The file name of a Content-Disposition header (RFC 6266 filename*= first). */
export function fileNameOf(disposition: string | null, fallback: string): string {
  if (!disposition) return fallback;
  const star = /filename\*=UTF-8''([^;]+)/i.exec(disposition);
  if (star) return decodeURIComponent(star[1]);
  const plain = /filename="?([^";]+)"?/i.exec(disposition);
  return plain ? plain[1] : fallback;
}

/** Hands a blob to the browser as a download. */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Downloads a binary answer of the API (an .xlsx export, the import sample):
 * GET with `query`, or POST with `body` when one is given. Same headers as
 * every API call (bearer, clubExternalId, anti-forgery); a JSON error answer
 * becomes an {@link ApiError} with its code.
 */
export async function downloadFile(
  path: string,
  opts: { query?: Record<string, string | number | boolean | undefined | null>; body?: unknown },
  fallbackName: string,
): Promise<void> {
  const headers: Record<string, string> = {};
  const session = readSession();
  if (session?.token) headers.Authorization = `Bearer ${session.token}`;
  if (session?.externalClubId != null) headers.clubExternalId = String(session.externalClubId);
  const method = opts.body === undefined ? 'GET' : 'POST';
  if (method === 'POST') {
    headers['Content-Type'] = 'application/json';
    let xsrf = readCookie('XSRF-TOKEN');
    if (!xsrf) {
      await fetch('/api/health', { credentials: 'same-origin' }).catch(() => undefined);
      xsrf = readCookie('XSRF-TOKEN');
    }
    if (xsrf) headers['X-XSRF-TOKEN'] = xsrf;
  }
  let url = `/api${path}`;
  if (opts.query) {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(opts.query))
      if (v !== undefined && v !== null && v !== '') qs.set(k, String(v));
    if (qs.toString()) url += `?${qs.toString()}`;
  }
  const res = await fetch(url, {
    method,
    headers,
    credentials: 'same-origin',
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  }).catch(() => {
    throw new ApiError(0, 'GENERAL_ERROR', 'network error');
  });
  if (!res.ok) {
    const body = (await res.json().catch(() => ({}))) as { code?: string; message?: string };
    throw new ApiError(res.status, (body.code ?? 'GENERAL_ERROR') as ErrorCode, body.message ?? res.statusText);
  }
  saveBlob(await res.blob(), fileNameOf(res.headers.get('Content-Disposition'), fallbackName));
}

/**
 * Opens a PDF answer of the API (a receipt or tax invoice) in a new browser
 * tab; the tab is opened at the click (so no pop-up blocker stops it) and
 * given the file when it arrives; without a tab the file is saved instead.
 * A JSON error answer becomes an {@link ApiError} with its code.
 */
export async function openPdf(path: string, fallbackName: string): Promise<void> {
  const tab = window.open('', '_blank');
  const headers: Record<string, string> = {};
  const session = readSession();
  if (session?.token) headers.Authorization = `Bearer ${session.token}`;
  if (session?.externalClubId != null) headers.clubExternalId = String(session.externalClubId);
  const res = await fetch(`/api${path}`, { headers, credentials: 'same-origin' }).catch(() => {
    tab?.close();
    throw new ApiError(0, 'GENERAL_ERROR', 'network error');
  });
  if (!res.ok) {
    tab?.close();
    const body = (await res.json().catch(() => ({}))) as { code?: string; message?: string };
    throw new ApiError(res.status, (body.code ?? 'GENERAL_ERROR') as ErrorCode, body.message ?? res.statusText);
  }
  const blob = await res.blob();
  const name = fileNameOf(res.headers.get('Content-Disposition'), fallbackName);
  if (!tab) return saveBlob(blob, name);
  const url = URL.createObjectURL(new Blob([blob], { type: 'application/pdf' }));
  tab.location.href = url;
  window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
