import { describe, expect, it } from 'vitest';
import { EntranceState } from './enums.js';
import { groupStateAt } from './group-state.js';
import { JERUSALEM } from './locations.js';
import { hhmm, type ScheduleRowTimes } from './schedule.js';

/** A row of every weekday from `from` to `to` (Jerusalem time) with an entrance state. */
const row = (id: number, sortOrder: number, from: string, to: string, entranceState: number): ScheduleRowTimes => ({
  id,
  sortOrder,
  days: [0, 1, 2, 3, 4, 5, 6],
  fromTime: hhmm(from),
  toTime: hhmm(to),
  fromHalachic: null,
  fromOffset: 0,
  toHalachic: null,
  toOffset: 0,
  fromDate: null,
  toDate: null,
  terminalId: null,
  entranceState,
});
const group = { allowEntrance: true, entranceState: EntranceState.Closed, newDayStartHour: 0 };
// 2026-11-25 is a Wednesday; Jerusalem is UTC+2 in November.
const at = (hm: string) => new Date(`2026-11-25T${hm}:00+02:00`);

describe('groupStateAt (the client form’s "closed now")', () => {
  const rows = [row(1, 0, '08:00', '12:00', EntranceState.Opened)];
  it('is open inside a row that opens, closed outside it when the group’s own state is Closed', () => {
    expect(groupStateAt(group, rows, at('10:00'), JERUSALEM)).toEqual({ entranceState: 2, open: true, rowId: 1 });
    expect(groupStateAt(group, rows, at('13:00'), JERUSALEM)).toEqual({ entranceState: 1, open: false, rowId: null });
  });
  it('the lower row wins, general rows rank below the group’s own, terminal rows are left out', () => {
    const closedOwn = row(2, 1, '09:00', '11:00', EntranceState.Closed);
    const openGeneral = { ...row(3, 5, '00:00', '23:59', EntranceState.Opened), general: true };
    const terminalOnly = { ...row(4, 9, '00:00', '23:59', EntranceState.FreeOpen), terminalId: 7 };
    const st = groupStateAt(group, [...rows, closedOwn, openGeneral, terminalOnly], at('10:00'), JERUSALEM);
    expect(st).toEqual({ entranceState: EntranceState.Closed, open: false, rowId: 2 });
    expect(groupStateAt(group, [openGeneral], at('22:00'), JERUSALEM).open).toBe(true);
  });
  it('a group that does not allow entrance is closed whatever its schedule', () => {
    expect(groupStateAt({ ...group, allowEntrance: false }, rows, at('10:00'), JERUSALEM).open).toBe(false);
  });
});
