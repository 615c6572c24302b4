import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { localParts } from '@venue/domain';
import { Api, createTestApp, makeUser, signedInAdmin, TEST_PASSWORD, type TestContext } from '../../../test/harness.js';
import { localInstant } from '../../../test/time.js';
import * as factory from '../../../test/factories.js';
import { clubs } from '../../db/schema.js';

const NY = 'America/New_York';
const CALLS = [
  'GetMonthlyEntranceCount',
  'GetActiveClientsCount',
  'GetChartEntranceByStatus',
  'GetChartConfirmedEntranceByTime',
] as const;

describe('dashboard (POST /Dashboard/...)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => ctx.close());

  it('counts this calendar month in the club time zone: approved count, by status, approved by local hour', async () => {
    const { club, api } = await signedInAdmin(ctx);
    const { db } = ctx.database;
    await db
      .update(clubs)
      .set({ location: { name: 'New York', latitude: 40.7, longitude: -74, elevation: 10, timeZone: NY, il: false } })
      .where(eq(clubs.id, club.id));
    const other = await signedInAdmin(ctx);

    // This month and its neighbours, computed with Intl (not with the server's SQL).
    const now = localParts(new Date(), NY);
    const y = now.year;
    const m = now.month;
    const prev = m === 1 ? { y: y - 1, m: 12 } : { y, m: m - 1 };
    const next = m === 12 ? { y: y + 1, m: 1 } : { y, m: m + 1 };
    const lastOfPrev = new Date(Date.UTC(y, m - 1, 0)).getUTCDate();
    const row = (at: Date, status: number, clubId = club.id) => ({ clubId, at, status });
    await factory.makeEntrances(ctx, club.id, [
      row(localInstant(NY, y, m, 1, 0, 0, 30), 1),
      row(localInstant(NY, y, m, 1, 19, 15), 1),
      row(localInstant(NY, y, m, 1, 19, 45), 1),
      row(localInstant(NY, y, m, 2, 20, 0), 4),
      row(localInstant(NY, y, m, 2, 20, 5), 2),
      row(localInstant(NY, prev.y, prev.m, lastOfPrev, 23, 59, 30), 1),
      row(localInstant(NY, next.y, next.m, 1, 0, 0, 30), 1),
      row(localInstant(NY, y, m, 1, 12), 1, other.club.id),
    ]);

    expect((await api.post('/api/Dashboard/GetMonthlyEntranceCount', {})).json()).toEqual({ value: 3 });
    expect((await api.post('/api/Dashboard/GetChartEntranceByStatus', {})).json()).toEqual([
      { key: '1', value: 3 },
      { key: '2', value: 1 },
      { key: '4', value: 1 },
    ]);
    const byTime = (await api.post('/api/Dashboard/GetChartConfirmedEntranceByTime', {})).json() as {
      key: string;
      value: number;
    }[];
    expect(byTime).toHaveLength(24);
    expect(byTime.map((p) => p.key)).toEqual(Array.from({ length: 24 }, (_, h) => String(h).padStart(2, '0')));
    expect(Object.fromEntries(byTime.filter((p) => p.value > 0).map((p) => [p.key, p.value]))).toEqual({
      '00': 1,
      '19': 2,
    });
  });

  it('counts distinct clients with an approved entrance in the last 30 days', async () => {
    const { club, api } = await signedInAdmin(ctx);
    const cs = await factory.makeClients(
      ctx,
      club.id,
      [1, 2, 3, 4, 5].map((n) => ({ number: n, firstName: `C${n}` })),
    );
    const ago = (ms: number) => new Date(Date.now() - ms);
    const H = 3_600_000;
    const D = 24 * H;
    const row = (clientId: number, at: Date, status = 1) => ({ clientId, at, status });
    await factory.makeEntrances(ctx, club.id, [
      row(cs[0].id, ago(H)),
      row(cs[0].id, ago(2 * D)), // the same client twice counts once
      row(cs[1].id, ago(29 * D)),
      row(cs[2].id, ago(31 * D)), // too long ago
      row(cs[3].id, ago(H), 2), // refused entrances do not count
      row(cs[4].id, ago(H), 8),
    ]);
    expect((await api.post('/api/Dashboard/GetActiveClientsCount', {})).json()).toEqual({ value: 2 });
  });

  it('answers zeros for an empty club, also without a body', async () => {
    const { api } = await signedInAdmin(ctx);
    expect((await api.post('/api/Dashboard/GetMonthlyEntranceCount')).json()).toEqual({ value: 0 });
    expect((await api.post('/api/Dashboard/GetActiveClientsCount')).json()).toEqual({ value: 0 });
    expect((await api.post('/api/Dashboard/GetChartEntranceByStatus')).json()).toEqual([]);
    const byTime = (await api.post('/api/Dashboard/GetChartConfirmedEntranceByTime')).json() as { value: number }[];
    expect(byTime.every((p) => p.value === 0)).toBe(true);
  });

  it('answers 403 without roleViewDashboard and 401 without a token, for every call', async () => {
    const { club } = await signedInAdmin(ctx);
    const user = await makeUser(ctx, club.id, { permissions: { roleEntrancesReport: true } });
    const api = new Api(ctx.app);
    await api.login(user.username, TEST_PASSWORD, club.externalClubId);
    const allowedUser = await makeUser(ctx, club.id, { permissions: { roleViewDashboard: true } });
    const allowed = new Api(ctx.app);
    await allowed.login(allowedUser.username, TEST_PASSWORD, club.externalClubId);
    for (const call of CALLS) {
      const url = `/api/Dashboard/${call}`;
      expect((await api.post(url, {})).statusCode, call).toBe(403);
      expect((await new Api(ctx.app).post(url, {})).statusCode, call).toBe(401);
      expect((await allowed.post(url, {})).statusCode, call).toBe(200);
    }
  });
});
