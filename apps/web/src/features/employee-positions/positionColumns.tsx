import type { ReactNode } from 'react';
import { Button, Popconfirm, Space, Typography } from 'antd';
import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import type { TFunction } from 'i18next';
import type { EmployeePosition } from '@venue/domain';
import type { GridColumn } from '../../shared/DataGrid';

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
    {
      key: 'actions',
      title: '',
      alwaysVisible: true,
      className: 'no-print',
      render: (_, p) =>
        canEdit ? (
          <Space size={0}>
            <Button
              type="text"
              size="small"
              icon={<EditOutlined />}
              aria-label={t('common.edit')}
              onClick={() => onEdit(p)}
            />
            <Popconfirm
              title={t('positions.deleteConfirm', { name: p.name })}
              okText={t('common.delete')}
              cancelText={t('common.cancel')}
              okButtonProps={{ danger: true }}
              onConfirm={() => onDelete(p)}
            >
              <Button
                type="text"
                size="small"
                danger
                icon={<DeleteOutlined />}
                aria-label={t('common.delete')}
                data-testid={`position-delete-${p.id}`}
              />
            </Popconfirm>
          </Space>
        ) : null,
    },
  ];
}
