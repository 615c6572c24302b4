import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { Button, Input, Select, Space, Switch, Typography } from 'antd';
import { ImportOutlined, PlusOutlined, ThunderboltOutlined, UserSwitchOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ClientStatus, type Client } from '@venue/domain';
import { useCan } from '../../platform/auth/useCan';
import { DataGrid } from '../../shared/DataGrid';
import { useGridState } from '../../shared/gridState';
import { errorText } from '../../shared/errors';
import { useDebounced } from '../../shared/useDebounced';
import { useViewport } from '../../shared/useMediaQuery';
import { useGroupList } from '../groups/useGroups';
import { BulkClientsModal } from './BulkClientsModal';
import { ClientFormDrawer } from './ClientFormDrawer';
import { ClientRecoveryModal } from './ClientRecoveryModal';
import { ImportClientsModal } from './ImportClientsModal';
import { clientColumns } from './clientColumns';
import { useClientFormat } from './clientFormat';
import { exportClients, useClientList, useSetClientStatus, type ClientFilters } from './useClients';
import { useToast } from '../../shared/toast/ToastProvider';
import { readSession } from '../../platform/auth/authStorage';

const SEARCH_KEY = 'venue.clientsSearch';

/**
 * The clients' search box is a moment's question, not a setting (issue 35): it is kept for the
 * sign-in session in this tab (back from a client's page it is still there), never on the server,
 * so a new session starts with an empty box. Stored with the session's token, which a new sign-in changes.
 */
function readSessionSearch(): string {
  try {
    const saved = JSON.parse(sessionStorage.getItem(SEARCH_KEY) ?? 'null') as { token?: string; text?: string } | null;
    return saved && saved.token === readSession()?.token ? (saved.text ?? '') : '';
  } catch {
    return '';
  }
}
function saveSessionSearch(text: string): void {
  sessionStorage.setItem(SEARCH_KEY, JSON.stringify({ token: readSession()?.token, text }));
}
function withoutSearch(f: ClientFilters | undefined): ClientFilters {
  const { search: _saved, ...rest } = f ?? {};
  return rest;
}

/**
 * /management/clients (seed 000 §2, seed 001 §3): every client field in a
 * column chooser, server-side filters, sort and paging, delete/restore,
 * recovery, import, multi-operation, export and print.
 */
export function ClientsPage() {
  const { t } = useTranslation();
  const message = useToast();
  const navigate = useNavigate();
  const allowed = useCan();
  const canEdit = allowed({ edit: 'clients' });
  const fmt = useClientFormat();
  const [grid, setGrid] = useGridState<ClientFilters>('clients');
  // The search is not kept with the user's list settings on the server (a state saved before is left out).
  const filters = withoutSearch(grid.filters);
  const [page, setPage] = useState(1);
  const [searchText, setSearchText] = useState(readSessionSearch);
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
    setGrid((g) => ({ ...g, filters: { ...withoutSearch(g.filters), ...patch } }));
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

  const columns = useMemo(
    () => clientColumns({ t, fmt, canEdit, onDetails: openDetails, onEdit: openEditor, onChangeStatus: changeStatus }),

    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t, fmt, canEdit],
  );

  const onSearchChange = (text: string) => {
    setSearchText(text);
    saveSessionSearch(text);
    setPage(1);
  };
  const toolbar = (
    <ClientFilterBar searchText={searchText} onSearchChange={onSearchChange} filters={filters} setFilter={setFilter} />
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
          <ClientsActions
            selectedCount={selected.length}
            onRecovery={() => setRecoveryOpen(true)}
            onImport={() => setImportOpen(true)}
            onBulk={() => setBulkOpen(true)}
            onNew={() => openEditor(null)}
          />
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

/** The list's search box and filters (group, subscription, status, deleted); a change goes back to page 1. */
function ClientFilterBar({
  searchText,
  onSearchChange,
  filters,
  setFilter,
}: {
  searchText: string;
  onSearchChange: (text: string) => void;
  filters: ClientFilters;
  setFilter: (patch: Partial<ClientFilters>) => void;
}) {
  const { t } = useTranslation();
  const groups = useGroupList();
  return (
    <>
      <Input.Search
        className="grow"
        allowClear
        placeholder={t('clients.searchPlaceholder')}
        aria-label={t('clients.searchPlaceholder')}
        value={searchText}
        onChange={(e) => onSearchChange(e.target.value)}
        data-testid="clients-search"
      />
      {/* By group only for a user who may read the groups (the menu's rule, issue 35). */}
      {groups.allowed && (
        <Select
          allowClear
          style={{ minInlineSize: 160 }}
          placeholder={t('clients.allGroups')}
          aria-label={t('clients.allGroups')}
          loading={groups.isLoading}
          value={filters.groupId}
          onChange={(v: number | undefined) => setFilter({ groupId: v })}
          options={(groups.data?.items ?? []).map((g) => ({ value: g.id, label: g.name }))}
          data-testid="clients-group-filter"
        />
      )}
      <Select
        allowClear
        style={{ minInlineSize: 150 }}
        placeholder={t('clients.allSubscriptions')}
        aria-label={t('clients.allSubscriptions')}
        value={filters.subscription}
        onChange={(v: ClientFilters['subscription']) => setFilter({ subscription: v })}
        options={(['valid', 'expired', 'none'] as const).map((v) => ({ value: v, label: t(`clients.sub_${v}`) }))}
        data-testid="clients-subscription-filter"
      />
      <Select
        allowClear
        style={{ minInlineSize: 130 }}
        placeholder={t('clients.allStatuses')}
        aria-label={t('clients.allStatuses')}
        value={filters.status}
        onChange={(v: number | undefined) => setFilter({ status: v })}
        options={Object.entries(ClientStatus).map(([k, v]) => ({ value: v, label: t(`clientStatus.${k}`) }))}
        data-testid="clients-status-filter"
      />
      <Space>
        <Switch
          checked={filters.showDeleted ?? false}
          onChange={(v) => setFilter({ showDeleted: v })}
          aria-labelledby="clients-show-deleted-label"
          data-testid="clients-show-deleted"
        />
        <span id="clients-show-deleted-label">{t('clients.showDeleted')}</span>
      </Space>
    </>
  );
}

/** The editor's buttons: recovery, import, multi-operation on the selected rows, new client. */
function ClientsActions(props: {
  selectedCount: number;
  onRecovery: () => void;
  onImport: () => void;
  onBulk: () => void;
  onNew: () => void;
}) {
  const { t } = useTranslation();
  const viewport = useViewport();
  const { selectedCount, onRecovery, onImport, onBulk, onNew } = props;
  return (
    <Space wrap>
      <Button icon={<UserSwitchOutlined />} onClick={onRecovery} data-testid="client-recovery">
        {viewport === 'phone' ? null : t('clients.recovery')}
      </Button>
      <Button icon={<ImportOutlined />} onClick={onImport} data-testid="client-import">
        {viewport === 'phone' ? null : t('clients.import')}
      </Button>
      <Button icon={<ThunderboltOutlined />} disabled={selectedCount === 0} onClick={onBulk} data-testid="client-bulk">
        {t('clients.bulk', { count: selectedCount })}
      </Button>
      <Button type="primary" icon={<PlusOutlined />} onClick={onNew} data-testid="client-new">
        {t('clients.new')}
      </Button>
    </Space>
  );
}
