import { describe, expect, it } from 'vitest';
import { halachicTimeAt, isErevChag, JERUSALEM, localParts, parseIsoDate } from './calendar.js';
import { EntranceState, HalachicTime } from './enums.js';
import { businessMoment, HOLIDAY_EVE_DAY, hhmm, resolveScheduleRow, type ScheduleRowTimes } from './schedule.js';

/** Schedule resolution (seed 001 §3 "Schedule entry", §4 "the lower one wins") against real zmanim and holidays. */

const ALL_WEEK = [0, 1, 2, 3, 4, 5, 6];
function row(over: Partial<ScheduleRowTimes> & { id: number }): ScheduleRowTimes {
  return {
    sortOrder: over.id,
    days: ALL_WEEK,
    fromTime: null,
    toTime: null,
    fromHalachic: null,
    fromOffset: 0,
    toHalachic: null,
    toOffset: 0,
    fromDate: null,
    toDate: null,
    terminalId: null,
    entranceState: EntranceState.Opened,
    ...over,
  };
}
const TZ = JERUSALEM.timeZone;
const resolve = (rows: ScheduleRowTimes[], iso: string, terminalId = 1, newDayHour = 0) =>
  resolveScheduleRow(rows, terminalId, businessMoment(new Date(iso), TZ, newDayHour), JERUSALEM)?.id ?? null;

describe('holiday eves from hebcal', () => {
  it('knows real erev chag days in Israel', () => {
    expect(isErevChag(parseIsoDate('2026-09-11'), true)).toBe(true); // Erev Rosh Hashana 5787
    expect(isErevChag(parseIsoDate('2026-09-20'), true)).toBe(true); // Erev Yom Kippur
    expect(isErevChag(parseIsoDate('2026-09-25'), true)).toBe(true); // Erev Sukkot
    expect(isErevChag(parseIsoDate('2026-04-01'), true)).toBe(true); // Erev Pesach
    expect(isErevChag(parseIsoDate('2026-09-12'), true)).toBe(false); // Rosh Hashana I: not an eve
    expect(isErevChag(parseIsoDate('2026-09-06'), true)).toBe(false); // an ordinary Sunday
  });
});

describe('resolveScheduleRow with halachic times (Jerusalem)', () => {
  // From nightfall (tzeit, 8.5°) to 23:00.
  const nightfall = row({ id: 1, fromHalachic: HalachicTime.Nightfall, toTime: hhmm('23:00') });

  it('opens at tzeit, not before', () => {
    const tzeit = halachicTimeAt(HalachicTime.Nightfall, parseIsoDate('2026-09-06'), JERUSALEM)!;
    const local = localParts(tzeit, TZ);
    expect(local.hour).toBe(19); // about 19:32 in early September
    const before = new Date(tzeit.getTime() - 2 * 60_000).toISOString();
    const after = new Date(tzeit.getTime() + 2 * 60_000).toISOString();
    expect(resolve([nightfall], before)).toBeNull();
    expect(resolve([nightfall], after)).toBe(1);
    expect(resolve([nightfall], '2026-09-06T19:59:00Z')).toBe(1); // 22:59 local
    expect(resolve([nightfall], '2026-09-06T20:00:00Z')).toBeNull(); // 23:00 local
  });

  it('follows the season: tzeit in June is later than in December', () => {
    // 19:00 local is after tzeit in December and before it in June.
    expect(resolve([nightfall], '2026-12-15T17:00:00Z')).toBe(1);
    expect(resolve([nightfall], '2026-06-15T16:00:00Z')).toBeNull();
  });

  it('applies a minute offset to a halachic time', () => {
    const late = row({ id: 1, fromHalachic: HalachicTime.Sunset, fromOffset: 30, toTime: hhmm('23:00') });
    const sunset = halachicTimeAt(HalachicTime.Sunset, parseIsoDate('2026-09-06'), JERUSALEM)!;
    expect(resolve([late], new Date(sunset.getTime() + 20 * 60_000).toISOString())).toBeNull();
    expect(resolve([late], new Date(sunset.getTime() + 40 * 60_000).toISOString())).toBe(1);
  });

  it('a row running past midnight covers the early hours of the next date', () => {
    const night = row({ id: 1, fromTime: hhmm('20:00'), toTime: hhmm('01:00') });
    expect(resolve([night], '2026-09-06T21:30:00Z')).toBe(1); // 00:30 local on Monday
    expect(resolve([night], '2026-09-06T22:30:00Z')).toBeNull(); // 01:30 local
  });
});

describe('resolveScheduleRow with holiday-eve rows', () => {
  const sundays = row({ id: 1, days: [0], fromTime: hhmm('18:00'), toTime: hhmm('23:00') });
  const erevClosed = row({
    id: 2,
    days: [HOLIDAY_EVE_DAY],
    fromTime: hhmm('12:00'),
    toTime: hhmm('23:59'),
    entranceState: EntranceState.Closed,
  });

  it('the holiday-eve row wins on erev Yom Kippur (Sunday 2026-09-20), being lower in the list', () => {
    // 20:00 local
    expect(resolve([sundays, erevClosed], '2026-09-20T17:00:00Z')).toBe(2);
  });

  it('an ordinary Sunday uses the weekday row', () => {
    expect(resolve([sundays, erevClosed], '2026-09-06T17:00:00Z')).toBe(1);
  });

  it('on overlap the lower row (higher sortOrder) wins whatever the input order', () => {
    const a = { ...sundays, sortOrder: 5 };
    const b = { ...erevClosed, sortOrder: 1 };
    expect(resolve([b, a], '2026-09-20T17:00:00Z')).toBe(1);
  });

  it('a holiday-eve row applies on erev Pesach (Wednesday 2026-04-01) and not the Wednesday before', () => {
    const eveOnly = row({ id: 3, days: [HOLIDAY_EVE_DAY], fromTime: hhmm('08:00'), toTime: hhmm('12:00') });
    expect(resolve([eveOnly], '2026-04-01T07:00:00Z')).toBe(3); // 10:00 local (IDT)
    expect(resolve([eveOnly], '2026-03-25T07:00:00Z')).toBeNull();
  });
});

describe('resolveScheduleRow: terminals, validity dates and the new-day hour', () => {
  it('a row naming a terminal applies only there; a row without one applies to all', () => {
    const rows = [
      row({ id: 1, fromTime: 0, toTime: 1440 }),
      row({ id: 2, fromTime: 0, toTime: 1440, terminalId: 7, entranceState: EntranceState.Closed }),
    ];
    expect(resolve(rows, '2026-09-06T09:00:00Z', 7)).toBe(2);
    expect(resolve(rows, '2026-09-06T09:00:00Z', 8)).toBe(1);
  });

  it('respects the validity dates, inclusive', () => {
    const r = row({ id: 1, fromTime: 0, toTime: 1440, fromDate: '2026-09-01', toDate: '2026-09-06' });
    expect(resolve([r], '2026-09-06T09:00:00Z')).toBe(1);
    expect(resolve([r], '2026-09-07T09:00:00Z')).toBeNull();
    expect(resolve([r], '2026-08-31T09:00:00Z')).toBeNull();
  });

  it('before the new-day hour the moment belongs to the previous business date', () => {
    const bm = businessMoment(new Date('2026-09-06T23:00:00Z'), TZ, 4); // 02:00 local Monday
    expect(bm.date).toEqual({ year: 2026, month: 9, day: 6 });
    expect(bm.minutes).toBe(26 * 60);
    const sundayNight = row({ id: 1, days: [0], fromTime: hhmm('20:00'), toTime: hhmm('03:00') });
    expect(resolve([sundayNight], '2026-09-06T23:00:00Z', 1, 4)).toBe(1);
  });
});
