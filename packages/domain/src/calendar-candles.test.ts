import { describe, expect, it } from 'vitest';
import { Location, Zmanim, HDate } from '@hebcal/core';
import {
  calendarEvents,
  calendarFeedEntries,
  dailyZmanim,
  readCalendarOptions,
  ZMAN_ROUNDING,
} from './calendar-events.js';
import type { CalendarEventsQuery } from './schemas/calendar.js';
import { candleLightingMinutes, customCandleLightingMinutes, halachicMinutes, type ClubLocation } from './calendar.js';
import { builtInCity, cityLocation, ClubLocationInput, JERUSALEM } from './locations.js';
import { HalachicTime } from './enums.js';

/**
 * Issue 34 items 1, 2, 4, 5 and 6: one candle-lighting time for one Friday in
 * every place (events, zmanim, feed, the gate's rows), Chanukah's weekday
 * times, the custom minutes by place rather than by name, 24-hour times for
 * an Israeli place on the diaspora schedule, and the rounding of deadlines
 * down and of earliest times up. docs/calendar.md "Candle lighting".
 */

const city = (id: string) => cityLocation(builtInCity(id)!);
const TEL_AVIV = city('Tel Aviv');
const HAIFA = city('Haifa');
const NEW_YORK = city('New York');
const ANTWERP = city('Antwerp');
const TODAY = { year: 2026, month: 1, day: 1 };

function eventsOn(date: string, loc: ClubLocation, extra: CalendarEventsQuery = {}) {
  return calendarEvents(readCalendarOptions({ start: date, end: date, candlelighting: true, ...extra }, loc, TODAY))
    .events;
}
const candleEvent = (date: string, loc: ClubLocation, extra: CalendarEventsQuery = {}) =>
  eventsOn(date, loc, extra).find((e) => e.description === 'Candle lighting')!;
const zman = (date: string, loc: ClubLocation, key: string) =>
  dailyZmanim({ date }, loc, TODAY).times.find((t) => t.key === key)!;
const hm = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/** Sunset's minute (seconds dropped) minus the minutes: the rule printed calendars and hebcal use. */
function expectedCandles(date: string, loc: ClubLocation, mins: number): string {
  const [y, m, d] = date.split('-').map(Number);
  const z = new Zmanim(
    new Location(loc.latitude, loc.longitude, false, loc.timeZone),
    new Date(y, m - 1, d, 12),
    false,
  );
  const t = z.sunsetOffset(-mins, true);
  return new Intl.DateTimeFormat('en-GB', { timeZone: loc.timeZone, hour: '2-digit', minute: '2-digit' }).format(t);
}

describe('one candle-lighting time per Friday (issue 34 item 1)', () => {
  it('Tel Aviv, 2 Jan 2026: the events, the day’s zmanim, the feed and the gate’s row agree on sunset − 20', () => {
    const date = '2026-01-02';
    const want = expectedCandles(date, TEL_AVIV, 20);
    expect(candleLightingMinutes(TEL_AVIV)).toBe(20);
    expect(candleEvent(date, TEL_AVIV).timed!.time).toBe(want);
    expect(zman(date, TEL_AVIV, 'candleLighting').time).toBe(want);
    const feed = calendarFeedEntries(
      TEL_AVIV,
      'en',
      { year: 2026, month: 1, day: 2 },
      { year: 2026, month: 1, day: 2 },
    );
    const feedCandles = feed.find((e) => e.summary.startsWith('Candle lighting'))!;
    expect(feedCandles.summary).toBe(`Candle lighting: ${want}`);
    expect(hm(halachicMinutes(HalachicTime.CandleLighting, { year: 2026, month: 1, day: 2 }, TEL_AVIV)!)).toBe(want);
  });

  it('the club’s own minutes drive every place, 18 in Israel too (hebcal would put 20 in its place)', () => {
    const date = '2026-01-02';
    const loc = { ...TEL_AVIV, candleLightingMins: 18 };
    const want = expectedCandles(date, TEL_AVIV, 18);
    expect(candleEvent(date, loc).timed!.time).toBe(want);
    expect(zman(date, loc, 'candleLighting').time).toBe(want);
    expect(dailyZmanim({ date }, loc, TODAY).candleLightingMins).toBe(18);
    const feed = calendarFeedEntries(loc, 'en', { year: 2026, month: 1, day: 2 }, { year: 2026, month: 1, day: 2 });
    expect(feed.find((e) => e.summary.startsWith('Candle lighting'))!.summary).toBe(`Candle lighting: ${want}`);
    expect(hm(halachicMinutes(HalachicTime.CandleLighting, { year: 2026, month: 1, day: 2 }, loc)!)).toBe(want);
    // An explicit candleLightingMins=18 for an Israeli place is 18 as well.
    expect(candleEvent(date, TEL_AVIV, { candleLightingMins: '18' }).timed!.time).toBe(want);
    // Jerusalem asked at 18 (not its 40).
    expect(candleEvent(date, JERUSALEM, { candleLightingMins: '18' }).timed!.time).toBe(
      expectedCandles(date, JERUSALEM, 18),
    );
  });

  it('Haifa 30, Jerusalem 40, diaspora 18, on every Friday of a winter month', () => {
    for (const [loc, mins] of [
      [JERUSALEM, 40],
      [HAIFA, 30],
      [TEL_AVIV, 20],
      [city('Beer Sheva'), 20],
      [NEW_YORK, 18],
      [ANTWERP, 18],
    ] as const) {
      for (const date of ['2026-01-02', '2026-01-09', '2026-01-16', '2026-01-23', '2026-01-30']) {
        const want = expectedCandles(date, loc, mins);
        expect({ loc: loc.name, date, grid: candleEvent(date, loc).timed!.time }).toEqual({
          loc: loc.name,
          date,
          grid: want,
        });
        expect({ loc: loc.name, date, panel: zman(date, loc, 'candleLighting').time }).toEqual({
          loc: loc.name,
          date,
          panel: want,
        });
      }
    }
  });
});

describe('the custom minutes come from the place, not its name (issue 34 item 4)', () => {
  const custom = (o: Partial<ClubLocation>): ClubLocation => ({
    name: 'Mikveh',
    latitude: 0,
    longitude: 0,
    elevation: 0,
    timeZone: 'UTC',
    il: false,
    countryCode: '',
    ...o,
  });
  it('gives Brooklyn 18 whatever its name says', () => {
    const brooklyn = custom({
      name: 'New Jerusalem Mikveh, Brooklyn',
      latitude: 40.6782,
      longitude: -73.9442,
      timeZone: 'America/New_York',
      countryCode: 'US',
    });
    expect(customCandleLightingMinutes(brooklyn)).toBe(18);
    expect(dailyZmanim({ date: '2026-01-02' }, brooklyn, TODAY).candleLightingMins).toBe(18);
    expect(customCandleLightingMinutes(custom({ name: 'Haifa Street Pool', latitude: 51.5, longitude: -0.12 }))).toBe(
      18,
    );
  });
  it('gives a place in Jerusalem 40, near Haifa or in Zikhron Ya’akov 30, elsewhere in Israel 20', () => {
    const il = { countryCode: 'IL', il: true, timeZone: 'Asia/Jerusalem' };
    expect(
      customCandleLightingMinutes(custom({ ...il, name: 'Mikveh Ramot', latitude: 31.815, longitude: 35.19 })),
    ).toBe(40);
    expect(
      customCandleLightingMinutes(custom({ ...il, name: 'Neve Yaakov', latitude: 31.84, longitude: 35.245 })),
    ).toBe(40);
    expect(customCandleLightingMinutes(custom({ ...il, name: 'Carmel pool', latitude: 32.79, longitude: 34.99 }))).toBe(
      30,
    );
    expect(customCandleLightingMinutes(custom({ ...il, name: 'Zichron', latitude: 32.5707, longitude: 34.9565 }))).toBe(
      30,
    );
    expect(
      customCandleLightingMinutes(custom({ ...il, name: 'Jerusalem St.', latitude: 32.08, longitude: 34.78 })),
    ).toBe(20);
    // Beit Shemesh, 21 km from Jerusalem: the rest of Israel.
    expect(
      customCandleLightingMinutes(custom({ ...il, name: 'Beit Shemesh', latitude: 31.75, longitude: 34.99 })),
    ).toBe(20);
    // No country code, on the Israel schedule: an Israeli place.
    expect(customCandleLightingMinutes(custom({ il: true, latitude: 31.25, longitude: 34.79 }))).toBe(20);
  });
  it('takes the club’s own minutes beside a built-in city or a custom location (0–90, whole minutes)', () => {
    expect(ClubLocationInput.safeParse({ city: 'Tel Aviv', candleLightingMins: 18 }).success).toBe(true);
    expect(ClubLocationInput.safeParse({ city: 'Tel Aviv', candleLightingMins: null }).success).toBe(true);
    const bad = ClubLocationInput.safeParse({ city: 'Tel Aviv', candleLightingMins: 91 });
    expect(bad.success ? [] : bad.error.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['candleLightingMins', 'outOfRange'],
    ]);
    const frac = ClubLocationInput.safeParse({ city: 'Tel Aviv', candleLightingMins: 18.5 });
    expect(frac.success ? [] : frac.error.issues.map((i) => i.message)).toEqual(['outOfRange']);
  });
});

describe('Chanukah candle lighting (issue 34 item 2)', () => {
  // Chanukah 5786: the first candle on the evening of Sunday 14 Dec 2025, the eighth on Sunday 21 Dec.
  const run = (loc: ClubLocation) =>
    calendarEvents(readCalendarOptions({ start: '2025-12-14', end: '2025-12-22', candlelighting: true }, loc, TODAY))
      .events;
  const exact = (loc: ClubLocation, date: string, f: (z: Zmanim) => Date) => {
    const [y, m, d] = date.split('-').map(Number);
    return f(
      new Zmanim(
        new Location(loc.latitude, loc.longitude, false, loc.timeZone),
        new HDate(new Date(y, m - 1, d, 12)),
        false,
      ),
    );
  };
  const local = (loc: ClubLocation, t: Date) =>
    new Intl.DateTimeFormat('en-GB', { timeZone: loc.timeZone, hour: '2-digit', minute: '2-digit' }).format(t);
  const ceilMinute = (t: Date) => new Date(Math.ceil(t.getTime() / 60_000) * 60_000);

  for (const loc of [JERUSALEM, NEW_YORK]) {
    it(`${loc.name}: every night has its time — weekdays at bein hashmashos, Friday at candle lighting, Saturday at havdalah`, () => {
      const evs = run(loc);
      const nights = evs.filter((e) => /^Chanukah: \d Candles?$/.test(e.description));
      expect(nights.map((e) => e.date)).toEqual([
        '2025-12-14',
        '2025-12-15',
        '2025-12-16',
        '2025-12-17',
        '2025-12-18',
        '2025-12-19',
        '2025-12-20',
        '2025-12-21',
      ]);
      for (const n of nights) {
        expect({ date: n.date, timed: n.timed !== null }).toEqual({ date: n.date, timed: true });
        const weekday = new Date(`${n.date}T12:00:00Z`).getUTCDay();
        const want =
          weekday === 5
            ? evs.find((e) => e.date === n.date && e.description === 'Candle lighting')!.timed!.time
            : weekday === 6
              ? evs.find((e) => e.date === n.date && e.description === 'Havdalah')!.timed!.time
              : local(loc, ceilMinute(exact(loc, n.date, (z) => z.beinHaShmashos())));
        expect({ date: n.date, time: n.timed!.time }).toEqual({ date: n.date, time: want });
        expect(n.timed!.formatted).toMatch(/^\d{1,2}:\d\d(pm|am)?$/);
      }
    });
  }

  it('the feed carries each night as a timed entry', () => {
    const feed = calendarFeedEntries(
      JERUSALEM,
      'he',
      { year: 2025, month: 12, day: 14 },
      { year: 2025, month: 12, day: 21 },
    );
    const nights = feed.filter((e) => e.uid.includes('Chanukah'));
    expect(nights).toHaveLength(8);
    expect(nights.every((e) => e.instant !== null && e.day === null)).toBe(true);
  });
});

describe('an Israeli place on the diaspora schedule keeps 24-hour times (issue 34 item 5)', () => {
  it('Tel Aviv with il=false: 16:xx, not 4:xxpm', () => {
    const c = candleEvent('2026-01-02', TEL_AVIV, { il: false });
    expect(c.timed!.formatted).toMatch(/^16:\d\d$/);
    expect(c.title).toMatch(/^Candle lighting: 16:\d\d$/);
    // New York keeps hebcal's 12-hour default, and hour12 still overrides.
    expect(candleEvent('2026-01-02', NEW_YORK).timed!.formatted).toMatch(/pm$/);
    expect(candleEvent('2026-01-02', TEL_AVIV, { il: false, hour12: true }).timed!.formatted).toMatch(/pm$/);
  });
});

describe('rounding: deadlines down, earliest times up (issue 34 item 6)', () => {
  it('names a direction for every time of the day', () => {
    expect(Object.keys(ZMAN_ROUNDING).sort()).toEqual(
      dailyZmanim({ date: '2026-01-02' }, JERUSALEM, TODAY)
        .times.map((t) => t.key)
        .sort(),
    );
  });
  it('never shows a deadline after it passes nor an earliest time before it comes (30 days, three places)', () => {
    let checked = 0;
    for (const loc of [JERUSALEM, NEW_YORK, ANTWERP]) {
      for (let d = 1; d <= 30; d++) {
        const date = `2026-03-${String(d).padStart(2, '0')}`;
        const z = dailyZmanim({ date }, loc, TODAY);
        for (const t of z.times) {
          if (!t.instant) continue;
          const at = Date.parse(t.instant);
          const [h, m] = t.time!.split(':').map(Number);
          const local = new Intl.DateTimeFormat('en-GB', {
            timeZone: loc.timeZone,
            hour: '2-digit',
            minute: '2-digit',
            second: '2-digit',
            hourCycle: 'h23',
          }).format(at);
          const [lh, lm, ls] = local.split(':').map(Number);
          const shown = h * 60 + m;
          const real = lh * 60 + lm + ls / 60;
          if (ZMAN_ROUNDING[t.key] === 'down')
            expect({ key: t.key, date, ok: shown <= real }).toEqual({ key: t.key, date, ok: true });
          else expect({ key: t.key, date, ok: shown >= real }).toEqual({ key: t.key, date, ok: true });
          expect(Math.abs(shown - real)).toBeLessThan(1);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(1700);
  });
  it('the grid’s havdalah is the day panel’s havdalah (both rounded up)', () => {
    for (const date of ['2026-01-03', '2026-01-10', '2026-01-17', '2026-01-24', '2026-01-31']) {
      for (const loc of [JERUSALEM, NEW_YORK, ANTWERP]) {
        const grid = eventsOn(date, loc).find((e) => e.description === 'Havdalah')!.timed!.time;
        expect({ date, loc: loc.name, grid }).toEqual({ date, loc: loc.name, grid: zman(date, loc, 'havdalah').time });
      }
    }
  });
});
