import { useState } from 'react';
import { Button, Card, Col, Descriptions, InputNumber, Popconfirm, Row, Space, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatMinor, ILS_BILLS, ILS_COINS, type Inventory, type Terminal } from '@venue/domain';
import { errorText } from '../../shared/errors';
import { useCashActions, useCashBoxStatus } from './useTerminals';
import { useToast } from '../../shared/toast/ToastProvider';
import { ListTable } from '../../shared/CardList';
import { useFormat } from '../../shared/useFormat';

/** Agorot as a ₪ amount text of the locale (no symbol), for the cash tables. */
export const shekels = (agorot: number, locale: string) => formatMinor(agorot, locale);

/** One row per denomination (agorot) with the count held, 0 when the inventory has none. */
export function inventoryRows(inv: Inventory, denominations: readonly number[]) {
  return denominations.map((d) => ({ key: d, denomination: d, count: inv[String(d)] ?? 0 }));
}

/**
 * The terminal's cash box and float (docs/cash.md): totals in agorot, excess,
 * last reset, coin and bill counts; editors load cash and reset the levels.
 */
export function TerminalCashCard({ term, canEdit, locale }: { term: Terminal; canEdit: boolean; locale: string }) {
  const { t } = useTranslation();
  const cash = useCashBoxStatus(term.id);
  const fmt = useFormat();
  const invColumns = [
    {
      title: t('gate.denomination'),
      dataIndex: 'denomination',
      render: (d: number) => <span className="ltr-value">{shekels(d, locale)}</span>,
    },
    { title: t('gate.pieces'), dataIndex: 'count' },
  ];
  return (
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
              <span className="ltr-value">{cash.data?.lastResetAt ? fmt.dateTime(cash.data.lastResetAt) : '—'}</span>
            </Descriptions.Item>
          </Descriptions>
          <Row gutter={8}>
            <Col xs={24} sm={12}>
              <Typography.Text strong>{t('gate.coins')}</Typography.Text>
              <ListTable
                size="small"
                pagination={false}
                columns={invColumns}
                dataSource={inventoryRows(cash.data?.coins ?? {}, ILS_COINS)}
              />
            </Col>
            <Col xs={24} sm={12}>
              <Typography.Text strong>{t('gate.bills')}</Typography.Text>
              <ListTable
                size="small"
                pagination={false}
                columns={invColumns}
                dataSource={inventoryRows(cash.data?.bills ?? {}, ILS_BILLS)}
              />
            </Col>
          </Row>
          {canEdit && !term.deleted && <CashLoadPanel terminalId={term.id} locale={locale} />}
        </Spin>
      )}
    </Card>
  );
}

/** Load coins and bills (pieces per denomination, negative to take out) or reset the cash levels. */
function CashLoadPanel({ terminalId, locale }: { terminalId: number; locale: string }) {
  const { t } = useTranslation();
  const message = useToast();
  const { reset, load } = useCashActions(terminalId);
  const [loadCoins, setLoadCoins] = useState<Record<string, number>>({});
  const [loadBills, setLoadBills] = useState<Record<string, number>>({});
  return (
    <Space direction="vertical" style={{ marginBlockStart: 12, width: '100%' }}>
      <Typography.Text strong>{t('gate.loadCash')}</Typography.Text>
      <Space wrap>
        {ILS_COINS.map((d) => (
          <InputNumber
            key={`c${d}`}
            size="small"
            min={0}
            max={1000}
            addonBefore={<span className="ltr-value">{shekels(d, locale)}</span>}
            aria-label={t('gate.loadPieces', { value: shekels(d, locale) })}
            value={loadCoins[String(d)]}
            onChange={(v) => setLoadCoins({ ...loadCoins, [String(d)]: Number(v ?? 0) })}
            style={{ width: 150 }}
          />
        ))}
        {ILS_BILLS.map((d) => (
          <InputNumber
            key={`b${d}`}
            size="small"
            min={0}
            max={1000}
            addonBefore={<span className="ltr-value">{shekels(d, locale)}</span>}
            aria-label={t('gate.loadPieces', { value: shekels(d, locale) })}
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
  );
}
