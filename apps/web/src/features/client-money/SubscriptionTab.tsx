import { Alert, Button, Descriptions, Empty, Space, Tag } from 'antd';
import { ShoppingCartOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { PurchaseItemType } from '@venue/domain';
import { QueryState } from '../../shared/QueryState';
import { dateText, useMoneyFormat } from './format';
import { useRenewQuote, useSubscriptions } from './useMoney';
import { ListTable } from '../../shared/CardList';
import { usePurchaseDialog, type MoneyTabProps } from './moneyTab';
import { InvoiceNumberCell } from './PurchaseDocuments';

/** The client's subscription tab: its subscriptions, renewal and purchase (seed 001 §2 "Client details"). */
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
                render: (_, p) => <InvoiceNumberCell purchase={p} />,
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
