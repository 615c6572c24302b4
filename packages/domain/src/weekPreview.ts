import {
  addDays,
  halachicMinutes,
  holidaysOn,
  isErevChag,
  isoDate,
  weekdayOf,
  type ClubLocation,
  type LocalDate,
} from './calendar.js';
import { HalachicTime } from './enums.js';
import { hebrewDate } from './hebrew-date.js';
import { resolveScheduleRow, rowAppliesOnDate, rowWindow, type ScheduleRowTimes } from './schedule.js';
import type { PreviewDay, PreviewWindow } from './schemas/groups.js';

/**
 * The week preview of a group's schedule: for each of seven
 * days, the opening windows its rows actually produce at the club's location,
 * with sunset, nightfall, holiday eves and holidays. Pure: the server answers
 * GET /api/Group/{id}/WeekPreview with it and the console may run it on
 * unsaved rows.
 */

/**
 * Linked general schedules rank below every row of the group itself (the
 * entrance engine's rule, modules/gate/entrance.service.ts GENERAL_ROW_OFFSET).
 */
export const GENERAL_SCHEDULE_RANK_OFFSET = 1_000_000;

/** A row as the preview reads it. */
export type PreviewRow = ScheduleRowTimes & { displayName: string; price: number; general: boolean };

/**
 * Seven days of windows from `from`. Each business day runs from the group's
 * new-day hour to the same hour next day; it is cut wherever a row starts or
 * ends (rows of the day before that run past midnight included), each piece
 * gets the row `resolveScheduleRow` puts in force there — the same function
 * the gate uses, so the lower row wins and general rows rank below the
 * group's — and adjacent pieces of one row are merged. Pieces that no row
 * covers are left out: the group's own entrance state applies then.
 * `terminalId` null previews the rows that apply to every terminal.
 * Window minutes are after the day's midnight (above 1440 = after midnight).
 */
export function computeWeekPreview(opts: {
  from: LocalDate;
  loc: ClubLocation;
  rows: readonly PreviewRow[];
  newDayStartHour: number;
  terminalId?: number | null;
  locale?: 'he' | 'en';
  days?: number;
}): PreviewDay[] {
  const rows = opts.rows.map((r) => ({
    ...r,
    sortOrder: r.general ? r.sortOrder - GENERAL_SCHEDULE_RANK_OFFSET : r.sortOrder,
  }));
  const terminal = opts.terminalId ?? -1;
  const applicable = rows.filter((r) => r.terminalId == null || r.terminalId === terminal);
  const erevCache = new Map<string, boolean>();
  const erev = (d: LocalDate) => {
    const k = isoDate(d);
    let v = erevCache.get(k);
    if (v === undefined) erevCache.set(k, (v = isErevChag(d, opts.loc.il)));
    return v;
  };
  const out: PreviewDay[] = [];
  for (let i = 0; i < (opts.days ?? 7); i++) {
    const date = addDays(opts.from, i);
    const prev = addDays(date, -1);
    const start = opts.newDayStartHour * 60;
    const end = start + 1440;
    const cuts = new Set<number>([start, end]);
    for (const r of applicable) {
      if (rowAppliesOnDate(r, date, erev(date))) {
        const w = rowWindow(r, date, opts.loc);
        if (w) [w.from, w.to].forEach((m) => cuts.add(m));
      }
      if (rowAppliesOnDate(r, prev, erev(prev))) {
        const w = rowWindow(r, prev, opts.loc);
        if (w) [w.from - 1440, w.to - 1440].forEach((m) => cuts.add(m));
      }
    }
    const points = [...cuts].filter((m) => m >= start && m <= end).sort((a, b) => a - b);
    const windows: PreviewWindow[] = [];
    for (let k = 0; k + 1 < points.length; k++) {
      const [a, b] = [points[k], points[k + 1]];
      if (b <= a) continue;
      const row = resolveScheduleRow(applicable, terminal, { date, minutes: a }, opts.loc, erev);
      if (!row) continue;
      const last = windows[windows.length - 1];
      if (last && last.rowId === row.id && last.to === a) {
        last.to = b;
        continue;
      }
      windows.push({
        from: a,
        to: b,
        entranceState: row.entranceState,
        rowId: row.id,
        source: row.general ? 'general' : 'own',
        displayName: row.displayName,
        price: row.price,
      });
    }
    out.push({
      date: isoDate(date),
      weekday: weekdayOf(date),
      erevChag: erev(date),
      holidays: holidaysOn(date, opts.loc.il, opts.locale ?? 'he'),
      hebrewDate: hebrewDate(date, opts.locale ?? 'he'),
      sunset: halachicMinutes(HalachicTime.Sunset, date, opts.loc),
      nightfall: halachicMinutes(HalachicTime.Nightfall, date, opts.loc),
      windows,
    });
  }
  return out;
}
