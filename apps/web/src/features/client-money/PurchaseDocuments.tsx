import { useState } from 'react';
import { Button, Input, Popconfirm, Space } from 'antd';
import { FilePdfOutlined, RollbackOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { contract, DocumentKind, PurchasePaymentStatus, type Purchase } from '@venue/domain';
import { api } from '../../app/api/apiClient';
import { openPdf } from '../../shared/download';
import { errorText } from '../../shared/errors';
import { useToast } from '../../shared/toast/ToastProvider';

/**
 * A purchase's documents (docs/money.md "Documents"): open its tax
 * invoice-receipt or receipt as PDF (every opening after the first prints a
 * copy), refund it (with a reason) and open the credit document.
 */

/** Opens the purchase's own document (issued on first request) in a new tab. */
export function openPurchaseDocument(purchaseId: number): Promise<void> {
  return openPdf(`/Purchase/DocumentPdf/${purchaseId}`, `invoice-${purchaseId}.pdf`);
}

/** Opens the credit document of a refunded purchase. */
async function openCreditDocument(purchaseId: number): Promise<void> {
  const docs = await api.call(contract.documents.ofPurchase, { params: { id: purchaseId } });
  const credit = docs.find((d) => d.kind === DocumentKind.CreditInvoice || d.kind === DocumentKind.RefundReceipt);
  if (credit) await openPdf(`/Document/Pdf/${credit.id}`, `credit-${credit.number}.pdf`);
}

/** The document buttons of one purchase row; `canEdit` allows the refund. */
export function PurchaseDocumentActions({ purchase, canEdit }: { purchase: Purchase; canEdit: boolean }) {
  const { t } = useTranslation();
  const toast = useToast();
  const qc = useQueryClient();
  const [reason, setReason] = useState('');
  const fail = (err: unknown) => toast.error(errorText(t, err));
  const refund = useMutation({
    mutationFn: () =>
      api.call(contract.documents.refund, {
        params: { id: purchase.id },
        body: { reason, idempotencyKey: `refund-${purchase.id}-${crypto.randomUUID()}` },
      }),
    onSuccess: async () => {
      toast.success(t('money.refunded'));
      await qc.invalidateQueries({ queryKey: ['client-money'] });
    },
    onError: fail,
  });
  const refunded = purchase.paymentStatus === PurchasePaymentStatus.Refunded;
  const issued = purchase.invoiceNumber != null;
  return (
    <Space size="small" wrap>
      <Button
        size="small"
        icon={<FilePdfOutlined />}
        disabled={!issued}
        title={issued ? undefined : t('money.documentAfterCollection')}
        onClick={() => void openPurchaseDocument(purchase.id).catch(fail)}
        data-testid={`document-${purchase.id}`}
      >
        {t('money.document')}
      </Button>
      {refunded && (
        <Button
          size="small"
          icon={<FilePdfOutlined />}
          onClick={() => void openCreditDocument(purchase.id).catch(fail)}
          data-testid={`credit-document-${purchase.id}`}
        >
          {t('money.creditDocument')}
        </Button>
      )}
      {canEdit && !refunded && issued && (
        <Popconfirm
          title={t('money.refundConfirm')}
          description={
            <Input
              placeholder={t('money.refundReason')}
              value={reason}
              maxLength={200}
              onChange={(e) => setReason(e.target.value)}
              data-testid="refund-reason"
            />
          }
          okText={t('money.refund')}
          cancelText={t('common.cancel')}
          onConfirm={() => refund.mutateAsync().catch(() => undefined)}
          okButtonProps={{ 'data-testid': 'refund-confirm' } as Record<string, string>}
        >
          <Button
            size="small"
            danger
            icon={<RollbackOutlined />}
            loading={refund.isPending}
            data-testid={`refund-${purchase.id}`}
          >
            {t('money.refund')}
          </Button>
        </Popconfirm>
      )}
    </Space>
  );
}
