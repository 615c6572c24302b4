import { Button, Descriptions, Empty, Space, Tag, Typography } from 'antd';
import { ShoppingCartOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Purchase } from '@venue/domain';
import { QueryState } from '../../shared/QueryState';
import { InvoiceNumberCell, PurchaseDocumentActions } from './PurchaseDocuments';
import { useMoneyFormat } from './format';
import { usePurchases } from './useMoney';
import { ListTable } from '../../shared/CardList';
import { usePurchaseDialog, type MoneyTabProps } from './moneyTab';

/** The client's purchases tab: the purchases, their documents and refunds (seed 001 §2 "Client details"). */
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
              render: (_, p) => <InvoiceNumberCell purchase={p} />,
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
