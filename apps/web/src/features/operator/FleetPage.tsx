import { useState } from 'react';
import { Badge, Input, Space, Switch, Tag, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import type { OperatorTerminal } from '@venue/domain';
import { errorText } from '../../shared/errors';
import { ListTable } from '../../shared/CardList';
import { useFleet } from './useOperator';
import { OperatorOnly } from './OperatorOnly';
import { useFormat } from '../../shared/useFormat';

/**
 * The terminal fleet (issue 17 "Terminal fleet"; docs/operator.md): every
 * club's terminals with their connection state, last connection and software
 * version, offline ones on their own; refreshed every 30 seconds.
 */
export function FleetPage() {
  return (
    <OperatorOnly>
      <Fleet />
    </OperatorOnly>
  );
}

function Fleet() {
  const { t } = useTranslation();
  const fmt = useFormat();
  const [offline, setOffline] = useState(false);
  const [search, setSearch] = useState<string | undefined>();
  const query = useFleet({ offline, search });
  const columns: TableColumnsType<OperatorTerminal> = [
    { title: t('operator.externalClubId'), dataIndex: 'externalClubId' },
    { title: t('operator.name'), dataIndex: 'clubName', render: (v: string) => <span dir="auto">{v}</span> },
    { title: t('operator.fleet.terminal'), dataIndex: 'name', render: (v: string) => <span dir="auto">{v}</span> },
    {
      title: t('operator.fleet.serial'),
      dataIndex: 'serial',
      // A serial number is an identifier, not a word to translate.
      render: (v: string) => (
        <span className="ltr-value" translate="no">
          {v}
        </span>
      ),
    },
    {
      title: t('operator.fleet.connection'),
      key: 'online',
      render: (_, r) => (
        <span data-testid={`fleet-state-${r.id}`}>
          <Badge
            status={r.online ? 'success' : 'error'}
            text={t(r.online ? 'operator.fleet.online' : 'operator.fleet.offline')}
          />
        </span>
      ),
    },
    {
      title: t('operator.fleet.lastConnection'),
      dataIndex: 'lastConnection',
      render: (v: string | null) => (v ? <span className="ltr-value">{fmt.dateTime(v)}</span> : t('operator.never')),
    },
    {
      title: t('operator.fleet.version'),
      key: 'version',
      render: (_, r) =>
        r.softwareVersion ? (
          <Space size={4}>
            <span className="ltr-value">{r.softwareVersion}</span>
            {r.outdated && <Tag color="warning">{t('operator.fleet.outdated')}</Tag>}
          </Space>
        ) : (
          t('operator.never')
        ),
    },
    {
      title: t('operator.fleet.approved'),
      dataIndex: 'approved',
      render: (v: boolean) => (v ? t('operator.fleet.yes') : <Tag>{t('operator.fleet.notApproved')}</Tag>),
    },
  ];
  const rows = query.data ?? [];
  return (
    <>
      <div className="page-header">
        <Typography.Title level={2}>{t('nav.operatorTerminals')}</Typography.Title>
      </div>
      <Space wrap style={{ marginBottom: 12 }}>
        <Input.Search
          allowClear
          placeholder={t('operator.fleet.search')}
          onSearch={(s) => setSearch(s.trim() || undefined)}
          style={{ width: 260 }}
        />
        <Space>
          <Switch
            checked={offline}
            onChange={setOffline}
            aria-labelledby="fleet-offline-label"
            data-testid="fleet-offline"
          />
          <span id="fleet-offline-label">{t('operator.fleet.offlineOnly')}</span>
        </Space>
        <Typography.Text type="secondary" data-testid="fleet-count">
          {t('operator.fleet.count', { count: rows.length, online: rows.filter((r) => r.online).length })}
        </Typography.Text>
      </Space>
      <ListTable<OperatorTerminal>
        rowKey="id"
        columns={columns}
        dataSource={rows}
        loading={query.isPending}
        pagination={{ pageSize: 100, hideOnSinglePage: true }}
        // No sideways scrolling at 1280 px and up (issue 34 item 7): cells wrap.
        tableLayout="auto"
        locale={{ emptyText: query.isError ? errorText(t, query.error) : t('operator.fleet.empty') }}
        data-testid="fleet-table"
      />
    </>
  );
}
