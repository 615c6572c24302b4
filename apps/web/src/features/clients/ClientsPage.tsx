import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { App, Button, Input, Popconfirm, Select, Space, Switch, Tag, Tooltip, Typography } from 'antd';
import {
  DeleteOutlined,
  EditOutlined,
  ImportOutlined,
  PlusOutlined,
  ProfileOutlined,
  ThunderboltOutlined,
  UndoOutlined,
  UserSwitchOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { CARD_TYPES, ClientStatus, ClientType, formatPhone, type Client } from '@venue/domain';
import { useCan } from '../../app/auth/useCan';
import { DataGrid, type GridColumn } from '../../shared/DataGrid';
import { useGridState } from '../../shared/gridState';
import { errorText } from '../../shared/errors';
import { useDebounced } from '../../shared/useDebounced';
import { useViewport } from '../../shared/useMediaQuery';
import { useGroupList } from '../groups/useGroups';
import { BulkClientsModal } from './BulkClientsModal';
import { ClientFormDrawer } from './ClientFormDrawer';
import { ClientRecoveryModal } from './ClientRecoveryModal';
import { ImportClientsModal } from './ImportClientsModal';
import { useClientFormat } from './clientFormat';
import { exportClients, useClientList, useSetClientStatus, type ClientFilters } from './useClients';

const STATUS_TAG: Record<number, string> = { 1: 'green', 2: 'default', 3: 'red' };

export function statusName(v: number): string {
  return Object.entries(ClientStatus).find(([, n]) => n === v)?.[0] ?? 'Active';
}

/**
 * /management/clients (seed 000 §2, seed 001 §3): every client field in a
 * column chooser, server-side filters, sort and paging, delete/restore,
 * recovery, import, multi-operation, export and print.
 */
export function ClientsPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const allowed = useCan();
  const canEdit = allowed({ edit: 'clients' });
  const viewport = useViewport();
  const groups = useGroupList();
  const fmt = useClientFormat();
  const [grid, setGrid] = useGridState<ClientFilters>('clients');
  const filters = grid.filters ?? {};
  const [page, setPage] = useState(1);
  const [searchText, setSearchText] = useState(filters.search ?? '');
  const search = useDebounced(searchText.trim(), 300);
  const sort = grid.sort ?? null;
  const pageSize = grid.pageSize ?? 25;
  const listParams = {
    ...filters,
    search: search || undefined,
    page,
    pageSize,
    sort: sort?.key,
    order: sort?.order ?? 'asc',
  } as const;
  const query = useClientList(listParams);
  const setStatus = useSetClientStatus();
  const [editing, setEditing] = useState<Client | null>(null);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [selected, setSelected] = useState<number[]>([]);
  const [bulkOpen, setBulkOpen] = useState(false);
  const [importOpen, setImportOpen] = useState(false);
  const [recoveryOpen, setRecoveryOpen] = useState(false);

  const setFilter = (patch: Partial<ClientFilters>) => {
    setGrid((g) => ({ ...g, filters: { ...g.filters, ...patch } }));
    setPage(1);
  };
  const openEditor = (c: Client | null) => {
    setEditing(c);
    setDrawerOpen(true);
  };
  const openDetails = (c: Client) => void navigate(`/management/clients/${c.id}`);

  const changeStatus = async (c: Client, status: number) => {
    try {
      await setStatus.mutateAsync({ id: c.id, status });
      message.success(status === ClientStatus.Deleted ? t('clients.deleted') : t('clients.restored'));
    } catch (e) {
      message.error(errorText(t, e));
    }
  };

  const columns = useMemo<GridColumn<Client>[]>(
    () => [
      { key: 'number', title: t('clients.number'), dataIndex: 'number', sortable: true, width: 80 },
      {
        key: 'name',
        title: t('clients.name'),
        sortable: true,
        alwaysVisible: true,
        render: (_, c) => (
          <Typography.Link onClick={() => openDetails(c)} dir="auto" data-testid={`client-link-${c.id}`}>
            {c.name || `${c.firstName} ${c.lastName}`}
          </Typography.Link>
        ),
      },
      { key: 'firstName', title: t('clients.firstName'), dataIndex: 'firstName', sortable: true, defaultHidden: true },
      { key: 'lastName', title: t('clients.lastName'), dataIndex: 'lastName', sortable: true, defaultHidden: true },
      {
        key: 'personalId',
        title: t('clients.personalId'),
        dataIndex: 'personalId',
        render: (v: string) => <span className="ltr-value">{v}</span>,
      },
      {
        key: 'phone',
        title: t('clients.phone'),
        dataIndex: 'phone',
        render: (v: string) => <span className="ltr-value nowrap">{v ? formatPhone(v) : ''}</span>,
      },
      { key: 'city', title: t('clients.city'), dataIndex: 'city', defaultHidden: true },
      { key: 'address', title: t('clients.address'), dataIndex: 'address', defaultHidden: true },
      {
        key: 'group',
        title: t('clients.group'),
        dataIndex: 'groupName',
        render: (v: string | null) => v ?? '—',
      },
      {
        key: 'clientType',
        title: t('clients.clientType'),
        dataIndex: 'clientType',
        defaultHidden: true,
        render: (v: number) => t(`clientType.${Object.entries(ClientType).find(([, n]) => n === v)?.[0] ?? 'Regular'}`),
      },
      {
        key: 'cardSerial',
        title: t('clients.cardSerial'),
        dataIndex: 'cardSerial',
        sortable: true,
        render: (v: string) => <span className="ltr-value">{v}</span>,
      },
      {
        key: 'cardType',
        title: t('clients.cardType'),
        dataIndex: 'cardType',
        defaultHidden: true,
        render: (v: number) => t(`cardType.${Object.entries(CARD_TYPES).find(([, n]) => n === v)?.[0] ?? 'Unknown'}`),
      },
      {
        key: 'balance',
        title: t('clients.balance'),
        dataIndex: 'balance',
        sortable: true,
        align: 'end',
        render: (v: number) => fmt.money(v),
      },
      {
        key: 'bonusEntries',
        title: t('clients.bonusEntries'),
        dataIndex: 'bonusEntries',
        align: 'end',
        defaultHidden: true,
      },
      {
        key: 'subscriptionStart',
        title: t('clients.subscriptionStart'),
        dataIndex: 'subscriptionStart',
        defaultHidden: true,
        render: fmt.date,
      },
      {
        key: 'subscriptionEnd',
        title: t('clients.subscriptionEnd'),
        dataIndex: 'subscriptionEnd',
        sortable: true,
        render: fmt.date,
      },
      {
        key: 'licenseExpiry',
        title: t('clients.licenseExpiry'),
        dataIndex: 'licenseExpiry',
        sortable: true,
        defaultHidden: true,
        render: fmt.date,
      },
      {
        key: 'specialPrice',
        title: t('clients.specialPrice'),
        dataIndex: 'specialPrice',
        align: 'end',
        defaultHidden: true,
        render: (v: number | null) => (v == null ? '—' : fmt.money(v)),
      },
      {
        key: 'debtsTotal',
        title: t('clients.debts'),
        dataIndex: 'debtsTotal',
        align: 'end',
        defaultHidden: true,
        render: (v: number) => (v ? <Typography.Text type="danger">{fmt.money(v)}</Typography.Text> : fmt.money(0)),
      },
      {
        key: 'hasFingerprint',
        title: t('clients.hasFingerprint'),
        dataIndex: 'hasFingerprint',
        defaultHidden: true,
        render: fmt.yesNo,
      },
      {
        key: 'hasPaymentMethod',
        title: t('clients.hasPaymentMethod'),
        dataIndex: 'hasPaymentMethod',
        defaultHidden: true,
        render: fmt.yesNo,
      },
      {
        key: 'childrenCount',
        title: t('clients.children'),
        dataIndex: 'childrenCount',
        align: 'end',
        defaultHidden: true,
      },
      { key: 'clientCode', title: t('clients.clientCode'), dataIndex: 'clientCode', defaultHidden: true },
      {
        key: 'messageToClient',
        title: t('clients.messageToClient'),
        dataIndex: 'messageToClient',
        defaultHidden: true,
        ellipsis: true,
      },
      {
        key: 'status',
        title: t('clients.status'),
        dataIndex: 'status',
        sortable: true,
        render: (v: number) => <Tag color={STATUS_TAG[v]}>{t(`clientStatus.${statusName(v)}`)}</Tag>,
      },
      {
        key: 'createdAt',
        title: t('clients.createdAt'),
        dataIndex: 'createdAt',
        sortable: true,
        defaultHidden: true,
        render: (v: string) => fmt.date(v.slice(0, 10)),
      },
      {
        key: 'actions',
        title: '',
        alwaysVisible: true,
        className: 'no-print',
        width: 110,
        render: (_, c) => (
          <Space size={0}>
            <Tooltip title={t('clients.details')}>
              <Button
                type="text"
                size="small"
                icon={<ProfileOutlined />}
                aria-label={t('clients.details')}
                onClick={() => openDetails(c)}
              />
            </Tooltip>
            {canEdit && (
              <Tooltip title={t('common.edit')}>
                <Button
                  type="text"
                  size="small"
                  icon={<EditOutlined />}
                  aria-label={t('common.edit')}
                  onClick={() => openEditor(c)}
                />
              </Tooltip>
            )}
            {canEdit &&
              (c.status === ClientStatus.Deleted ? (
                <Tooltip title={t('clients.restore')}>
                  <Button
                    type="text"
                    size="small"
                    icon={<UndoOutlined />}
                    aria-label={t('clients.restore')}
                    data-testid={`client-restore-${c.id}`}
                    onClick={() => void changeStatus(c, ClientStatus.Active)}
                  />
                </Tooltip>
              ) : (
                <Popconfirm
                  title={t('clients.deleteConfirm', { name: c.name })}
                  okText={t('common.delete')}
                  cancelText={t('common.cancel')}
                  okButtonProps={{ danger: true }}
                  onConfirm={() => changeStatus(c, ClientStatus.Deleted)}
                >
                  <Button
                    type="text"
                    size="small"
                    danger
                    icon={<DeleteOutlined />}
                    aria-label={t('common.delete')}
                    data-testid={`client-delete-${c.id}`}
                  />
                </Popconfirm>
              ))}
          </Space>
        ),
      },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t, fmt, canEdit],
  );

  const toolbar = (
    <>
      <Input.Search
        className="grow"
        allowClear
        placeholder={t('clients.searchPlaceholder')}
        value={searchText}
        onChange={(e) => {
          setSearchText(e.target.value);
          setGrid((g) => ({ ...g, filters: { ...g.filters, search: e.target.value.trim() || undefined } }));
          setPage(1);
        }}
        data-testid="clients-search"
      />
      <Select
        allowClear
        style={{ minInlineSize: 160 }}
        placeholder={t('clients.allGroups')}
        loading={groups.isPending}
        value={filters.groupId}
        onChange={(v: number | undefined) => setFilter({ groupId: v })}
        options={(groups.data?.items ?? []).map((g) => ({ value: g.id, label: g.name }))}
        data-testid="clients-group-filter"
      />
      <Select
        allowClear
        style={{ minInlineSize: 150 }}
        placeholder={t('clients.allSubscriptions')}
        value={filters.subscription}
        onChange={(v: ClientFilters['subscription']) => setFilter({ subscription: v })}
        options={(['valid', 'expired', 'none'] as const).map((v) => ({ value: v, label: t(`clients.sub_${v}`) }))}
        data-testid="clients-subscription-filter"
      />
      <Select
        allowClear
        style={{ minInlineSize: 130 }}
        placeholder={t('clients.allStatuses')}
        value={filters.status}
        onChange={(v: number | undefined) => setFilter({ status: v })}
        options={Object.entries(ClientStatus).map(([k, v]) => ({ value: v, label: t(`clientStatus.${k}`) }))}
        data-testid="clients-status-filter"
      />
      <Space>
        <Switch
          checked={filters.showDeleted ?? false}
          onChange={(v) => setFilter({ showDeleted: v })}
          data-testid="clients-show-deleted"
        />
        <span>{t('clients.showDeleted')}</span>
      </Space>
    </>
  );

  const selection = canEdit
    ? {
        selectedRowKeys: selected,
        preserveSelectedRowKeys: true,
        onChange: (keys: React.Key[]) => setSelected(keys.map(Number)),
      }
    : undefined;

  return (
    <>
      <div className="page-header">
        <Typography.Title level={2}>{t('nav.clients')}</Typography.Title>
        {canEdit && (
          <Space wrap>
            <Button icon={<UserSwitchOutlined />} onClick={() => setRecoveryOpen(true)} data-testid="client-recovery">
              {viewport === 'phone' ? null : t('clients.recovery')}
            </Button>
            <Button icon={<ImportOutlined />} onClick={() => setImportOpen(true)} data-testid="client-import">
              {viewport === 'phone' ? null : t('clients.import')}
            </Button>
            <Button
              icon={<ThunderboltOutlined />}
              disabled={selected.length === 0}
              onClick={() => setBulkOpen(true)}
              data-testid="client-bulk"
            >
              {t('clients.bulk', { count: selected.length })}
            </Button>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => openEditor(null)} data-testid="client-new">
              {t('clients.new')}
            </Button>
          </Space>
        )}
      </div>
      <DataGrid<Client>
        gridId="clients"
        data-testid="clients-table"
        columns={columns}
        rows={query.data?.items ?? []}
        rowKey="id"
        state={grid}
        onStateChange={setGrid}
        total={query.data?.total ?? 0}
        page={page}
        onPageChange={setPage}
        loading={query.isFetching}
        error={query.error}
        onRetry={() => void query.refetch()}
        onExport={() => exportClients(listParams)}
        toolbar={toolbar}
        rowSelection={selection}
        rowClassName={(c) => (c.status === ClientStatus.Deleted ? 'row-deleted' : '')}
        onRowClick={openDetails}
      />
      <ClientFormDrawer open={drawerOpen} client={editing} onClose={() => setDrawerOpen(false)} />
      <BulkClientsModal
        open={bulkOpen}
        rows={selected}
        onClose={(done) => {
          setBulkOpen(false);
          if (done) setSelected([]);
        }}
      />
      <ImportClientsModal open={importOpen} onClose={() => setImportOpen(false)} />
      <ClientRecoveryModal open={recoveryOpen} onClose={() => setRecoveryOpen(false)} />
    </>
  );
}
