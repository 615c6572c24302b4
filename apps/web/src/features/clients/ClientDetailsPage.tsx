/**
 * Client details (/management/clients/:id, seed 001 §2 "Client details").
 *
 * THE TABS ARE ONE LIST: `clientTabs` below. To add a tab (the money area adds
 * subscription, balance, debts, payment method, automatic actions), append one
 * entry `{ key, labelKey, order, render: (ctx) => <YourTab ... /> }` to
 * `clientTabs` — one additive edit, nothing else here changes. `order` sorts
 * the tabs (card 10, history 80, family 90; money tabs go in 20–70). `ctx`
 * gives the loaded client (`ctx.full.client`), its id and `canEdit`.
 */
import { useState, type ReactNode } from 'react';
import { useNavigate, useParams } from 'react-router';
import { Button, Card, Descriptions, Popconfirm, Space, Tabs, Tag, Typography } from 'antd';
import { ArrowLeftOutlined, ArrowRightOutlined, DeleteOutlined, EditOutlined, UndoOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import {
  CARD_TYPES,
  ClientStatus,
  ClientType,
  formatPhone,
  type Client,
  type ClientFull,
  type ClientHistoryItem,
  type ClientLink,
} from '@venue/domain';
import { useCan } from '../../platform/auth/useCan';
import { useDirection } from '../../platform/i18n/LocaleProvider';
import { QueryState } from '../../shared/QueryState';
import { StatusTag } from '../../shared/StatusTag';
import { errorText } from '../../shared/errors';
import { ClientFormDrawer } from './ClientFormDrawer';
import { statusName } from './clientColumns';
import { useClientFormat } from './clientFormat';
import { useClientFull, useClientHistory, useClientParents, useSetClientStatus } from './useClients';
import { moneyClientTabs } from '../client-money/MoneyTabs';
import { privacyClientTab } from '../privacy/PrivacyTab';
import type { ClientTab, ClientTabContext } from './clientTab';
import { useToast } from '../../shared/toast/ToastProvider';
import { ListTable } from '../../shared/CardList';

/** The tabs of the client details page, in `order`. Extend by appending (see the comment at the top). */
export const clientTabs: ClientTab[] = [
  { key: 'card', labelKey: 'clients.tabCard', order: 10, render: (ctx) => <ClientCardTab client={ctx.full.client} /> },
  { key: 'history', labelKey: 'clients.tabHistory', order: 80, render: (ctx) => <HistoryTab id={ctx.clientId} /> },
  { key: 'family', labelKey: 'clients.tabFamily', order: 90, render: (ctx) => <FamilyTab ctx={ctx} /> },
  ...moneyClientTabs,
  privacyClientTab,
];

export function ClientDetailsPage() {
  const { clientId } = useParams();
  const id = Number(clientId);
  const query = useClientFull(id);
  if (query.isPending || query.isError) {
    return (
      <QueryState loading={query.isPending} error={query.error} onRetry={() => void query.refetch()}>
        {null}
      </QueryState>
    );
  }
  return <ClientDetails id={id} full={query.data} />;
}

function ClientDetails({ id, full }: { id: number; full: ClientFull }) {
  const { t } = useTranslation();
  const message = useToast();
  const navigate = useNavigate();
  const rtl = useDirection() === 'rtl';
  const allowed = useCan();
  const canEdit = allowed({ edit: 'clients' });
  const [editOpen, setEditOpen] = useState(false);
  const [tab, setTab] = useState('card');
  const setStatus = useSetClientStatus();
  const c = full.client;
  const Back = rtl ? ArrowRightOutlined : ArrowLeftOutlined;
  const deleted = c.status === ClientStatus.Deleted;

  const changeStatus = async (status: number) => {
    try {
      await setStatus.mutateAsync({ id, status });
      message.success(status === ClientStatus.Deleted ? t('clients.deleted') : t('clients.restored'));
    } catch (e) {
      message.error(errorText(t, e));
    }
  };

  const ctx: ClientTabContext = { clientId: id, full, canEdit };
  const tabs = [...clientTabs].filter((x) => !x.access || allowed(x.access)).sort((a, b) => a.order - b.order);

  return (
    <>
      <div className="page-header">
        <Space wrap>
          <Button
            type="text"
            icon={<Back />}
            aria-label={t('common.back')}
            onClick={() => void navigate('/management/clients')}
          />
          <Typography.Title level={2} dir="auto" data-testid="client-details-name">
            {c.name}
          </Typography.Title>
          <Tag color={deleted ? 'red' : c.status === ClientStatus.Active ? 'green' : 'default'}>
            {t(`clientStatus.${statusName(c.status)}`)}
          </Tag>
          {full.group && (
            <Tag>
              <span className="color-dot" style={{ background: full.group.color }} />
              {full.group.name}
            </Tag>
          )}
        </Space>
        {canEdit && (
          <Space wrap>
            {deleted ? (
              <Button icon={<UndoOutlined />} onClick={() => void changeStatus(ClientStatus.Active)}>
                {t('clients.restore')}
              </Button>
            ) : (
              <Popconfirm
                title={t('clients.deleteConfirm', { name: c.name })}
                okText={t('common.delete')}
                cancelText={t('common.cancel')}
                okButtonProps={{ danger: true }}
                onConfirm={() => changeStatus(ClientStatus.Deleted)}
              >
                <Button danger icon={<DeleteOutlined />}>
                  {t('common.delete')}
                </Button>
              </Popconfirm>
            )}
            <Button type="primary" icon={<EditOutlined />} onClick={() => setEditOpen(true)} data-testid="client-edit">
              {t('common.edit')}
            </Button>
          </Space>
        )}
      </div>
      <Card className="details-tabs">
        <Tabs
          activeKey={tab}
          onChange={setTab}
          items={tabs.map((x) => ({ key: x.key, label: t(x.labelKey), children: x.render(ctx) }))}
          destroyOnHidden
        />
      </Card>
      <ClientFormDrawer open={editOpen} client={c} onClose={() => setEditOpen(false)} />
    </>
  );
}

function ClientCardTab({ client: c }: { client: Client }) {
  const { t } = useTranslation();
  const fmt = useClientFormat();
  const typeName = Object.entries(ClientType).find(([, n]) => n === c.clientType)?.[0] ?? 'Regular';
  const cardTypeName = Object.entries(CARD_TYPES).find(([, n]) => n === c.cardType)?.[0] ?? 'Unknown';
  const items: { key: string; label: string; children: ReactNode }[] = [
    { key: 'number', label: t('clients.number'), children: c.number },
    { key: 'firstName', label: t('clients.firstName'), children: <span dir="auto">{c.firstName}</span> },
    { key: 'lastName', label: t('clients.lastName'), children: <span dir="auto">{c.lastName}</span> },
    { key: 'personalId', label: t('clients.personalId'), children: <span className="ltr-value">{c.personalId}</span> },
    {
      key: 'phone',
      label: t('clients.phone'),
      children: <span className="ltr-value">{c.phone ? formatPhone(c.phone) : ''}</span>,
    },
    { key: 'city', label: t('clients.city'), children: c.city },
    { key: 'address', label: t('clients.address'), children: c.address },
    { key: 'group', label: t('clients.group'), children: c.groupName ?? '—' },
    { key: 'clientType', label: t('clients.clientType'), children: t(`clientType.${typeName}`) },
    { key: 'cardSerial', label: t('clients.cardSerial'), children: <span className="ltr-value">{c.cardSerial}</span> },
    { key: 'cardType', label: t('clients.cardType'), children: t(`cardType.${cardTypeName}`) },
    { key: 'balance', label: t('clients.balance'), children: fmt.money(c.balance) },
    { key: 'bonusEntries', label: t('clients.bonusEntries'), children: c.bonusEntries },
    { key: 'subscriptionStart', label: t('clients.subscriptionStart'), children: fmt.date(c.subscriptionStart) },
    { key: 'subscriptionEnd', label: t('clients.subscriptionEnd'), children: fmt.date(c.subscriptionEnd) },
    { key: 'licenseExpiry', label: t('clients.licenseExpiry'), children: fmt.date(c.licenseExpiry) },
    {
      key: 'specialPrice',
      label: t('clients.specialPrice'),
      children: c.specialPrice == null ? '—' : fmt.money(c.specialPrice),
    },
    { key: 'debts', label: t('clients.debts'), children: fmt.money(c.debtsTotal) },
    { key: 'hasFingerprint', label: t('clients.hasFingerprint'), children: fmt.yesNo(c.hasFingerprint) },
    { key: 'hasFace', label: t('clients.hasFace'), children: fmt.yesNo(c.hasFace) },
    { key: 'hasPaymentMethod', label: t('clients.hasPaymentMethod'), children: fmt.yesNo(c.hasPaymentMethod) },
    { key: 'clientCode', label: t('clients.clientCode'), children: c.clientCode },
    {
      key: 'enrollPassword',
      label: t('clients.enrollPassword'),
      children: c.hasEnrollPassword ? t('clients.enrollPasswordSet') : '—',
    },
    {
      key: 'allowEnroll',
      label: t('clients.enrollment'),
      children: (
        <Space wrap size={4}>
          {c.allowEnrollFingerprint && <Tag>{t('clients.allowFingerprint')}</Tag>}
          {c.allowEnrollCard && <Tag>{t('clients.allowCard')}</Tag>}
          {c.allowEnrollFace && <Tag>{t('clients.allowFace')}</Tag>}
        </Space>
      ),
    },
    { key: 'messageToClient', label: t('clients.messageToClient'), children: c.messageToClient },
    { key: 'createdAt', label: t('clients.createdAt'), children: fmt.date(c.createdAt.slice(0, 10)) },
  ];
  return <Descriptions bordered size="small" column={{ xs: 1, sm: 1, md: 2, xl: 3 }} items={items} />;
}

function HistoryTab({ id }: { id: number }) {
  const { t } = useTranslation();
  const fmt = useClientFormat();
  const [page, setPage] = useState(1);
  const pageSize = 20;
  const q = useClientHistory(id, page, pageSize);
  const describe = (h: ClientHistoryItem) => {
    if (h.kind === 'entrance') return h.status != null ? <StatusTag status={h.status} /> : null;
    if (h.kind === 'purchase') return t('clients.historyPurchase');
    return t(`clients.action_${(h.action ?? 'update').split(':')[0]}`, {
      defaultValue: h.action ?? '',
      detail: (h.action ?? '').split(':')[1] ?? '',
    });
  };
  return (
    <ListTable<ClientHistoryItem>
      data-testid="client-history"
      size="small"
      rowKey="id"
      loading={q.isFetching}
      dataSource={q.data?.items ?? []}
      scroll={{ x: 'max-content' }}
      locale={{ emptyText: q.isError ? errorText(t, q.error) : t('clients.noHistory') }}
      pagination={{ current: page, pageSize, total: q.data?.total ?? 0, onChange: setPage, showSizeChanger: false }}
      columns={[
        {
          key: 'at',
          title: t('clients.historyAt'),
          dataIndex: 'at',
          render: (v: string) => <span className="ltr-value nowrap">{fmt.dateTime(v)}</span>,
        },
        {
          key: 'kind',
          title: t('clients.historyKind'),
          dataIndex: 'kind',
          render: (v: string) => t(`clients.kind_${v}`),
        },
        { key: 'what', title: t('clients.historyWhat'), render: (_, h) => describe(h) },
        {
          key: 'by',
          title: t('clients.historyBy'),
          render: (_, h) => h.terminalName ?? h.userName ?? '—',
        },
        {
          key: 'amount',
          title: t('clients.historyAmount'),
          dataIndex: 'amount',
          align: 'end',
          render: (v: number) => (v ? fmt.money(v) : ''),
        },
      ]}
    />
  );
}

function LinkList({ items, empty }: { items: ClientLink[]; empty: string }) {
  const navigate = useNavigate();
  const { t } = useTranslation();
  if (items.length === 0) return <Typography.Text type="secondary">{empty}</Typography.Text>;
  return (
    <ListTable<ClientLink>
      size="small"
      rowKey="id"
      dataSource={items}
      pagination={false}
      scroll={{ x: 'max-content' }}
      columns={[
        { key: 'number', title: t('clients.number'), dataIndex: 'number' },
        {
          key: 'name',
          title: t('clients.name'),
          render: (_, l) => (
            <Typography.Link dir="auto" onClick={() => void navigate(`/management/clients/${l.id}`)}>
              {l.name}
            </Typography.Link>
          ),
        },
        {
          key: 'personalId',
          title: t('clients.personalId'),
          dataIndex: 'personalId',
          render: (v: string) => <span className="ltr-value">{v}</span>,
        },
        {
          key: 'status',
          title: t('clients.status'),
          dataIndex: 'status',
          render: (v: number) => t(`clientStatus.${statusName(v)}`),
        },
      ]}
    />
  );
}

function FamilyTab({ ctx }: { ctx: ClientTabContext }) {
  const { t } = useTranslation();
  const parents = useClientParents(ctx.clientId);
  return (
    <Space orientation="vertical" size="large" style={{ inlineSize: '100%' }} data-testid="client-family">
      <div>
        <Typography.Title level={5}>{t('clients.parents')}</Typography.Title>
        <QueryState loading={parents.isPending} error={parents.error}>
          <LinkList items={parents.data ?? []} empty={t('clients.noParents')} />
        </QueryState>
      </div>
      <div>
        <Typography.Title level={5}>{t('clients.childrenTitle')}</Typography.Title>
        <LinkList items={ctx.full.children} empty={t('clients.noChildren')} />
      </div>
    </Space>
  );
}
