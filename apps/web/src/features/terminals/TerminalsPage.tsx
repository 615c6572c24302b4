import { useState } from 'react';
import { Link } from 'react-router';
import { Badge, Button, Popconfirm, Segmented, Tag, Typography, type TableProps } from 'antd';
import { CheckOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Terminal } from '@venue/domain';
import { useAuth } from '../../platform/auth/AuthProvider';
import { errorText } from '../../shared/errors';
import { NewTerminalModal } from './NewTerminalModal';
import { useApproveTerminal, useTerminalList } from './useTerminals';
import { useToast } from '../../shared/toast/ToastProvider';
import { ListTable } from '../../shared/CardList';
import { useFormat } from '../../shared/useFormat';

/** /management/app-terminals-list: terminals with their live connection state. */
export function TerminalsPage() {
  const { t } = useTranslation();
  const message = useToast();
  const { data } = useAuth();
  const canEdit = data?.user.roleEditTerminals === true;
  const [showDeleted, setShowDeleted] = useState(false);
  const query = useTerminalList({ deleted: showDeleted });
  const approve = useApproveTerminal();
  const [createOpen, setCreateOpen] = useState(false);
  const fmt = useFormat();

  const columns: TableProps<Terminal>['columns'] = [
    {
      title: t('terminals.connected'),
      dataIndex: 'connected',
      key: 'connected',
      width: 110,
      render: (c: boolean, x) => (
        <span
          data-testid={`terminal-live-${x.id}`}
          data-connected={c ? 'true' : 'false'}
          style={{ whiteSpace: 'nowrap' }}
        >
          <Badge status={c ? 'success' : 'default'} text={c ? t('terminals.online') : t('terminals.offline')} />
        </span>
      ),
    },
    {
      title: t('terminals.name'),
      dataIndex: 'name',
      key: 'name',
      render: (name: string, x) => (
        <Link to={`/management/app-terminals-list/${x.id}`} data-testid={`terminal-link-${x.id}`} dir="auto">
          {name}
        </Link>
      ),
    },
    {
      title: t('gate.doorState'),
      dataIndex: 'doorState',
      key: 'doorState',
      render: (d: number, x) => (
        <Tag color={d === 1 ? 'red' : 'green'} data-testid={`terminal-door-${x.id}`}>
          {t(`gate.door.${d}`)}
        </Tag>
      ),
    },
    {
      title: t('terminals.serial'),
      dataIndex: 'serial',
      key: 'serial',
      render: (v: string) => (
        <Typography.Text code className="ltr-value">
          {v}
        </Typography.Text>
      ),
    },
    {
      title: t('terminals.approved'),
      dataIndex: 'approved',
      key: 'approved',
      render: (a: boolean, x) =>
        a ? (
          <Tag color="green">{t('terminals.approvedYes')}</Tag>
        ) : canEdit ? (
          <Popconfirm
            title={t('terminals.approveConfirm')}
            onConfirm={() => approve.mutateAsync(x.id).catch((e: unknown) => message.error(errorText(t, e)))}
          >
            <Button size="small" icon={<CheckOutlined />} data-testid={`terminal-approve-${x.id}`}>
              {t('terminals.approve')}
            </Button>
          </Popconfirm>
        ) : (
          <Tag color="orange">{t('terminals.notApproved')}</Tag>
        ),
    },
    {
      title: t('terminals.lastConnection'),
      dataIndex: 'lastConnection',
      key: 'lastConnection',
      responsive: ['sm'],
      render: (v: string | null) => (v ? <span className="ltr-value">{fmt.dateTime(v)}</span> : '—'),
    },
  ];

  return (
    <>
      <div className="page-header">
        <Typography.Title level={2}>{t('nav.terminals')}</Typography.Title>
        {canEdit && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreateOpen(true)} data-testid="terminal-new">
            {t('terminals.new')}
          </Button>
        )}
      </div>
      <Segmented
        style={{ marginBlockEnd: 12 }}
        value={showDeleted ? 'deleted' : 'active'}
        onChange={(v) => setShowDeleted(v === 'deleted')}
        options={[
          { value: 'active', label: t('gate.showActive') },
          { value: 'deleted', label: t('gate.showDeleted') },
        ]}
      />
      <ListTable<Terminal>
        data-testid="terminals-table"
        rowKey="id"
        columns={columns}
        dataSource={query.data?.items ?? []}
        loading={query.isPending}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: query.isError ? errorText(t, query.error) : t('common.noData') }}
      />
      <NewTerminalModal open={createOpen} onClose={() => setCreateOpen(false)} />
    </>
  );
}
