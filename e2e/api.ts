import type { APIRequestContext } from '@playwright/test';
import { isoDate, localParts, type ReportResult } from '@venue/domain';

/**
 * Test data through the API (STYLE: browser tests set up data through the
 * API, not through the UI they are not testing).
 */
export async function apiSession(request: APIRequestContext, user: string, password: string, club: number) {
  await request.get('/api/health');
  const state = await request.storageState();
  const xsrf = state.cookies.find((c) => c.name === 'XSRF-TOKEN')?.value ?? '';
  const login = await request.post('/api/Account', {
    data: { username: user, password, externalClubId: club },
    headers: { 'X-XSRF-TOKEN': xsrf },
  });
  if (!login.ok()) throw new Error(`login failed: ${await login.text()}`);
  const { token } = (await login.json()) as { token: string };
  const headers = { Authorization: `Bearer ${token}`, 'X-XSRF-TOKEN': xsrf };
  return {
    async post<T>(url: string, data: unknown): Promise<T> {
      const res = await request.post(url, { data, headers });
      if (!res.ok()) throw new Error(`${url}: ${res.status()} ${await res.text()}`);
      return (await res.json()) as T;
    },
    async get<T>(url: string): Promise<T> {
      const res = await request.get(url, { headers });
      if (!res.ok()) throw new Error(`${url}: ${res.status()} ${await res.text()}`);
      return (await res.json()) as T;
    },
    /** A multipart form post (a file upload, as the console's forms send it). */
    async multipart<T>(
      url: string,
      form: Record<string, string | { name: string; mimeType: string; buffer: Buffer }>,
    ): Promise<T> {
      const res = await request.post(url, { multipart: form, headers });
      if (!res.ok()) throw new Error(`${url}: ${res.status()} ${await res.text()}`);
      return (await res.json()) as T;
    },
    async put<T>(url: string, data: unknown = {}): Promise<T> {
      const res = await request.put(url, { data, headers });
      if (!res.ok()) throw new Error(`${url}: ${res.status()} ${await res.text()}`);
      return (await res.json()) as T;
    },
    async delete(url: string): Promise<void> {
      const res = await request.delete(url, { headers });
      if (!res.ok()) throw new Error(`${url}: ${res.status()} ${await res.text()}`);
    },
    async patch<T>(url: string, data: unknown): Promise<T> {
      const res = await request.patch(url, { data, headers });
      if (!res.ok()) throw new Error(`${url}: ${res.status()} ${await res.text()}`);
      return (await res.json()) as T;
    },
  };
}

/**
 * Puts the demo club back at Jerusalem (its default location) through the
 * API, so a spec that moves the club leaves the next one what it expects.
 */
export async function resetClubLocation(request: APIRequestContext, club = 1001): Promise<void> {
  const api = await apiSession(request, 'admin', 'demo1234', club);
  const current = await api.get<{ id: number }>('/api/Club/GetCurrent');
  await api.patch(`/api/Club/${current.id}`, { location: { city: 'Jerusalem' } });
}

/**
 * A range over the demo club's history (the last 14 days, playwright.config.ts) with its
 * entrance count: 20 days back to today in the club's zone, so it holds more than one
 * page of entrances whatever the day of the month.
 */
export async function demoEntranceRange(
  request: APIRequestContext,
): Promise<{ from: string; to: string; total: number }> {
  const api = await apiSession(request, 'admin', 'demo1234', 1001);
  const now = new Date();
  const to = isoDate(localParts(now, 'Asia/Jerusalem'));
  const from = isoDate(localParts(new Date(now.getTime() - 20 * 86_400_000), 'Asia/Jerusalem'));
  const all = await api.post<ReportResult>('/api/Report/GetEnteracesReport', {
    period: 'range',
    from,
    to,
    pageSize: 1,
  });
  return { from, to, total: all.total };
}

/**
 * Marks every global message of the club read for the user (docs/messages.md), so no
 * Popup message (the other journeys send some) opens over the screen a test works on.
 */
export async function readAllMessages(request: APIRequestContext, user: string, password: string, club: number) {
  const api = await apiSession(request, user, password, club);
  const me = await api.get<{ id: number }>('/api/Account/GetCurrent');
  await api.put(`/api/GlobalMessage/MarkAllMessagesAsRead/${club}/${me.id}`);
}
