import { describe, expect, it } from 'vitest';
import { JERUSALEM, builtInCity, cityLocation } from './locations.js';
import { localToInstant, parseIsoDate } from './local-date.js';
import { nextSendMoment, quietUntil, restPeriodAt } from './notice-window.js';

const at = (date: string, hhmm: string, tz = JERUSALEM.timeZone) => {
  const [h, m] = hhmm.split(':').map(Number);
  return localToInstant(parseIsoDate(date), h * 3600 + m * 60, tz);
};
const local = (d: Date, tz = JERUSALEM.timeZone) =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone: tz,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  })
    .format(d)
    .replace(',', '');
const NO_QUIET = { quietFrom: 0, quietTo: 0 };

/** docs/notifications.md "Shabbat, holidays and quiet hours". */
describe('when a notice may go out', () => {
  it('waits from candle lighting on Friday to havdalah on Saturday night, at the club location', () => {
    // Jerusalem, Friday 4 December 2026: candle lighting 15:57 (40 minutes before sunset), havdalah 17:13.
    expect(restPeriodAt(at('2026-12-04', '15:30'), JERUSALEM)).toBeNull();
    const friday = restPeriodAt(at('2026-12-04', '16:30'), JERUSALEM);
    expect(friday?.reason).toBe('shabbat');
    expect(local(friday!.until)).toMatch(/^2026-12-05 17:1\d$/);
    expect(restPeriodAt(at('2026-12-05', '12:00'), JERUSALEM)?.until).toEqual(friday!.until);
    expect(restPeriodAt(new Date(friday!.until.getTime() + 60_000), JERUSALEM)).toBeNull();
    // Later in New York (its own sunset and time zone).
    const ny = cityLocation(builtInCity('New York')!);
    const nyFriday = restPeriodAt(at('2026-12-04', '16:30', ny.timeZone), ny);
    expect(nyFriday?.reason).toBe('shabbat');
    expect(local(nyFriday!.until, ny.timeZone)).toMatch(/^2026-12-05 17:\d\d$/);
    expect(restPeriodAt(at('2026-12-04', '15:30', ny.timeZone), ny)).toBeNull();
  });

  it('treats Shabbat and a two-day Rosh Hashana as one run, then quiet hours', () => {
    // Rosh Hashana 5787: Saturday 12 and Sunday 13 September 2026 (Shabbat, then the second day).
    const eve = at('2026-09-11', '19:00');
    const run = restPeriodAt(eve, JERUSALEM);
    expect(run?.reason).toBe('holiday');
    expect(local(run!.until)).toMatch(/^2026-09-13 19:\d\d$/);
    // With quiet hours from 19:00 to 08:00, havdalah falls inside them: Monday morning.
    const next = nextSendMoment(eve, JERUSALEM, { quietFrom: 19 * 60, quietTo: 8 * 60 });
    expect(next.reason).toBe('holiday');
    expect(local(next.at)).toBe('2026-09-14 08:00');
  });

  it('keeps quiet hours across midnight, and none when from equals to', () => {
    const q = { quietFrom: 22 * 60, quietTo: 8 * 60 };
    expect(local(quietUntil(at('2026-12-01', '23:10'), JERUSALEM, q)!)).toBe('2026-12-02 08:00');
    expect(local(quietUntil(at('2026-12-02', '06:59'), JERUSALEM, q)!)).toBe('2026-12-02 08:00');
    expect(quietUntil(at('2026-12-02', '08:00'), JERUSALEM, q)).toBeNull();
    expect(quietUntil(at('2026-12-02', '03:00'), JERUSALEM, NO_QUIET)).toBeNull();
    const day = nextSendMoment(at('2026-12-02', '10:00'), JERUSALEM, q);
    expect(day.reason).toBeNull();
  });
});
