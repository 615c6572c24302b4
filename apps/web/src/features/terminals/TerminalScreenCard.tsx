import { Card, Descriptions, Empty, Space, Tag, Typography } from 'antd';
import { DesktopOutlined, LockOutlined, UnlockOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { formatMinor, type Terminal, type TerminalScreenState } from '@venue/domain';
import { StatusTag } from '../../shared/StatusTag';
import { useTerminalScreen } from './useTerminals';
import './terminal-screen.css';
import { useFormat } from '../../shared/useFormat';

/**
 * Remote view (seed 001 §2 "Terminals … remote view"): what the terminal's
 * screen shows now — its view and prompt, the messages on it, the last
 * decision, the cash display and the gate — as the terminal reported it,
 * updated live (docs/terminal-protocol.md "Remote view"). Shown to users who
 * may control terminals (the same access as the remote control card).
 */
export function TerminalScreenCard({ term, locale }: { term: Terminal; locale: string }) {
  const { t } = useTranslation();
  const query = useTerminalScreen(term.id, !term.deleted);
  const view = query.data;
  const fmt = useFormat();
  const time = (iso: string) => `${fmt.instantDate(iso)} ${fmt.time(iso, true)}`;

  return (
    <Card
      size="small"
      title={
        <Space>
          <DesktopOutlined aria-hidden />
          {t('gate.screen.title')}
        </Space>
      }
      style={{ marginBlockEnd: 16 }}
      data-testid="terminal-screen"
      loading={query.isPending && !term.deleted}
    >
      {query.isError ? (
        <Typography.Text type="danger">{t('errors.GENERAL_ERROR')}</Typography.Text>
      ) : !view?.screen ? (
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description={term.connected ? t('gate.screen.waiting') : t('gate.screen.none')}
          data-testid="terminal-screen-empty"
        />
      ) : (
        <>
          <ScreenPanel screen={view.screen} locale={locale} time={time} />
          <Typography.Paragraph type="secondary" style={{ marginBlock: '8px 0' }} data-testid="terminal-screen-at">
            {t('gate.screen.updated', { at: time(view.at ?? view.receivedAt ?? new Date().toISOString()) })}
            {!term.connected && ` · ${t('gate.screen.stale')}`}
          </Typography.Paragraph>
        </>
      )}
    </Card>
  );
}

/** The screen itself: a dark panel like the terminal's display, read by screen readers as it changes. */
function ScreenPanel({
  screen,
  locale,
  time,
}: {
  screen: TerminalScreenState;
  locale: string;
  time: (iso: string) => string;
}) {
  const { t } = useTranslation();
  const d = screen.lastDecision;
  const cash = screen.cash;
  return (
    <div className="terminal-screen" role="region" aria-label={t('gate.screen.title')} aria-live="polite">
      <div className="terminal-screen-head">
        <Tag data-testid="terminal-screen-view">{t(`gate.screen.view.${screen.view}`)}</Tag>
        <Tag
          color={screen.gateOpen ? 'green' : undefined}
          icon={screen.gateOpen ? <UnlockOutlined aria-hidden /> : <LockOutlined aria-hidden />}
          data-testid="terminal-screen-gate"
        >
          {screen.gateOpen ? t('gate.screen.gateOpen') : t('gate.screen.gateClosed')}
        </Tag>
      </div>
      {screen.prompt && (
        <div className="terminal-screen-prompt" dir="auto" data-testid="terminal-screen-prompt">
          {screen.prompt}
        </div>
      )}
      {screen.messages.map((m, i) => (
        <div key={m.id ?? `n${i}`} className="terminal-screen-message" dir="auto">
          {m.text}
        </div>
      ))}
      <Descriptions column={1} size="small" className="terminal-screen-details">
        <Descriptions.Item label={t('gate.screen.lastDecision')}>
          {d ? (
            <Space wrap size={4} data-testid="terminal-screen-decision">
              <StatusTag status={d.status} />
              <span>{t(`reason.${d.message}`, { defaultValue: d.message })}</span>
              {d.clientName && <bdi>{d.clientName}</bdi>}
              {d.offline && <Tag>{t('gate.screen.offlineDecision')}</Tag>}
              <span className="ltr-value">{time(d.at)}</span>
            </Space>
          ) : (
            '—'
          )}
        </Descriptions.Item>
        <Descriptions.Item label={t('gate.screen.cash')}>
          {cash ? (
            <Space wrap size={4} data-testid="terminal-screen-cash">
              <Tag>{t(`gate.cashState.${cash.state}`)}</Tag>
              <span>{t('gate.screen.inserted', { amount: formatMinor(cash.inserted, locale) })}</span>
              {cash.due != null && <span>{t('gate.screen.due', { amount: formatMinor(cash.due, locale) })}</span>}
              {cash.change != null && (
                <span>{t('gate.screen.change', { amount: formatMinor(cash.change, locale) })}</span>
              )}
              {cash.error && <Tag color="red">{t(`gate.screen.cashError.${cash.error}`)}</Tag>}
            </Space>
          ) : (
            '—'
          )}
        </Descriptions.Item>
      </Descriptions>
    </div>
  );
}
