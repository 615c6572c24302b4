import { describe, expect, it } from 'vitest';
import type { TFunction } from 'i18next';
import { arrangeColumns, gridPagination, type GridColumn } from './DataGrid';

const t = ((key: string, o?: { total?: number }) => `${key}:${o?.total ?? ''}`) as TFunction;

describe('arrangeColumns', () => {
  const columns: GridColumn<{ a: number }>[] = [
    { key: 'a', title: 'A' },
    { key: 'b', title: 'B', defaultHidden: true },
    { key: 'c', title: 'C' },
  ];

  it('starts from the declared order and default visibility', () => {
    expect(arrangeColumns(columns, undefined)).toEqual([
      { key: 'a', hidden: undefined },
      { key: 'b', hidden: true },
      { key: 'c', hidden: undefined },
    ]);
  });

  it("keeps the user's saved order, drops columns that no longer exist, puts new ones last", () => {
    const saved = [
      { key: 'c', hidden: false, width: 120 },
      { key: 'gone', hidden: false },
      { key: 'a', hidden: true },
    ];
    expect(arrangeColumns(columns, saved).map((s) => s.key)).toEqual(['c', 'a', 'b']);
    expect(arrangeColumns(columns, saved)[0]).toEqual({ key: 'c', hidden: false, width: 120 });
  });
});

describe('gridPagination', () => {
  it('pages on the server when a total is given', () => {
    const p = gridPagination(t, { page: 3, pageSize: 25, total: 260, rowCount: 25 });
    expect(p).toMatchObject({ current: 3, pageSize: 25, total: 260, showSizeChanger: true });
    expect(p && p.showTotal?.(260, [1, 25])).toBe('common.totalItems:260');
  });

  it('pages in the browser only when the rows do not fit one page', () => {
    expect(gridPagination(t, { page: 1, pageSize: 25, rowCount: 25 })).toBe(false);
    expect(gridPagination(t, { page: 2, pageSize: 25, rowCount: 26 })).toMatchObject({ current: 2, pageSize: 25 });
  });
});
