import { useEffect, useState } from 'react';
import { Alert, Button, Card, Empty, Form, Modal, Radio, Space, Statistic } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { fromMinor } from '@venue/domain';
import { QueryState } from '../../shared/QueryState';
import { MoneyInput } from '../../shared/MoneyInput';
import { errorText } from '../../shared/errors';
import { useSessionData } from '../../platform/auth/AuthProvider';
import { useMoneyFormat } from './format';
import { newKey, useAddCredit, useBalance, usePaymentMethod } from './useMoney';
import { useToast } from '../../shared/toast/ToastProvider';
import { ListTable } from '../../shared/CardList';
import type { MoneyTabProps } from './moneyTab';

/** The client's balance tab: the balance and adding credit (seed 001 §2 "Client details"). */
export function BalanceTab({ clientId, canEdit }: MoneyTabProps) {
  const { t } = useTranslation();
  const { club } = useSessionData();
  const fmt = useMoneyFormat();
  const bal = useBalance(clientId);
  const [open, setOpen] = useState(false);
  return (
    <QueryState loading={bal.isPending} error={bal.error} onRetry={() => void bal.refetch()}>
      {bal.data && (
        <Space orientation="vertical" size="large" style={{ inlineSize: '100%' }} data-testid="money-balance">
          <Space wrap size="large">
            <Card size="small">
              <Statistic
                title={t('money.balance')}
                value={fromMinor(bal.data.balance)}
                precision={2}
                prefix={club.currencySymbol}
                valueStyle={{ direction: 'ltr' }}
              />
              <span data-testid="balance-value" hidden>
                {bal.data.balance}
              </span>
            </Card>
            <Card size="small">
              <Statistic
                title={t('money.tempBalance')}
                value={fromMinor(bal.data.tempBalance)}
                precision={2}
                prefix={club.currencySymbol}
                valueStyle={{ direction: 'ltr' }}
              />
            </Card>
            <Card size="small">
              <Statistic title={t('money.subscriptionBalance')} value={bal.data.subscriptionBalance} />
            </Card>
          </Space>
          {canEdit && (
            <Button type="primary" icon={<PlusOutlined />} data-testid="add-credit" onClick={() => setOpen(true)}>
              {t('money.addCredit')}
            </Button>
          )}
          <ListTable
            size="small"
            rowKey="id"
            dataSource={bal.data.ledger}
            pagination={{ pageSize: 15, hideOnSinglePage: true }}
            scroll={{ x: 'max-content' }}
            locale={{ emptyText: <Empty description={t('money.noLedger')} /> }}
            columns={[
              {
                key: 'at',
                title: t('money.at'),
                render: (_, r) => <span className="ltr-value nowrap">{fmt.dateTime(r.at)}</span>,
              },
              { key: 'kind', title: t('money.kind'), render: (_, r) => t(`money.kinds.${r.kind}`) },
              { key: 'source', title: t('money.source'), render: (_, r) => t(`money.sources.${r.source}`) },
              {
                key: 'delta',
                title: t('money.amount'),
                align: 'end',
                render: (_, r) =>
                  r.kind === 'subscription' ? (
                    r.delta
                  ) : (
                    <span className={r.delta < 0 ? 'negative' : ''}>{fmt.money(r.delta)}</span>
                  ),
              },
            ]}
          />
          <AddCreditModal clientId={clientId} open={open} onClose={() => setOpen(false)} />
        </Space>
      )}
    </QueryState>
  );
}

/**
 * Add credit to the client's balance: an amount in agorot (more than 0), in
 * cash or on the stored card; one idempotency key per attempt, renewed after a
 * failure so a retry is a new attempt.
 */
function AddCreditModal({ clientId, open, onClose }: { clientId: number; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const message = useToast();
  const { club } = useSessionData();
  const pm = usePaymentMethod(clientId);
  const addCredit = useAddCredit(clientId);
  const [amount, setAmount] = useState<number | null>(null);
  const [method, setMethod] = useState<0 | 2>(0);
  const [key, setKey] = useState(() => newKey('credit'));
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!open) return;
    setAmount(null);
    setMethod(0);
    setError(null);
    setKey(newKey('credit'));
  }, [open]);
  const submit = async () => {
    if (!amount || amount <= 0) {
      setError(t('validation.invalidAmount'));
      return;
    }
    try {
      const p = await addCredit.mutateAsync({ amount, method, idempotencyKey: key });
      message.success(t('money.creditAdded', { invoice: p.invoiceNumber }));
      onClose();
    } catch (e) {
      setKey(newKey('credit'));
      setError(errorText(t, e));
    }
  };
  return (
    <Modal
      open={open}
      title={t('money.addCredit')}
      onCancel={onClose}
      onOk={() => void submit()}
      confirmLoading={addCredit.isPending}
      okButtonProps={{ 'data-testid': 'add-credit-submit' } as Record<string, string>}
    >
      <Form layout="vertical">
        <Form.Item label={t('money.amount')} required>
          <MoneyInput
            symbol={club.currencySymbol}
            value={amount ?? undefined}
            nullable
            onChange={setAmount}
            data-testid="credit-amount"
          />
        </Form.Item>
        <Form.Item label={t('money.method')}>
          <Radio.Group value={method} onChange={(e) => setMethod(e.target.value)}>
            <Radio value={0}>{t('money.method_0')}</Radio>
            <Radio value={2} disabled={pm.data?.kind !== 'card'}>
              {t('money.method_2')}
              {pm.data?.kind === 'card' && ` ···· ${pm.data.lastFour}`}
            </Radio>
          </Radio.Group>
        </Form.Item>
        {error && <Alert type="error" showIcon message={error} />}
      </Form>
    </Modal>
  );
}
