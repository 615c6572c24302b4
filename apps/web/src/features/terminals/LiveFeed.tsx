import { useState } from 'react';
import { Badge, Card, Empty, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { REASON_KEYS, STATUS_COLOR_HEX, statusColor, fromMinor } from '@venue/domain';
import { useLiveMessages, useLiveStatus, type LiveMessage } from '../../platform/live/LiveProvider';
import { useTerminalList } from './useTerminals';
import { useFormat } from '../../shared/useFormat';

interface FeedItem {
  key: string;
  at: Date;
  msg: LiveMessage;
}
const MAX_ITEMS = 30;

/**
 * The live console (docs/live-feed.md): entrances and terminal events of the
 * signed-in club as they happen (connect / disconnect, door state, cash),
 * newest first, from the console's /api/live socket. Compact, for the
 * dashboard.
 */
export function LiveFeed() {
  const { t } = useTranslation();
  const status = useLiveStatus();
  const terminals = useTerminalList();
  const [items, setItems] = useState<FeedItem[]>([]);
  useLiveMessages((msg) => {
    setItems((old) => [{ key: `${Date.now()}-${Math.random()}`, at: new Date(), msg }, ...old].slice(0, MAX_ITEMS));
  });
  const fmt = useFormat();
  const terminalName = (id: number | null) =>
    terminals.data?.items.find((x) => x.id === id)?.name ?? (id != null ? `#${id}` : '');

  const describe = (m: LiveMessage) => {
    switch (m.type) {
      case 'entrance':
        return (
          <>
            <Tag color={STATUS_COLOR_HEX[statusColor(m.row.status)]}>{t(`status.${m.row.status}`)}</Tag>
            <Typography.Text strong>{m.row.clientName ?? t('report.unknownClient')}</Typography.Text>{' '}
            <Typography.Text type="secondary">
              {t(`reason.${REASON_KEYS[m.row.reason] ?? m.row.reason}`)} · {m.row.terminalName ?? ''}
            </Typography.Text>
          </>
        );
      case 'terminal':
        return (
          <>
            <Badge status={m.connected ? 'success' : 'default'} />{' '}
            {t(m.connected ? 'gate.feed.connected' : 'gate.feed.disconnected', { name: terminalName(m.terminalId) })}
          </>
        );
      case 'door':
        return t('gate.feed.door', { name: terminalName(m.terminalId), state: t(`gate.door.${m.doorState}`) });
      case 'cash':
        return t('gate.feed.cash', {
          name: terminalName(m.terminalId),
          state: t(`gate.cashState.${m.state}`),
          amount: fromMinor(m.inserted).toFixed(2),
        });
    }
  };

  return (
    <Card
      size="small"
      title={t('gate.feed.title')}
      extra={<Badge status={status === 'open' ? 'processing' : 'default'} text={t(`gate.feed.link.${status}`)} />}
      data-testid="live-feed"
    >
      {items.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('gate.feed.empty')} />
      ) : (
        // A plain list in antd's small-list look (app.css .plain-list): antd's List brings its
        // pagination and Select to the dashboard (issue 19 load speed).
        <ul className="plain-list" style={{ maxHeight: 320, overflowY: 'auto' }}>
          {items.map((i) => (
            <li key={i.key}>
              <span className="ltr-value" style={{ minWidth: 72, display: 'inline-block' }}>
                {fmt.time(i.at, true)}
              </span>
              <span style={{ flex: 1, marginInlineStart: 8 }}>{describe(i.msg)}</span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
