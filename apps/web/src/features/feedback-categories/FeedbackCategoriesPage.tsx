import { useState } from 'react';
import { Button, Popconfirm, Space, Typography, type TableColumnsType } from 'antd';
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { FeedbackCategory } from '@venue/domain';
import { useCan } from '../../platform/auth/useCan';
import { errorText } from '../../shared/errors';
import { FeedbackCategoryDrawer } from './FeedbackCategoryDrawer';
import { useDeleteFeedbackCategory, useFeedbackCategories } from './useFeedbackCategories';
import { useToast } from '../../shared/toast/ToastProvider';
import { ListTable } from '../../shared/CardList';

/**
 * /management/feedback-category-list (seed 000 §2, §6: shown when the club's
 * incident reports are on): what clients and staff report incidents about.
 */
export function FeedbackCategoriesPage() {
  const { t } = useTranslation();
  const message = useToast();
  const canEdit = useCan()({ edit: 'settings' });
  const query = useFeedbackCategories();
  const remove = useDeleteFeedbackCategory();
  const [editing, setEditing] = useState<FeedbackCategory | 'new' | null>(null);

  const columns: TableColumnsType<FeedbackCategory> = [
    { title: t('feedbackCategories.name'), dataIndex: 'name' },
    {
      title: t('feedbackCategories.type'),
      dataIndex: 'type',
      render: (v: string) => t(`feedbackCategories.types.${v}`),
    },
    { title: t('feedbackCategories.reportingSystemCategoryId'), dataIndex: 'reportingSystemCategoryId' },
    { title: t('feedbackCategories.defaultSeverityId'), dataIndex: 'defaultSeverityId' },
    {
      title: t('feedbackCategories.reportingSystemLocationId'),
      dataIndex: 'reportingSystemLocationId',
      render: (v: number | null) => v ?? '—',
    },
  ];
  if (canEdit) {
    columns.push({
      key: 'actions',
      render: (_, c) => (
        <Space>
          <Button size="small" icon={<EditOutlined />} aria-label={t('common.edit')} onClick={() => setEditing(c)} />
          <Popconfirm
            title={t('feedbackCategories.confirmDelete', { name: c.name })}
            onConfirm={() =>
              remove.mutateAsync(c.id).then(
                () => message.success(t('feedbackCategories.deleted')),
                (e: unknown) => message.error(errorText(t, e)),
              )
            }
          >
            <Button size="small" danger icon={<DeleteOutlined />} aria-label={t('common.delete')} />
          </Popconfirm>
        </Space>
      ),
    });
  }

  return (
    <>
      <div className="page-header">
        <Typography.Title level={2}>{t('nav.feedbackCategories')}</Typography.Title>
        {canEdit && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')} data-testid="category-new">
            {t('feedbackCategories.new')}
          </Button>
        )}
      </div>
      <ListTable<FeedbackCategory>
        rowKey="id"
        columns={columns}
        dataSource={query.data?.items ?? []}
        loading={query.isPending}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: query.isError ? errorText(t, query.error) : t('feedbackCategories.empty') }}
      />
      <FeedbackCategoryDrawer editing={editing} onClose={() => setEditing(null)} />
    </>
  );
}
