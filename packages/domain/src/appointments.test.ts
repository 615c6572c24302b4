import { describe, expect, it } from 'vitest';
import { planReminders, bookingGateVerdict, computeSlots } from './appointments.js';
import { restPeriodAt } from './notice-window.js';
import { JERUSALEM } from './locations.js';
import { localToInstant } from './local-date.js';
import { halachicTimeAt } from './calendar.js';
import { HalachicTime } from './enums.js';

const tz = JERUSALEM.timeZone;
const at = (y: number, m: number, d: number, h: number, mi = 0) =>
  localToInstant({ year: y, month: m, day: d }, (h * 60 + mi) * 60, tz);

describe('reminders around Shabbat', () => {
  it('sends a Friday-night booking’s hour-before reminder before candle lighting', () => {
    // Friday 2031-03-07, 20:00 in Jerusalem: after candle lighting.
    const start = at(2031, 3, 7, 20);
    const plan = planReminders(start, at(2031, 3, 1, 10), JERUSALEM);
    const candles = halachicTimeAt(HalachicTime.CandleLighting, { year: 2031, month: 3, day: 7 }, JERUSALEM)!;
    const hour = plan.find((p) => p.kind === 'hour')!;
    // Candle lighting as printed (the minute rounded down: notice-window.ts), less an hour.
    expect(hour.at.getTime()).toBe(Math.floor(candles.getTime() / 60_000) * 60_000 - 60 * 60_000);
    expect(plan.find((p) => p.kind === 'day')!.at.getTime()).toBe(start.getTime() - 86_400_000);
    for (const p of plan) expect(restPeriodAt(p.at, JERUSALEM)).toBeNull();
  });

  it('moves a Sunday-night booking’s day-before reminder out of Shabbat (Saturday before havdalah)', () => {
    const start = at(2031, 3, 9, 17);
    const plan = planReminders(start, at(2031, 3, 1, 10), JERUSALEM);
    for (const p of plan) expect(restPeriodAt(p.at, JERUSALEM)).toBeNull();
    expect(plan.find((p) => p.kind === 'day')!.at < at(2031, 3, 7, 17)).toBe(true);
  });

  it('finds Saturday noon inside Shabbat and Tuesday noon outside', () => {
    expect(restPeriodAt(at(2031, 3, 8, 12), JERUSALEM)).not.toBeNull();
    expect(restPeriodAt(at(2031, 3, 11, 12), JERUSALEM)).toBeNull();
  });
});

describe('the gate window', () => {
  it('admits within the window, names early arrivals and members without a booking', () => {
    const s = Date.UTC(2031, 2, 3, 18);
    const w = { beforeMinutes: 20, afterMinutes: 45 };
    expect(bookingGateVerdict([s], s - 10 * 60_000, w)).toBe('inWindow');
    expect(bookingGateVerdict([s], s - 60 * 60_000, w)).toBe('outsideWindow');
    expect(bookingGateVerdict([], s, w)).toBe('noBooking');
  });
});

describe('slots', () => {
  it('lays slots from each open window, skipping closed pieces and taken rooms', () => {
    const days = [
      {
        date: '2031-03-03',
        weekday: 1,
        erevChag: false,
        holidays: [],
        hebrewDate: '',
        sunset: 1070,
        nightfall: 1100,
        windows: [
          { from: 1100, to: 1200, entranceState: 2, rowId: 1, source: 'own' as const, displayName: '', price: 0 },
          { from: 1200, to: 1260, entranceState: 1, rowId: 2, source: 'own' as const, displayName: '', price: 0 },
        ],
      },
    ];
    const room = { id: 1, kind: 'pool', serviceMinutes: 20, bufferMinutes: 10 };
    const first = localToInstant({ year: 2031, month: 3, day: 3 }, 1100 * 60, tz);
    const [d] = computeSlots({
      days,
      resources: [room],
      busy: [{ resourceId: 1, startsAt: first, blockedUntil: new Date(first.getTime() + 30 * 60_000) }],
      timeZone: tz,
    });
    expect(d.slots.map((s) => s.minute)).toEqual([1100, 1130, 1160]);
    expect(d.slots.map((s) => s.free)).toEqual([false, true, true]);
  });
});
