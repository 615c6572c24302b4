import { useState } from 'react';
import { Button, Popconfirm, Space, type TableColumnsType } from 'antd';
import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { FeedbackCategory } from '@venue/domain';
import { useCan } from '../../platform/auth/useCan';
import { errorText } from '../../shared/errors';
import { FeedbackCategoryDrawer } from './FeedbackCategoryDrawer';
import { useDeleteFeedbackCategory, useFeedbackCategories } from './useFeedbackCategories';
import { useToast } from '../../shared/toast/ToastProvider';
import { ResourceListPage } from '../../shared/ResourceListPage';

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
    <ResourceListPage<FeedbackCategory>
      title={t('nav.feedbackCategories')}
      create={
        canEdit && { label: t('feedbackCategories.new'), testId: 'category-new', onClick: () => setEditing('new') }
      }
      rows={query.data?.items ?? []}
      query={query}
      emptyText={t('feedbackCategories.empty')}
      table={{ columns }}
      dialogs={<FeedbackCategoryDrawer editing={editing} onClose={() => setEditing(null)} />}
    />
  );
}
