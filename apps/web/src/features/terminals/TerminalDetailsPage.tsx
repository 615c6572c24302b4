import { useEffect, useMemo, useState } from 'react';
import { Link, useParams } from 'react-router';
import {
  App,
  Badge,
  Button,
  Card,
  Col,
  Descriptions,
  Form,
  Input,
  InputNumber,
  Popconfirm,
  Result,
  Row,
  Select,
  Space,
  Spin,
  Switch,
  Table,
  Tag,
  Typography,
} from 'antd';
import {
  ArrowRightOutlined,
  CloudDownloadOutlined,
  DeleteOutlined,
  PoweroffOutlined,
  ReloadOutlined,
  UndoOutlined,
  UnlockOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import {
  CREDIT_TYPES,
  ENTRANCE_STATES,
  FINGER_MATCHING_SPEEDS,
  formatMinor,
  ILS_BILLS,
  ILS_COINS,
  TerminalPatch,
  type Inventory,
  type Terminal,
  type TerminalActionName,
} from '@venue/domain';
import { useCan } from '../../app/auth/useCan';
import { useLanguage } from '../../app/i18n/LocaleProvider';
import { ApiError } from '../../app/api/apiClient';
import { applyFieldIssues, errorText, serverFieldIssues, zodFieldIssues } from '../../shared/errors';
import {
  useCashActions,
  useCashBoxStatus,
  useConnectedDevices,
  useDeleteRestoreTerminal,
  useTerminal,
  useTerminalAction,
  useUpdateTerminal,
} from './useTerminals';

const RELAYS = [
  'gateRelay',
  'gateChannel',
  'lightsRelay',
  'lightsChannel',
  'payoutRelay',
  'payoutChannel',
  'magneticLockRelay',
  'magneticLockChannel',
] as const;
const FLAGS = [
  'maintenanceMode',
  'cvvRequired',
  'allowEnrollment',
  'isCash',
  'isManagement',
  'quickExit',
  'faceRecognition',
] as const;

/** ₪ of agorot for the cash tables. */
const shekels = (agorot: number, locale: string) => formatMinor(agorot, locale);

/**
 * /management/app-terminals-list/:terminalId — one terminal: every field of
 * seed 001 §3 in sections (general, gate & relays, cash & acceptors,
 * inventories), remote control (open gate, reboot, reload display, check for
 * updates, set door state), the door state and connection live, connected
 * devices, cash box status and reset, delete and restore.
 */
export function TerminalDetailsPage() {
  const { t } = useTranslation();
  const lang = useLanguage();
  const locale = lang === 'he' ? 'he-IL' : 'en-GB';
  const { message } = App.useApp();
  const id = Number(useParams().terminalId);
  const allowed = useCan();
  const canEdit = allowed({ edit: 'terminals' });
  // Technician-only actions (seed 000 §6, seed 001 §6), by the one access policy.
  const isTechnician = allowed({ terminalAction: 'checkForUpdates' });
  const query = useTerminal(id);
  const devices = useConnectedDevices(id);
  const cash = useCashBoxStatus(id);
  const update = useUpdateTerminal(id);
  const action = useTerminalAction(id);
  const { del, restore } = useDeleteRestoreTerminal(id);
  const { reset, load } = useCashActions(id);
  const [form] = Form.useForm<Terminal>();
  const [doorChoice, setDoorChoice] = useState<number | undefined>();
  const [loadCoins, setLoadCoins] = useState<Record<string, number>>({});
  const [loadBills, setLoadBills] = useState<Record<string, number>>({});
  const term = query.data;

  useEffect(() => {
    if (term) form.setFieldsValue(term);
  }, [term, form]);

  const doorOptions = useMemo(() => ENTRANCE_STATES.map((s) => ({ value: s, label: t(`gate.door.${s}`) })), [t]);

  if (!Number.isInteger(id) || id <= 0) return <Result status="404" title={t('errors.NOT_FOUND')} />;
  if (query.isPending) {
    return (
      <div className="center-block page-spinner">
        <Spin size="large" />
      </div>
    );
  }
  if (query.isError || !term) {
    return (
      <Result
        status={query.error instanceof ApiError && query.error.status === 404 ? '404' : 'error'}
        title={errorText(t, query.error)}
      />
    );
  }

  const save = async (values: Terminal) => {
    // Only the form's own fields are in `values` (id, serial, connection state are not form items).
    const parsed = TerminalPatch.safeParse(values);
    if (!parsed.success) {
      applyFieldIssues(form, zodFieldIssues(t, parsed.error));
      return;
    }
    try {
      await update.mutateAsync(parsed.data);
      message.success(t('gate.saved'));
    } catch (e) {
      if (!(e instanceof ApiError && applyFieldIssues(form, serverFieldIssues(t, e)))) message.error(errorText(t, e));
    }
  };

  const run = async (actionName: TerminalActionName, data?: unknown) => {
    try {
      const r = await action.mutateAsync({ actionName, ...(data !== undefined ? { data } : {}) });
      if (r.ok) message.success(t('gate.actionDone', { action: t(`gate.action.${actionName}`), ms: r.ms }));
      else message.error(t('gate.actionFailed', { action: t(`gate.action.${actionName}`), error: r.error ?? '' }));
    } catch (e) {
      message.error(errorText(t, e));
    }
  };

  const inventoryRows = (inv: Inventory, denominations: readonly number[]) =>
    denominations.map((d) => ({ key: d, denomination: d, count: inv[String(d)] ?? 0 }));
  const invColumns = [
    {
      title: t('gate.denomination'),
      dataIndex: 'denomination',
      render: (d: number) => <span className="ltr-value">{shekels(d, locale)}</span>,
    },
    { title: t('gate.pieces'), dataIndex: 'count' },
  ];

  const disabled = !canEdit || term.deleted;
  return (
    <>
      <div className="page-header">
        <Space wrap>
          <Link to="/management/app-terminals-list" aria-label={t('gate.backToList')}>
            <ArrowRightOutlined className="back-arrow" />
          </Link>
          <Typography.Title level={2} data-testid="terminal-title">
            {term.name}
          </Typography.Title>
          <span data-testid="terminal-detail-live" data-connected={term.connected ? 'true' : 'false'}>
            <Badge
              status={term.connected ? 'success' : 'default'}
              text={term.connected ? t('terminals.online') : t('terminals.offline')}
            />
          </span>
          {term.deleted && <Tag color="red">{t('gate.deletedTag')}</Tag>}
          {!term.approved && <Tag color="orange">{t('terminals.notApproved')}</Tag>}
        </Space>
        {canEdit && (
          <Space wrap>
            {term.deleted ? (
              <Button
                icon={<UndoOutlined />}
                data-testid="terminal-restore"
                loading={restore.isPending}
                onClick={() =>
                  restore.mutateAsync().then(
                    () => message.success(t('gate.restored')),
                    (e: unknown) => message.error(errorText(t, e)),
                  )
                }
              >
                {t('gate.restore')}
              </Button>
            ) : (
              <Popconfirm
                title={t('gate.deleteConfirm', { name: term.name })}
                onConfirm={() =>
                  del.mutateAsync().then(
                    () => message.success(t('gate.deleted')),
                    (e: unknown) => message.error(errorText(t, e)),
                  )
                }
              >
                <Button danger icon={<DeleteOutlined />} data-testid="terminal-delete">
                  {t('gate.delete')}
                </Button>
              </Popconfirm>
            )}
          </Space>
        )}
      </div>

      <Row gutter={[16, 16]}>
        <Col xs={24} lg={10}>
          <Card title={t('gate.remote')} size="small">
            <Descriptions column={1} size="small">
              <Descriptions.Item label={t('gate.doorState')}>
                <Tag color={term.doorState === 1 ? 'red' : 'green'} data-testid="terminal-door-state">
                  {t(`gate.door.${term.doorState}`)}
                </Tag>
              </Descriptions.Item>
              <Descriptions.Item label={t('terminals.lastConnection')}>
                <span className="ltr-value">
                  {term.lastConnection
                    ? new Intl.DateTimeFormat(locale, { dateStyle: 'short', timeStyle: 'medium' }).format(
                        new Date(term.lastConnection),
                      )
                    : '—'}
                </span>
              </Descriptions.Item>
              <Descriptions.Item label={t('gate.devices')}>
                {devices.data?.devices.length ? (
                  <Space wrap size={4}>
                    {devices.data.devices.map((d) => (
                      <Tag key={d}>{d}</Tag>
                    ))}
                  </Space>
                ) : (
                  t('gate.noDevices')
                )}
              </Descriptions.Item>
            </Descriptions>
            {canEdit && !term.deleted && (
              <Space wrap style={{ marginBlockStart: 12 }}>
                <Button
                  type="primary"
                  icon={<UnlockOutlined />}
                  data-testid="terminal-open-gate"
                  disabled={!term.connected}
                  loading={action.isPending && action.variables?.actionName === 'openGate'}
                  onClick={() => void run('openGate')}
                >
                  {t('gate.action.openGate')}
                </Button>
                <Popconfirm title={t('gate.rebootConfirm')} onConfirm={() => void run('reboot')}>
                  <Button icon={<PoweroffOutlined />} disabled={!term.connected}>
                    {t('gate.action.reboot')}
                  </Button>
                </Popconfirm>
                {isTechnician && (
                  <>
                    <Button
                      icon={<ReloadOutlined />}
                      disabled={!term.connected}
                      onClick={() => void run('reloadDisplay')}
                    >
                      {t('gate.action.reloadDisplay')}
                    </Button>
                    <Button
                      icon={<CloudDownloadOutlined />}
                      disabled={!term.connected}
                      onClick={() => void run('checkForUpdates')}
                    >
                      {t('gate.action.checkForUpdates')}
                    </Button>
                  </>
                )}
                <Space.Compact>
                  <Select
                    style={{ minWidth: 180 }}
                    placeholder={t('gate.setDoorState')}
                    options={doorOptions}
                    value={doorChoice}
                    onChange={setDoorChoice}
                    data-testid="terminal-door-select"
                  />
                  <Button
                    disabled={doorChoice == null || !term.connected}
                    onClick={() => void run('setDoorState', { doorState: doorChoice })}
                  >
                    {t('gate.apply')}
                  </Button>
                </Space.Compact>
              </Space>
            )}
            {!term.connected && !term.deleted && (
              <Typography.Paragraph type="secondary" style={{ marginBlockStart: 8 }}>
                {t('errors.NO_TERMINAL_CONNECTION')}
              </Typography.Paragraph>
            )}
          </Card>

          <Card title={t('gate.inventories')} size="small" style={{ marginBlockStart: 16 }}>
            {cash.isError ? (
              <Typography.Text type="danger">{errorText(t, cash.error)}</Typography.Text>
            ) : (
              <Spin spinning={cash.isPending}>
                <Descriptions column={1} size="small">
                  <Descriptions.Item label={t('gate.cashBox')}>
                    <span className="ltr-value" data-testid="terminal-cashbox-total">
                      {shekels(cash.data?.cashBoxTotal ?? 0, locale)}
                    </span>
                  </Descriptions.Item>
                  <Descriptions.Item label={t('gate.coinsFloat')}>
                    <span className="ltr-value">{shekels(cash.data?.coinsTotal ?? 0, locale)}</span>
                  </Descriptions.Item>
                  <Descriptions.Item label={t('gate.billsFloat')}>
                    <span className="ltr-value">{shekels(cash.data?.billsTotal ?? 0, locale)}</span>
                  </Descriptions.Item>
                  <Descriptions.Item label={t('gate.excess')}>
                    <span className="ltr-value">
                      {shekels(cash.data?.excess.amount ?? 0, locale)} ({cash.data?.excess.count ?? 0})
                    </span>
                  </Descriptions.Item>
                  <Descriptions.Item label={t('gate.lastReset')}>
                    <span className="ltr-value">
                      {cash.data?.lastResetAt
                        ? new Intl.DateTimeFormat(locale, { dateStyle: 'short', timeStyle: 'short' }).format(
                            new Date(cash.data.lastResetAt),
                          )
                        : '—'}
                    </span>
                  </Descriptions.Item>
                </Descriptions>
                <Row gutter={8}>
                  <Col xs={24} sm={12}>
                    <Typography.Text strong>{t('gate.coins')}</Typography.Text>
                    <Table
                      size="small"
                      pagination={false}
                      columns={invColumns}
                      dataSource={inventoryRows(cash.data?.coins ?? {}, ILS_COINS)}
                    />
                  </Col>
                  <Col xs={24} sm={12}>
                    <Typography.Text strong>{t('gate.bills')}</Typography.Text>
                    <Table
                      size="small"
                      pagination={false}
                      columns={invColumns}
                      dataSource={inventoryRows(cash.data?.bills ?? {}, ILS_BILLS)}
                    />
                  </Col>
                </Row>
                {canEdit && !term.deleted && (
                  <Space direction="vertical" style={{ marginBlockStart: 12, width: '100%' }}>
                    <Typography.Text strong>{t('gate.loadCash')}</Typography.Text>
                    <Space wrap>
                      {ILS_COINS.map((d) => (
                        <InputNumber
                          key={`c${d}`}
                          size="small"
                          min={-1000}
                          max={1000}
                          addonBefore={<span className="ltr-value">{shekels(d, locale)}</span>}
                          value={loadCoins[String(d)]}
                          onChange={(v) => setLoadCoins({ ...loadCoins, [String(d)]: Number(v ?? 0) })}
                          style={{ width: 150 }}
                        />
                      ))}
                      {ILS_BILLS.map((d) => (
                        <InputNumber
                          key={`b${d}`}
                          size="small"
                          min={-1000}
                          max={1000}
                          addonBefore={<span className="ltr-value">{shekels(d, locale)}</span>}
                          value={loadBills[String(d)]}
                          onChange={(v) => setLoadBills({ ...loadBills, [String(d)]: Number(v ?? 0) })}
                          style={{ width: 160 }}
                        />
                      ))}
                    </Space>
                    <Space wrap>
                      <Button
                        loading={load.isPending}
                        onClick={() =>
                          load.mutateAsync({ coins: loadCoins, bills: loadBills }).then(
                            () => {
                              setLoadCoins({});
                              setLoadBills({});
                              message.success(t('gate.loaded'));
                            },
                            (e: unknown) => message.error(errorText(t, e)),
                          )
                        }
                      >
                        {t('gate.loadCash')}
                      </Button>
                      <Popconfirm
                        title={t('gate.resetConfirm')}
                        onConfirm={() =>
                          reset.mutateAsync().then(
                            (r) => message.success(t('gate.resetDone', { amount: shekels(r.cashBoxTotal, locale) })),
                            (e: unknown) => message.error(errorText(t, e)),
                          )
                        }
                      >
                        <Button danger data-testid="terminal-reset-cash">
                          {t('gate.resetCashLevels')}
                        </Button>
                      </Popconfirm>
                    </Space>
                  </Space>
                )}
              </Spin>
            )}
          </Card>
        </Col>

        <Col xs={24} lg={14}>
          <Form form={form} layout="vertical" onFinish={save} disabled={disabled} data-testid="terminal-form">
            <Card title={t('gate.general')} size="small">
              <Row gutter={12}>
                <Col xs={24} sm={12}>
                  <Form.Item name="name" label={t('terminals.name')} required>
                    <Input />
                  </Form.Item>
                </Col>
                <Col xs={24} sm={12}>
                  <Form.Item label={t('terminals.serial')}>
                    <Input dir="ltr" value={term.serial} disabled />
                  </Form.Item>
                </Col>
                <Col xs={12} sm={8}>
                  <Form.Item name="isMain" label={t('gate.isMain')} valuePropName="checked">
                    <Switch />
                  </Form.Item>
                </Col>
                {FLAGS.map((f) => (
                  <Col xs={12} sm={8} key={f}>
                    <Form.Item name={f} label={t(`gate.field.${f}`)} valuePropName="checked">
                      <Switch />
                    </Form.Item>
                  </Col>
                ))}
                <Col xs={24} sm={12}>
                  <Form.Item name="creditType" label={t('gate.field.creditType')}>
                    <Select options={CREDIT_TYPES.map((c) => ({ value: c, label: t(`gate.creditType.${c}`) }))} />
                  </Form.Item>
                </Col>
                <Col xs={24} sm={12}>
                  <Form.Item name="fingerMatchingSpeed" label={t('gate.field.fingerMatchingSpeed')}>
                    <Select options={FINGER_MATCHING_SPEEDS.map((s) => ({ value: s, label: t(`gate.speed.${s}`) }))} />
                  </Form.Item>
                </Col>
                <Col xs={24} sm={12}>
                  <Form.Item name="accountingTerminalNumber" label={t('gate.field.accountingTerminalNumber')}>
                    <Input dir="ltr" />
                  </Form.Item>
                </Col>
              </Row>
            </Card>
            <Card title={t('gate.gateAndRelays')} size="small" style={{ marginBlockStart: 16 }}>
              <Row gutter={12}>
                <Col xs={24} sm={12}>
                  <Form.Item name="gateOpenSeconds" label={t('gate.field.gateOpenSeconds')}>
                    <InputNumber min={1} max={120} style={{ width: '100%' }} />
                  </Form.Item>
                </Col>
                <Col xs={24} sm={12}>
                  <Form.Item name="doorState" label={t('gate.doorState')}>
                    <Select options={doorOptions} />
                  </Form.Item>
                </Col>
                {RELAYS.map((r) => (
                  <Col xs={12} sm={6} key={r}>
                    <Form.Item name={r} label={t(`gate.field.${r}`)}>
                      <InputNumber min={0} max={64} style={{ width: '100%' }} />
                    </Form.Item>
                  </Col>
                ))}
              </Row>
            </Card>
            <Card title={t('gate.cashAndAcceptors')} size="small" style={{ marginBlockStart: 16 }}>
              <Row gutter={12}>
                <Col xs={24} sm={12}>
                  <Form.Item name="cashConnectionType" label={t('gate.field.cashConnectionType')}>
                    <Select
                      options={[
                        { value: 1, label: 'UsbRelay' },
                        { value: 2, label: 'Paylink' },
                      ]}
                    />
                  </Form.Item>
                </Col>
                {(['coinAcceptor', 'billAcceptor'] as const).map((a) => (
                  <Col xs={24} key={a}>
                    <Typography.Text strong>{t(`gate.field.${a}`)}</Typography.Text>
                    <Row gutter={12}>
                      <Col xs={8} sm={4}>
                        <Form.Item name={[a, 'enabled']} label={t('gate.fitted')} valuePropName="checked">
                          <Switch />
                        </Form.Item>
                      </Col>
                      <Col xs={16} sm={8}>
                        <Form.Item name={[a, 'model']} label={t('gate.model')}>
                          <Input dir="ltr" />
                        </Form.Item>
                      </Col>
                      <Col xs={24} sm={12}>
                        <Form.Item name={[a, 'accepted']} label={t('gate.accepted')}>
                          <Select
                            mode="multiple"
                            options={(a === 'coinAcceptor' ? ILS_COINS : ILS_BILLS).map((d) => ({
                              value: d,
                              label: shekels(d, locale),
                            }))}
                          />
                        </Form.Item>
                      </Col>
                    </Row>
                  </Col>
                ))}
              </Row>
            </Card>
            {!disabled && (
              <div style={{ marginBlockStart: 16 }}>
                <Button type="primary" htmlType="submit" loading={update.isPending} data-testid="terminal-save">
                  {t('common.save')}
                </Button>
              </div>
            )}
          </Form>
        </Col>
      </Row>
    </>
  );
}
