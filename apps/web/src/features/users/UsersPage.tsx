import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { User } from '@venue/domain';
import { useLanguage } from '../../platform/i18n/LocaleProvider';
import { ResourceListPage } from '../../shared/ResourceListPage';
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
    <ResourceListPage<User>
      title={t('nav.users')}
      create={{ label: t('users.new'), testId: 'user-new', onClick: () => edit(null) }}
      rows={q.data?.items ?? []}
      query={q}
      grid={{
        gridId: 'users',
        columns,
        state: grid,
        onStateChange: setGrid,
        sortMode: 'page',
        onExport: () => downloadFile('/User/Export', { query: { lang } }, 'users.xlsx'),
        rowClassName: (u) => (u.disabled ? 'row-deleted' : ''),
      }}
      dialogs={<UserDrawer open={open} user={editing} onClose={() => setOpen(false)} />}
    />
  );
}
