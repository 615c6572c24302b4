import { z } from 'zod';
import {
  DocumentEmailResponse,
  InvoiceMailSettings,
  InvoiceMailSettingsView,
  PurchaseDocument,
  RefundableState,
  RefundRequest,
  RefundResponse,
} from '../schemas/documents.js';
import { IdParams, routes } from './route.js';

const viewClients = { permission: 'roleViewClientsList' } as const;
const clientMoney = { permission: 'roleManageClientMoney' } as const;

/**
 * Receipts and tax invoices (issue 18; docs/money.md "Documents"): the
 * documents of a purchase, their PDF (the first print is the original, every
 * later one a copy), the refund that issues a credit document, sending a
 * document to the club's invoice e-mail and the SMTP settings for it.
 */
export const documents = routes(['documents'], {
  ofPurchase: {
    method: 'GET',
    path: '/api/Purchase/Documents/:id',
    personalData: { kind: 'documents', of: 'purchase' },
    params: IdParams,
    response: z.array(PurchaseDocument),
    access: viewClients,
  },
  /** The purchase's own document as PDF (issued on first request); 409 DOCUMENT_NOT_ISSUED while MASAV is not collected, DOCUMENT_NOT_REQUIRED when nothing was paid. */
  purchasePdf: {
    method: 'GET',
    path: '/api/Purchase/DocumentPdf/:id',
    personalData: { kind: 'documents', of: 'purchase' },
    params: IdParams,
    access: viewClients,
  },
  /** Any document of the club by its id, as PDF; every request is a print. */
  pdf: {
    method: 'GET',
    path: '/api/Document/Pdf/:id',
    params: IdParams,
    access: viewClients,
    personalData: { kind: 'documents', of: 'document' },
  },
  /** What of the purchase can still be refunded, and its refunds so far (docs/money.md "Refunds"). */
  refundable: {
    method: 'GET',
    path: '/api/Purchase/Refundable/:id',
    params: IdParams,
    response: RefundableState,
    access: viewClients,
  },
  refund: {
    method: 'POST',
    path: '/api/Purchase/Refund/:id',
    params: IdParams,
    body: RefundRequest,
    response: RefundResponse,
    access: clientMoney,
  },
  /**
   * The purchase's own document to the club's invoice e-mail (the `email` path), issued first when
   * it has not been yet (the front desk's receipt, docs/front-desk.md): the same errors as `email`,
   * plus DOCUMENT_NOT_ISSUED and DOCUMENT_NOT_REQUIRED as `purchasePdf`.
   */
  emailPurchase: {
    method: 'POST',
    path: '/api/Purchase/EmailDocument/:id',
    params: IdParams,
    response: DocumentEmailResponse,
    access: clientMoney,
  },
  email: {
    method: 'POST',
    path: '/api/Document/Email/:id',
    params: IdParams,
    response: DocumentEmailResponse,
    access: clientMoney,
  },
  mailSettings: {
    method: 'GET',
    path: '/api/Club/InvoiceMailSettings',
    response: InvoiceMailSettingsView,
    access: { permission: 'roleViewGeneralSettings' },
  },
  saveMailSettings: {
    method: 'PUT',
    path: '/api/Club/InvoiceMailSettings',
    body: InvoiceMailSettings,
    response: InvoiceMailSettingsView,
    access: { permission: 'roleEditGeneralSettings' },
  },
  /** Sends a test e-mail to the invoice e-mail with the stored settings (MAIL_NOT_CONFIGURED, MAIL_SEND_FAILED {reason}). */
  testMail: {
    method: 'POST',
    path: '/api/Club/InvoiceMailSettings/Test',
    response: DocumentEmailResponse,
    access: { permission: 'roleEditGeneralSettings' },
  },
});
