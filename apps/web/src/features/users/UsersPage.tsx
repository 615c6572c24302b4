import { useMemo, useState } from 'react';
import { Button, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { User } from '@venue/domain';
import { useLanguage } from '../../platform/i18n/LocaleProvider';
import { DataGrid } from '../../shared/DataGrid';
import { downloadFile } from '../../shared/download';
import { useGridState } from '../../shared/gridState';
import { UserDrawer } from './UserDrawer';
import { userColumns } from './userColumns';
import { useEmployeePositions, useUserList } from './useUsers';
import { useFormat } from '../../shared/useFormat';

/** /management/app-users-list (seed 001 §3 "User", §6): staff users and their permissions. */
export function UsersPage() {
  const { t } = useTranslation();
  const lang = useLanguage();
  const q = useUserList();
  const positions = useEmployeePositions();
  const fmt = useFormat();
  const [grid, setGrid] = useGridState('users');
  const [editing, setEditing] = useState<User | null>(null);
  const [open, setOpen] = useState(false);
  const edit = (u: User | null) => {
    setEditing(u);
    setOpen(true);
  };

  const columns = useMemo(
    () => userColumns({ t, positions: positions.data ?? [], onEdit: (u) => edit(u), instantDate: fmt.instantDate }),
    [t, positions.data, fmt],
  );

  return (
    <>
      <div className="page-header">
        <Typography.Title level={2}>{t('nav.users')}</Typography.Title>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => edit(null)} data-testid="user-new">
          {t('users.new')}
        </Button>
      </div>
      <DataGrid<User>
        gridId="users"
        columns={columns}
        rows={q.data?.items ?? []}
        rowKey="id"
        state={grid}
        onStateChange={setGrid}
        sortMode="page"
        loading={q.isFetching}
        error={q.error}
        onRetry={() => void q.refetch()}
        onExport={() => downloadFile('/User/Export', { query: { lang } }, 'users.xlsx')}
        rowClassName={(u) => (u.disabled ? 'row-deleted' : '')}
      />
      <UserDrawer open={open} user={editing} onClose={() => setOpen(false)} />
    </>
  );
}
