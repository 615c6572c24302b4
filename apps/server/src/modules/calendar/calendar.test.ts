import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { HalachicTime } from '@venue/domain';
import { Api, createTestApp, makeUser, signedInAdmin, TEST_PASSWORD, type TestContext } from '../../../test/harness.js';
import { makeGroupWithSchedule } from '../../../test/factories.js';
import { auditLog, clubs } from '../../db/schema.js';
import en from '../../../../web/src/platform/i18n/en.json' with { type: 'json' };
import he from '../../../../web/src/platform/i18n/he.json' with { type: 'json' };

/** The calendar API (issue 14 §2; seed 001 §5, §8, §9; docs/calendar.md). */
describe('calendar API', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => ctx.close());

  const events = (api: Api, q: string) => api.get(`/api/Calendar/Events?${q}`);

  it('answers the events of a Hebrew year at the club location with the seed 001 §9 shape', async () => {
    const { api, club } = await signedInAdmin(ctx);
    await api.patch(`/api/Club/${club.id}`, { location: { city: 'Antwerp' } });
    const res = await events(
      api,
      'year=5786&isHebrewYear=true&candlelighting=true&sedrot=true&omer=true&molad=true&shabbatMevarchim=true&dafYomi=1&locale=en',
    );
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ start: '2025-09-23', end: '2026-09-11', il: false, locale: 'en' });
    expect(body.location).toEqual({ name: 'Antwerp', timeZone: 'Europe/Brussels' });
    type E = {
      date: string;
      description: string;
      categories: string[];
      timed: { time: string; location: string; linkedEvent: string | null } | null;
      omer: unknown;
      molad: unknown;
      parsha: { names: string[]; il: boolean; numbers: number[] } | null;
    };
    const evs: E[] = body.events;
    // The year's first Shabbat (4 Tishrei 5786, 27 September 2025) reads Vayeilech, portion 52.
    // Pesach I (diaspora two days: Pesach II on 3 April); candle lighting on erev Pesach at Antwerp.
    expect(evs.find((e) => e.description === 'Pesach I')?.date).toBe('2026-04-02');
    expect(evs.find((e) => e.description === 'Pesach II')?.date).toBe('2026-04-03');
    const candles = evs.find((e) => e.date === '2026-04-01' && e.categories[0] === 'candles')!;
    expect(candles.timed).toMatchObject({ location: 'Antwerp', linkedEvent: 'Erev Pesach' });
    expect(evs.find((e) => e.parsha)?.parsha).toEqual({ names: ['Vayeilech'], il: false, numbers: [52] });
    expect(evs.find((e) => e.omer)?.omer).toEqual({ day: 1, week: 0, dayInWeek: 1 });
    expect(evs.find((e) => e.molad)?.molad).toMatchObject({ year: 5786, month: 8 });
    expect(evs.some((e) => e.categories.includes('dafyomi'))).toBe(true);
    expect(evs.some((e) => e.categories.includes('mevarchim'))).toBe(true);
  });

  it('renders in the four renderings; Israel flag overrides the location', async () => {
    const { api } = await signedInAdmin(ctx);
    const title = async (locale: string) =>
      (await events(api, `start=2026-04-02&end=2026-04-02&locale=${locale}`))
        .json()
        .events.find((e: { description: string }) => e.description === 'Pesach I').title;
    expect(await title('en')).toBe('Pesach I');
    expect(await title('ashkenazi')).toBe('Pesach I');
    expect(await title('he')).toBe('פֶּסַח א׳');
    expect(await title('HE-X-NONIKUD')).toBe('פסח א׳');
    const diaspora = await events(api, 'start=2026-04-03&end=2026-04-03&il=false');
    expect(diaspora.json().events.map((e: { description: string }) => e.description)).toContain('Pesach II');
    const israel = await events(api, 'start=2026-04-03&end=2026-04-03&il=true');
    expect(israel.json().events.map((e: { description: string }) => e.description)).toContain("Pesach II (CH''M)");
  });

  it('honours hour12, mask, the havdalah minutes, candle minutes, useElevation and a built-in city', async () => {
    const { api } = await signedInAdmin(ctx);
    const q = 'start=2026-04-03&end=2026-04-04&candlelighting=1&city=New%20York';
    type E = { description: string; categories: string[]; timed: { time: string; formatted: string } | null };
    const get = async (extra: string): Promise<E[]> => (await events(api, `${q}&${extra}`)).json().events;
    const candles = (evs: E[]) => evs.find((e) => e.categories[0] === 'candles')!.timed!;
    const h12 = candles(await get('hour12=true'));
    expect(h12.formatted).toMatch(/^\d{1,2}:\d\dpm$/);
    expect(candles(await get('hour12=false')).formatted).toMatch(/^\d\d:\d\d$/);
    // 18 minutes by default in New York; 30 asked: twelve minutes earlier.
    const at = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3, 5));
    const c30 = candles(await get('candleLightingMins=30'));
    expect(at(candles(await get('hour12=false')).time) - at(c30.time)).toBe(12);
    // Havdalah 72 minutes after sunset instead of 8.5°.
    const havdalah = (await get('havdalahMins=72')).find((e) => e.categories[0] === 'havdalah');
    expect(havdalah?.description).toBe('Havdalah');
    // mask: hebcal's flags; CHAG (1) keeps only the yom tov days of April 2026 (Israel schedule).
    const april = async (extra: string) =>
      (await events(api, `start=2026-04-01&end=2026-04-30&il=true${extra}`)).json().events.map((e: E) => e.description);
    expect(await april('')).toContain('Yom HaShoah');
    expect(await april('&mask=1')).toEqual(['Pesach I', 'Pesach VII']);
    // useElevation: New York's 57 m make sunrise earlier.
    const sea = (await api.get('/api/Calendar/Zmanim?date=2026-06-21&city=New%20York')).json();
    const high = (await api.get('/api/Calendar/Zmanim?date=2026-06-21&city=New%20York&useElevation=1')).json();
    const sunrise = (z: { times: { key: string; instant: string }[] }) =>
      Date.parse(z.times.find((t) => t.key === 'sunrise')!.instant);
    expect(high.location).toMatchObject({ name: 'New York', elevation: 57, useElevation: true });
    expect(sunrise(high)).toBeLessThan(sunrise(sea));
  });

  it('answers the day’s zmanim, Tachanun and holidays', async () => {
    const { api } = await signedInAdmin(ctx);
    const res = await api.get('/api/Calendar/Zmanim?date=2026-04-03');
    expect(res.statusCode).toBe(200);
    const z = res.json();
    expect(z.location.name).toBe('Jerusalem');
    expect(z.candleLightingMins).toBe(40);
    expect(z.tachanun).toEqual({ shacharit: false, mincha: false, allCongs: false });
    const keys = z.times.map((t: { key: string }) => t.key);
    for (const k of ['alotHaShachar', 'misheyakir', 'misheyakirMachmir', 'sunrise', 'sofZmanShma', 'sofZmanShmaMGA']) {
      expect(keys).toContain(k);
    }
    expect(keys).toHaveLength(20);
    // A weekday outside any exception says Tachanun.
    expect((await api.get('/api/Calendar/Zmanim?date=2026-01-14')).json().tachanun).toEqual({
      shacharit: true,
      mincha: true,
      allCongs: true,
    });
  });

  it('answers a day of the Omer', async () => {
    const { api } = await signedInAdmin(ctx);
    const res = await api.get('/api/Calendar/Omer?day=33&year=5786');
    expect(res.json()).toMatchObject({
      day: 33,
      week: 4,
      dayInWeek: 5,
      date: '2026-05-05',
      countEvening: '2026-05-04',
    });
  });

  /** Seed 001 §5 "Calendar feature" and §8: each rule a 400 with its own code, never a 500. */
  const RULES: [string, string, string][] = [
    ['/api/Calendar/Omer?day=0', 'CALENDAR_INVALID_OMER_DAY', 'day'],
    ['/api/Calendar/Omer?day=50', 'CALENDAR_INVALID_OMER_DAY', 'day'],
    ['/api/Calendar/Omer?day=abc', 'CALENDAR_INVALID_OMER_DAY', 'day'],
    ['/api/Calendar/Omer?day=1.5', 'CALENDAR_INVALID_OMER_DAY', 'day'],
    ['/api/Calendar/Omer?day=1&year=32659', 'CALENDAR_INVALID_YEAR', 'year'],
    ['/api/Calendar/Events?year=abc&isHebrewYear=true', 'CALENDAR_INVALID_YEAR', 'year'],
    ['/api/Calendar/Events?year=0&isHebrewYear=true', 'CALENDAR_INVALID_YEAR', 'year'],
    ['/api/Calendar/Events?year=32659&isHebrewYear=true', 'CALENDAR_INVALID_YEAR', 'year'],
    ['/api/Calendar/Events?year=5786.5&isHebrewYear=true', 'CALENDAR_INVALID_YEAR', 'year'],
    ['/api/Calendar/Events?candlelighting=true&city=none', 'CALENDAR_LOCATION_REQUIRED', 'city'],
    ['/api/Calendar/Events?candlelighting=true&city=Atlantis', 'CALENDAR_LOCATION_REQUIRED', 'city'],
    ['/api/Calendar/Zmanim?city=none', 'CALENDAR_LOCATION_REQUIRED', 'city'],
    ['/api/Calendar/Events?havdalahMins=50&havdalahDeg=8.5', 'CALENDAR_HAVDALAH_CONFLICT', 'havdalahDeg'],
    ['/api/Calendar/Zmanim?havdalahMins=50&havdalahDeg=8.5', 'CALENDAR_HAVDALAH_CONFLICT', 'havdalahDeg'],
    ['/api/Calendar/Events?start=2026-01-01', 'CALENDAR_START_END_TOGETHER', 'end'],
    ['/api/Calendar/Events?end=2026-01-01', 'CALENDAR_START_END_TOGETHER', 'start'],
    ['/api/Calendar/Events?locale=fr', 'CALENDAR_UNKNOWN_LOCALE', 'locale'],
    ['/api/Calendar/Zmanim?locale=xx', 'CALENDAR_UNKNOWN_LOCALE', 'locale'],
    ['/api/Calendar/Omer?day=3&locale=de', 'CALENDAR_UNKNOWN_LOCALE', 'locale'],
    ['/api/Calendar/Events?start=2026-02-30&end=2026-03-01', 'CALENDAR_INVALID_DATE', 'start'],
    ['/api/Calendar/Events?start=2026-03-02&end=2026-03-01', 'CALENDAR_INVALID_DATE', 'end'],
    ['/api/Calendar/Events?year=5785&isHebrewYear=true&month=13', 'CALENDAR_INVALID_DATE', 'month'],
    ['/api/Calendar/Zmanim?date=yesterday', 'CALENDAR_INVALID_DATE', 'date'],
    ['/api/Calendar/Events?candleLightingMins=ten', 'CALENDAR_INVALID_OPTION', 'candleLightingMins'],
    ['/api/Calendar/Events?start=2020-01-01&end=2026-01-01', 'CALENDAR_RANGE_TOO_LONG', 'end'],
  ];

  it('answers each broken rule with its 400 code and field, and changes nothing', async () => {
    const { api, club } = await signedInAdmin(ctx);
    const before = await ctx.database.db.select().from(clubs).where(eq(clubs.id, club.id));
    const [audits] = await ctx.database.db.select({ n: count() }).from(auditLog).where(eq(auditLog.clubId, club.id));
    for (const [url, code, field] of RULES) {
      const res = await api.get(url);
      expect({ url, status: res.statusCode, code: res.json().code, field: res.json().details?.field }).toEqual({
        url,
        status: 400,
        code,
        field,
      });
    }
    expect(await ctx.database.db.select().from(clubs).where(eq(clubs.id, club.id))).toEqual(before);
    const [after] = await ctx.database.db.select({ n: count() }).from(auditLog).where(eq(auditLog.clubId, club.id));
    expect(after.n).toBe(audits.n);
  });

  it('ignores unknown options (seed 001 §5) and accepts a Hebrew leap year’s Adar II', async () => {
    const { api } = await signedInAdmin(ctx);
    const res = await events(
      api,
      'year=5784&isHebrewYear=true&month=13&appendHebrewToSubject=1&userMask=3&frobnicate=x',
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ start: '2024-03-11', end: '2024-04-08' });
    expect(res.json().events.map((e: { description: string }) => e.description)).toContain('Purim');
  });

  it('is 401 signed out and 403 without its own flag roleViewCalendar (the settings view flag is not enough)', async () => {
    const anon = new Api(ctx.app);
    expect((await anon.get('/api/Calendar/Events')).statusCode).toBe(401);
    expect((await anon.get('/api/Calendar/Zmanim')).statusCode).toBe(401);
    expect((await anon.request('POST', '/api/Calendar/Feed/Rotate', {})).statusCode).toBe(401);
    const { club } = await signedInAdmin(ctx);
    const user = await makeUser(ctx, club.id, {
      permissions: { roleViewGeneralSettings: true, roleViewCalendar: false },
    });
    const api = new Api(ctx.app);
    await api.login(user.username, TEST_PASSWORD, club.externalClubId);
    expect((await api.get('/api/Calendar/Events')).statusCode).toBe(403);
    const viewer = await makeUser(ctx, club.id, { permissions: { roleViewCalendar: true } });
    const vapi = new Api(ctx.app);
    await vapi.login(viewer.username, TEST_PASSWORD, club.externalClubId);
    expect((await vapi.get('/api/Calendar/Events')).statusCode).toBe(200);
    expect((await vapi.request('POST', '/api/Calendar/Feed/Rotate', {})).statusCode).toBe(403);
  });

  it('serves the iCalendar feed at the club’s token: holidays, candle lighting and real opening hours; rotation', async () => {
    const { api, club } = await signedInAdmin(ctx);
    await api.patch(`/api/Club/${club.id}`, { location: { city: 'New York' } });
    expect((await api.get('/api/Calendar/Feed')).json()).toEqual({ path: null });
    await makeGroupWithSchedule(ctx, club.id, { name: 'Evening immersion', entranceState: 1 }, [
      { fromHalachic: HalachicTime.Nightfall, fromTime: null, toTime: 22 * 60, displayName: 'Women', entranceState: 2 },
    ]);
    const rotated = await api.request('POST', '/api/Calendar/Feed/Rotate', {});
    expect(rotated.statusCode).toBe(200);
    const path: string = rotated.json().path;
    expect(path).toMatch(/^\/api\/Calendar\/Feed\/[A-Za-z0-9_-]{43}\.ics$/);
    const anon = new Api(ctx.app);
    const feed = await anon.get(`${path}?lang=en`);
    expect(feed.statusCode).toBe(200);
    expect(feed.headers['content-type']).toContain('text/calendar');
    const ics = feed.body;
    expect(ics).toContain('BEGIN:VCALENDAR');
    expect(ics).toMatch(/SUMMARY:Candle lighting: \d/);
    expect(ics).toContain('SUMMARY:Evening immersion · Women');
    expect((await anon.get(path)).body).toContain('הדלקת נרות');
    // The rotation is audited, and the old link stops working at once.
    const again = (await api.request('POST', '/api/Calendar/Feed/Rotate', {})).json().path;
    expect(again).not.toBe(path);
    expect((await anon.get(path)).statusCode).toBe(404);
    expect((await anon.get(again)).statusCode).toBe(200);
    expect((await api.get('/api/Calendar/Feed')).json()).toEqual({ path: again });
    expect((await anon.get('/api/Calendar/Feed/' + 'A'.repeat(43) + '.ics')).statusCode).toBe(404);
    expect((await anon.get('/api/Calendar/Feed/short.ics')).statusCode).toBe(404);
    const rows = await ctx.database.db.select().from(auditLog).where(eq(auditLog.clubId, club.id));
    expect(rows.filter((r) => r.entity === 'calendarFeed')).toHaveLength(2);
    // The printed notice's opening hours: the same windows, per group and day, nightfall at New York.
    const hours = await api.get('/api/Calendar/Hours?start=2026-06-21&end=2026-06-22');
    expect(hours.statusCode).toBe(200);
    const g = hours.json().find((x: { groupName: string }) => x.groupName === 'Evening immersion');
    expect(g.days).toHaveLength(2);
    // Nightfall (tzeit 8.5°) at New York on 21 June 2026 is 21:21:20 EDT: an earliest time, the row opens at 21:22.
    expect(g.days[0].windows).toEqual([{ from: 21 * 60 + 22, to: 22 * 60, entranceState: 2, displayName: 'Women' }]);
    expect((await api.get('/api/Calendar/Hours?start=2026-06-01&end=2026-08-31')).json().code).toBe(
      'CALENDAR_RANGE_TOO_LONG',
    );
    expect((await api.get('/api/Calendar/Hours?start=2026-06-02&end=2026-06-01')).json().code).toBe(
      'CALENDAR_INVALID_DATE',
    );
    expect(JSON.stringify(rows)).not.toContain(path.slice(20, 60));
  });

  it('uses one candle-lighting time for one Friday everywhere: the club’s minutes or the place’s custom (issue 34 item 1)', async () => {
    const { api, club } = await signedInAdmin(ctx);
    await api.patch(`/api/Club/${club.id}`, { location: { city: 'Tel Aviv' } });
    expect((await api.get('/api/Club/GetCurrent')).json().location).toMatchObject({
      city: 'Tel Aviv',
      candleLightingMins: null,
      candleLightingMinsInForce: 20,
    });
    await makeGroupWithSchedule(ctx, club.id, { name: 'Shabbat eve', entranceState: 1 }, [
      { fromTime: 12 * 60, toHalachic: HalachicTime.CandleLighting, toTime: null, displayName: '', entranceState: 2 },
    ]);
    type E = { description: string; timed: { time: string } | null };
    const times = async () => {
      const grid = (await events(api, 'start=2026-01-02&end=2026-01-02&candlelighting=true')).json().events as E[];
      const panel = (await api.get('/api/Calendar/Zmanim?date=2026-01-02')).json();
      const hours = (await api.get('/api/Calendar/Hours?start=2026-01-02&end=2026-01-02')).json();
      const row = hours.find((g: { groupName: string }) => g.groupName === 'Shabbat eve').days[0].windows[0];
      const to = `${String(Math.floor(row.to / 60)).padStart(2, '0')}:${String(row.to % 60).padStart(2, '0')}`;
      return {
        grid: grid.find((e) => e.description === 'Candle lighting')!.timed!.time,
        panel: panel.times.find((t: { key: string }) => t.key === 'candleLighting').time,
        mins: panel.candleLightingMins,
        gateRowCloses: to,
      };
    };
    // Tel Aviv, 2 January 2026: sunset 16:48:02; the Israeli custom 20 minutes → 16:28 in every place.
    expect(await times()).toEqual({ grid: '16:28', panel: '16:28', mins: 20, gateRowCloses: '16:28' });
    // The club sets 18: every place follows, the calendar's events too (hebcal alone would keep 20 in Israel).
    const set = await api.patch(`/api/Club/${club.id}`, { location: { city: 'Tel Aviv', candleLightingMins: 18 } });
    expect(set.statusCode).toBe(200);
    expect(set.json().location).toMatchObject({ candleLightingMins: 18, candleLightingMinsInForce: 18 });
    expect(await times()).toEqual({ grid: '16:30', panel: '16:30', mins: 18, gateRowCloses: '16:30' });
    // The feed (today − 30 days to a year ahead): each Friday's time is the events' time of that day.
    const path = (await api.request('POST', '/api/Calendar/Feed/Rotate', {})).json().path;
    const ics: string = (await new Api(ctx.app).get(`${path}?lang=en`)).body;
    const fridays = [
      ...ics.matchAll(
        /DTSTART:(\d{4})(\d\d)(\d\d)T\d{6}Z?\r\n(?:(?!END:VEVENT)[^\r\n]*\r\n)*?SUMMARY:Candle lighting: (\d\d:\d\d)/g,
      ),
    ]
      .map((m) => ({ date: `${m[1]}-${m[2]}-${m[3]}`, time: m[4] }))
      .filter((f) => new Date(`${f.date}T12:00:00Z`).getUTCDay() === 5)
      .slice(0, 3);
    expect(fridays).toHaveLength(3);
    for (const f of fridays) {
      const grid = (await events(api, `start=${f.date}&end=${f.date}&candlelighting=true`)).json().events as E[];
      expect(f.time).toBe(grid.find((e) => e.description === 'Candle lighting')!.timed!.time);
    }
    // Out of range: 400 on the field, nothing saved.
    const bad = await api.patch(`/api/Club/${club.id}`, { location: { city: 'Tel Aviv', candleLightingMins: 91 } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details).toEqual([{ path: 'location.candleLightingMins', message: 'outOfRange' }]);
    expect((await api.get('/api/Club/GetCurrent')).json().location.candleLightingMins).toBe(18);
  });

  it('gives Chanukah’s weekday nights their candle-lighting time in the events and the feed (issue 34 item 2)', async () => {
    const { api, club } = await signedInAdmin(ctx);
    await api.patch(`/api/Club/${club.id}`, { location: { city: 'Jerusalem' } });
    const evs = (await events(api, 'start=2025-12-14&end=2025-12-21&candlelighting=true&locale=he')).json().events as {
      description: string;
      date: string;
      timed: { time: string } | null;
    }[];
    const nights = evs.filter((e) => e.description.startsWith('Chanukah:'));
    expect(nights).toHaveLength(8);
    expect(nights.filter((e) => e.timed === null).map((e) => e.date)).toEqual([]);
  });

  it('ends the feed with CRLF (RFC 5545 §3.1: every content line, the last too)', async () => {
    const { api } = await signedInAdmin(ctx);
    const path = (await api.request('POST', '/api/Calendar/Feed/Rotate', {})).json().path;
    const ics = (await new Api(ctx.app).get(path)).body;
    expect(ics.endsWith('END:VCALENDAR\r\n')).toBe(true);
    expect(ics.replaceAll('\r\n', '')).not.toMatch(/[\r\n]/);
  });

  it('answers malformed options with a translated key, never the validation library’s English (issue 34 item 6)', async () => {
    const { api } = await signedInAdmin(ctx);
    const keys = new Set([...Object.keys(en.validation), ...Object.keys(he.validation)]);
    for (const url of [
      '/api/Calendar/Events?il=maybe',
      '/api/Calendar/Events?candlelighting=2',
      '/api/Calendar/Events?yerushalmi=3',
      `/api/Calendar/Events?locale=${'x'.repeat(41)}`,
      `/api/Calendar/Events?start=${'2'.repeat(25)}`,
      '/api/Calendar/Zmanim?useElevation=perhaps',
      '/api/Calendar/Omer',
      '/api/Calendar/Hours?start=2026-01-01',
      `/api/Calendar/Feed/${'C'.repeat(43)}.ics?lang=fr`,
    ]) {
      const res = await api.get(url);
      const body = res.json();
      expect({ url, status: res.statusCode, code: body.code }).toEqual({ url, status: 400, code: 'VALIDATION_ERROR' });
      for (const d of body.details as { path: string; message: string }[]) {
        expect({
          url,
          path: d.path,
          known: keys.has(d.message) && d.message in en.validation && d.message in he.validation,
        }).toEqual({
          url,
          path: d.path,
          known: true,
        });
      }
    }
    expect((await api.get('/api/Calendar/Omer')).json().details).toEqual([{ path: 'day', message: 'required' }]);
  });

  it('limits the public feed to 30 requests a minute from one address', async () => {
    const anon = new Api(ctx.app);
    const codes: number[] = [];
    for (let i = 0; i < 32; i++) codes.push((await anon.get(`/api/Calendar/Feed/${'B'.repeat(43)}.ics`)).statusCode);
    expect(codes).toContain(429);
    expect(codes.filter((c) => c !== 429).every((c) => c === 404)).toBe(true);
  });
});
