import { describe, expect, it } from 'vitest';
import { HalachicTime } from './enums.js';
import { halachicMinutes, JERUSALEM, parseIsoDate } from './calendar.js';
import { hhmm } from './schedule.js';
import { computeWeekPreview, type PreviewRow } from './weekPreview.js';

const base = {
  fromTime: null,
  toTime: null,
  fromHalachic: null,
  fromOffset: 0,
  toHalachic: null,
  toOffset: 0,
  fromDate: null,
  toDate: null,
  terminalId: null,
  displayName: '',
  price: 0,
  general: false,
} as const;
const row = (id: number, sortOrder: number, r: Partial<PreviewRow>): PreviewRow => ({
  ...base,
  id,
  sortOrder,
  days: [0, 1, 2, 3, 4, 5, 6],
  entranceState: 2,
  ...r,
});

describe('computeWeekPreview', () => {
  it('opens at nightfall each day, with sunset and nightfall from hebcal, and marks the eve of Rosh Hashana', () => {
    const days = computeWeekPreview({
      from: parseIsoDate('2026-09-06'),
      loc: JERUSALEM,
      newDayStartHour: 0,
      rows: [row(1, 0, { days: [0, 1, 2, 3, 4, 7], fromHalachic: HalachicTime.Nightfall, toTime: hhmm('23:00') })],
    });
    expect(days.map((d) => d.date)).toEqual([
      '2026-09-06',
      '2026-09-07',
      '2026-09-08',
      '2026-09-09',
      '2026-09-10',
      '2026-09-11',
      '2026-09-12',
    ]);
    expect(days.map((d) => d.erevChag)).toEqual([false, false, false, false, false, true, false]);
    for (const d of days.slice(0, 5)) {
      const night = halachicMinutes(HalachicTime.Nightfall, parseIsoDate(d.date), JERUSALEM)!;
      expect(d.nightfall).toBe(night);
      expect(d.sunset!).toBeLessThan(night);
      expect(d.windows).toEqual([
        { from: night, to: hhmm('23:00'), entranceState: 2, rowId: 1, source: 'own', displayName: '', price: 0 },
      ]);
    }
    // Friday 11 September is a Friday (day 5, not in the row) but the eve of a holiday (day 7): open.
    expect(days[5].weekday).toBe(5);
    expect(days[5].windows).toHaveLength(1);
    // Saturday is Rosh Hashana itself: closed, and named.
    expect(days[6].windows).toEqual([]);
    expect(days[6].holidays.join(' ').replace(/[\u0591-\u05C7]/g, '')).toMatch(/ראש השנה/);
  });

  it('splits the day where rows overlap: the lower row wins, general rows rank below the group’s own', () => {
    const [day] = computeWeekPreview({
      from: parseIsoDate('2026-03-01'),
      loc: JERUSALEM,
      newDayStartHour: 0,
      days: 1,
      rows: [
        row(10, 0, { fromTime: hhmm('08:00'), toTime: hhmm('12:00'), entranceState: 1, general: true }),
        row(2, 0, { fromTime: hhmm('10:00'), toTime: hhmm('11:00'), entranceState: 2, price: 3000 }),
        row(3, 1, { fromTime: hhmm('10:30'), toTime: hhmm('13:00'), entranceState: 6 }),
        row(4, 2, { fromTime: hhmm('20:00'), toTime: hhmm('02:00'), entranceState: 3, terminalId: 5 }),
      ],
    });
    expect(day.windows.map((w) => [w.from, w.to, w.rowId, w.source])).toEqual([
      [hhmm('08:00'), hhmm('10:00'), 10, 'general'],
      [hhmm('10:00'), hhmm('10:30'), 2, 'own'],
      [hhmm('10:30'), hhmm('13:00'), 3, 'own'],
    ]);
  });

  it('shows rows past midnight and the rows of one terminal when asked', () => {
    const rows = [row(4, 0, { fromTime: hhmm('20:00'), toTime: hhmm('02:00'), entranceState: 3, terminalId: 5 })];
    const [d1, d2] = computeWeekPreview({
      from: parseIsoDate('2026-03-01'),
      loc: JERUSALEM,
      newDayStartHour: 4,
      days: 2,
      rows,
      terminalId: 5,
    });
    expect(d1.windows.map((w) => [w.from, w.to])).toEqual([[hhmm('20:00'), 1440 + hhmm('02:00')]]);
    expect(d2.windows).toHaveLength(1);
    const none = computeWeekPreview({
      from: parseIsoDate('2026-03-01'),
      loc: JERUSALEM,
      newDayStartHour: 4,
      days: 1,
      rows,
    });
    expect(none[0].windows).toEqual([]);
  });
});
