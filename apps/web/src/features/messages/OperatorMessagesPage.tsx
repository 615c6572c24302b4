import { useState } from 'react';
import { Button, Result, Tag, Typography, type TableColumnsType } from 'antd';
import { EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { GlobalMessageRecord } from '@venue/domain';
import { useCan } from '../../platform/auth/useCan';
import { errorText } from '../../shared/errors';
import { GlobalMessageDrawer } from './GlobalMessageDrawer';
import { useOperatorMessages } from './useMessages';
import { ListTable } from '../../shared/CardList';
import { useFormat } from '../../shared/useFormat';

/** The operator's global messages: the list and the composer (user level SuperUser only, `can({operator})`). */
export function OperatorMessagesPage() {
  const { t } = useTranslation();
  const isOperator = useCan()({ operator: true });
  if (!isOperator) return <Result status="403" title={t('errors.NOT_AUTHORIZED')} />;
  return <OperatorMessages />;
}

function OperatorMessages() {
  const { t } = useTranslation();
  const query = useOperatorMessages();
  const [editing, setEditing] = useState<GlobalMessageRecord | 'new' | null>(null);
  const fmt = useFormat();
  const columns: TableColumnsType<GlobalMessageRecord> = [
    { title: t('messages.title'), dataIndex: 'title', render: (v: string) => <span dir="auto">{v}</span> },
    { title: t('messages.kind'), dataIndex: 'kind', render: (k: string) => <Tag>{t(`messages.kinds.${k}`)}</Tag> },
    {
      title: t('messages.audience'),
      key: 'audience',
      render: (_, m) => (m.audience === 'clubs' ? m.externalClubIds.join(', ') : t(`messages.audiences.${m.audience}`)),
    },
    {
      title: t('messages.publishAt'),
      dataIndex: 'publishAt',
      render: (v: string) => <span className="ltr-value">{fmt.dateTime(v)}</span>,
    },
    {
      title: t('messages.expiresAt'),
      dataIndex: 'expiresAt',
      render: (v: string | null) => (v ? <span className="ltr-value">{fmt.dateTime(v)}</span> : '—'),
    },
    {
      key: 'edit',
      render: (_, m) => (
        <Button size="small" icon={<EditOutlined />} aria-label={t('common.edit')} onClick={() => setEditing(m)} />
      ),
    },
  ];
  return (
    <>
      <div className="page-header">
        <Typography.Title level={2}>{t('messages.operatorTitle')}</Typography.Title>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')} data-testid="compose-new">
          {t('messages.compose')}
        </Button>
      </div>
      <ListTable<GlobalMessageRecord>
        rowKey="id"
        columns={columns}
        dataSource={query.data?.items ?? []}
        loading={query.isPending}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        // No sideways scrolling at 1280 px and up (issue 34 item 7): cells wrap.
        tableLayout="auto"
        locale={{ emptyText: query.isError ? errorText(t, query.error) : t('messages.empty') }}
      />
      <GlobalMessageDrawer editing={editing} onClose={() => setEditing(null)} />
    </>
  );
}
