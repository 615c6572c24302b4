import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, signedInAdmin, type TestContext } from '../../../test/harness.js';
import { localInstant } from '../../../test/time.js';
import { clubs } from '../../db/schema.js';
import * as factory from '../../../test/factories.js';
import { chartEntranceByStatus, monthlyEntranceCount } from '../dashboard/dashboard.service.js';

const NY = 'America/New_York';
const newYork = { name: 'New York', latitude: 40.7, longitude: -74, elevation: 10, timeZone: NY, il: false };

/**
 * Reports and the dashboard read the club's zone without a round trip of its
 * own (report-range.ts withClubZone: the zone this process last saw, confirmed
 * by the call's own statement). A location changed behind the server's back
 * (here a direct UPDATE, as another server instance or an operator would) must
 * show in the very next call, both ways, and with results that are empty in
 * one of the zones.
 */
describe('the club zone of reports and the dashboard after a location change', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => ctx.close());

  it('the next report and dashboard call use the new zone', async () => {
    const { club, api } = await signedInAdmin(ctx);
    const { db } = ctx.database;
    const setZone = (location: typeof newYork | null) =>
      db.update(clubs).set({ location }).where(eq(clubs.id, club.id));
    const client = await factory.makeClient(ctx, club.id, { number: 1, firstName: 'a', lastName: 'b' });
    // 10 March 2026 19:30 in New York = 23:30 UTC = 11 March 01:30 in Jerusalem;
    // 31 March 19:30 in New York = 1 April 02:30 in Jerusalem.
    const march10 = localInstant(NY, 2026, 3, 10, 19, 30);
    const march31 = localInstant(NY, 2026, 3, 31, 19, 30);
    await factory.makeEntrances(ctx, club.id, [
      { clientId: client.id, at: march10 },
      { clientId: client.id, at: march31 },
    ]);

    const day = { period: 'day', anchor: '2026-03-10' };
    const entrances = async () => {
      const res = await api.post('/api/Report/GetEnteracesReport', day);
      expect(res.statusCode).toBe(200);
      const body = res.json() as { total: number; items: { at: string }[]; totals: { count: number } };
      return { total: body.total, count: body.totals.count, items: body.items.map((i) => i.at) };
    };
    const clientDay = async () =>
      (await api.post('/api/Report/GetClienstEnteraces', { ...day, clientId: client.id })).json() as {
        total: number;
      };
    const mid = new Date('2026-03-15T12:00:00Z');
    // The export: 422 NO_DATA_TO_EXPORT when the day has no row in the club's zone.
    const exportStatus = async () => (await api.post('/api/Report/GetEnteracesReport/Export', day)).statusCode;

    // Jerusalem (no location): the 10th holds none of them; March holds one (the 10th's).
    expect(await entrances()).toEqual({ total: 0, count: 0, items: [] });
    expect((await clientDay()).total).toBe(0);
    expect(await exportStatus()).toBe(422);
    expect(await monthlyEntranceCount(db, club.id, mid)).toEqual({ value: 1 });
    expect(await chartEntranceByStatus(db, club.id, new Date('2026-04-15T12:00:00Z'))).toEqual([
      { key: '1', value: 1 },
    ]);

    await setZone(newYork);
    expect(await exportStatus()).toBe(200);
    expect(await entrances()).toEqual({ total: 1, count: 1, items: [march10.toISOString()] });
    expect((await clientDay()).total).toBe(1);
    expect(await monthlyEntranceCount(db, club.id, mid)).toEqual({ value: 2 });
    // April in New York is empty: an empty chart, still in the new zone.
    expect(await chartEntranceByStatus(db, club.id, new Date('2026-04-15T12:00:00Z'))).toEqual([]);

    await setZone(null);
    expect(await entrances()).toEqual({ total: 0, count: 0, items: [] });
    expect((await clientDay()).total).toBe(0);
    expect(await monthlyEntranceCount(db, club.id, mid)).toEqual({ value: 1 });
    expect(await chartEntranceByStatus(db, club.id, new Date('2026-04-15T12:00:00Z'))).toEqual([
      { key: '1', value: 1 },
    ]);
  });

  it('a client of another club is 404 and nothing of it is returned, also on an empty period', async () => {
    const a = await signedInAdmin(ctx);
    const b = await signedInAdmin(ctx);
    const foreign = await factory.makeClient(ctx, b.club.id, { number: 1, firstName: 'x', lastName: 'y' });
    await factory.makeEntrance(ctx, b.club.id, { clientId: foreign.id });
    for (const period of ['month', 'year']) {
      const res = await a.api.post('/api/Report/GetClienstEnteraces', { period, clientId: foreign.id });
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('"items"');
      const file = await a.api.post('/api/Report/GetClienstEnteraces/Export', { period, clientId: foreign.id });
      expect(file.statusCode).toBe(404);
    }
    expect(
      (await b.api.post('/api/Report/GetClienstEnteraces', { period: 'month', clientId: foreign.id })).json(),
    ).toMatchObject({ total: 1 });
  });
});
