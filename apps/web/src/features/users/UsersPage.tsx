import { useEffect, useMemo, useState } from 'react';
import {
  App,
  Button,
  Card,
  Checkbox,
  Col,
  Divider,
  Drawer,
  Form,
  Input,
  Progress,
  Row,
  Select,
  Space,
  Switch,
  Tag,
  Typography,
} from 'antd';
import { CheckSquareOutlined, EditOutlined, MinusSquareOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { UserInput, UserPatch, UserRole, type PermissionFlag, type User } from '@venue/domain';
import { ApiError } from '../../app/api/apiClient';
import { useSessionData } from '../../app/auth/AuthProvider';
import { useDrawerSide, useLanguage } from '../../app/i18n/LocaleProvider';
import { DataGrid, type GridColumn } from '../../shared/DataGrid';
import { downloadFile } from '../../shared/download';
import { applyFieldIssues, errorText, serverFieldIssues, zodFieldIssues } from '../../shared/errors';
import { useGridState } from '../../shared/gridState';
import { useViewport } from '../../shared/useMediaQuery';
import { EDITABLE_FLAGS, PERMISSION_GROUPS, passwordStrength } from './permissionGroups';
import { useEmployeePositions, useSaveUser, useUserList } from './useUsers';

interface UserForm {
  username: string;
  password: string;
  name: string;
  language: 'he' | 'en';
  isAdmin: boolean;
  role: number;
  employeePositionId: number | null;
  disabled: boolean;
}

const roleName = (v: number) => Object.entries(UserRole).find(([, n]) => n === v)?.[0] ?? 'REGULAR';

/** /management/app-users-list (seed 001 §3 "User", §6): staff users and their permissions. */
export function UsersPage() {
  const { t } = useTranslation();
  const lang = useLanguage();
  const q = useUserList();
  const positions = useEmployeePositions();
  const [grid, setGrid] = useGridState('users');
  const [editing, setEditing] = useState<User | null>(null);
  const [open, setOpen] = useState(false);
  const edit = (u: User | null) => {
    setEditing(u);
    setOpen(true);
  };

  const columns = useMemo<GridColumn<User>[]>(
    () => [
      {
        key: 'username',
        title: t('users.username'),
        dataIndex: 'username',
        alwaysVisible: true,
        sortable: (a, b) => a.username.localeCompare(b.username),
        render: (v: string, u) => (
          <Typography.Link onClick={() => edit(u)} data-testid={`user-link-${v}`}>
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
        render: (v: number | null) => positions.data?.find((p) => p.id === v)?.name ?? '—',
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
          v ? <span className="ltr-value">{new Date(v).toLocaleDateString()}</span> : t('users.termsNotSigned'),
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
            onClick={() => edit(u)}
          />
        ),
      },
    ],

    [t, positions.data],
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

function PasswordHint({ value }: { value: string }) {
  const { t } = useTranslation();
  const s = passwordStrength(value);
  if (!value) return <span>{t('users.passwordRules')}</span>;
  const colors = ['#ff4d4f', '#ff4d4f', '#faad14', '#52c41a', '#389e0d'];
  return (
    <span data-testid="password-strength" data-strength={s}>
      <Progress
        percent={(s / 4) * 100}
        steps={4}
        size="small"
        showInfo={false}
        strokeColor={colors[s]}
        style={{ marginInlineEnd: 8 }}
      />
      {t(`users.strength${s}`)} · {t('users.passwordRules')}
    </span>
  );
}

function UserDrawer({ open, user, onClose }: { open: boolean; user: User | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { user: me } = useSessionData();
  const side = useDrawerSide('end');
  const phone = useViewport() === 'phone';
  const positions = useEmployeePositions();
  const save = useSaveUser();
  const [form] = Form.useForm<UserForm>();
  const [perms, setPerms] = useState<Partial<Record<PermissionFlag, boolean>>>({});
  const password = Form.useWatch('password', form) ?? '';
  const isAdmin = Form.useWatch('isAdmin', form) ?? false;

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue({
      username: user?.username ?? '',
      password: '',
      name: user?.name ?? '',
      language: (user?.language as 'he' | 'en' | undefined) ?? 'he',
      isAdmin: user?.isAdmin ?? false,
      role: user?.role ?? UserRole.REGULAR,
      employeePositionId: user?.employeePositionId ?? null,
      disabled: user?.disabled ?? false,
    });
    setPerms(user ? { ...user.permissions } : {});
  }, [open, user, form]);

  const setAll = (v: boolean) => setPerms(Object.fromEntries(EDITABLE_FLAGS.map((f) => [f, v])));

  const onFinish = async (v: UserForm) => {
    const permissions = Object.fromEntries(EDITABLE_FLAGS.map((f) => [f, perms[f] === true])) as Record<
      PermissionFlag,
      boolean
    >;
    const base = {
      username: v.username,
      name: v.name ?? '',
      language: v.language,
      isAdmin: v.isAdmin,
      role: v.role,
      employeePositionId: v.employeePositionId ?? null,
      disabled: v.disabled,
      permissions,
    };
    const parsed = user
      ? UserPatch.safeParse(v.password ? { ...base, password: v.password } : base)
      : UserInput.safeParse({ ...base, password: v.password ?? '' });
    if (!parsed.success) {
      applyFieldIssues(form, zodFieldIssues(t, parsed.error));
      return;
    }
    try {
      await save.mutateAsync({ id: user?.id ?? null, body: parsed.data });
      message.success(t('common.saved'));
      onClose();
    } catch (e) {
      if (e instanceof ApiError && e.code === 'USER_NAME_EXISTS') {
        form.setFields([{ name: 'username', errors: [t('errors.USER_NAME_EXISTS')] }]);
      } else if (!(e instanceof ApiError && applyFieldIssues(form, serverFieldIssues(t, e)))) {
        message.error(errorText(t, e));
      }
    }
  };

  const self = user?.id === me.id;

  return (
    <Drawer
      open={open}
      onClose={onClose}
      placement={side}
      size={phone ? '100%' : 640}
      title={user ? t('users.edit', { name: user.username }) : t('users.new')}
      destroyOnHidden
      extra={
        <Space>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="primary" loading={save.isPending} onClick={() => form.submit()} data-testid="user-save">
            {t('common.save')}
          </Button>
        </Space>
      }
    >
      <Form form={form} layout="vertical" onFinish={(v) => void onFinish(v)} data-testid="user-form">
        <Row gutter={12}>
          <Col xs={24} sm={12}>
            <Form.Item name="username" label={t('users.username')} required>
              <Input dir="ltr" autoComplete="off" maxLength={60} data-testid="user-username" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item
              name="password"
              label={user ? t('users.newPassword') : t('users.password')}
              required={!user}
              extra={<PasswordHint value={password} />}
            >
              <Input.Password
                dir="ltr"
                autoComplete="new-password"
                placeholder={user ? t('users.passwordUnchanged') : undefined}
                data-testid="user-password"
              />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="name" label={t('users.name')}>
              <Input maxLength={100} data-testid="user-name" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="language" label={t('users.language')}>
              <Select
                options={[
                  { value: 'he', label: t('users.lang_he') },
                  { value: 'en', label: t('users.lang_en') },
                ]}
              />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="role" label={t('users.role')}>
              <Select
                options={Object.entries(UserRole).map(([k, v]) => ({ value: v, label: t(`userRole.${k}`) }))}
                data-testid="user-role"
              />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="employeePositionId" label={t('users.position')}>
              <Select
                allowClear
                loading={positions.isPending}
                placeholder={t('users.noPosition')}
                options={(positions.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
              />
            </Form.Item>
          </Col>
          <Col xs={12} sm={12}>
            <Form.Item
              name="isAdmin"
              label={t('users.isAdmin')}
              valuePropName="checked"
              extra={self ? t('users.ownAdmin') : undefined}
            >
              <Switch disabled={self} data-testid="user-isAdmin" />
            </Form.Item>
          </Col>
          <Col xs={12} sm={12}>
            <Form.Item name="disabled" label={t('users.disabled')} valuePropName="checked">
              <Switch disabled={self} />
            </Form.Item>
          </Col>
        </Row>
        <Divider titlePlacement="start">{t('users.permissions')}</Divider>
        {isAdmin ? (
          <Typography.Text type="secondary">{t('users.adminHasAll')}</Typography.Text>
        ) : (
          <>
            <Space style={{ marginBlockEnd: 12 }} wrap>
              <Button icon={<CheckSquareOutlined />} onClick={() => setAll(true)} data-testid="perm-select-all">
                {t('users.selectAll')}
              </Button>
              <Button icon={<MinusSquareOutlined />} onClick={() => setAll(false)} data-testid="perm-remove-all">
                {t('users.removeAll')}
              </Button>
            </Space>
            <Row gutter={[12, 12]}>
              {PERMISSION_GROUPS.map((g) => (
                <Col xs={24} sm={12} key={g.key}>
                  <Card size="small" title={t(`permGroup.${g.key}`)}>
                    <Space orientation="vertical" size={2}>
                      {g.flags.map((f) => (
                        <Checkbox
                          key={f}
                          checked={perms[f] === true}
                          onChange={(e) => setPerms((p) => ({ ...p, [f]: e.target.checked }))}
                          data-testid={`perm-${f}`}
                        >
                          {t(`permission.${f}`)}
                        </Checkbox>
                      ))}
                    </Space>
                  </Card>
                </Col>
              ))}
            </Row>
          </>
        )}
      </Form>
    </Drawer>
  );
}
