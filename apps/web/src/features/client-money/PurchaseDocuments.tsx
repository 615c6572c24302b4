import { useState } from 'react';
import { Button, Space, Tag } from 'antd';
import { FilePdfOutlined, RollbackOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { PurchasePaymentStatus, type Purchase } from '@venue/domain';
import { openPdf } from '../../shared/download';
import { errorText } from '../../shared/errors';
import { useToast } from '../../shared/toast/ToastProvider';
import { useMoneyFormat } from './format';
import { RefundDialog } from './RefundDialog';

/**
 * A purchase's documents (docs/money.md "Documents", "Refunds"): open its tax
 * invoice-receipt or receipt as PDF (every opening after the first prints a
 * copy); the refund dialog — full or partial refunds, what is still
 * refundable, and the credit document of each refund, re-printable.
 */

/** Opens the purchase's own document (issued on first request) in a new tab. */
export function openPurchaseDocument(purchaseId: number): Promise<void> {
  return openPdf(`/Purchase/DocumentPdf/${purchaseId}`, `invoice-${purchaseId}.pdf`);
}

/**
 * A purchase's invoice number, or why it has none: a MASAV payment awaiting collection, or nothing
 * paid (Free, ₪0: no tax document; docs/money.md "Nothing paid").
 */
export function InvoiceNumberCell({ purchase }: { purchase: Pick<Purchase, 'invoiceNumber' | 'paymentStatus'> }) {
  const { t } = useTranslation();
  if (purchase.invoiceNumber != null) return <>{purchase.invoiceNumber}</>;
  const pending = purchase.paymentStatus === PurchasePaymentStatus.Pending;
  return <Tag>{t(pending ? 'money.awaitingCollection' : 'money.noDocument')}</Tag>;
}

/** The document buttons of one purchase row; `canEdit` allows refunds. */
export function PurchaseDocumentActions({ purchase, canEdit }: { purchase: Purchase; canEdit: boolean }) {
  const { t } = useTranslation();
  const toast = useToast();
  const fmt = useMoneyFormat();
  const [open, setOpen] = useState(false);
  const fail = (err: unknown) => toast.error(errorText(t, err));
  const refunded = purchase.paymentStatus === PurchasePaymentStatus.Refunded;
  const partly = !refunded && purchase.refunded > 0;
  const issued = purchase.invoiceNumber != null;
  // No number and not awaiting MASAV: nothing was paid (Free), so there is no tax document (docs/money.md "Nothing paid").
  const nothingPaid = !issued && purchase.paymentStatus !== PurchasePaymentStatus.Pending;
  return (
    <Space size="small" wrap>
      <Button
        size="small"
        icon={<FilePdfOutlined />}
        disabled={!issued}
        title={issued ? undefined : t(nothingPaid ? 'money.documentNothingPaid' : 'money.documentAfterCollection')}
        onClick={() => void openPurchaseDocument(purchase.id).catch(fail)}
        data-testid={`document-${purchase.id}`}
      >
        {t('money.document')}
      </Button>
      {partly && (
        <Tag color="orange" data-testid={`partly-refunded-${purchase.id}`}>
          {t('money.partlyRefunded')} {fmt.money(purchase.refunded)}
        </Tag>
      )}
      {(refunded || partly) && !(canEdit && !refunded && issued) && (
        <Button
          size="small"
          icon={<FilePdfOutlined />}
          onClick={() => setOpen(true)}
          data-testid={`credit-documents-${purchase.id}`}
        >
          {t('money.creditDocuments')}
        </Button>
      )}
      {canEdit && !refunded && issued && (
        <Button
          size="small"
          danger
          icon={<RollbackOutlined />}
          onClick={() => setOpen(true)}
          data-testid={`refund-${purchase.id}`}
        >
          {t('money.refund')}
        </Button>
      )}
      {open && <RefundDialog purchase={purchase} canEdit={canEdit} onClose={() => setOpen(false)} />}
    </Space>
  );
}
