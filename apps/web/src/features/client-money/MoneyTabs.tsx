import { useEffect, useState } from 'react';
import {
  Alert,
  Button,
  Card,
  Descriptions,
  Empty,
  Form,
  Input,
  Modal,
  Popconfirm,
  Radio,
  Space,
  Statistic,
  Tag,
  Typography,
} from 'antd';
import { DeleteOutlined, PlusOutlined, ShoppingCartOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { PurchaseItemType, type Debt, type Purchase } from '@venue/domain';
import { QueryState } from '../../shared/QueryState';
import { MoneyInput } from '../../shared/MoneyInput';
import { errorText } from '../../shared/errors';
import { useSessionData } from '../../platform/auth/AuthProvider';
import { PurchaseDialog, type PurchaseDialogProps } from './PurchaseDialog';
import { PurchaseDocumentActions } from './PurchaseDocuments';
import { dateText, useMoneyFormat } from './format';
import {
  newKey,
  useAddCredit,
  useAddDebt,
  useAutoRenewLogs,
  useBalance,
  useDebts,
  useDeleteDebt,
  usePaymentMethod,
  usePurchases,
  useRenewQuote,
  useSubscriptions,
  type AutoRenewLogRow,
} from './useMoney';
import { useToast } from '../../shared/toast/ToastProvider';
import { ListTable } from '../../shared/CardList';

/** What the client details page gives each tab (features/clients ClientTabContext). */
export interface MoneyTabProps {
  clientId: number;
  canEdit: boolean;
}

function usePurchaseDialog(clientId: number) {
  const [props, setProps] = useState<Omit<PurchaseDialogProps, 'clientId' | 'onClose'> | null>(null);
  return {
    open: (p: Omit<PurchaseDialogProps, 'clientId' | 'onClose' | 'open'> = {}) => setProps({ ...p, open: true }),
    dialog: (
      <PurchaseDialog
        clientId={clientId}
        open={!!props?.open}
        initialItems={props?.initialItems}
        title={props?.title}
        onClose={() => setProps(null)}
      />
    ),
  };
}

// ------------------------------------------------------------------ subscription

export function SubscriptionTab({ clientId, canEdit }: MoneyTabProps) {
  const { t } = useTranslation();
  const fmt = useMoneyFormat();
  const subs = useSubscriptions(clientId);
  const hasHistory = (subs.data?.history.length ?? 0) > 0;
  const quote = useRenewQuote(clientId, hasHistory);
  const pd = usePurchaseDialog(clientId);
  return (
    <QueryState loading={subs.isPending} error={subs.error} onRetry={() => void subs.refetch()}>
      {subs.data && (
        <Space orientation="vertical" size="large" style={{ inlineSize: '100%' }} data-testid="money-subscription">
          <Descriptions
            bordered
            size="small"
            column={{ xs: 1, sm: 2, lg: 3 }}
            items={[
              {
                key: 'state',
                label: t('money.status'),
                children: subs.data.current.active ? (
                  <Tag color="green">{t('money.active')}</Tag>
                ) : (
                  <Tag color="red">{t('money.notActive')}</Tag>
                ),
              },
              { key: 'start', label: t('money.start'), children: fmt.date(subs.data.current.start) },
              {
                key: 'end',
                label: t('money.end'),
                children: <span data-testid="subscription-end">{fmt.date(subs.data.current.end)}</span>,
              },
              { key: 'endType', label: t('money.endType'), children: t(`money.endTypes.${subs.data.endType}`) },
              { key: 'extend', label: t('money.daysToExtend'), children: subs.data.daysToExtend },
              { key: 'immersions', label: t('money.immersionsLeft'), children: subs.data.current.immersionsLeft },
            ]}
          />
          {hasHistory && quote.data && (
            <Alert
              type="info"
              showIcon
              data-testid="renew-quote"
              message={t('money.renewQuote', { start: dateText(quote.data.start), end: dateText(quote.data.end) })}
              description={
                <span>
                  {t('money.renewPrice')}: {fmt.money(quote.data.price)}
                  {!quote.data.hasPaymentMethod && ` · ${t('money.noStoredMethod')}`}
                </span>
              }
            />
          )}
          {canEdit && (
            <Space wrap>
              <Button
                type="primary"
                icon={<ShoppingCartOutlined />}
                data-testid="buy-subscription"
                onClick={() =>
                  pd.open({
                    title: t('money.buySubscription'),
                    initialItems: [{ itemType: PurchaseItemType.NewSubscription, period: 'month' }],
                  })
                }
              >
                {t('money.buySubscription')}
              </Button>
              {quote.data && (
                <Button
                  data-testid="renew-now"
                  onClick={() =>
                    pd.open({
                      title: t('money.renew'),
                      initialItems: [
                        {
                          itemType: PurchaseItemType.NewSubscription,
                          period: 'month',
                          unitPrice: quote.data.price,
                          start: quote.data.start,
                          end: quote.data.end,
                        },
                      ],
                    })
                  }
                >
                  {t('money.renew')}
                </Button>
              )}
            </Space>
          )}
          <ListTable
            size="small"
            rowKey="purchaseId"
            dataSource={subs.data.history}
            pagination={{ pageSize: 10, hideOnSinglePage: true }}
            scroll={{ x: 'max-content' }}
            locale={{ emptyText: <Empty description={t('money.noSubscriptions')} /> }}
            columns={[
              { key: 'at', title: t('money.boughtAt'), render: (_, r) => fmt.date(r.at.slice(0, 10)) },
              {
                key: 'period',
                title: t('money.period'),
                render: (_, r) => (r.period ? t(`money.periods.${r.period}`) : '—'),
              },
              { key: 'start', title: t('money.start'), render: (_, r) => fmt.date(r.start) },
              { key: 'end', title: t('money.end'), render: (_, r) => fmt.date(r.end) },
              { key: 'price', title: t('money.price'), align: 'end', render: (_, r) => fmt.money(r.price) },
              {
                key: 'invoice',
                title: t('money.invoiceNumber'),
                render: (_, p) => p.invoiceNumber ?? <Tag>{t('money.awaitingCollection')}</Tag>,
              },
              { key: 'source', title: t('money.source'), render: (_, r) => t(`money.sources.${r.source}`) },
            ]}
          />
          {pd.dialog}
        </Space>
      )}
    </QueryState>
  );
}

// ------------------------------------------------------------------ balance

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
                value={bal.data.balance / 100}
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
                value={bal.data.tempBalance / 100}
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

// ------------------------------------------------------------------ debts

export function DebtsTab({ clientId, canEdit }: MoneyTabProps) {
  const { t } = useTranslation();
  const message = useToast();
  const { club } = useSessionData();
  const fmt = useMoneyFormat();
  const debts = useDebts(clientId);
  const del = useDeleteDebt(clientId);
  const pd = usePurchaseDialog(clientId);
  const [open, setOpen] = useState(false);
  const openTotal = (debts.data ?? []).reduce((s, d) => s + d.open, 0);
  return (
    <QueryState loading={debts.isPending} error={debts.error} onRetry={() => void debts.refetch()}>
      <Space orientation="vertical" size="large" style={{ inlineSize: '100%' }} data-testid="money-debts">
        <Space wrap>
          <Statistic title={t('money.openDebts')} value={openTotal / 100} precision={2} prefix={club.currencySymbol} />
          {canEdit && (
            <Button icon={<PlusOutlined />} onClick={() => setOpen(true)}>
              {t('money.registerDebt')}
            </Button>
          )}
        </Space>
        <ListTable<Debt>
          size="small"
          rowKey="id"
          dataSource={debts.data ?? []}
          pagination={{ pageSize: 10, hideOnSinglePage: true }}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: <Empty description={t('money.noDebts')} /> }}
          columns={[
            { key: 'at', title: t('money.at'), render: (_, d) => fmt.date(d.createdAt.slice(0, 10)) },
            {
              key: 'description',
              title: t('money.description'),
              render: (_, d) => <span dir="auto">{d.description}</span>,
            },
            { key: 'source', title: t('money.source'), render: (_, d) => t(`money.sources.${d.source}`) },
            { key: 'amount', title: t('money.amount'), align: 'end', render: (_, d) => fmt.money(d.amount) },
            { key: 'open', title: t('money.open'), align: 'end', render: (_, d) => fmt.money(d.open) },
            {
              key: 'state',
              title: t('money.status'),
              render: (_, d) =>
                d.open === 0 ? (
                  <Tag color="green">{t('money.paid')}</Tag>
                ) : d.masavFileId ? (
                  <Tag color="blue">{t('money.inCollection')}</Tag>
                ) : (
                  <Tag color="orange">{t('money.unpaid')}</Tag>
                ),
            },
            {
              key: 'actions',
              title: '',
              render: (_, d) =>
                canEdit && (
                  <Space>
                    {d.open > 0 && !d.masavFileId && (
                      <Button
                        size="small"
                        onClick={() =>
                          pd.open({
                            title: t('money.payDebt'),
                            initialItems: [
                              {
                                itemType: PurchaseItemType.PayDebt,
                                itemId: d.id,
                                name: d.description,
                                unitPrice: d.open,
                              },
                            ],
                          })
                        }
                      >
                        {t('money.payDebt')}
                      </Button>
                    )}
                    <Popconfirm
                      title={t('money.deleteDebtConfirm')}
                      okText={t('common.delete')}
                      cancelText={t('common.cancel')}
                      okButtonProps={{ danger: true }}
                      onConfirm={async () => {
                        try {
                          await del.mutateAsync(d.id);
                        } catch (e) {
                          message.error(errorText(t, e));
                        }
                      }}
                    >
                      <Button
                        size="small"
                        type="text"
                        danger
                        icon={<DeleteOutlined />}
                        aria-label={t('common.delete')}
                      />
                    </Popconfirm>
                  </Space>
                ),
            },
          ]}
        />
        <RegisterDebtModal clientId={clientId} open={open} onClose={() => setOpen(false)} />
        {pd.dialog}
      </Space>
    </QueryState>
  );
}

/** Register a debt by hand: an amount in agorot (more than 0) and a description (up to 200 characters). */
function RegisterDebtModal({ clientId, open, onClose }: { clientId: number; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { club } = useSessionData();
  const add = useAddDebt(clientId);
  const [amount, setAmount] = useState<number | null>(null);
  const [description, setDescription] = useState('');
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!open) return;
    setAmount(null);
    setDescription('');
    setError(null);
  }, [open]);
  return (
    <Modal
      open={open}
      title={t('money.registerDebt')}
      onCancel={onClose}
      confirmLoading={add.isPending}
      onOk={async () => {
        if (!amount || amount <= 0) return setError(t('validation.invalidAmount'));
        try {
          await add.mutateAsync({ amount, description });
          onClose();
        } catch (e) {
          setError(errorText(t, e));
        }
      }}
    >
      <Form layout="vertical">
        <Form.Item label={t('money.amount')} required>
          <MoneyInput symbol={club.currencySymbol} value={amount ?? undefined} nullable onChange={setAmount} />
        </Form.Item>
        <Form.Item label={t('money.description')}>
          <Input value={description} maxLength={200} dir="auto" onChange={(e) => setDescription(e.target.value)} />
        </Form.Item>
        {error && <Alert type="error" showIcon message={error} />}
      </Form>
    </Modal>
  );
}

// ------------------------------------------------------------------ automatic actions

export function AutoActionsTab({ clientId }: MoneyTabProps) {
  const { t } = useTranslation();
  const fmt = useMoneyFormat();
  const logs = useAutoRenewLogs(clientId);
  return (
    <QueryState loading={logs.isPending} error={logs.error} onRetry={() => void logs.refetch()}>
      <ListTable<AutoRenewLogRow>
        data-testid="money-auto"
        size="small"
        rowKey="id"
        dataSource={logs.data ?? []}
        pagination={{ pageSize: 10, hideOnSinglePage: true }}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: <Empty description={t('money.noAutoActions')} /> }}
        columns={[
          {
            key: 'at',
            title: t('money.at'),
            render: (_, r) => <span className="ltr-value nowrap">{fmt.dateTime(r.at)}</span>,
          },
          {
            key: 'result',
            title: t('money.result'),
            render: (_, r) =>
              r.success ? (
                <Tag color="green">{t('money.renewOk')}</Tag>
              ) : (
                <Tag color="red">{t('money.renewFailed')}</Tag>
              ),
          },
          { key: 'start', title: t('money.start'), render: (_, r) => fmt.date(r.startDate) },
          { key: 'end', title: t('money.end'), render: (_, r) => fmt.date(r.endDate) },
          { key: 'amount', title: t('money.amount'), align: 'end', render: (_, r) => fmt.money(r.amount) },
          {
            key: 'error',
            title: t('money.error'),
            render: (_, r) => (r.error ? t(`errors.${r.error.split(':')[0]}`, { defaultValue: r.error }) : ''),
          },
        ]}
      />
    </QueryState>
  );
}

// ------------------------------------------------------------------ purchases

export function PurchasesTab({ clientId, canEdit }: MoneyTabProps) {
  const { t } = useTranslation();
  const fmt = useMoneyFormat();
  const list = usePurchases(clientId);
  const pd = usePurchaseDialog(clientId);
  return (
    <QueryState loading={list.isPending} error={list.error} onRetry={() => void list.refetch()}>
      <Space orientation="vertical" size="large" style={{ inlineSize: '100%' }} data-testid="money-purchases">
        {canEdit && (
          <Button type="primary" icon={<ShoppingCartOutlined />} onClick={() => pd.open()} data-testid="new-purchase">
            {t('money.newPurchase')}
          </Button>
        )}
        <ListTable<Purchase>
          size="small"
          rowKey="id"
          dataSource={list.data ?? []}
          pagination={{ pageSize: 10, hideOnSinglePage: true }}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: <Empty description={t('money.noPurchases')} /> }}
          expandable={{
            expandedRowRender: (p) => (
              <Descriptions
                size="small"
                column={{ xs: 1, sm: 2, lg: 4 }}
                items={[
                  ...p.items.map((i) => ({
                    key: `i${i.id}`,
                    label: `${t(`money.itemType.${i.itemType}`)} ${i.name}`.trim(),
                    children: fmt.money(i.priceWithVat),
                  })),
                  { key: 'net', label: t('money.beforeVat'), children: fmt.money(p.amountBeforeVat) },
                  { key: 'vat', label: t('money.vat', { rate: p.vatRateBp / 100 }), children: fmt.money(p.vat) },
                  { key: 'fee', label: t('money.fee'), children: fmt.money(p.fee) },
                  { key: 'bb', label: t('money.balanceBefore'), children: fmt.money(p.balanceBefore) },
                  { key: 'ba', label: t('money.balanceAfter'), children: fmt.money(p.balanceAfter) },
                  { key: 'cash', label: t('money.paidCash'), children: fmt.money(p.paidCash) },
                  { key: 'credit', label: t('money.paidCredit'), children: fmt.money(p.paidCredit) },
                  { key: 'beats', label: t('money.paidBeats'), children: fmt.money(p.paidBeats) },
                  { key: 'temp', label: t('money.paidTemp'), children: fmt.money(p.paidTemp) },
                ]}
              />
            ),
          }}
          columns={[
            {
              key: 'at',
              title: t('money.at'),
              render: (_, p) => <span className="ltr-value nowrap">{fmt.dateTime(p.at)}</span>,
            },
            {
              key: 'invoice',
              title: t('money.invoiceNumber'),
              render: (_, p) => p.invoiceNumber ?? <Tag>{t('money.awaitingCollection')}</Tag>,
            },
            {
              key: 'items',
              title: t('money.items'),
              render: (_, p) => p.items.map((i) => t(`money.itemType.${i.itemType}`)).join(', '),
            },
            { key: 'total', title: t('money.total'), align: 'end', render: (_, p) => fmt.money(p.total) },
            {
              key: 'paid',
              title: t('money.paidBy'),
              render: (_, p) => p.payments.map((x) => t(`money.method_${x.method}`)).join(', '),
            },
            {
              key: 'lastFour',
              title: t('money.card'),
              render: (_, p) => (p.lastFour ? <span className="ltr-value">···· {p.lastFour}</span> : ''),
            },
            {
              key: 'status',
              title: t('money.status'),
              render: (_, p) => (
                <Tag color={p.paymentStatus === 1 ? 'green' : 'blue'}>
                  {t(`money.paymentStatus.${p.paymentStatus}`)}
                </Tag>
              ),
            },
            {
              key: 'documents',
              title: t('money.documents'),
              // On a phone the document and refund buttons are the card's actions (else they were not shown).
              card: 'actions',
              render: (_, p) => <PurchaseDocumentActions purchase={p} canEdit={canEdit} />,
            },
          ]}
        />
        <Typography.Text type="secondary">{t('money.vatIncluded')}</Typography.Text>
        {pd.dialog}
      </Space>
    </QueryState>
  );
}
