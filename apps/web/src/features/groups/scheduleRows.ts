import { ScheduleRowInput, type ScheduleRow } from '@venue/domain';

/** A schedule row while it is being edited: a stable key for React, no sortOrder (list order is the order). */
export type EditableRow = Omit<ScheduleRow, 'id' | 'sortOrder'> & { key: string; id?: number };

let seq = 0;
export function newRowKey(): string {
  seq += 1;
  return `new-${seq}`;
}

export function fromServerRows(rows: readonly ScheduleRow[]): EditableRow[] {
  return [...rows]
    .sort((a, b) => a.sortOrder - b.sortOrder)
    .map(({ sortOrder: _sortOrder, ...r }) => ({ ...r, key: `row-${r.id}` }));
}

export function emptyRow(): EditableRow {
  return {
    key: newRowKey(),
    days: [0, 1, 2, 3, 4],
    fromTime: 8 * 60,
    toTime: 22 * 60,
    fromHalachic: null,
    fromOffset: 0,
    toHalachic: null,
    toOffset: 0,
    fromDate: null,
    toDate: null,
    price: 0,
    pricePerBeat: 0,
    displayName: '',
    maxPurchaseQty: 0,
    description: '',
    minutes: 0,
    priority: 0,
    entranceState: 2,
    terminalId: null,
  };
}

/** The rows as the API takes them (ScheduleRowInput is strict: no key, no sortOrder). */
export function toInputRows(rows: readonly EditableRow[]): ScheduleRowInput[] {
  return rows.map(({ key: _key, ...r }) => {
    const out = { ...r } as ScheduleRowInput & { sortOrder?: number };
    delete out.sortOrder;
    if (out.id == null) delete out.id;
    return out;
  });
}

/** Moves the row at `index` one step up (-1) or down (+1). */
export function moveRow<T>(rows: readonly T[], index: number, step: -1 | 1): T[] {
  const j = index + step;
  if (j < 0 || j >= rows.length) return [...rows];
  const out = [...rows];
  [out[index], out[j]] = [out[j], out[index]];
  return out;
}
