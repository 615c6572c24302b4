import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Divider, Input, InputNumber, Modal, Select, Space, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import {
  PAYMENT_METHOD_BEATS,
  PaymentMethod,
  PurchaseItemType,
  roundCash,
  SUBSCRIPTION_PERIODS,
  type PaymentInput,
  type Purchase,
  type PurchaseItemInput,
  type SubscriptionPeriod,
} from '@venue/domain';
import { MoneyInput } from '../../shared/MoneyInput';
import { errorText } from '../../shared/errors';
import { useSessionData } from '../../app/auth/AuthProvider';
import { newKey, usePurchase } from './useMoney';
import { useMoneyFormat } from './format';
import { useToast } from '../../shared/toast/ToastProvider';

/** Item and payment kinds offered at the console (seed 000 §3). */
const ITEM_TYPES = [
  PurchaseItemType.NewSubscription,
  PurchaseItemType.ChargingMoney,
  PurchaseItemType.Entrance,
  PurchaseItemType.Towel,
  PurchaseItemType.Product,
  PurchaseItemType.PayDebt,
  PurchaseItemType.License,
] as const;
const METHODS = [
  PaymentMethod.Cash,
  PaymentMethod.CreditCard,
  PaymentMethod.CreditCardToken,
  PAYMENT_METHOD_BEATS,
  PaymentMethod.TempCredit,
  PaymentMethod.Masav,
  PaymentMethod.Free,
] as const;

export interface ItemRow {
  itemType: number;
  itemId?: number;
  name: string;
  quantity: number;
  unitPrice: number;
  period: SubscriptionPeriod;
  start?: string;
  end?: string;
}
export interface PayRow {
  method: number;
  amount: number;
  cashGiven?: number | null;
  card: { number: string; expiry: string; cvv: string };
}

export interface PurchaseDialogProps {
  clientId: number;
  open: boolean;
  onClose: () => void;
  /** Items to start with (subscription renewal, debt payment). */
  initialItems?: Partial<ItemRow>[];
  title?: string;
  onDone?: (p: Purchase) => void;
}

const emptyItem = (over: Partial<ItemRow> = {}): ItemRow => ({
  itemType: PurchaseItemType.NewSubscription,
  name: '',
  quantity: 1,
  unitPrice: 0,
  period: 'month',
  ...over,
});
const emptyPay = (method: number = PaymentMethod.Cash): PayRow => ({
  method,
  amount: 0,
  card: { number: '', expiry: '', cvv: '' },
});

/**
 * The purchase request's lines: items (a new subscription carries its
 * period and dates) and payments (amounts in agorot; cash given only for
 * cash; card fields only for a credit card, without owner details).
 */
export function purchaseLines(
  items: readonly ItemRow[],
  pays: readonly PayRow[],
): { purchaseItems: PurchaseItemInput[]; payments: PaymentInput[] } {
  const purchaseItems: PurchaseItemInput[] = items.map((i) => ({
    itemType: i.itemType as PurchaseItemInput['itemType'],
    itemId: i.itemId,
    name: i.name,
    quantity: i.quantity,
    unitPrice: i.unitPrice,
    subscription:
      i.itemType === PurchaseItemType.NewSubscription
        ? { period: i.period, usageType: 'subscription', unlimited: false, kala: false, start: i.start, end: i.end }
        : undefined,
  }));
  const payments: PaymentInput[] = pays.map((p) => ({
    method: p.method as PaymentInput['method'],
    amount: p.amount,
    keepExcess: false,
    cashGiven: p.method === PaymentMethod.Cash && p.cashGiven ? p.cashGiven : undefined,
    card: p.method === PaymentMethod.CreditCard ? { ...p.card, ownerId: '', ownerName: '' } : undefined,
  }));
  return { purchaseItems, payments };
}

/** The purchase dialog: items and payments of one purchase (POST /Client/AdminPurchase). */
export function PurchaseDialog({ clientId, open, onClose, initialItems, title, onDone }: PurchaseDialogProps) {
  const { t } = useTranslation();
  const message = useToast();
  const fmt = useMoneyFormat();
  const purchase = usePurchase(clientId);
  const [items, setItems] = useState<ItemRow[]>([emptyItem()]);
  const [pays, setPays] = useState<PayRow[]>([emptyPay()]);
  const [payTouched, setPayTouched] = useState(false);
  const [key, setKey] = useState(() => newKey('console'));
  const [error, setError] = useState<string | null>(null);
  const [receipt, setReceipt] = useState<Purchase | null>(null);

  useEffect(() => {
    if (!open) return;
    setItems(initialItems?.length ? initialItems.map((i) => emptyItem(i)) : [emptyItem()]);
    setPays([emptyPay()]);
    setPayTouched(false);
    setKey(newKey('console'));
    setError(null);
    setReceipt(null);
  }, [open, initialItems]);

  const total = useMemo(() => items.reduce((s, i) => s + i.quantity * i.unitPrice, 0), [items]);
  // One payment follows the total until the cashier edits it; cash is rounded to 10 agorot.
  useEffect(() => {
    if (payTouched || pays.length !== 1) return;
    const amount = pays[0].method === PaymentMethod.Cash ? roundCash(total) : total;
    if (pays[0].amount !== amount) setPays([{ ...pays[0], amount }]);
  }, [total, pays, payTouched]);

  const setItem = (k: number, patch: Partial<ItemRow>) =>
    setItems(items.map((x, i) => (i === k ? { ...x, ...patch } : x)));
  const setPay = (k: number, patch: Partial<PayRow>) => {
    setPayTouched(true);
    setPays(pays.map((x, i) => (i === k ? { ...x, ...patch } : x)));
  };

  const submit = async () => {
    setError(null);
    const { purchaseItems, payments } = purchaseLines(items, pays);
    try {
      const res = await purchase.mutateAsync({
        clientId,
        purchaseItems,
        payments,
        IsAdminUser: true,
        payer: 'client',
        idempotencyKey: key,
      });
      setReceipt(res);
      if (res.warnings.includes('LICENSES_LOW')) message.warning(t('money.licensesLow'));
      message.success(t('money.purchaseDone', { invoice: res.invoiceNumber }));
      onDone?.(res);
    } catch (e) {
      // A refused attempt may be corrected and sent again as a new attempt.
      setKey(newKey('console'));
      setError(errorText(t, e));
    }
  };

  if (receipt) return <ReceiptModal open={open} onClose={onClose} receipt={receipt} />;

  return (
    <Modal
      open={open}
      onCancel={onClose}
      title={title ?? t('money.newPurchase')}
      width={760}
      okText={t('money.pay', { amount: '' })}
      onOk={() => void submit()}
      confirmLoading={purchase.isPending}
      okButtonProps={{ 'data-testid': 'purchase-submit' } as Record<string, string>}
      destroyOnHidden
    >
      <Typography.Title level={5}>{t('money.items')}</Typography.Title>
      {items.map((it, k) => (
        <ItemLine
          key={k}
          index={k}
          item={it}
          onChange={(patch) => setItem(k, patch)}
          onDelete={items.length > 1 ? () => setItems(items.filter((_, i) => i !== k)) : undefined}
        />
      ))}
      <Button
        icon={<PlusOutlined />}
        onClick={() => setItems([...items, emptyItem({ itemType: PurchaseItemType.Product })])}
      >
        {t('money.addItem')}
      </Button>
      <Divider />
      <div className="money-row money-total">
        <span>{t('money.total')}</span>
        <span data-testid="purchase-total">{fmt.money(total)}</span>
      </div>
      <Typography.Title level={5}>{t('money.payments')}</Typography.Title>
      {pays.map((p, k) => (
        <PaymentLine
          key={k}
          index={k}
          pay={p}
          onChange={(patch) => setPay(k, patch)}
          onMethod={(v) =>
            setPay(k, {
              method: v,
              amount: pays.length === 1 ? (v === PaymentMethod.Cash ? roundCash(total) : total) : p.amount,
            })
          }
          onDelete={pays.length > 1 ? () => setPays(pays.filter((_, i) => i !== k)) : undefined}
        />
      ))}
      <Button icon={<PlusOutlined />} onClick={() => setPays([...pays, emptyPay(PaymentMethod.CreditCard)])}>
        {t('money.addPayment')}
      </Button>
      {error && (
        <Alert style={{ marginBlockStart: 16 }} type="error" showIcon message={error} data-testid="purchase-error" />
      )}
    </Modal>
  );
}

/** The receipt of a done purchase: invoice number, lines, before VAT, VAT, total, change, validity (agorot). */
function ReceiptModal({ open, onClose, receipt }: { open: boolean; onClose: () => void; receipt: Purchase }) {
  const { t } = useTranslation();
  const fmt = useMoneyFormat();
  return (
    <Modal
      open={open}
      onCancel={onClose}
      title={t('money.receipt')}
      footer={<Button onClick={onClose}>{t('common.close')}</Button>}
    >
      <div data-testid="purchase-receipt">
        <Typography.Paragraph>
          {t('money.invoiceNumber')}: <b data-testid="receipt-invoice">{receipt.invoiceNumber}</b>
        </Typography.Paragraph>
        {receipt.items.map((i) => (
          <div key={i.id} className="money-row">
            <span>
              {t(`money.itemType.${i.itemType}`)} {i.name}
            </span>
            <span>{fmt.money(i.priceWithVat)}</span>
          </div>
        ))}
        <Divider />
        <div className="money-row">
          <span>{t('money.beforeVat')}</span>
          <span>{fmt.money(receipt.amountBeforeVat)}</span>
        </div>
        <div className="money-row">
          <span>{t('money.vat', { rate: receipt.vatRateBp / 100 })}</span>
          <span>{fmt.money(receipt.vat)}</span>
        </div>
        <div className="money-row money-total">
          <span>{t('money.total')}</span>
          <span data-testid="receipt-total">{fmt.money(receipt.total)}</span>
        </div>
        {receipt.change > 0 && (
          <div className="money-row">
            <span>{t('money.change')}</span>
            <span>{fmt.money(receipt.change)}</span>
          </div>
        )}
        {receipt.items.find((i) => i.expiry) && (
          <Typography.Paragraph type="secondary">
            {t('money.validUntil')}:{' '}
            <span data-testid="receipt-expiry">{fmt.date(receipt.items.find((i) => i.expiry)!.expiry)}</span>
          </Typography.Paragraph>
        )}
      </div>
    </Modal>
  );
}

/** One purchase line: item type (subscription period), description, quantity, unit price (agorot). */
function ItemLine({
  index,
  item,
  onChange,
  onDelete,
}: {
  index: number;
  item: ItemRow;
  onChange: (patch: Partial<ItemRow>) => void;
  onDelete?: () => void;
}) {
  const { t } = useTranslation();
  const { club } = useSessionData();
  return (
    <Space wrap align="start" className="money-line" data-testid={`purchase-item-${index}`}>
      <Select
        aria-label={t('money.itemTypeLabel')}
        style={{ minInlineSize: 150 }}
        value={item.itemType}
        onChange={(v) => onChange({ itemType: v })}
        options={ITEM_TYPES.map((v) => ({ value: v, label: t(`money.itemType.${v}`) }))}
      />
      {item.itemType === PurchaseItemType.NewSubscription && (
        <Select
          aria-label={t('money.period')}
          style={{ minInlineSize: 120 }}
          value={item.period}
          onChange={(v) => onChange({ period: v, start: undefined, end: undefined })}
          options={SUBSCRIPTION_PERIODS.map((p) => ({ value: p, label: t(`money.periods.${p}`) }))}
        />
      )}
      <Input
        aria-label={t('money.description')}
        placeholder={t('money.description')}
        value={item.name}
        onChange={(e) => onChange({ name: e.target.value })}
        style={{ inlineSize: 150 }}
        dir="auto"
      />
      <InputNumber
        aria-label={t('money.quantity')}
        min={1}
        max={1000}
        value={item.quantity}
        onChange={(v) => onChange({ quantity: Number(v ?? 1) })}
        style={{ inlineSize: 80 }}
      />
      <div style={{ inlineSize: 130 }}>
        <MoneyInput
          symbol={club.currencySymbol}
          value={item.unitPrice}
          onChange={(v) => onChange({ unitPrice: v ?? 0 })}
          data-testid={`item-price-${index}`}
        />
      </div>
      {onDelete && (
        <Button type="text" danger aria-label={t('common.delete')} icon={<DeleteOutlined />} onClick={onDelete} />
      )}
    </Space>
  );
}

/** One payment: method, amount (agorot), cash given, the card's fields. */
function PaymentLine({
  index,
  pay,
  onChange,
  onMethod,
  onDelete,
}: {
  index: number;
  pay: PayRow;
  onChange: (patch: Partial<PayRow>) => void;
  onMethod: (method: PayRow['method']) => void;
  onDelete?: () => void;
}) {
  const { t } = useTranslation();
  const { club } = useSessionData();
  return (
    <div className="money-line" data-testid={`purchase-payment-${index}`}>
      <Space wrap align="start">
        <Select
          aria-label={t('money.method')}
          style={{ minInlineSize: 170 }}
          value={pay.method}
          onChange={onMethod}
          options={METHODS.map((v) => ({ value: v, label: t(`money.method_${v}`) }))}
          data-testid={`payment-method-${index}`}
        />
        <div style={{ inlineSize: 130 }}>
          <MoneyInput symbol={club.currencySymbol} value={pay.amount} onChange={(v) => onChange({ amount: v ?? 0 })} />
        </div>
        {pay.method === PaymentMethod.Cash && (
          <div style={{ inlineSize: 150 }}>
            <MoneyInput
              symbol={club.currencySymbol}
              value={pay.cashGiven ?? undefined}
              nullable
              onChange={(v) => onChange({ cashGiven: v })}
              data-testid={`cash-given-${index}`}
            />
            <Typography.Text type="secondary">{t('money.cashGiven')}</Typography.Text>
          </div>
        )}
        {onDelete && (
          <Button type="text" danger aria-label={t('common.delete')} icon={<DeleteOutlined />} onClick={onDelete} />
        )}
      </Space>
      {pay.method === PaymentMethod.CreditCard && (
        <Space wrap className="card-fields">
          <Input
            dir="ltr"
            inputMode="numeric"
            autoComplete="cc-number"
            aria-label={t('money.cardNumber')}
            placeholder={t('money.cardNumber')}
            value={pay.card.number}
            onChange={(e) => onChange({ card: { ...pay.card, number: e.target.value } })}
            style={{ inlineSize: 210 }}
            data-testid={`card-number-${index}`}
          />
          <Input
            dir="ltr"
            aria-label={t('money.cardExpiry')}
            placeholder="MM/YY"
            value={pay.card.expiry}
            onChange={(e) => onChange({ card: { ...pay.card, expiry: e.target.value } })}
            style={{ inlineSize: 90 }}
            data-testid={`card-expiry-${index}`}
          />
          <Input
            dir="ltr"
            inputMode="numeric"
            aria-label={t('money.cvv')}
            placeholder={t('money.cvv')}
            value={pay.card.cvv}
            onChange={(e) => onChange({ card: { ...pay.card, cvv: e.target.value } })}
            style={{ inlineSize: 80 }}
            data-testid={`card-cvv-${index}`}
          />
        </Space>
      )}
    </div>
  );
}
