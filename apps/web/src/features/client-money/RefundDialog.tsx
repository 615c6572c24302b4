import { useMemo, useState } from 'react';
import { Alert, Button, Checkbox, Descriptions, Input, InputNumber, Modal, Radio, Space, Typography } from 'antd';
import { FilePdfOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import {
  contract,
  lineLeft,
  planRefund,
  type PlannedRefund,
  type Purchase,
  type PurchaseRefund,
  type RefundableState,
  type RefundChoice,
  fromMinor,
  toMinor,
} from '@venue/domain';
import { api, ApiError } from '../../platform/api/apiClient';
import { ListTable } from '../../shared/CardList';
import { openPdf } from '../../shared/download';
import { errorText } from '../../shared/errors';
import { useToast } from '../../shared/toast/ToastProvider';
import { useSessionData } from '../../platform/auth/AuthProvider';
import { moneyText, useMoneyFormat } from './format';

/**
 * The refund dialog (docs/money.md "Refunds"): what of the purchase is still
 * refundable, a choice of everything left, chosen lines (each whole or an
 * amount of it) or an amount, and — before the click — the refund's amount,
 * its VAT and where the money goes, planned by the same rule the server runs
 * (packages/domain planRefund). The purchase's earlier refunds are listed with
 * their credit documents, which open (re-print) as PDF.
 */

type Mode = 'full' | 'lines' | 'amount';

/** Opens a credit document by its id (every opening after the first prints a copy). */
export function openCreditDocument(r: Pick<PurchaseRefund, 'documentId' | 'documentNumber'>): Promise<void> {
  return openPdf(`/Document/Pdf/${r.documentId}`, `credit-${r.documentNumber}.pdf`);
}

/** The refund's choice from the dialog's state; agorot. */
function choiceOf(mode: Mode, picked: Record<number, number | null>, amount: number | null): RefundChoice {
  if (mode === 'full') return {};
  if (mode === 'amount') return { amount: amount ?? 0 };
  return {
    lines: Object.entries(picked)
      .filter(([, a]) => a != null)
      .map(([key, a]) => ({ key: Number(key), amount: a ?? undefined })),
  };
}

const shekels = (agorot: number | null | undefined) => (agorot == null ? null : fromMinor(agorot));
const toAgorot = (v: number | null) => (v == null ? null : toMinor(v));

/** A refusal of the rule, or of the server (REFUND_NOT_POSSIBLE details), as a translated sentence. */
function useRefusalText() {
  const { t } = useTranslation();
  const fmt = useMoneyFormat();
  return (reason: string, refundable?: number) => (
    <>
      {t(`money.refundRefusal.${reason}`, { defaultValue: t('errors.REFUND_NOT_POSSIBLE') })}
      {refundable != null && reason === 'overRefund' && <> {fmt.money(refundable)}</>}
    </>
  );
}

/** The dialog; `canEdit` allows refunding, otherwise it lists the refunds and their documents only. */
export function RefundDialog({
  purchase,
  canEdit,
  onClose,
}: {
  purchase: Purchase;
  canEdit: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const refusalText = useRefusalText();
  const { club } = useSessionData();
  const [mode, setMode] = useState<Mode>('full');
  const [picked, setPicked] = useState<Record<number, number | null>>({});
  const [amount, setAmount] = useState<number | null>(null);
  const [reason, setReason] = useState('');
  const state = useQuery({
    queryKey: ['refundable', purchase.id],
    queryFn: () => api.call(contract.documents.refundable, { params: { id: purchase.id } }),
  });
  const s: RefundableState | undefined = state.data;
  const plan = useMemo(
    () => (s && s.canRefund ? planRefund(s.lines, s.payments, choiceOf(mode, picked, amount)) : null),
    [s, mode, picked, amount],
  );
  const refund = useRefundMutation(purchase.id, () => {
    setPicked({});
    setAmount(null);
    setReason('');
  });
  const ok = plan && !('refusal' in plan) ? plan : null;

  return (
    <Modal
      open
      width={760}
      title={t('money.refundTitle', { number: purchase.invoiceNumber ?? purchase.id })}
      onCancel={onClose}
      footer={
        <Space wrap>
          <Button onClick={onClose}>{t('common.close')}</Button>
          {canEdit && s?.canRefund && (
            <Button
              type="primary"
              danger
              disabled={!ok}
              loading={refund.isPending}
              onClick={() => refund.mutate({ reason, ...choiceOf(mode, picked, amount) })}
              data-testid="refund-submit"
            >
              {t('money.refundDo', { amount: ok ? moneyText(ok.total, club.currencySymbol) : '—' })}
            </Button>
          )}
        </Space>
      }
      data-testid="refund-dialog"
    >
      {state.error ? <Alert type="error" showIcon message={errorText(t, state.error)} /> : null}
      {s && (
        <Space direction="vertical" size="middle" style={{ width: '100%' }}>
          <RefundSummary state={s} />
          {!s.canRefund && (
            <Alert type="info" showIcon message={t(`money.refundBlocked.${s.blockedReason ?? 'refunded'}`)} />
          )}
          {canEdit && s.canRefund && (
            <>
              <Radio.Group
                value={mode}
                onChange={(e) => setMode(e.target.value as Mode)}
                optionType="button"
                data-testid="refund-mode"
                options={[
                  { value: 'full', label: t('money.refundModeFull') },
                  { value: 'lines', label: t('money.refundModeLines') },
                  { value: 'amount', label: t('money.refundModeAmount') },
                ]}
              />
              {mode === 'lines' && <RefundLinesTable state={s} picked={picked} setPicked={setPicked} />}
              {mode === 'amount' && (
                <Space wrap>
                  <Typography.Text>{t('money.refundAmountLabel')}</Typography.Text>
                  <InputNumber
                    min={0.01}
                    precision={2}
                    value={shekels(amount)}
                    onChange={(v) => setAmount(toAgorot(v))}
                    addonBefore={club.currencySymbol}
                    data-testid="refund-amount"
                  />
                </Space>
              )}
              <Input
                placeholder={t('money.refundReason')}
                value={reason}
                maxLength={200}
                onChange={(e) => setReason(e.target.value)}
                data-testid="refund-reason"
              />
              {plan && 'refusal' in plan && (mode !== 'lines' || Object.keys(picked).length > 0) && (
                <Alert type="warning" showIcon message={refusalText(plan.refusal.reason, plan.refusal.refundable)} />
              )}
              {ok && <RefundPreview plan={ok} vatRateBp={s.vatRateBp} />}
              {refund.error ? <RefundError error={refund.error} /> : null}
            </>
          )}
          {s.refunds.length > 0 && <RefundsDone state={s} />}
        </Space>
      )}
    </Modal>
  );
}

type Picked = Record<number, number | null>;

/** The server's refusal (REFUND_NOT_POSSIBLE details.reason translated) or another error. */
function RefundError({ error }: { error: unknown }) {
  const { t } = useTranslation();
  const refusalText = useRefusalText();
  const raw =
    error instanceof ApiError && error.code === 'REFUND_NOT_POSSIBLE'
      ? (error.raw as { reason?: string; refundable?: number } | undefined)
      : undefined;
  return (
    <Alert
      type="error"
      showIcon
      message={raw?.reason ? refusalText(raw.reason, raw.refundable) : errorText(t, error)}
    />
  );
}

/**
 * The refund call: a fresh idempotency key per refund (a repeated click or a retry of the same
 * refund answers the first one); on success the purchases and the refundable state are read again.
 */
function useRefundMutation(purchaseId: number, onDone: () => void) {
  const { t } = useTranslation();
  const toast = useToast();
  const qc = useQueryClient();
  const [key, setKey] = useState(() => `refund-${purchaseId}-${crypto.randomUUID()}`);
  return useMutation({
    mutationFn: (body: RefundChoice & { reason: string }) =>
      api.call(contract.documents.refund, { params: { id: purchaseId }, body: { ...body, idempotencyKey: key } }),
    onSuccess: async () => {
      toast.success(t('money.refunded'));
      setKey(`refund-${purchaseId}-${crypto.randomUUID()}`);
      onDone();
      await Promise.all([
        qc.invalidateQueries({ queryKey: ['client-money'] }),
        qc.invalidateQueries({ queryKey: ['refundable', purchaseId] }),
      ]);
    },
  });
}

/** The purchase's total, what was refunded and what is still refundable. */
function RefundSummary({ state: s }: { state: RefundableState }) {
  const { t } = useTranslation();
  const fmt = useMoneyFormat();
  return (
    <Descriptions
      size="small"
      column={{ xs: 1, sm: 3 }}
      items={[
        { key: 'total', label: t('money.refundPurchaseTotal'), children: fmt.money(s.total) },
        { key: 'done', label: t('money.refundedSoFar'), children: fmt.money(s.refunded) },
        {
          key: 'left',
          label: t('money.stillRefundable'),
          children: <span data-testid="still-refundable">{fmt.money(s.refundable)}</span>,
        },
      ]}
    />
  );
}

/** A refundable line's name as the document prints it: the card fee, or the item type and name. */
const lineName = (t: TFunction, l: RefundableState['lines'][number]) =>
  l.itemType == null ? t('money.fee') : `${t(`money.itemType.${l.itemType}`)} ${l.name}`.trim();

/** The purchase's lines to choose from: each with what is left and the amount to refund of it. */
function RefundLinesTable({
  state: s,
  picked,
  setPicked,
}: {
  state: RefundableState;
  picked: Picked;
  setPicked: (f: (p: Picked) => Picked) => void;
}) {
  const { t } = useTranslation();
  const fmt = useMoneyFormat();
  return (
    <ListTable<RefundableState['lines'][number]>
      size="small"
      rowKey="key"
      pagination={false}
      scroll={{ x: 'max-content' }}
      dataSource={s.lines}
      data-testid="refund-lines"
      columns={[
        {
          key: 'pick',
          // On a phone (a card per line) the choice sits at the card's foot, under what it refunds.
          card: 'actions',
          render: (_, l) => (
            <Checkbox
              disabled={lineLeft(l) <= 0}
              checked={picked[l.key] !== undefined}
              onChange={(e) =>
                setPicked((p) => {
                  const next = { ...p };
                  if (e.target.checked) next[l.key] = lineLeft(l);
                  else delete next[l.key];
                  return next;
                })
              }
              aria-label={`${t('money.refundThis')}: ${lineName(t, l)}`}
              data-testid={`refund-line-${l.key}`}
            />
          ),
        },
        {
          key: 'name',
          card: 'key',
          title: t('money.refundLine'),
          render: (_, l) => lineName(t, l),
        },
        { key: 'total', card: 'key', title: t('money.total'), align: 'end', render: (_, l) => fmt.money(l.total) },
        {
          key: 'left',
          card: 'key',
          title: t('money.refundLeft'),
          align: 'end',
          render: (_, l) => fmt.money(lineLeft(l)),
        },
        {
          key: 'amount',
          card: 'key',
          title: t('money.refundThis'),
          render: (_, l) => (
            <InputNumber
              min={0.01}
              step={1}
              precision={2}
              disabled={picked[l.key] === undefined}
              value={shekels(picked[l.key])}
              onChange={(v) => setPicked((p) => ({ ...p, [l.key]: toAgorot(v) }))}
              data-testid={`refund-line-amount-${l.key}`}
            />
          ),
        },
      ]}
    />
  );
}

/** The planned refund before the click: before VAT, VAT, total and the money back per payment. */
function RefundPreview({ plan: ok, vatRateBp }: { plan: PlannedRefund; vatRateBp: number }) {
  const { t } = useTranslation();
  const fmt = useMoneyFormat();
  return (
    <Descriptions
      size="small"
      bordered
      column={1}
      title={t('money.refundPreview')}
      data-testid="refund-preview"
      items={[
        { key: 'net', label: t('money.beforeVat'), children: fmt.money(ok.beforeVat) },
        { key: 'vat', label: t('money.vat', { rate: vatRateBp / 100 }), children: fmt.money(ok.vat) },
        { key: 'total', label: t('money.total'), children: fmt.money(ok.total) },
        {
          key: 'back',
          label: t('money.refundMoneyBack'),
          children: (
            <Space direction="vertical" size={0}>
              {ok.payments.map((x) => (
                <span key={x.id}>
                  {t(`money.method_${x.method}`)} {x.lastFour && <span className="ltr-value">····{x.lastFour}</span>}{' '}
                  {fmt.money(x.amount)}
                </span>
              ))}
            </Space>
          ),
        },
      ]}
    />
  );
}

/** The purchase's refunds so far, each with its credit document (re-printable). */
function RefundsDone({ state: s }: { state: RefundableState }) {
  const { t } = useTranslation();
  const fmt = useMoneyFormat();
  const toast = useToast();
  return (
    <>
      <Typography.Title level={5}>{t('money.refundsDone')}</Typography.Title>
      <ListTable<RefundableState['refunds'][number]>
        size="small"
        rowKey="id"
        pagination={false}
        scroll={{ x: 'max-content' }}
        dataSource={s.refunds}
        data-testid="refunds-done"
        columns={[
          {
            key: 'at',
            title: t('money.at'),
            render: (_, r) => <span className="ltr-value nowrap">{fmt.dateTime(r.at)}</span>,
          },
          { key: 'total', title: t('money.total'), align: 'end', render: (_, r) => fmt.money(r.total) },
          {
            key: 'vat',
            title: t('money.vat', { rate: s.vatRateBp / 100 }),
            align: 'end',
            render: (_, r) => fmt.money(r.vat),
          },
          { key: 'reason', title: t('money.refundReasonShort'), render: (_, r) => r.reason },
          {
            key: 'doc',
            card: 'actions',
            title: t('money.creditDocument'),
            render: (_, r) =>
              r.documentId != null && (
                <Button
                  size="small"
                  icon={<FilePdfOutlined />}
                  onClick={() => void openCreditDocument(r).catch((e) => toast.error(errorText(t, e)))}
                  data-testid={`credit-document-${r.documentNumber}`}
                >
                  {t('money.creditDocumentNumber', { number: r.documentNumber })}
                </Button>
              ),
          },
        ]}
      />
    </>
  );
}
