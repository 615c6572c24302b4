import type { ReactNode } from 'react';
import { Typography } from 'antd';
import type { TFunction } from 'i18next';
import type { EmployeePosition } from '@venue/domain';
import type { GridColumn } from '../../shared/DataGrid';
import { editDeleteColumn } from '../../shared/editDeleteColumn';

/** What the position columns need from the screen. */
export interface PositionColumnsContext {
  t: TFunction;
  /** Agorot → the club's currency text. */
  money: (agorot: number) => ReactNode;
  canEdit: boolean;
  onEdit: (p: EmployeePosition) => void;
  /** Deletes and reports; the confirmation spins until the promise settles. */
  onDelete: (p: EmployeePosition) => Promise<unknown>;
}

/** Columns of the position list (seed 001 §3 "Employee position"): name, description, rate, users holding it. */
export function positionColumns({
  t,
  money,
  canEdit,
  onEdit,
  onDelete,
}: PositionColumnsContext): GridColumn<EmployeePosition>[] {
  return [
    {
      key: 'name',
      title: t('positions.name'),
      dataIndex: 'name',
      alwaysVisible: true,
      sortable: (a, b) => a.name.localeCompare(b.name),
      render: (v: string, p) =>
        canEdit ? (
          <Typography.Link dir="auto" onClick={() => onEdit(p)}>
            {v}
          </Typography.Link>
        ) : (
          <span dir="auto">{v}</span>
        ),
    },
    { key: 'description', title: t('positions.description'), dataIndex: 'description', ellipsis: true },
    {
      key: 'hourlyRate',
      title: t('positions.hourlyRate'),
      dataIndex: 'hourlyRate',
      align: 'end',
      sortable: (a, b) => a.hourlyRate - b.hourlyRate,
      render: (v: number) => (v === 0 ? t('positions.noRate') : money(v)),
    },
    {
      key: 'usedBy',
      title: t('positions.usedBy'),
      dataIndex: 'usedBy',
      align: 'end',
      sortable: (a, b) => a.usedBy - b.usedBy,
    },
    editDeleteColumn({
      t,
      canEdit,
      confirmKey: 'positions.deleteConfirm',
      onEdit,
      onDelete,
      testId: (p) => `position-delete-${p.id}`,
    }),
  ];
}
