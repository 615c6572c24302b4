import { describe, expect, it } from 'vitest';
import { ScheduleRowInput, type ScheduleRow } from '@venue/domain';
import { emptyRow, fromServerRows, moveRow, toInputRows } from './scheduleRows';

describe('schedule rows while editing', () => {
  it('orders server rows by sortOrder and keys them by id', () => {
    const a = { ...emptyRow(), id: 1, sortOrder: 2 } as unknown as ScheduleRow;
    const b = { ...emptyRow(), id: 2, sortOrder: 1 } as unknown as ScheduleRow;
    const rows = fromServerRows([a, b]);
    expect(rows.map((r) => r.key)).toEqual(['row-2', 'row-1']);
    expect(rows[0]).not.toHaveProperty('sortOrder');
  });

  it('gives new rows distinct keys and the default Sunday–Thursday 08:00–22:00 (minutes)', () => {
    const r1 = emptyRow();
    const r2 = emptyRow();
    expect(r1.key).not.toBe(r2.key);
    expect(r1.days).toEqual([0, 1, 2, 3, 4]);
    expect([r1.fromTime, r1.toTime]).toEqual([480, 1320]);
  });

  it('sends rows without key, and without id when new, so the strict schema accepts them', () => {
    const [row] = toInputRows([emptyRow()]);
    expect(row).not.toHaveProperty('key');
    expect(row).not.toHaveProperty('id');
    expect(ScheduleRowInput.safeParse(row).success).toBe(true);
    expect(toInputRows([{ ...emptyRow(), id: 9 }])[0]).toHaveProperty('id', 9);
  });

  it('moves a row one step and leaves the ends in place', () => {
    expect(moveRow(['a', 'b', 'c'], 1, -1)).toEqual(['b', 'a', 'c']);
    expect(moveRow(['a', 'b', 'c'], 1, 1)).toEqual(['a', 'c', 'b']);
    expect(moveRow(['a', 'b'], 0, -1)).toEqual(['a', 'b']);
    expect(moveRow(['a', 'b'], 1, 1)).toEqual(['a', 'b']);
  });
});
