import { useMemo, useState } from 'react';
import { Button, Card, Descriptions, Popconfirm, Select, Space, Tag, Typography } from 'antd';
import {
  CloudDownloadOutlined,
  PoweroffOutlined,
  PrinterOutlined,
  ReloadOutlined,
  UnlockOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ENTRANCE_STATES, type Terminal, type TerminalActionName } from '@venue/domain';
import { errorText } from '../../shared/errors';
import { useConnectedDevices, useTerminalAction } from './useTerminals';
import { useToast } from '../../shared/toast/ToastProvider';
import { useFormat } from '../../shared/useFormat';

/**
 * Remote control of a terminal (open gate, reboot, set door state; reload
 * display and check for updates for technicians), with its door state, last
 * connection and connected devices. Actions need a connected terminal.
 */
export function TerminalRemoteCard({
  term,
  canEdit,
  isTechnician,
}: {
  term: Terminal;
  canEdit: boolean;
  isTechnician: boolean;
}) {
  const { t } = useTranslation();
  const message = useToast();
  const fmt = useFormat();
  const devices = useConnectedDevices(term.id);
  const action = useTerminalAction(term.id);
  const [doorChoice, setDoorChoice] = useState<number | undefined>();
  const doorOptions = useMemo(() => ENTRANCE_STATES.map((s) => ({ value: s, label: t(`gate.door.${s}`) })), [t]);

  const run = async (actionName: TerminalActionName, data?: unknown) => {
    try {
      const r = await action.mutateAsync({ actionName, ...(data !== undefined ? { data } : {}) });
      if (r.ok) message.success(t('gate.actionDone', { action: t(`gate.action.${actionName}`), ms: r.ms }));
      else message.error(t('gate.actionFailed', { action: t(`gate.action.${actionName}`), error: r.error ?? '' }));
    } catch (e) {
      message.error(errorText(t, e));
    }
  };

  return (
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
              ? `${fmt.instantDate(term.lastConnection)} ${fmt.time(term.lastConnection, true)}`
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
          <MoreActions term={term} isTechnician={isTechnician} run={run} />
          <Popconfirm title={t('gate.rebootConfirm')} onConfirm={() => void run('reboot')}>
            <Button icon={<PoweroffOutlined />} disabled={!term.connected}>
              {t('gate.action.reboot')}
            </Button>
          </Popconfirm>
          <Space.Compact>
            <Select
              style={{ minWidth: 180 }}
              placeholder={t('gate.setDoorState')}
              aria-label={t('gate.setDoorState')}
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
  );
}

/** The cash status slip (cash terminals) and the technician's actions (reload display, check for updates). */
function MoreActions({
  term,
  isTechnician,
  run,
}: {
  term: Terminal;
  isTechnician: boolean;
  run: (actionName: TerminalActionName) => Promise<void>;
}) {
  const { t } = useTranslation();
  return (
    <>
      {term.isCash && (
        <Button
          icon={<PrinterOutlined />}
          disabled={!term.connected}
          data-testid="terminal-cash-status-print"
          onClick={() => void run('cashStatusPrint')}
        >
          {t('gate.action.cashStatusPrint')}
        </Button>
      )}
      {isTechnician && (
        <>
          <Button icon={<ReloadOutlined />} disabled={!term.connected} onClick={() => void run('reloadDisplay')}>
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
    </>
  );
}
