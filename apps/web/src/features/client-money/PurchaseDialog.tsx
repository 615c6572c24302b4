import { useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Alert, Button, Divider, Input, InputNumber, Modal, Select, Space, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import {
  PAYMENT_METHOD_BEATS,
  PaymentMethod,
  PurchaseItemType,
  SUBSCRIPTION_PERIODS,
  type DealerIdentityGap,
  type AdminPurchaseRequest,
  type PaymentInput,
  type Purchase,
  type PurchaseItemInput,
  type SubscriptionPeriod,
} from '@venue/domain';
import { MoneyInput } from '../../shared/MoneyInput';
import { errorText } from '../../shared/errors';
import { useSessionData } from '../../platform/auth/AuthProvider';
import { useClientFull } from '../clients/useClients';
import { useProductList } from '../products/useProducts';
import { newKey, usePurchase, useRenewQuote, useSubscriptions } from './useMoney';
import { dateText, moneyText, useMoneyFormat } from './format';
import {
  clientGroup,
  clubDate,
  dialogQuote,
  expectedAmount,
  missingPrice,
  priceSources,
  refusedDealerGaps,
  singlePaymentDue,
  subscriptionPreview,
  subscriptionStartPrice,
  type PriceSource,
  type SubscriptionContext,
} from './purchaseQuote';
import { useToast } from '../../shared/toast/ToastProvider';
import { DealerIdentityBanner } from './DealerIdentityAlert';
import { ReceiptActions, type ReceiptCustomer } from './ReceiptPrint';

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
  /** Agorot with VAT; null until it comes from a price source or is typed (never a blank ₪0). */
  unitPrice: number | null;
  /** The price source chosen (PriceSource.value), if any. */
  source?: string;
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
  /**
   * Sends the request elsewhere than POST /Client/AdminPurchase (the front desk's sale that admits,
   * docs/front-desk.md): the same request, answered with the purchase.
   */
  submitWith?: (req: AdminPurchaseRequest) => Promise<Purchase>;
  /** Focus the pay button on opening, so Enter pays (the front desk's interaction budget). */
  focusPay?: boolean;
  /** Shown above the items: what the gate will do with this client now (a refusal warns). */
  notice?: ReactNode;
  /** Named on the printed slip. */
  customer?: ReceiptCustomer;
  /** Printed on the slip and shown under the receipt (the admission at the desk). */
  receiptNote?: ReactNode;
  /**
   * Where the focus goes once the dialog (or its receipt) is gone; by default back to what opened
   * it. The front desk gives it to its search box, ready for the next swipe.
   */
  afterClose?: () => void;
}

const emptyItem = (over: Partial<ItemRow> = {}): ItemRow => ({
  itemType: PurchaseItemType.NewSubscription,
  name: '',
  quantity: 1,
  unitPrice: null,
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
    unitPrice: i.unitPrice ?? 0,
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

/** What the dialog reads to price its lines: the client's group and subscription, the products, the last monthly price. */
function usePriceContext(clientId: number, open: boolean) {
  const { club, groups } = useSessionData();
  const client = useClientFull(clientId);
  const subs = useSubscriptions(clientId);
  const hasHistory = (subs.data?.history.length ?? 0) > 0;
  const quote = useRenewQuote(clientId, open && hasHistory);
  const products = useProductList();
  const group = clientGroup(client.data, groups);
  const sub: SubscriptionContext | null = subs.data
    ? { currentEnd: subs.data.current.end, endType: subs.data.endType, daysToExtend: subs.data.daysToExtend }
    : null;
  return {
    club,
    group,
    sub,
    products: products.data?.items ?? [],
    monthlyPrice: quote.data?.monthlyPrice ?? null,
    ready: !subs.isPending && (!hasHistory || !quote.isPending),
  };
}
type PriceContext = ReturnType<typeof usePriceContext>;

/** A line's price when the dialog opens: as given (with its source when one has that price), else the subscription's last monthly price, else the group's first priced row. */
function startingItem(over: Partial<ItemRow>, pc: PriceContext): ItemRow {
  const it = emptyItem(over);
  if (it.unitPrice != null) {
    // A given price that is one of the line's sources (the desk's schedule price) is shown as that source.
    const sources =
      it.itemType === PurchaseItemType.Product ? undefined : priceSources(it.itemType, pc.group, pc.products);
    const source = sources?.find((s) => s.price === it.unitPrice);
    return source ? { ...it, source: source.value, name: it.name || source.name } : it;
  }
  if (it.itemType === PurchaseItemType.NewSubscription) {
    const p = subscriptionStartPrice(pc.monthlyPrice, it.period);
    if (p != null) return { ...it, unitPrice: p };
  }
  const first = priceSources(it.itemType, pc.group, pc.products)[0];
  if (!first || it.itemType === PurchaseItemType.Product) return it;
  return { ...it, source: first.value, unitPrice: first.price, name: it.name || first.name };
}

/**
 * One payment follows the total of its method (the card fee added, cash
 * rounded) until the cashier edits it; returns what a single payment by a
 * method must be.
 */
function useFollowTotal(
  items: ItemRow[],
  pays: PayRow[],
  setPays: (p: PayRow[]) => void,
  payTouched: boolean,
  club: PriceContext['club'],
  now: Date,
) {
  useEffect(() => {
    if (payTouched || pays.length !== 1) return;
    const amount = singlePaymentDue(items, pays[0].method, club, now);
    if (pays[0].amount !== amount) setPays([{ ...pays[0], amount }]);
  }, [items, pays, setPays, payTouched, club, now]);
  return (method: number) => singlePaymentDue(items, method, club, now);
}

/**
 * Runs `start` once per opening of the dialog, when its price context has
 * loaded: a refetch after the purchase (the client's data is invalidated)
 * must not reset the dialog over its receipt.
 */
function useStartOnOpen(open: boolean, ready: boolean, start: () => void) {
  const started = useRef(false);
  useEffect(() => {
    if (!open) {
      started.current = false;
      return;
    }
    if (started.current || !ready) return;
    started.current = true;
    start();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, ready]);
}

/**
 * A refused purchase: the translated text, the server's expected amount (PAYMENTS_DO_NOT_MATCH_TOTAL)
 * and, for DEALER_IDENTITY_MISSING, what the club lacks (shown by DealerIdentityBanner instead).
 */
interface PurchaseError {
  text: string;
  expected: number | null;
  dealer: DealerIdentityGap[] | null;
}

/**
 * Sends the dialog's request — POST /Client/AdminPurchase, or `submitWith` (the front desk) — and
 * answers the receipt, or the refusal: its translated text, the server's expected amount and what
 * the dealer's identity lacks.
 */
function useSend(
  clientId: number,
  submitWith: PurchaseDialogProps['submitWith'],
  onDone: PurchaseDialogProps['onDone'],
) {
  const { t } = useTranslation();
  const message = useToast();
  const purchase = usePurchase(clientId);
  const [pending, setPending] = useState(false);
  const send = async (req: AdminPurchaseRequest): Promise<{ receipt: Purchase } | { error: PurchaseError }> => {
    setPending(true);
    try {
      const res = await (submitWith ? submitWith(req) : purchase.mutateAsync(req));
      if (res.warnings.includes('LICENSES_LOW')) message.warning(t('money.licensesLow'));
      message.success(t('money.purchaseDone', { invoice: res.invoiceNumber }));
      onDone?.(res);
      return { receipt: res };
    } catch (e) {
      return { error: { text: errorText(t, e), expected: expectedAmount(e), dealer: refusedDealerGaps(e) } };
    } finally {
      setPending(false);
    }
  };
  return { send, pending };
}

/** The purchase dialog: items and payments of one purchase (POST /Client/AdminPurchase). */
export function PurchaseDialog(props: PurchaseDialogProps) {
  const { clientId, open, onClose, initialItems, title, onDone } = props;
  const { submitWith, notice, customer, receiptNote, afterClose } = props;
  const { t } = useTranslation();
  const { user } = useSessionData();
  const sender = useSend(clientId, submitWith, onDone);
  const pc = usePriceContext(clientId, open);
  const [items, setItems] = useState<ItemRow[]>([emptyItem()]);
  const [pays, setPays] = useState<PayRow[]>([emptyPay()]);
  const [payTouched, setPayTouched] = useState(false);
  const [key, setKey] = useState(() => newKey('console'));
  const [error, setError] = useState<PurchaseError | null>(null);
  const [receipt, setReceipt] = useState<Purchase | null>(null);
  // The moment the prices and dates are previewed for: when the dialog opens (VAT date, club day).
  const [now, setNow] = useState(() => new Date());

  const focus = useDialogFocus(open, props, missingPrice(items, pays) < 0);

  useStartOnOpen(open, pc.ready, () => {
    const start = initialItems?.length ? initialItems : [{}];
    setItems(start.map((i) => startingItem(i, pc)));
    setPays([emptyPay()]);
    setPayTouched(false);
    setKey(newKey('console'));
    setError(null);
    setReceipt(null);
    setNow(new Date());
  });

  const quote = useMemo(() => dialogQuote(items, pays, pc.club, now), [items, pays, pc.club, now]);
  const missing = missingPrice(items, pays);
  const today = clubDate(pc.club, now);
  const due = useFollowTotal(items, pays, setPays, payTouched, pc.club, now);

  // A new item type starts at its own price source (or without a price), like a new line.
  const setItem = (k: number, patch: Partial<ItemRow>) =>
    setItems(
      items.map((x, i) =>
        i !== k
          ? x
          : patch.itemType != null && patch.itemType !== x.itemType
            ? startingItem(patch, pc)
            : { ...x, ...patch },
      ),
    );
  const setPay = (k: number, patch: Partial<PayRow>) => {
    setPayTouched(true);
    setPays(pays.map((x, i) => (i === k ? { ...x, ...patch } : x)));
  };

  const submit = async () => {
    setError(null);
    if (missing >= 0) return;
    const { purchaseItems, payments } = purchaseLines(items, pays);
    const req = { clientId, purchaseItems, payments, IsAdminUser: true, payer: 'client', idempotencyKey: key } as const;
    const out = await sender.send(req);
    if ('receipt' in out) setReceipt(out.receipt);
    else {
      // A refused attempt may be corrected and sent again as a new attempt.
      setKey(newKey('console'));
      setError(out.error);
    }
  };

  // The receipt is a dialog of its own: antd gives the focus back to what had it when *it* opened
  // (the dialog's pay button, gone by then), so the focus goes back to what opened the purchase.
  if (receipt)
    return <ReceiptModal {...{ open, onClose, receipt, customer }} afterClose={focus.restore} note={receiptNote} />;

  return (
    <Modal
      open={open}
      onCancel={onClose}
      title={title ?? t('money.newPurchase')}
      width={760}
      okText={t('money.pay', { amount: missing < 0 ? moneyText(quote.total, pc.club.currencySymbol) : '' })}
      onOk={() => void submit()}
      confirmLoading={sender.pending}
      okButtonProps={{
        disabled: missing >= 0,
        ...({ 'data-testid': 'purchase-submit', ref: focus.payButton } as object),
      }}
      destroyOnHidden
      focusTriggerAfterClose={!afterClose}
      afterOpenChange={(opened) => opened && focus.afterOpen()}
      afterClose={afterClose}
      className="purchase-dialog"
    >
      <DealerIdentityBanner refused={error?.dealer ?? null} />
      {notice}
      <Typography.Title level={5}>{t('money.items')}</Typography.Title>
      {items.map((it, k) => (
        <ItemLine
          key={k}
          index={k}
          item={it}
          sources={priceSources(it.itemType, pc.group, pc.products)}
          dates={
            it.itemType === PurchaseItemType.NewSubscription && pc.sub
              ? subscriptionPreview(today, pc.sub, it.period, { start: it.start, end: it.end })
              : null
          }
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
      <QuoteSummary quote={quote} />
      {missing >= 0 && (
        <Typography.Paragraph type="warning" data-testid="purchase-price-missing">
          {t('money.priceMissing')}
        </Typography.Paragraph>
      )}
      <PaymentsBlock
        pays={pays}
        setPays={setPays}
        setPay={setPay}
        due={due}
        canGiveFree={user.roleIsAdmin}
        error={error}
      />
    </Modal>
  );
}

/**
 * The payments of the purchase (a single payment follows the total the
 * domain rule gives for its method) and the refusal, with the server's
 * expected amount when the payments did not match (issue 18).
 */
function PaymentsBlock({
  pays,
  setPays,
  setPay,
  due,
  canGiveFree,
  error,
}: {
  pays: PayRow[];
  setPays: (p: PayRow[]) => void;
  setPay: (k: number, patch: Partial<PayRow>) => void;
  due: (method: number) => number;
  canGiveFree: boolean;
  error: PurchaseError | null;
}) {
  const { t } = useTranslation();
  const { club } = useSessionData();
  return (
    <>
      <Typography.Title level={5}>{t('money.payments')}</Typography.Title>
      {pays.map((p, k) => (
        <PaymentLine
          key={k}
          index={k}
          pay={p}
          canGiveFree={canGiveFree}
          onChange={(patch) => setPay(k, patch)}
          onMethod={(v) => setPay(k, { method: v, amount: pays.length === 1 ? due(v) : p.amount })}
          onDelete={pays.length > 1 ? () => setPays(pays.filter((_, i) => i !== k)) : undefined}
        />
      ))}
      <Button icon={<PlusOutlined />} onClick={() => setPays([...pays, emptyPay(PaymentMethod.CreditCard)])}>
        {t('money.addPayment')}
      </Button>
      {error && !error.dealer && (
        <Alert
          style={{ marginBlockStart: 16 }}
          type="error"
          showIcon
          data-testid="purchase-error"
          message={error.text}
          description={
            error.expected != null && (
              <Space wrap>
                <span data-testid="purchase-expected">
                  {t('money.serverExpected', { amount: moneyText(error.expected, club.currencySymbol) })}
                </span>
                {pays.length === 1 && (
                  <Button
                    size="small"
                    data-testid="use-expected"
                    onClick={() => setPay(0, { amount: error.expected! })}
                  >
                    {t('money.useServerAmount')}
                  </Button>
                )}
              </Space>
            )
          }
        />
      )}
    </>
  );
}

/** Text isolated left to right inside a sentence of either direction. */
const ltr = (s: string) => `\u2066${s}\u2069`;

/** Subtotal, card fee, VAT (rate) and total before payment (agorot), from the domain quote. */
function QuoteSummary({ quote }: { quote: ReturnType<typeof dialogQuote> }) {
  const { t } = useTranslation();
  const fmt = useMoneyFormat();
  const row = (label: string, amount: number, testId: string, total = false) => (
    <div className={total ? 'money-row money-total' : 'money-row'}>
      <span>{label}</span>
      <span className="money-amount" data-testid={testId}>
        {fmt.money(amount)}
      </span>
    </div>
  );
  return (
    <div className="purchase-quote" data-testid="purchase-quote">
      {row(t('money.subtotal'), quote.subtotal, 'purchase-subtotal')}
      {row(t('money.fee'), quote.fee, 'purchase-fee')}
      {row(t('money.vat', { rate: quote.vatRateBp / 100 }), quote.vat, 'purchase-vat')}
      {row(t('money.total'), quote.total, 'purchase-total', true)}
    </div>
  );
}

/**
 * Where the dialog puts the focus: on the pay button once it may be pressed (`focusPay`), and,
 * once the dialog or its receipt is gone, where `afterClose` says, else back to what opened it.
 */
function useDialogFocus(open: boolean, props: Pick<PurchaseDialogProps, 'focusPay' | 'afterClose'>, payable: boolean) {
  const opener = useOpener(open);
  const payButton = useFocusPay(open && Boolean(props.focusPay), payable);
  return { payButton: payButton.ref, afterOpen: payButton.retry, restore: props.afterClose ?? opener.restore };
}

/**
 * With `want` (the front desk's sale), gives the pay button the focus once per opening as soon as
 * it may be pressed (`enabled`: every line priced), so Enter pays. Not `autoFocus`: the button is
 * disabled while the price context loads, and neither a disabled button nor one in a dialog still
 * appearing takes the focus — so it is tried after each render until it holds, and again when the
 * dialog's opening animation ends (`retry`, the Modal's afterOpenChange).
 */
function useFocusPay(want: boolean, enabled: boolean) {
  const ref = useRef<HTMLButtonElement>(null);
  const done = useRef(false);
  const tryFocus = () => {
    if (done.current || !want || !enabled || !ref.current) return;
    ref.current.focus();
    done.current = document.activeElement === ref.current;
  };
  useEffect(() => {
    if (!want) done.current = false;
    else tryFocus();
  });
  return { ref, retry: tryFocus };
}

/**
 * The element that had the focus when the dialog opened (the "new purchase" button), and a way to give
 * it the focus back once the dialog is gone (WCAG 2.4.3: the focus does not fall to the page's body).
 */
function useOpener(open: boolean) {
  const el = useRef<HTMLElement | null>(null);
  // A layout effect: it runs before the dialog's own (passive) effect moves the focus into it.
  useLayoutEffect(() => {
    if (!open) return;
    const active = document.activeElement;
    el.current = active instanceof HTMLElement && active !== document.body ? active : null;
  }, [open]);
  return {
    restore: () => {
      if (el.current?.isConnected) el.current.focus();
    },
  };
}

/** The receipt of a done purchase: invoice number, lines, before VAT, VAT, total, change, validity (agorot). */
function ReceiptModal({
  open,
  onClose,
  receipt,
  afterClose,
  customer,
  note,
}: {
  open: boolean;
  onClose: () => void;
  receipt: Purchase;
  afterClose: () => void;
  customer?: ReceiptCustomer;
  note?: ReactNode;
}) {
  const { t } = useTranslation();
  const fmt = useMoneyFormat();
  return (
    <Modal
      open={open}
      onCancel={onClose}
      title={t('money.receipt')}
      afterClose={afterClose}
      footer={
        <Space wrap style={{ inlineSize: '100%', justifyContent: 'space-between' }}>
          <ReceiptActions receipt={receipt} customer={customer} note={note} />
          <Button onClick={onClose} data-testid="receipt-close">
            {t('common.close')}
          </Button>
        </Space>
      }
    >
      <div data-testid="purchase-receipt">
        {note && (
          <Alert type="success" showIcon style={{ marginBlockEnd: 12 }} data-testid="receipt-note" title={note} />
        )}
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

/**
 * One purchase line: item type (subscription period and its dates before
 * payment), where the price comes from (the group's schedule row or a
 * product), description, quantity, unit price (agorot; empty until set).
 */
function ItemLine({
  index,
  item,
  sources,
  dates,
  onChange,
  onDelete,
}: {
  index: number;
  item: ItemRow;
  sources: PriceSource[];
  dates: { start: string; end: string } | null;
  onChange: (patch: Partial<ItemRow>) => void;
  onDelete?: () => void;
}) {
  const { t } = useTranslation();
  const { club } = useSessionData();
  return (
    <div className="money-line purchase-item" data-testid={`purchase-item-${index}`}>
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
      {sources.length > 0 && (
        <Select
          aria-label={t('money.priceFrom')}
          placeholder={t('money.priceFrom')}
          style={{ minInlineSize: 200 }}
          value={item.source}
          data-testid={`price-source-${index}`}
          onChange={(v) => {
            const s = sources.find((x) => x.value === v);
            if (s) onChange({ source: v, unitPrice: s.price, name: s.name, itemId: s.itemId ?? item.itemId });
          }}
          options={sources.map((s) => ({
            value: s.value,
            label: `${s.name} · ${moneyText(s.price, club.currencySymbol)}`,
          }))}
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
          aria-label={t('money.unitPrice')}
          symbol={club.currencySymbol}
          value={item.unitPrice ?? undefined}
          nullable
          status={item.unitPrice == null ? 'error' : undefined}
          onChange={(v) => onChange({ unitPrice: v, source: undefined })}
          data-testid={`item-price-${index}`}
        />
      </div>
      {onDelete && (
        <Button type="text" danger aria-label={t('common.delete')} icon={<DeleteOutlined />} onClick={onDelete} />
      )}
      {dates && (
        <Typography.Text type="secondary" className="purchase-dates" data-testid={`subscription-dates-${index}`}>
          {t('money.subscriptionDates', { start: ltr(dateText(dates.start)), end: ltr(dateText(dates.end)) })}
        </Typography.Text>
      )}
    </div>
  );
}

/** One payment: method, amount (agorot), cash given, the card's fields. */
function PaymentLine({
  index,
  pay,
  canGiveFree,
  onChange,
  onMethod,
  onDelete,
}: {
  index: number;
  pay: PayRow;
  /** Free is an explicit choice of a user with roleIsAdmin (issue 18). */
  canGiveFree: boolean;
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
          options={METHODS.filter((v) => canGiveFree || v !== PaymentMethod.Free).map((v) => ({
            value: v,
            label: t(`money.method_${v}`),
          }))}
          data-testid={`payment-method-${index}`}
        />
        <div style={{ inlineSize: 130 }}>
          <MoneyInput
            aria-label={t('money.paymentAmount')}
            symbol={club.currencySymbol}
            value={pay.amount}
            onChange={(v) => onChange({ amount: v ?? 0 })}
            data-testid={`payment-amount-${index}`}
          />
        </div>
        {pay.method === PaymentMethod.Cash && (
          <div style={{ inlineSize: 150 }}>
            <MoneyInput
              aria-labelledby={`cash-given-label-${index}`}
              symbol={club.currencySymbol}
              value={pay.cashGiven ?? undefined}
              nullable
              onChange={(v) => onChange({ cashGiven: v })}
              data-testid={`cash-given-${index}`}
            />
            <Typography.Text type="secondary" id={`cash-given-label-${index}`}>
              {t('money.cashGiven')}
            </Typography.Text>
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
