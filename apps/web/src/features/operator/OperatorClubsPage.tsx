import { useState } from 'react';
import { Alert, Button, Input, Modal, Popconfirm, Select, Space, Tag, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import {
  CLUB_CLASSES,
  COUNTRIES,
  type ClubClass,
  type OperatorClub,
  type OperatorClubCreated,
  type OperatorClubListQuery,
} from '@venue/domain';
import { errorText } from '../../shared/errors';
import { useToast } from '../../shared/toast/ToastProvider';
import { ClubCreateDrawer } from './ClubCreateDrawer';
import { actOnClub } from './OperatorBanner';
import { LoadLicensesModal } from './LoadLicensesModal';
import { ClubSettingsModal } from './ClubSettingsModal';
import { useOperatorClubs, useSetClubDisabled } from './useOperator';
import { ListTable } from '../../shared/CardList';
import { OperatorOnly } from './OperatorOnly';
import { useFormat } from '../../shared/useFormat';

/** The operator's clubs (issue 17 "Clubs"; docs/operator.md): user level SuperUser only, `can({operator})`. */
export function OperatorClubsPage() {
  return (
    <OperatorOnly>
      <OperatorClubs />
    </OperatorOnly>
  );
}

function OperatorClubs() {
  const { t } = useTranslation();
  const [filter, setFilter] = useState<OperatorClubListQuery>({});
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<OperatorClubCreated | null>(null);
  const [loading, setLoading] = useState<OperatorClub | null>(null);
  const [editing, setEditing] = useState<OperatorClub | null>(null);
  const query = useOperatorClubs(filter);
  const columns = useClubColumns(setLoading, setEditing);
  return (
    <>
      <div className="page-header">
        <Typography.Title level={2}>{t('operator.clubsTitle')}</Typography.Title>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)} data-testid="club-new">
          {t('operator.newClub')}
        </Button>
      </div>
      <Space wrap style={{ marginBottom: 12 }}>
        <Input.Search
          allowClear
          placeholder={t('operator.search')}
          aria-label={t('operator.search')}
          onSearch={(search) => setFilter((f) => ({ ...f, search: search.trim() || undefined }))}
          style={{ width: 260 }}
          data-testid="club-search"
        />
        <Select<ClubClass>
          allowClear
          placeholder={t('operator.class')}
          aria-label={t('operator.class')}
          style={{ width: 140 }}
          onChange={(c) => setFilter((f) => ({ ...f, class: c }))}
          options={CLUB_CLASSES.map((c) => ({ value: c, label: t(`operator.classes.${c}`) }))}
        />
        <Select<(typeof COUNTRIES)[number]>
          allowClear
          placeholder={t('operator.country')}
          aria-label={t('operator.country')}
          style={{ width: 160 }}
          onChange={(country) => setFilter((f) => ({ ...f, country }))}
          options={COUNTRIES.map((c) => ({ value: c, label: t(`operator.countries.${c}`) }))}
        />
      </Space>
      <ListTable<OperatorClub>
        rowKey="id"
        columns={columns}
        dataSource={query.data ?? []}
        loading={query.isPending}
        pagination={{ pageSize: 50, hideOnSinglePage: true }}
        // No sideways scrolling at 1280 px and up (issue 34 item 7): names and actions wrap in their cells.
        tableLayout="auto"
        locale={{ emptyText: query.isError ? errorText(t, query.error) : t('operator.empty') }}
        data-testid="clubs-table"
      />
      <ClubCreateDrawer open={creating} onClose={() => setCreating(false)} onCreated={setCreated} />
      <CreatedPasswordModal created={created} onClose={() => setCreated(null)} />
      <LoadLicensesModal club={loading} onClose={() => setLoading(null)} />
      <ClubSettingsModal club={editing} onClose={() => setEditing(null)} />
    </>
  );
}

function useClubColumns(
  onLoad: (c: OperatorClub) => void,
  onSettings: (c: OperatorClub) => void,
): TableColumnsType<OperatorClub> {
  const { t } = useTranslation();
  const fmt = useFormat();
  return [
    { title: t('operator.externalClubId'), dataIndex: 'externalClubId' },
    {
      title: t('operator.name'),
      dataIndex: 'name',
      render: (v: string) => (
        <span dir="auto" className="club-name">
          {v}
        </span>
      ),
    },
    { title: t('operator.class'), dataIndex: 'class', render: (c: ClubClass) => t(`operator.classes.${c}`) },
    { title: t('operator.country'), dataIndex: 'country', render: (c: string) => t(`operator.countries.${c}`) },
    {
      title: t('operator.licenses'),
      dataIndex: 'licensesAmount',
      render: (n: number, c) => (c.class !== 'kala' && n < 11 ? <Tag color="warning">{n}</Tag> : n),
    },
    { title: t('operator.activeClients'), dataIndex: 'activeClients' },
    { title: t('operator.terminals'), key: 'terminals', render: (_, c) => `${c.terminalsOnline}/${c.terminalsTotal}` },
    {
      title: t('operator.lastActivity'),
      dataIndex: 'lastActivity',
      render: (v: string | null) => (v ? <span className="ltr-value">{fmt.dateTime(v)}</span> : t('operator.never')),
    },
    {
      title: t('operator.status'),
      key: 'status',
      render: (_, c) => <DisableButton club={c} />,
    },
    {
      key: 'open',
      width: 1,
      render: (_, c) => (
        <Space wrap size={[4, 4]} className="club-actions">
          <Button size="small" onClick={() => onLoad(c)} data-testid={`club-load-${c.externalClubId}`}>
            {t('operator.load')}
          </Button>
          <Button size="small" onClick={() => onSettings(c)} data-testid={`club-settings-${c.externalClubId}`}>
            {t('operator.settings.open')}
          </Button>
          <Button
            size="small"
            onClick={() => actOnClub(c.externalClubId)}
            data-testid={`club-open-${c.externalClubId}`}
          >
            {t('operator.openConsole')}
          </Button>
        </Space>
      ),
    },
  ];
}

/** Active/disabled tag with the action that switches it (disable asks first). */
function DisableButton({ club }: { club: OperatorClub }) {
  const { t } = useTranslation();
  const toast = useToast();
  const set = useSetClubDisabled();
  const run = (disabled: boolean) =>
    set.mutate(
      { id: club.id, disabled },
      {
        onSuccess: () =>
          toast.success(t(disabled ? 'operator.disabledDone' : 'operator.enabledDone', { name: club.name })),
        onError: (e) => toast.error(errorText(t, e)),
      },
    );
  if (club.disabledAt) {
    return (
      <Space wrap size={[4, 4]}>
        <Tag color="error">{t('operator.disabled')}</Tag>
        <Button size="small" loading={set.isPending} onClick={() => run(false)} data-testid={`club-enable-${club.id}`}>
          {t('operator.enable')}
        </Button>
      </Space>
    );
  }
  return (
    <Space wrap size={[4, 4]}>
      <Tag color="success">{t('operator.active')}</Tag>
      <Popconfirm title={t('operator.disableConfirm', { name: club.name })} onConfirm={() => run(true)}>
        <Button size="small" danger loading={set.isPending} data-testid={`club-disable-${club.id}`}>
          {t('operator.disable')}
        </Button>
      </Popconfirm>
    </Space>
  );
}

/** The new admin's password, shown once (it is stored only as a hash). */
function CreatedPasswordModal({ created, onClose }: { created: OperatorClubCreated | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      open={created != null}
      title={created?.club.name}
      onCancel={onClose}
      onOk={onClose}
      footer={(_, { OkBtn }) => <OkBtn />}
    >
      {created && (
        <Space direction="vertical" style={{ width: '100%' }}>
          <Alert type="warning" showIcon message={t('operator.passwordOnce')} />
          <Typography.Text>
            {t('operator.adminSignIn', { username: created.username, externalClubId: created.club.externalClubId })}
          </Typography.Text>
          <Typography.Paragraph copyable code data-testid="club-admin-password">
            {created.password}
          </Typography.Paragraph>
        </Space>
      )}
    </Modal>
  );
}
