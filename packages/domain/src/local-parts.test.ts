import { describe, expect, it } from 'vitest';
import { localParts, localToInstant } from './calendar.js';

/** Wall-clock parts straight from Intl, the reference localParts' quarter-hour offset cache must agree with. */
function intlParts(instant: Date, timeZone: string) {
  const f = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  });
  const p: Record<string, number> = {};
  for (const x of f.formatToParts(instant)) if (x.type !== 'literal') p[x.type] = Number(x.value);
  return { year: p.year, month: p.month, day: p.day, hour: p.hour, minute: p.minute, second: p.second };
}

const ZONES = [
  'Asia/Jerusalem',
  'America/New_York',
  'Europe/London',
  'Australia/Lord_Howe',
  'Asia/Kathmandu',
  'Pacific/Chatham',
];

describe('localParts', () => {
  it('agrees with Intl minute by minute around DST changes and at random instants, in odd-offset zones too', () => {
    // Israel's spring and autumn changes of 2026, New York's and Lord Howe's (a 30-minute shift).
    const around = [
      '2026-03-27T00:00:00Z',
      '2026-10-25T00:00:00Z',
      '2026-03-08T07:00:00Z',
      '2026-11-01T06:00:00Z',
      '2026-04-04T15:00:00Z',
    ];
    let checked = 0;
    for (const tz of ZONES) {
      for (const a of around) {
        const t0 = Date.parse(a);
        for (let m = -120; m <= 120; m += 7) {
          const at = new Date(t0 + m * 60_000 + 13_457);
          expect(localParts(at, tz), `${tz} ${at.toISOString()}`).toMatchObject(intlParts(at, tz));
          checked++;
        }
      }
      let seed = 7;
      for (let i = 0; i < 300; i++) {
        seed = (seed * 1103515245 + 12345) % 2 ** 31;
        const at = new Date(Date.UTC(2000, 0, 1) + (seed / 2 ** 31) * 40 * 365 * 86_400_000);
        expect(localParts(at, tz), `${tz} ${at.toISOString()}`).toMatchObject(intlParts(at, tz));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(2000);
  });

  it('gives the weekday of the local date (Sunday 0)', () => {
    // 2026-11-21 00:30 in Jerusalem is still Friday 20 Nov 22:30 UTC.
    expect(localParts(new Date('2026-11-20T22:30:00Z'), 'Asia/Jerusalem')).toMatchObject({ day: 21, weekday: 6 });
  });

  it('localToInstant inverts it across the spring-forward gap', () => {
    const d = { year: 2026, month: 3, day: 27 };
    // 02:30 does not exist in Jerusalem that night: one hour later.
    expect(localToInstant(d, 2.5 * 3600, 'Asia/Jerusalem').toISOString()).toBe('2026-03-27T00:30:00.000Z');
    expect(localToInstant(d, 9 * 3600, 'Asia/Jerusalem').toISOString()).toBe('2026-03-27T06:00:00.000Z');
  });
});

describe('localToInstant', () => {
  it('round-trips every quarter hour of DST weeks, and takes the first instant of an autumn overlap', () => {
    for (const tz of ZONES) {
      for (const start of [Date.UTC(2026, 2, 20), Date.UTC(2026, 9, 20), Date.UTC(2026, 3, 1)]) {
        for (let t = start; t < start + 14 * 86_400_000; t += 15 * 60_000) {
          const p = localParts(new Date(t), tz);
          const back = localToInstant(p, p.hour * 3600 + p.minute * 60 + p.second, tz).getTime();
          // In an overlap the wall time names two instants: the first one comes back.
          expect(
            back === t || back === t - 3_600_000 || back === t - 1_800_000,
            `${tz} ${new Date(t).toISOString()}`,
          ).toBe(true);
          expect(localParts(new Date(back), tz)).toMatchObject({ hour: p.hour, minute: p.minute, day: p.day });
        }
      }
    }
    // Israel's autumn 2026: 01:30 happens twice on 25 October; the first is in summer time (UTC+3).
    expect(localToInstant({ year: 2026, month: 10, day: 25 }, 1.5 * 3600, 'Asia/Jerusalem').toISOString()).toBe(
      '2026-10-24T22:30:00.000Z',
    );
  });
});
