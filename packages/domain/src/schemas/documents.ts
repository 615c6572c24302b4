import { z } from 'zod';
import { money, text } from '../parts.js';
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

/**
 * POST /api/Purchase/Refund/{id}: refunds chosen lines (each whole, or `amount` agorot of it), or an
 * `amount` spread over the lines, or (neither) everything still refundable, and issues the refund's
 * credit document (packages/domain refund.ts; docs/money.md "Refunds"). `lines[].key` is the
 * purchase item's id, 0 the card fee. A repeated `idempotencyKey` answers the first refund.
 */
export const RefundRequest = z.strictObject({
  reason: text(200).trim().default(''),
  idempotencyKey,
  lines: z
    .array(
      z.strictObject({ key: z.number().int().min(0), amount: money.positive({ message: 'invalidAmount' }).optional() }),
    )
    .max(100)
    .optional(),
  amount: money.positive({ message: 'invalidAmount' }).optional(),
});
export type RefundRequest = z.infer<typeof RefundRequest>;

/** One refund of a purchase: what it took (agorot, with its VAT), where the money went, its credit document. */
export const PurchaseRefund = z.object({
  id: z.number(),
  at: z.string(),
  reason: z.string(),
  total: z.number(),
  beforeVat: z.number(),
  vat: z.number(),
  lines: z.array(
    z.object({
      key: z.number(),
      itemType: z.number().nullable(),
      quantity: z.number(),
      amount: z.number(),
      vat: z.number(),
    }),
  ),
  payments: z.array(z.object({ method: z.number(), amount: z.number(), lastFour: z.string() })),
  documentId: z.number().nullable(),
  documentNumber: z.number().nullable(),
  documentKind: z.number().nullable(),
});
export type PurchaseRefund = z.infer<typeof PurchaseRefund>;

export const RefundResponse = z.object({ purchase: Purchase, document: PurchaseDocument, refund: PurchaseRefund });
export type RefundResponse = z.infer<typeof RefundResponse>;

/**
 * GET /api/Purchase/Refundable/{id}: what of a purchase can still be refunded — its lines (key = item
 * id, 0 the card fee) with their VAT and what earlier refunds took, its payments with what they got
 * back, the amount left, and the refunds so far. The console plans with packages/domain planRefund.
 */
export const RefundableState = z.object({
  purchaseId: z.number(),
  /** False for a MASAV purchase not collected yet, a license purchase or one where nothing was paid (details in `blockedReason`). */
  canRefund: z.boolean(),
  blockedReason: z.string().nullable(),
  vatRateBp: z.number(),
  total: z.number(),
  refunded: z.number(),
  refundable: z.number(),
  lines: z.array(
    z.object({
      key: z.number(),
      itemType: z.number().nullable(),
      /** The item's own name (a product's), '' when it has none; the fee line ''. */
      name: z.string(),
      quantity: z.number(),
      total: z.number(),
      vat: z.number(),
      refundedTotal: z.number(),
      refundedVat: z.number(),
      refundedQuantity: z.number(),
    }),
  ),
  payments: z.array(
    z.object({ id: z.number(), method: z.number(), amount: z.number(), lastFour: z.string(), refunded: z.number() }),
  ),
  refunds: z.array(PurchaseRefund),
});
export type RefundableState = z.infer<typeof RefundableState>;

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
