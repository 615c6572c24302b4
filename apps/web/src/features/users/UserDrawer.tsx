import { useEffect, useState } from 'react';
import {
  Button,
  Card,
  Checkbox,
  Col,
  Divider,
  Form,
  Input,
  Progress,
  Row,
  Select,
  Space,
  Switch,
  Typography,
} from 'antd';
import { CheckSquareOutlined, MinusSquareOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { UserInput, UserPatch, UserRole, type User } from '@venue/domain';
import { useSessionData } from '../../platform/auth/AuthProvider';
import { FormDrawer } from '../../shared/forms/FormDrawer';
import { fieldOutcome } from '../../shared/forms/formErrors';
import { useSchemaForm } from '../../shared/forms/useSchemaForm';
import { PERMISSION_GROUPS, passwordStrength } from './permissionGroups';
import {
  allPermissions,
  userFormValues,
  userRequestBody,
  type PermissionChecks,
  type UserFormValues,
} from './userForm';
import { useEmployeePositions, useSaveUser } from './useUsers';
import { useToast } from '../../shared/toast/ToastProvider';

const STRENGTH_COLOURS = ['#ff4d4f', '#ff4d4f', '#faad14', '#52c41a', '#389e0d'];

/** The password rules, and the strength (0–4) of what is typed. */
function PasswordHint({ value }: { value: string }) {
  const { t } = useTranslation();
  const s = passwordStrength(value);
  if (!value) return <span>{t('users.passwordRules')}</span>;
  return (
    <span data-testid="password-strength" data-strength={s}>
      <Progress
        percent={(s / 4) * 100}
        steps={4}
        size="small"
        showInfo={false}
        strokeColor={STRENGTH_COLOURS[s]}
        style={{ marginInlineEnd: 8 }}
      />
      {t(`users.strength${s}`)} · {t('users.passwordRules')}
    </span>
  );
}

/**
 * Create or edit a staff user (seed 001 §3 "User", §6 permissions). A new
 * user needs a password; an existing one keeps it when the field is empty.
 * USER_NAME_EXISTS is shown on the user name.
 */
export function UserDrawer({ open, user, onClose }: { open: boolean; user: User | null; onClose: () => void }) {
  const { t } = useTranslation();
  const message = useToast();
  const save = useSaveUser();
  const [perms, setPerms] = useState<PermissionChecks>({});
  const { form, onFinish, rootError, clearRootError, saving } = useSchemaForm({
    schema: user ? UserPatch : UserInput,
    toInput: (v: UserFormValues) => userRequestBody(v, perms, user == null),
    submit: (body) => save.mutateAsync({ id: user?.id ?? null, body }),
    onSaved: () => {
      message.success(t('common.saved'));
      onClose();
    },
    byCode: (e) =>
      e.code === 'USER_NAME_EXISTS'
        ? fieldOutcome(['username'], t('errors.USER_NAME_EXISTS'))
        : e.code === 'WRONG_PASSWORD'
          ? fieldOutcome(['currentPassword'], t('users.currentPasswordWrong'))
          : undefined,
  });
  const isAdmin = Form.useWatch('isAdmin', form) ?? false;

  useEffect(() => {
    if (!open) return;
    clearRootError();
    form.resetFields();
    form.setFieldsValue(userFormValues(user));
    setPerms(user ? { ...user.permissions } : {});
  }, [open, user, form, clearRootError]);

  return (
    <FormDrawer
      open={open}
      onClose={onClose}
      width={640}
      title={user ? t('users.edit', { name: user.username }) : t('users.new')}
      onSave={() => form.submit()}
      saving={saving}
      rootError={rootError}
      saveTestId="user-save"
    >
      <Form form={form} layout="vertical" onFinish={(v) => void onFinish(v)} data-testid="user-form">
        <UserFields user={user} />
        <Divider titlePlacement="start">{t('users.permissions')}</Divider>
        {isAdmin ? (
          <Typography.Text type="secondary">{t('users.adminHasAll')}</Typography.Text>
        ) : (
          <PermissionEditor perms={perms} onChange={setPerms} />
        )}
      </Form>
    </FormDrawer>
  );
}

/** The user's own fields; inside the user form (reads the password as typed). */
function UserFields({ user }: { user: User | null }) {
  const { t } = useTranslation();
  const { user: me } = useSessionData();
  const positions = useEmployeePositions();
  const form = Form.useFormInstance<UserFormValues>();
  const password = Form.useWatch('password', form) ?? '';
  const self = user?.id === me.id;
  return (
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
      {self && password && (
        // One's own new password needs the current one (docs/security.md "Sessions"); other sessions end.
        <Col xs={24} sm={12}>
          <Form.Item
            name="currentPassword"
            label={t('users.currentPassword')}
            required
            extra={t('users.currentPasswordHint')}
          >
            <Input.Password dir="ltr" autoComplete="current-password" data-testid="user-current-password" />
          </Form.Item>
        </Col>
      )}
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
  );
}

/** The permission checkboxes grouped as seed 001 §6 lists them, with select all / remove all. */
function PermissionEditor({
  perms,
  onChange,
}: {
  perms: PermissionChecks;
  onChange: (update: (p: PermissionChecks) => PermissionChecks) => void;
}) {
  const { t } = useTranslation();
  return (
    <>
      <Space style={{ marginBlockEnd: 12 }} wrap>
        <Button
          icon={<CheckSquareOutlined />}
          onClick={() => onChange(() => allPermissions(true))}
          data-testid="perm-select-all"
        >
          {t('users.selectAll')}
        </Button>
        <Button
          icon={<MinusSquareOutlined />}
          onClick={() => onChange(() => allPermissions(false))}
          data-testid="perm-remove-all"
        >
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
                    onChange={(e) => onChange((p) => ({ ...p, [f]: e.target.checked }))}
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
  );
}
