import { useState } from 'react';
import { Button, Input, Select, Space, Switch, Table, Tag, Typography, type TableProps } from 'antd';
import { EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ClientStatus, formatMinor, formatPhone, UNLIMITED_END_YEAR, type Client } from '@venue/domain';
import { useSessionData } from '../../app/auth/AuthProvider';
import { useLanguage } from '../../app/i18n/LocaleProvider';
import { errorText } from '../../shared/errors';
import { useViewport } from '../../shared/useMediaQuery';
import { useDebounced } from '../../shared/useDebounced';
import { useGroupList } from '../groups/useGroups';
import { ClientFormDrawer } from './ClientFormDrawer';
import { useClientList, type ClientListParams } from './useClients';

const STATUS_TAG: Record<number, string> = { 1: 'green', 2: 'default', 3: 'red' };

/** /management/clients (seed 000 §2): searchable, paged on the server. */
export function ClientsPage() {
  const { t } = useTranslation();
  const lang = useLanguage();
  const { club } = useSessionData();
  const viewport = useViewport();
  const groups = useGroupList();
  const [params, setParams] = useState<ClientListParams>({
    page: 1,
    pageSize: 25,
    order: 'asc',
    showDeleted: false,
  });
  const [searchText, setSearchText] = useState('');
  const search = useDebounced(searchText.trim(), 300);
  const query = useClientList({ ...params, search: search || undefined });
  const [editing, setEditing] = useState<Client | null>(null);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const locale = lang === 'he' ? 'he-IL' : 'en-US';

  const openEditor = (c: Client | null) => {
    setEditing(c);
    setDrawerOpen(true);
  };

  const date = (s: string | null) => {
    if (!s) return '—';
    if (s.startsWith(String(UNLIMITED_END_YEAR))) return t('clients.unlimited');
    return <span className="ltr-value">{s}</span>;
  };

  const columns: TableProps<Client>['columns'] = [
    { title: t('clients.number'), dataIndex: 'number', key: 'number', sorter: true, width: 90 },
    {
      title: t('clients.name'),
      dataIndex: 'name',
      key: 'name',
      sorter: true,
      render: (_, c) => (
        <Typography.Link onClick={() => openEditor(c)}>{c.name || `${c.firstName} ${c.lastName}`}</Typography.Link>
      ),
    },
    { title: t('clients.personalId'), dataIndex: 'personalId', key: 'personalId', responsive: ['md'] },
    {
      title: t('clients.phone'),
      dataIndex: 'phone',
      key: 'phone',
      responsive: ['sm'],
      render: (v: string) => <span className="ltr-value">{v ? formatPhone(v) : ''}</span>,
    },
    {
      title: t('clients.group'),
      dataIndex: 'groupName',
      key: 'group',
      responsive: ['lg'],
      render: (v: string | null) => v ?? '—',
    },
    { title: t('clients.cardSerial'), dataIndex: 'cardSerial', key: 'cardSerial', responsive: ['xl'] },
    {
      title: t('clients.subscriptionEnd'),
      dataIndex: 'subscriptionEnd',
      key: 'subscriptionEnd',
      sorter: true,
      responsive: ['md'],
      render: date,
    },
    {
      title: t('clients.balance'),
      dataIndex: 'balance',
      key: 'balance',
      sorter: true,
      align: 'end',
      render: (v: number) => (
        <span className="ltr-value">
          {club.currencySymbol}
          {formatMinor(v, locale)}
        </span>
      ),
    },
    {
      title: t('clients.status'),
      dataIndex: 'status',
      key: 'status',
      responsive: ['sm'],
      render: (v: number) => {
        const name = Object.entries(ClientStatus).find(([, n]) => n === v)?.[0] ?? 'Active';
        return <Tag color={STATUS_TAG[v]}>{t(`clientStatus.${name}`)}</Tag>;
      },
    },
    {
      key: 'actions',
      width: 56,
      render: (_, c) => (
        <Button
          type="text"
          size="small"
          icon={<EditOutlined />}
          aria-label={t('common.edit')}
          onClick={() => openEditor(c)}
        />
      ),
    },
  ];

  const onChange: TableProps<Client>['onChange'] = (pagination, _filters, sorter) => {
    const s = Array.isArray(sorter) ? sorter[0] : sorter;
    setParams((p) => ({
      ...p,
      page: pagination.current ?? 1,
      pageSize: pagination.pageSize ?? p.pageSize,
      sort: s?.order ? String(s.columnKey ?? s.field) : undefined,
      order: s?.order === 'descend' ? 'desc' : 'asc',
    }));
  };

  return (
    <>
      <div className="page-header">
        <Typography.Title level={2}>{t('nav.clients')}</Typography.Title>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => openEditor(null)} data-testid="client-new">
          {t('clients.new')}
        </Button>
      </div>
      <div className="toolbar">
        <Input.Search
          className="grow"
          allowClear
          placeholder={t('clients.searchPlaceholder')}
          value={searchText}
          onChange={(e) => {
            setSearchText(e.target.value);
            setParams((p) => ({ ...p, page: 1 }));
          }}
          data-testid="clients-search"
        />
        <Select
          allowClear
          style={{ minInlineSize: 180 }}
          placeholder={t('clients.allGroups')}
          loading={groups.isPending}
          value={params.groupId}
          onChange={(v: number | undefined) => setParams((p) => ({ ...p, groupId: v, page: 1 }))}
          options={(groups.data?.items ?? []).map((g) => ({ value: g.id, label: g.name }))}
          data-testid="clients-group-filter"
        />
        <Space>
          <Switch
            checked={params.showDeleted}
            onChange={(v) => setParams((p) => ({ ...p, showDeleted: v, page: 1 }))}
            data-testid="clients-show-deleted"
          />
          <span>{t('clients.showDeleted')}</span>
        </Space>
      </div>
      {query.isError && <Typography.Text type="danger">{errorText(t, query.error)}</Typography.Text>}
      <Table<Client>
        data-testid="clients-table"
        rowKey="id"
        size={viewport === 'desktop' ? 'middle' : 'small'}
        columns={columns}
        dataSource={query.data?.items ?? []}
        loading={query.isFetching}
        onChange={onChange}
        scroll={{ x: 'max-content' }}
        rowClassName={(c) => (c.status === ClientStatus.Deleted ? 'row-deleted' : '')}
        locale={{ emptyText: query.isError ? errorText(t, query.error) : t('common.noData') }}
        pagination={{
          current: params.page,
          pageSize: params.pageSize,
          total: query.data?.total ?? 0,
          showSizeChanger: true,
          showTotal: (total) => t('common.totalItems', { total }),
        }}
      />
      <ClientFormDrawer open={drawerOpen} client={editing} onClose={() => setDrawerOpen(false)} />
    </>
  );
}
