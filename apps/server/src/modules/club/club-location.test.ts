import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { BUILT_IN_CITIES, JERUSALEM } from '@venue/domain';
import { Api, createTestApp, makeUser, signedInAdmin, TEST_PASSWORD, type TestContext } from '../../../test/harness.js';
import { auditLog, clubs } from '../../db/schema.js';

/** The club's location (issue 14 §1; seed 001 §5, §9; docs/calendar.md). */
describe('club location', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => ctx.close());

  const NEW_YORK = BUILT_IN_CITIES.find((c) => c.id === 'New York')!;

  it('is Jerusalem by default, with every field of seed 001 §9', async () => {
    const { api } = await signedInAdmin(ctx);
    expect((await api.get('/api/Club/GetCurrent')).json().location).toEqual({
      city: 'Jerusalem',
      name: 'Jerusalem',
      countryCode: 'IL',
      latitude: 31.76904,
      longitude: 35.21633,
      elevation: 786,
      timeZone: 'Asia/Jerusalem',
      il: true,
      geoId: null,
      candleLightingMins: null,
      candleLightingMinsInForce: 40,
    });
  });

  it('lists the built-in cities: hebcal’s classic cities and Antwerp, in Hebrew and English', async () => {
    const { api } = await signedInAdmin(ctx);
    const list = (await api.get('/api/Reference/Locations')).json();
    expect(list.length).toBe(66);
    expect(list.find((c: { id: string }) => c.id === 'Antwerp')).toEqual({
      id: 'Antwerp',
      nameEn: 'Antwerp',
      nameHe: 'אנטוורפן',
      countryCode: 'BE',
      latitude: 51.2194,
      longitude: 4.4025,
      elevation: 0,
      timeZone: 'Europe/Brussels',
      il: false,
    });
    expect(list.find((c: { id: string }) => c.id === 'New York')).toMatchObject({ nameHe: 'ניו יורק', il: false });
  });

  it('sets a built-in city, then a custom location; each change is an audit row', async () => {
    const { api, club } = await signedInAdmin(ctx);
    const res = await api.patch(`/api/Club/${club.id}`, { location: { city: 'new york' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().location).toEqual({
      city: 'New York',
      name: 'New York',
      countryCode: 'US',
      latitude: NEW_YORK.latitude,
      longitude: NEW_YORK.longitude,
      elevation: NEW_YORK.elevation,
      timeZone: 'America/New_York',
      il: false,
      geoId: null,
      candleLightingMins: null,
      candleLightingMinsInForce: 18,
    });
    const custom = {
      name: 'Kiryas Joel',
      countryCode: 'us',
      latitude: 41.342,
      longitude: -74.167,
      elevation: 170,
      timeZone: 'america/new_york',
      geoId: 'kj-office-1',
    };
    const res2 = await api.patch(`/api/Club/${club.id}`, { location: custom });
    expect(res2.statusCode).toBe(200);
    expect(res2.json().location).toEqual({
      ...custom,
      city: null,
      countryCode: 'US',
      timeZone: 'America/New_York',
      il: false,
      candleLightingMins: null,
      candleLightingMinsInForce: 18,
    });
    expect((await api.get('/api/Club/GetCurrent')).json().location.name).toBe('Kiryas Joel');
    const rows = await ctx.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.clubId, club.id), eq(auditLog.entity, 'club')))
      .orderBy(auditLog.id);
    expect(rows.map((r) => (r.before as { location: { name: string } }).location.name)).toEqual([
      'Jerusalem',
      'New York',
    ]);
    expect((rows[1].after as { location: { name: string } }).location.name).toBe('Kiryas Joel');
  });

  it('refuses each rule of seed 001 §5 with a field error, and saves nothing', async () => {
    const { api, club } = await signedInAdmin(ctx);
    const base = { name: 'Here', latitude: 40, longitude: -74, elevation: 10, timeZone: 'America/New_York' };
    const cases: [object, string, string][] = [
      [{ ...base, latitude: 90.01 }, 'location.latitude', 'latitudeRange'],
      [{ ...base, latitude: -91 }, 'location.latitude', 'latitudeRange'],
      [{ ...base, longitude: 180.5 }, 'location.longitude', 'longitudeRange'],
      [{ ...base, longitude: -181 }, 'location.longitude', 'longitudeRange'],
      [{ ...base, elevation: -1 }, 'location.elevation', 'elevationMin'],
      [{ ...base, latitude: '31.7' }, 'location.latitude', 'notANumber'],
      [{ ...base, longitude: 'east' }, 'location.longitude', 'notANumber'],
      [{ ...base, elevation: null }, 'location.elevation', 'notANumber'],
      [{ ...base, timeZone: 'Mars/Olympus' }, 'location.timeZone', 'invalidTimeZone'],
      [{ ...base, timeZone: '+02:00' }, 'location.timeZone', 'invalidTimeZone'],
      [{ ...base, name: '' }, 'location.name', 'required'],
      [{ latitude: 40, longitude: -74 }, 'location.name', 'required'],
      [{ ...base, countryCode: 'USA' }, 'location.countryCode', 'invalidCountryCode'],
      [{ city: 'Atlantis' }, 'location.city', 'unknownCity'],
      [{ city: 'London', latitude: 10 }, 'location.latitude', 'notWithCity'],
    ];
    for (const [location, path, message] of cases) {
      const res = await api.patch(`/api/Club/${club.id}`, { location, name: 'Renamed' });
      expect(res.statusCode, JSON.stringify(location)).toBe(400);
      expect(res.json().code).toBe('VALIDATION_ERROR');
      expect(res.json().details, JSON.stringify(location)).toContainEqual({ path, message });
    }
    const [row] = await ctx.database.db.select().from(clubs).where(eq(clubs.id, club.id));
    expect(row.location ?? JERUSALEM).toMatchObject({ timeZone: 'Asia/Jerusalem' });
    expect(row.name).toBe('Test club');
    const audits = await ctx.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.clubId, club.id), eq(auditLog.entity, 'club')));
    expect(audits).toEqual([]);
  });

  it('needs roleEditGeneralSettings (403), another club’s id is 404, and signed out is 401', async () => {
    const { club } = await signedInAdmin(ctx);
    const other = await signedInAdmin(ctx);
    const viewer = await makeUser(ctx, club.id, { permissions: { roleViewGeneralSettings: true } });
    const v = new Api(ctx.app);
    await v.login(viewer.username, TEST_PASSWORD, club.externalClubId);
    expect((await v.patch(`/api/Club/${club.id}`, { location: { city: 'London' } })).statusCode).toBe(403);
    expect((await other.api.patch(`/api/Club/${club.id}`, { location: { city: 'London' } })).statusCode).toBe(404);
    expect((await new Api(ctx.app).patch(`/api/Club/${club.id}`, { location: { city: 'London' } })).statusCode).toBe(
      401,
    );
    const [row] = await ctx.database.db.select().from(clubs).where(eq(clubs.id, club.id));
    expect(row.location).toBeNull();
    expect((await new Api(ctx.app).get('/api/Reference/Locations')).statusCode).toBe(401);
  });

  it('publishes the change to every instance (gate-push location), only when the location changed', async () => {
    const { api, club } = await signedInAdmin(ctx);
    const seen: unknown[] = [];
    const off = ctx.bus.subscribe('gate-push', (e) => seen.push(e));
    await api.patch(`/api/Club/${club.id}`, { location: { city: 'Antwerp' } });
    await api.patch(`/api/Club/${club.id}`, { location: { city: 'Antwerp' } });
    await api.patch(`/api/Club/${club.id}`, { name: 'Only the name' });
    off();
    expect(seen).toEqual([{ clubId: club.id, what: 'location' }]);
  });
});
