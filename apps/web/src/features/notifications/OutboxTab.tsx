import { useState } from 'react';
import { Alert, Input, Select, Space, Tag, Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  NOTICE_CHANNELS,
  OUTBOX_STATUSES,
  type NoticeChannel,
  type OutboxMessage,
  type OutboxStatus,
} from '@venue/domain';
import { errorText } from '../../shared/errors';
import { ListTable } from '../../shared/CardList';
import { useFormat } from '../../shared/useFormat';
import { useOutbox, useTransport } from './useNotifications';

const STATUS_COLOR: Record<OutboxStatus, string> = {
  queued: 'orange',
  sent: 'green',
  failed: 'red',
  bounced: 'volcano',
  held: 'blue',
  skipped: 'default',
};

/** The outbox's columns: time, kind, channel, recipient, message, delivery state. */
function useOutboxColumns(): TableColumnsType<OutboxMessage> {
  const { t } = useTranslation();
  const fmt = useFormat();
  const when = (v: string | null) => (v ? <span className="ltr-value">{fmt.dateTime(v)}</span> : '—');
  return [
    { title: t('notifications.outbox.time'), dataIndex: 'createdAt', render: when },
    { title: t('notifications.outbox.kind'), dataIndex: 'kind', render: (k: string) => t(`notifications.kinds.${k}`) },
    {
      title: t('notifications.outbox.channel'),
      dataIndex: 'channel',
      render: (c: NoticeChannel) => t(`notifications.channels.${c}`),
    },
    {
      title: t('notifications.outbox.to'),
      key: 'to',
      render: (_, m) => (
        <span>
          {m.clientName && <span dir="auto">{m.clientName} · </span>}
          <span className="ltr-value">{m.to}</span>
        </span>
      ),
    },
    {
      title: t('notifications.outbox.message'),
      key: 'message',
      render: (_, m) => (
        <div style={{ maxWidth: 420 }}>
          {m.subject && (
            <Typography.Text strong dir="auto">
              {m.subject}
            </Typography.Text>
          )}
          <Typography.Paragraph
            dir="auto"
            style={{ whiteSpace: 'pre-wrap', marginBottom: 0 }}
            ellipsis={{ rows: 3, expandable: true, symbol: t('notifications.outbox.more') }}
            data-testid="outbox-text"
          >
            {m.text}
          </Typography.Paragraph>
        </div>
      ),
    },
    {
      title: t('notifications.outbox.status'),
      key: 'status',
      render: (_, m) => (
        <Space direction="vertical" size={0}>
          <Tag color={STATUS_COLOR[m.status]}>{t(`notifications.statuses.${m.status}`)}</Tag>
          {m.status === 'queued' && m.deferredReason && (
            <Typography.Text type="secondary">
              {t(`notifications.deferred.${m.deferredReason}`)} {when(m.nextAttemptAt)}
            </Typography.Text>
          )}
          {m.lastError && (
            <Typography.Text type="secondary" dir="auto">
              {t('notifications.outbox.lastError')}: {m.lastError}
            </Typography.Text>
          )}
        </Space>
      ),
    },
    { title: t('notifications.outbox.attempts'), dataIndex: 'attempts' },
    { title: t('notifications.outbox.sentAt'), dataIndex: 'sentAt', render: when },
  ];
}

/**
 * The outbox (docs/notifications.md "The outbox"): every e-mail and SMS of the club with its
 * delivery state; without SMTP/SMS settings this is where messages are read.
 */
export function OutboxTab() {
  const { t } = useTranslation();
  const [status, setStatus] = useState<OutboxStatus | undefined>();
  const [channel, setChannel] = useState<NoticeChannel | undefined>();
  const [to, setTo] = useState('');
  const query = useOutbox({ status, channel, ...(to.trim() ? { to: to.trim() } : {}) });
  const transport = useTransport();
  const columns = useOutboxColumns();
  const outboxOnly = transport.data && (transport.data.email === 'outbox' || transport.data.sms === 'outbox');
  return (
    <Space direction="vertical" style={{ width: '100%' }} size="middle">
      {outboxOnly && (
        <Alert
          type="info"
          showIcon
          data-testid="outbox-only"
          message={t('notifications.transport.title')}
          description={[
            transport.data?.email === 'outbox' ? t('notifications.transport.noSmtp') : null,
            transport.data?.sms === 'outbox' ? t('notifications.transport.noSms') : null,
          ]
            .filter(Boolean)
            .join(' ')}
        />
      )}
      <Space wrap>
        <Select
          allowClear
          style={{ minWidth: 160 }}
          placeholder={t('notifications.outbox.status')}
          aria-label={t('notifications.outbox.status')}
          value={status}
          onChange={setStatus}
          options={OUTBOX_STATUSES.map((s) => ({ value: s, label: t(`notifications.statuses.${s}`) }))}
        />
        <Select
          allowClear
          style={{ minWidth: 140 }}
          placeholder={t('notifications.outbox.channel')}
          aria-label={t('notifications.outbox.channel')}
          value={channel}
          onChange={setChannel}
          options={NOTICE_CHANNELS.map((c) => ({ value: c, label: t(`notifications.channels.${c}`) }))}
        />
        <Input.Search
          allowClear
          style={{ width: 220 }}
          placeholder={t('notifications.outbox.searchTo')}
          aria-label={t('notifications.outbox.searchTo')}
          onSearch={setTo}
        />
      </Space>
      <ListTable<OutboxMessage>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={query.data ?? []}
        loading={query.isPending}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        locale={{ emptyText: query.isError ? errorText(t, query.error) : t('notifications.outbox.empty') }}
      />
    </Space>
  );
}
