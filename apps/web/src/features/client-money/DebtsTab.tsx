import { useEffect, useState } from 'react';
import { Alert, Button, Empty, Form, Input, Modal, Popconfirm, Space, Statistic, Tag } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { PurchaseItemType, type Debt, fromMinor } from '@venue/domain';
import { QueryState } from '../../shared/QueryState';
import { MoneyInput } from '../../shared/MoneyInput';
import { errorText } from '../../shared/errors';
import { useSessionData } from '../../platform/auth/AuthProvider';
import { useMoneyFormat } from './format';
import { useAddDebt, useDebts, useDeleteDebt } from './useMoney';
import { useToast } from '../../shared/toast/ToastProvider';
import { ListTable } from '../../shared/CardList';
import { usePurchaseDialog, type MoneyTabProps } from './moneyTab';

/**
 * A debt's state: paid, in a MASAV file, or unpaid; and when the bank returned its last MASAV
 * debit, the bank's return code (docs/money.md "MASAV return file": the code as the bank sent it).
 */
function DebtState({ debt: d }: { debt: Debt }) {
  const { t } = useTranslation();
  return (
    <Space size={4} wrap>
      {d.open === 0 ? (
        <Tag color="green">{t('money.paid')}</Tag>
      ) : d.masavFileId ? (
        <Tag color="blue">{t('money.inCollection')}</Tag>
      ) : (
        <Tag color="orange">{t('money.unpaid')}</Tag>
      )}
      {d.returnReason && (
        <Tag color="red" data-testid={`debt-return-${d.id}`}>
          {t('money.bankReturned', { code: d.returnReason })}
        </Tag>
      )}
    </Space>
  );
}

/** The client's debts tab: open debts, paying and registering them (seed 001 §2 "Client details"). */
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
          <Statistic
            title={t('money.openDebts')}
            value={fromMinor(openTotal)}
            precision={2}
            prefix={club.currencySymbol}
          />
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
              render: (_, d) => <DebtState debt={d} />,
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
