import { Button, Tag, Typography } from 'antd';
import { EditOutlined } from '@ant-design/icons';
import type { TFunction } from 'i18next';
import type { User } from '@venue/domain';
import type { GridColumn } from '../../shared/DataGrid';
import { EDITABLE_FLAGS } from './permissionGroups';
import { roleName } from './userForm';

/** What the user columns need from the screen. */
export interface UserColumnsContext {
  t: TFunction;
  /** The club's employee positions (id → name), empty while loading. */
  positions: { id: number; name: string }[];
  onEdit: (u: User) => void;
  /** An instant's date in the club's zone (shared/useFormat `instantDate`). */
  instantDate: (iso: string) => string;
}

/** Columns of the staff user list (seed 001 §3 "User"); admins have every permission. */
export function userColumns({ t, positions, onEdit, instantDate }: UserColumnsContext): GridColumn<User>[] {
  return [
    {
      key: 'username',
      title: t('users.username'),
      dataIndex: 'username',
      alwaysVisible: true,
      sortable: (a, b) => a.username.localeCompare(b.username),
      render: (v: string, u) => (
        <Typography.Link onClick={() => onEdit(u)} data-testid={`user-link-${v}`}>
          <span dir="auto">{v}</span>
        </Typography.Link>
      ),
    },
    {
      key: 'name',
      title: t('users.name'),
      dataIndex: 'name',
      sortable: (a, b) => a.name.localeCompare(b.name),
      render: (v: string) => <span dir="auto">{v}</span>,
    },
    {
      key: 'role',
      title: t('users.role'),
      dataIndex: 'role',
      render: (v: number) => t(`userRole.${roleName(v)}`),
    },
    {
      key: 'isAdmin',
      title: t('users.isAdmin'),
      dataIndex: 'isAdmin',
      render: (v: boolean) => (v ? <Tag color="gold">{t('users.admin')}</Tag> : null),
    },
    {
      key: 'position',
      title: t('users.position'),
      dataIndex: 'employeePositionId',
      defaultHidden: true,
      render: (v: number | null) => positions.find((p) => p.id === v)?.name ?? '—',
    },
    {
      key: 'language',
      title: t('users.language'),
      dataIndex: 'language',
      render: (v: string) => t(`users.lang_${v}`),
    },
    {
      key: 'permissions',
      title: t('users.permissions'),
      render: (_, u) =>
        u.isAdmin
          ? t('users.allPermissions')
          : t('users.permissionCount', {
              count: EDITABLE_FLAGS.filter((f) => u.permissions[f]).length,
              total: EDITABLE_FLAGS.length,
            }),
    },
    {
      key: 'terms',
      title: t('users.terms'),
      dataIndex: 'termsAcceptedAt',
      defaultHidden: true,
      render: (v: string | null) =>
        v ? <span className="ltr-value">{instantDate(v)}</span> : t('users.termsNotSigned'),
    },
    {
      key: 'disabled',
      title: t('users.status'),
      dataIndex: 'disabled',
      render: (v: boolean) => (v ? <Tag>{t('users.disabled')}</Tag> : <Tag color="green">{t('users.enabled')}</Tag>),
    },
    {
      key: 'actions',
      title: '',
      alwaysVisible: true,
      className: 'no-print',
      render: (_, u) => (
        <Button
          type="text"
          size="small"
          icon={<EditOutlined />}
          aria-label={t('common.edit')}
          onClick={() => onEdit(u)}
        />
      ),
    },
  ];
}
