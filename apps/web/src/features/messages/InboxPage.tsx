import { useState } from 'react';
import { Button, Empty, List, Segmented, Space, Tag, Typography } from 'antd';
import { CheckOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { MessageReadStatus, type ClubMessage } from '@venue/domain';
import { errorText } from '../../shared/errors';
import { MessageBody } from './MessageBody';
import './messages.css';
import { useInboxMessages, useMarkRead } from './useMessages';
import { useToast } from '../../shared/toast/ToastProvider';
import { useFormat } from '../../shared/useFormat';

type Filter = 'all' | 'unread' | 'read';

/** The filter as a predicate on the user's read status (seed 000 §3: Unreaded 0, Readed 1). */
export function inboxFilter(filter: Filter): (m: ClubMessage) => boolean {
  if (filter === 'unread') return (m) => m.status === MessageReadStatus.Unreaded;
  if (filter === 'read') return (m) => m.status === MessageReadStatus.Readed;
  return () => true;
}

/**
 * /messages: the system-messages inbox (seed 001 §2 "mark one or all as
 * read"): the operator's messages to this club, newest first, with a
 * read/unread filter.
 */
export function InboxPage() {
  const { t } = useTranslation();
  const message = useToast();
  const [filter, setFilter] = useState<Filter>('all');
  const query = useInboxMessages();
  const mark = useMarkRead();
  const items = (query.data ?? []).filter(inboxFilter(filter));
  const unread = (query.data ?? []).filter(inboxFilter('unread')).length;
  const markRead = (id?: number) => mark.mutateAsync(id).catch((e: unknown) => message.error(errorText(t, e)));
  const fmt = useFormat();
  const when = (iso: string) => <span className="ltr-value">{fmt.dateTime(iso)}</span>;

  return (
    <>
      <div className="page-header">
        <Typography.Title level={2}>{t('messages.inbox')}</Typography.Title>
        <Button
          icon={<CheckOutlined />}
          disabled={unread === 0}
          loading={mark.isPending}
          onClick={() => void markRead()}
          data-testid="messages-mark-all"
        >
          {t('messages.markAll')}
        </Button>
      </div>
      <Segmented<Filter>
        value={filter}
        onChange={setFilter}
        data-testid="messages-filter"
        options={[
          { value: 'all', label: t('messages.filter.all') },
          { value: 'unread', label: `${t('messages.filter.unread')} (${unread})` },
          { value: 'read', label: t('messages.filter.read') },
        ]}
        style={{ marginBlockEnd: 16 }}
      />
      <List<ClubMessage>
        loading={query.isPending}
        dataSource={items}
        locale={{
          emptyText: query.isError ? errorText(t, query.error) : <Empty description={t('messages.empty')} />,
        }}
        renderItem={(m) => {
          const isUnread = m.status === MessageReadStatus.Unreaded;
          return (
            <List.Item
              data-testid="message-item"
              data-unread={isUnread}
              className={isUnread ? 'message-item unread' : 'message-item'}
            >
              <div className="message-content">
                <div className="message-head">
                  <Space wrap size="small">
                    <span className="message-title" dir="auto">
                      {m.title}
                    </span>
                    {isUnread && <Tag color="blue">{t('messages.new')}</Tag>}
                    {m.kind !== 'Basic' && <Tag>{t(`messages.kinds.${m.kind}`)}</Tag>}
                  </Space>
                  <Space size="small">
                    <Typography.Text type="secondary">{when(m.publishAt)}</Typography.Text>
                    {isUnread && (
                      <Button size="small" onClick={() => void markRead(m.id)} data-testid="message-mark-read">
                        {t('messages.markRead')}
                      </Button>
                    )}
                  </Space>
                </div>
                <MessageBody html={m.body} />
              </div>
            </List.Item>
          );
        }}
      />
    </>
  );
}
