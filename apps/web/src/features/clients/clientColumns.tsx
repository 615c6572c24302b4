import type { ReactNode } from 'react';
import { Button, Popconfirm, Space, Tag, Tooltip, Typography } from 'antd';
import { DeleteOutlined, EditOutlined, ProfileOutlined, UndoOutlined } from '@ant-design/icons';
import type { TFunction } from 'i18next';
import {
  CARD_TYPES,
  CLIENT_CONTACT_KEYS,
  clientContactField,
  ClientStatus,
  ClientType,
  formatPhone,
  type Client,
} from '@venue/domain';
import type { GridColumn } from '../../shared/DataGrid';

const STATUS_TAG: Record<number, string> = { 1: 'green', 2: 'default', 3: 'red' };

/** Name of a client status number in `ClientStatus` (for `clientStatus.<name>` texts); unknown numbers read Active. */
export function statusName(v: number): string {
  return Object.entries(ClientStatus).find(([, n]) => n === v)?.[0] ?? 'Active';
}

/** The display helpers of useClientFormat: money in agorot, dates (2125 = unlimited), yes/no. */
export interface ClientFormat {
  money: (agorot: number) => ReactNode;
  date: (s: string | null) => ReactNode;
  yesNo: (v: boolean) => ReactNode;
}

/** What the client columns need from the screen. */
export interface ClientColumnsContext {
  t: TFunction;
  fmt: ClientFormat;
  canEdit: boolean;
  onDetails: (c: Client) => void;
  onEdit: (c: Client) => void;
  /** Deletes or restores; the delete confirmation spins until the promise settles. */
  onChangeStatus: (c: Client, status: number) => Promise<void>;
}

/**
 * Every client field as a column of the chooser (seed 000 §2, seed 001 §3),
 * then the row actions (details, edit, delete or restore). On a phone's card
 * (`card: 'key'`, docs/accessibility.md "Phone cards"): number, name, phone,
 * group, balance, subscription end and status — what the front desk asks.
 */
export function clientColumns(ctx: ClientColumnsContext): GridColumn<Client>[] {
  return [...personColumns(ctx), ...cardColumns(ctx), ...moneyColumns(ctx), ...stateColumns(ctx), actionsColumn(ctx)];
}

/** Number, name, identity, contact and group. */
function personColumns({ t, onDetails }: ClientColumnsContext): GridColumn<Client>[] {
  return [
    { key: 'number', title: t('clients.number'), dataIndex: 'number', sortable: true, width: 80, card: 'key' },
    {
      key: 'name',
      title: t('clients.name'),
      sortable: true,
      alwaysVisible: true,
      card: 'key',
      render: (_, c) => (
        <Typography.Link onClick={() => onDetails(c)} dir="auto" data-testid={`client-link-${c.id}`}>
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
      card: 'key',
      render: (v: string) => <span className="ltr-value nowrap">{v ? formatPhone(v) : ''}</span>,
    },
    // The contact fields, from their one description (CLIENT_CONTACT_FIELDS), hidden until chosen.
    ...CLIENT_CONTACT_KEYS.map((k): GridColumn<Client> => ({
      key: k,
      title: t(`clients.${k}`),
      dataIndex: k,
      defaultHidden: true,
      ...(clientContactField(k).kind === 'phone'
        ? { render: (v: string) => <span className="ltr-value nowrap">{v ? formatPhone(v) : ''}</span> }
        : {}),
    })),
    {
      key: 'group',
      title: t('clients.group'),
      dataIndex: 'groupName',
      card: 'key',
      render: (v: string | null) => v ?? '—',
    },
  ];
}

/** Client type and card. */
function cardColumns({ t }: ClientColumnsContext): GridColumn<Client>[] {
  return [
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
  ];
}

/** Balance, bonus entrances, subscription and license dates, special price and debts (agorot). */
function moneyColumns({ t, fmt }: ClientColumnsContext): GridColumn<Client>[] {
  return [
    {
      key: 'balance',
      title: t('clients.balance'),
      dataIndex: 'balance',
      card: 'key',
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
      card: 'key',
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
  ];
}

/** Enrolment flags, children, code, message, status and creation time. */
function stateColumns({ t, fmt }: ClientColumnsContext): GridColumn<Client>[] {
  return [
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
      card: 'key',
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
  ];
}

/** The row actions: details, and for editors edit and delete (confirmed) or restore. */
function actionsColumn({ t, canEdit, onDetails, onEdit, onChangeStatus }: ClientColumnsContext): GridColumn<Client> {
  return {
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
            onClick={() => onDetails(c)}
          />
        </Tooltip>
        {canEdit && (
          <Tooltip title={t('common.edit')}>
            <Button
              type="text"
              size="small"
              icon={<EditOutlined />}
              aria-label={t('common.edit')}
              onClick={() => onEdit(c)}
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
                onClick={() => void onChangeStatus(c, ClientStatus.Active)}
              />
            </Tooltip>
          ) : (
            <Popconfirm
              title={t('clients.deleteConfirm', { name: c.name })}
              okText={t('common.delete')}
              cancelText={t('common.cancel')}
              okButtonProps={{ danger: true }}
              onConfirm={() => onChangeStatus(c, ClientStatus.Deleted)}
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
  };
}
