import { z } from 'zod';
import { id, isoDate, text } from '../parts.js';
import { isValidIsraeliId } from '../identity.js';
import { SUBSCRIPTION_PERIODS, USAGE_TYPES } from '../subscription.js';
import { amount, idempotencyKey, positiveAmount } from './helpers.js';

/**
 * Purchases and balances (seed 000 §3 "Purchase", item types, payment
 * methods; seed 001 §3): items, payments, the admin purchase, the purchase
 * as the API presents it, the ledger and money loads. Money in agorot.
 */

/** Payment status of a purchase. */
/**
 * A purchase's payment status. Pending: paid by MASAV, not collected yet (no document). Refunded:
 * all of it given back. Cancelled: a MASAV sale the bank did not collect, closed because its debt
 * was paid another way (the desk's document took the money) or written off — never income
 * (docs/money.md "MASAV: rejected, then paid another way"). Refunded and Cancelled purchases are
 * outside the income summaries.
 */
export const PurchasePaymentStatus = { Paid: 1, Pending: 2, Refunded: 3, Cancelled: 4 } as const;
/** Who paid (seed 001 §3 "payer (father or manager)"). */
export const PurchasePayer = { Client: 0, Parent: 1, Manager: 2 } as const;
/** Payment from the money balance (enums.ts; kept here for the modules that import it from this file). */
export { PAYMENT_METHOD_BEATS } from '../enums.js';

/** A card typed at the console or the kiosk: sent to the provider for a token, never stored. */
export const CardInput = z.strictObject({
  number: z
    .string()
    .trim()
    .regex(/^[\d ]{12,23}$/, { message: 'invalidCardNumber' }),
  /** MM/YY. */
  expiry: z
    .string()
    .trim()
    .regex(/^\d{2}\/\d{2}$/, { message: 'invalidExpirationDate' }),
  cvv: z
    .string()
    .trim()
    .regex(/^\d{3,4}$/, { message: 'invalidCvv' }),
  ownerId: z
    .string()
    .trim()
    .refine((v) => v === '' || isValidIsraeliId(v), { message: 'invalidPersonalId' })
    .default(''),
  ownerName: text(60).trim().default(''),
});
export type CardInput = z.infer<typeof CardInput>;

/** One item of a purchase (seed 000 §3 item types). */
export const PurchaseItemInput = z.strictObject({
  itemType: z.literal([1, 2, 3, 4, 5, 6, 10]),
  /** Product id (Product), debt id (PayDebt). */
  itemId: id.optional(),
  name: text(100).trim().default(''),
  quantity: z.number().int().min(1).max(1000).default(1),
  /** Price of one unit with VAT; for ChargingMoney the amount loaded; for PayDebt the amount paid. */
  unitPrice: amount,
  /** NewSubscription only. */
  subscription: z
    .strictObject({
      period: z.enum(SUBSCRIPTION_PERIODS),
      usageType: z.enum(USAGE_TYPES).default('subscription'),
      unlimited: z.boolean().default(false),
      /** Kala subscription: a number of immersions (clubs with isKalaSubscriptionEnabled). */
      kala: z.boolean().default(false),
      immersions: z.number().int().min(1).max(1000).optional(),
      /** First day; default: the day after the current subscription ends, or today. */
      start: isoDate.optional(),
      /** Last day, when set by automatic renewal (its quote); default: computed from the period and the group's end type. */
      end: isoDate.optional(),
      /**
       * The monthly price the next automatic renewal charges (minor units, with VAT), when it is not
       * this sale's unit price: automatic renewal sets it to the rate it prorated from, so a period
       * that cost less (or more) than a month never becomes the client's monthly price
       * (docs/money.md "Automatic renewal": the monthly price rule).
       */
      monthlyPrice: amount.optional(),
    })
    .optional(),
});
export type PurchaseItemInput = z.infer<typeof PurchaseItemInput>;

/** One payment of a purchase (seed 000 §3 payment methods, plus 7 = beats). */
export const PaymentInput = z.strictObject({
  method: z.literal([0, 1, 2, 3, 4, 5, 6, 7]),
  amount,
  /** CreditCard: the card, tokenized then charged. */
  card: CardInput.optional(),
  /** Cash: what was handed over; above the amount is change, or excess when `keepExcess`. */
  cashGiven: amount.optional(),
  keepExcess: z.boolean().default(false),
  /** CreditCardEmv: the terminal's card reader already charged; its reference and last four. */
  emvReference: text(60).trim().optional(),
  lastFour: z
    .string()
    .regex(/^\d{4}$/)
    .optional(),
});
export type PaymentInput = z.infer<typeof PaymentInput>;

/** POST /api/Client/AdminPurchase (seed 000 §3 "Purchase": payments, purchaseItems, IsAdminUser). */
export const AdminPurchaseRequest = z.strictObject({
  clientId: id,
  purchaseItems: z.array(PurchaseItemInput).min(1).max(50),
  payments: z.array(PaymentInput).min(1).max(10),
  IsAdminUser: z.boolean().default(true),
  payer: z.enum(['client', 'parent', 'manager']).default('client'),
  idempotencyKey,
});
export type AdminPurchaseRequest = z.infer<typeof AdminPurchaseRequest>;

export const PurchaseItem = z.object({
  id: z.number(),
  itemType: z.number(),
  itemId: z.number().nullable(),
  name: z.string(),
  quantity: z.number(),
  unitPrice: z.number(),
  priceWithVat: z.number(),
  amountBeforeVat: z.number(),
  expiry: z.string().nullable(),
  details: z.record(z.string(), z.unknown()).nullable(),
});
export const PurchasePayment = z.object({
  method: z.number(),
  amount: z.number(),
  lastFour: z.string(),
});

/** A purchase as the API presents it (seed 001 §3 "Purchase"). */
export const Purchase = z.object({
  id: z.number(),
  at: z.string(),
  clientId: z.number().nullable(),
  /** The gap-free invoice number; null while a MASAV payment is not collected yet (docs/money.md "Documents"). */
  invoiceNumber: z.number().nullable(),
  total: z.number(),
  amountBeforeVat: z.number(),
  vat: z.number(),
  vatRateBp: z.number(),
  paymentStatus: z.number(),
  /** What refunds gave back so far (agorot); equals `total` once the status is Refunded (docs/money.md "Refunds"). */
  refunded: z.number(),
  balanceBefore: z.number(),
  balanceAfter: z.number(),
  tempBalanceBefore: z.number(),
  tempBalanceAfter: z.number(),
  paidCash: z.number(),
  paidCredit: z.number(),
  paidBeats: z.number(),
  paidTemp: z.number(),
  paidOther: z.number(),
  fee: z.number(),
  lastFour: z.string(),
  excess: z.number(),
  change: z.number(),
  payer: z.number(),
  source: z.string(),
  items: z.array(PurchaseItem),
  payments: z.array(PurchasePayment),
  /** "You will not have enough licenses left" (seed 001 §8) when a license purchase leaves the pool low. */
  warnings: z.array(z.string()),
});
export type Purchase = z.infer<typeof Purchase>;

/** GET /api/Purchase/GetItems/{id}. */
export const PurchaseItems = z.array(PurchaseItem);

// ---------------------------------------------------------------- balances

export const LedgerRow = z.object({
  id: z.number(),
  at: z.string(),
  kind: z.string(),
  delta: z.number(),
  source: z.string(),
  sourceId: z.number().nullable(),
});
/** GET /api/getBalance/{id}. */
export const BalanceResponse = z.object({
  clientId: z.number(),
  balance: z.number(),
  tempBalance: z.number(),
  subscriptionBalance: z.number(),
  subscriptionStart: z.string().nullable(),
  subscriptionEnd: z.string().nullable(),
  ledger: z.array(LedgerRow),
  purchases: z.array(Purchase.omit({ items: true, payments: true, warnings: true })),
});
export type BalanceResponse = z.infer<typeof BalanceResponse>;

/**
 * POST /api/addCredit/{id} {amount, idempotencyKey}: a money load; cash
 * unless the stored card is chosen. The idempotency key is required, as on
 * every money-moving call (a retry without one would load twice).
 */
export const AddCreditRequest = z.strictObject({
  amount: positiveAmount,
  method: z.union([z.literal(0), z.literal(2)]).default(0),
  idempotencyKey,
});
export type AddCreditRequest = z.infer<typeof AddCreditRequest>;
