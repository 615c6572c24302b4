import { Button, Popconfirm, Space } from 'antd';
import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import type { TFunction } from 'i18next';
import type { GridColumn } from './DataGrid';

/**
 * The row actions of a simple list (edit, and delete after a confirmation
 * naming the row), for users who may edit; not printed. `confirmKey` is the
 * translation of the question, given `{name}`; `testId` names the delete
 * button of a row when a browser test needs it.
 */
export function editDeleteColumn<T extends { id: number; name: string }>({
  t,
  canEdit,
  confirmKey,
  onEdit,
  onDelete,
  testId,
}: {
  t: TFunction;
  canEdit: boolean;
  confirmKey: string;
  onEdit: (row: T) => void;
  /** Deletes and reports; the confirmation spins until the promise settles. */
  onDelete: (row: T) => Promise<unknown>;
  testId?: (row: T) => string;
}): GridColumn<T> {
  return {
    key: 'actions',
    title: '',
    alwaysVisible: true,
    className: 'no-print',
    render: (_, row) =>
      canEdit ? (
        <Space size={0}>
          <Button
            type="text"
            size="small"
            icon={<EditOutlined />}
            aria-label={t('common.edit')}
            onClick={() => onEdit(row)}
          />
          <Popconfirm
            title={t(confirmKey, { name: row.name })}
            okText={t('common.delete')}
            cancelText={t('common.cancel')}
            okButtonProps={{ danger: true }}
            onConfirm={() => onDelete(row)}
          >
            <Button
              type="text"
              size="small"
              danger
              icon={<DeleteOutlined />}
              aria-label={t('common.delete')}
              data-testid={testId?.(row)}
            />
          </Popconfirm>
        </Space>
      ) : null,
  };
}
