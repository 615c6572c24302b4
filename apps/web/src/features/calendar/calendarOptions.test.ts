import { describe, expect, it } from 'vitest';
import { clock, defaultPrefs, eventsQuery, monthCells, readPrefs } from './calendarOptions';

describe('calendar options', () => {
  it('defaults to the interface language’s rendering and the location’s Israel flag', () => {
    expect(defaultPrefs('he')).toMatchObject({ locale: 'he', il: null, candlelighting: true });
    expect(defaultPrefs('en').locale).toBe('en');
  });

  it('reads saved options over the defaults and drops damaged or foreign values', () => {
    expect(readPrefs('{"locale":"he-x-NoNikud","il":false,"havdalahMins":50}', 'en')).toMatchObject({
      locale: 'he-x-NoNikud',
      il: false,
      havdalahMins: 50,
    });
    expect(readPrefs('{"locale":"fr","omer":"yes","yerushalmi":7}', 'en')).toEqual(defaultPrefs('en'));
    expect(readPrefs('not json', 'he')).toEqual(defaultPrefs('he'));
  });

  it('asks for degrees only when no havdalah minutes are set (seed 001 §5: not both)', () => {
    const p = { ...defaultPrefs('en'), havdalahMins: 42, havdalahDeg: 8.5 };
    const q = eventsQuery(p, '2026-04-01', '2026-04-30');
    expect(q).toMatchObject({ start: '2026-04-01', end: '2026-04-30', havdalahMins: '42', addHebrewDates: 'true' });
    expect(q.havdalahDeg).toBeUndefined();
    expect(q.il).toBeUndefined();
    expect(eventsQuery({ ...p, havdalahMins: null, il: true }, 'a', 'b')).toMatchObject({
      havdalahDeg: '8.5',
      il: 'true',
    });
  });

  it('lays a month out from Sunday', () => {
    const april = monthCells(2026, 4); // 1 April 2026 is a Wednesday
    expect(april.slice(0, 4)).toEqual([null, null, null, '2026-04-01']);
    expect(april.length % 7).toBe(0);
    expect(april.filter(Boolean)).toHaveLength(30);
  });

  it('writes minutes past midnight with the day they fall on', () => {
    expect(clock(1170)).toBe('19:30');
    expect(clock(1530)).toBe('01:30 +1');
  });
});
