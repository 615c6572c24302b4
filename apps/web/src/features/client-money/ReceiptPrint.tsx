import { useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { Button, Space } from 'antd';
import { FilePdfOutlined, MailOutlined, PrinterOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Purchase } from '@venue/domain';
import { useSessionData } from '../../platform/auth/AuthProvider';
import { printReceipt, type ReceiptFormat } from '../../shared/print';
import { errorText } from '../../shared/errors';
import { useFormat } from '../../shared/useFormat';
import { useToast } from '../../shared/toast/ToastProvider';
import { openPurchaseDocument } from './PurchaseDocuments';
import { useEmailReceipt } from './useMoney';
import './receipt.css';

/** Who bought, as the slip names them. */
export interface ReceiptCustomer {
  name: string;
  number: number;
}

/**
 * The printed slip of a purchase (docs/front-desk.md "Receipt"): the club and its dealer number,
 * the invoice-receipt's number, date and time, the customer, each line, before VAT, VAT, total,
 * the payments (last four only), change, validity and a note (the admission at the desk). It
 * says it is not the tax document: that is the PDF the server numbers and counts (docs/money.md
 * "Documents"). Rendered under `body`, hidden on screen; `printReceipt` shows it alone on paper.
 */
function ReceiptSheet({
  receipt,
  customer,
  note,
  sheetRef,
}: {
  receipt: Purchase;
  customer?: ReceiptCustomer;
  note?: ReactNode;
  sheetRef: React.Ref<HTMLDivElement>;
}) {
  const { t } = useTranslation();
  const { club } = useSessionData();
  const fmt = useFormat();
  const address = [club.addressStreet, club.addressHouseNumber, club.addressCity].filter(Boolean).join(' ');
  const expiry = receipt.items.find((i) => i.expiry)?.expiry;
  const row = (label: ReactNode, value: ReactNode, className = 'receipt-row') => (
    <div className={className}>
      <span>{label}</span>
      <span className="receipt-amount">{value}</span>
    </div>
  );
  return (
    <div className="receipt-sheet" ref={sheetRef} data-testid="receipt-sheet" aria-hidden="true">
      <div className="receipt-head">
        <div className="receipt-club" dir="auto">
          {club.name}
        </div>
        {club.companyNumber && <div>{t('money.slip.dealer', { number: club.companyNumber })}</div>}
        {address && <div dir="auto">{address}</div>}
      </div>
      <div className="receipt-title">{t('money.slip.title')}</div>
      {receipt.invoiceNumber != null && (
        <div className="receipt-center" data-testid="receipt-sheet-invoice">
          {t('money.slip.invoice', { number: receipt.invoiceNumber })}
        </div>
      )}
      <div className="receipt-center">{fmt.dateTime(receipt.at)}</div>
      {customer && (
        <div className="receipt-center" dir="auto" data-testid="receipt-sheet-customer">
          {customer.name} · {t('money.slip.member', { number: customer.number })}
        </div>
      )}
      <hr />
      {receipt.items.map((i) => (
        <div key={i.id}>
          {row(
            <span dir="auto">
              {t(`money.itemType.${i.itemType}`)}
              {i.name ? ` ${i.name}` : ''}
              {i.quantity > 1 ? ` × ${i.quantity}` : ''}
            </span>,
            fmt.money(i.priceWithVat),
          )}
        </div>
      ))}
      <hr />
      {row(t('money.beforeVat'), fmt.money(receipt.amountBeforeVat))}
      {row(t('money.vat', { rate: receipt.vatRateBp / 100 }), fmt.money(receipt.vat))}
      {row(
        t('money.total'),
        <span data-testid="receipt-sheet-total">{fmt.money(receipt.total)}</span>,
        'receipt-row receipt-total',
      )}
      {receipt.payments.map((p, k) => (
        <div key={k}>
          {row(
            <span>
              {t(`money.method_${p.method}`)}
              {p.lastFour ? ` ···· ${p.lastFour}` : ''}
            </span>,
            fmt.money(p.amount),
          )}
        </div>
      ))}
      {receipt.change > 0 && row(t('money.change'), fmt.money(receipt.change))}
      {expiry && row(t('money.validUntil'), fmt.date(expiry))}
      {note && <div className="receipt-note">{note}</div>}
      <hr />
      <div className="receipt-center receipt-small">{t('money.slip.notTaxDocument')}</div>
    </div>
  );
}

/**
 * The receipt's buttons: print on an 80 mm thermal roll or on A4 (the browser's print dialog with
 * the slip alone), open the tax document (PDF: the original on its first print), and send the
 * document to the club's invoice e-mail (POST /api/Purchase/EmailDocument/{id}). A purchase
 * without a document (Free, MASAV not collected) prints its slip only.
 */
export function ReceiptActions({
  receipt,
  customer,
  note,
}: {
  receipt: Purchase;
  customer?: ReceiptCustomer;
  note?: ReactNode;
}) {
  const { t } = useTranslation();
  const toast = useToast();
  const email = useEmailReceipt();
  const sheet = useRef<HTMLDivElement>(null);
  const print = (format: ReceiptFormat) => {
    if (sheet.current) printReceipt(format, sheet.current);
  };
  const hasDocument = receipt.invoiceNumber != null;
  return (
    <>
      <Space wrap className="receipt-actions">
        <Button icon={<PrinterOutlined />} onClick={() => print('thermal80')} data-testid="receipt-print-80">
          {t('money.slip.print80')}
        </Button>
        <Button icon={<PrinterOutlined />} onClick={() => print('a4')} data-testid="receipt-print-a4">
          {t('money.slip.printA4')}
        </Button>
        {hasDocument && (
          <Button
            icon={<FilePdfOutlined />}
            onClick={() => void openPurchaseDocument(receipt.id).catch((e: unknown) => toast.error(errorText(t, e)))}
            data-testid="receipt-document"
          >
            {t('money.document')}
          </Button>
        )}
        {hasDocument && (
          <Button
            icon={<MailOutlined />}
            loading={email.isPending}
            data-testid="receipt-email"
            onClick={() =>
              email.mutate(receipt.id, {
                onSuccess: (r) => toast.success(t('money.slip.emailed', { to: r.to })),
                onError: (e) => toast.error(errorText(t, e)),
              })
            }
          >
            {t('money.slip.email')}
          </Button>
        )}
      </Space>
      {createPortal(<ReceiptSheet receipt={receipt} customer={customer} note={note} sheetRef={sheet} />, document.body)}
    </>
  );
}
