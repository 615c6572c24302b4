import { z } from 'zod';
import { text } from '../parts.js';
import { idempotencyKey } from './helpers.js';
import { Purchase } from './purchases.js';

/**
 * Documents a customer is given for a purchase (issue 18 "Receipts and tax
 * invoices"; docs/money.md "Documents"): for clubs in Israel a tax
 * invoice-receipt (חשבונית מס קבלה) and, for a refund, a tax credit invoice
 * (חשבונית מס זיכוי); for clubs in other countries a receipt and a refund
 * receipt, in English. The kinds carry the Israel Tax Authority's document
 * type codes of the unified file format (מבנה אחיד): 320 tax invoice-receipt,
 * 330 credit invoice, 400 receipt; 410 is ours for a refund receipt abroad.
 */
export const DocumentKind = { InvoiceReceipt: 320, CreditInvoice: 330, Receipt: 400, RefundReceipt: 410 } as const;
export type DocumentKind = (typeof DocumentKind)[keyof typeof DocumentKind];

/** A document as the API lists it: its kind, gap-free number, when it was issued and how often printed. */
export const PurchaseDocument = z.object({
  id: z.number(),
  purchaseId: z.number(),
  kind: z.number(),
  number: z.number(),
  issuedAt: z.string(),
  /** Times the PDF was produced: the first is the original, every later one a copy. */
  prints: z.number(),
  emailedAt: z.string().nullable(),
});
export type PurchaseDocument = z.infer<typeof PurchaseDocument>;

/** POST /api/Purchase/Refund/{id}: refunds the whole purchase and issues its credit document. */
export const RefundRequest = z.strictObject({
  reason: text(200).trim().default(''),
  idempotencyKey,
});
export type RefundRequest = z.infer<typeof RefundRequest>;

export const RefundResponse = z.object({ purchase: Purchase, document: PurchaseDocument });
export type RefundResponse = z.infer<typeof RefundResponse>;

/** The outgoing-mail (SMTP) settings of the club's invoice e-mail (club money settings). */
export const InvoiceMailSettings = z.strictObject({
  /** Send every newly issued document to the club's invoice e-mail. */
  autoSend: z.boolean().default(false),
  host: z
    .string()
    .trim()
    .max(200)
    .regex(/^[A-Za-z0-9.-]*$/, { message: 'invalidHost' })
    .default(''),
  port: z
    .number({ message: 'invalidPort' })
    .int({ message: 'invalidPort' })
    .min(1, { message: 'invalidPort' })
    .max(65535, { message: 'invalidPort' })
    .default(587),
  /** TLS from the start (port 465); otherwise STARTTLS when the server offers it. */
  secure: z.boolean().default(false),
  user: text(200).trim().default(''),
  /** Write-only: empty keeps the stored password. */
  password: text(200).default(''),
  from: z.union([z.literal(''), z.email({ message: 'invalidEmail' })]).default(''),
  /**
   * The club's invoice e-mail (club settings `invoiceEmail`, seed 001 §3), where documents and the
   * test e-mail go; absent keeps it, '' clears it.
   */
  invoiceEmail: z.union([z.literal(''), z.email({ message: 'invalidEmail' })]).optional(),
});
export type InvoiceMailSettings = z.infer<typeof InvoiceMailSettings>;

/** The SMTP settings as answered: never the password, only whether one is stored. */
export const InvoiceMailSettingsView = InvoiceMailSettings.omit({ password: true }).extend({
  passwordSet: z.boolean(),
  invoiceEmail: z.string(),
});
export type InvoiceMailSettingsView = z.infer<typeof InvoiceMailSettingsView>;

/** POST /api/Document/Email/{id}: where it went. */
export const DocumentEmailResponse = z.object({ to: z.string(), messageId: z.string() });
