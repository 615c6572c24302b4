import { z } from 'zod';
import { id, isoDate, text } from './parts.js';
import { BANK_CODE_WIDTH, normalizeBankCode } from './banks.js';
import { isValidIsraeliId } from './identity.js';
import { AutoRenewMethod, SUBSCRIPTION_PERIODS, USAGE_TYPES } from './subscription.js';

/**
 * The API contract of the money side (seed 000 §3, §7; seed 001 §3, §5):
 * purchases, balances, payment methods, debts, subscriptions, automatic
 * renewal, licenses, MASAV files and the accounting export. Money is integer
 * minor units (agorot). Validation messages are i18n keys under `validation.`.
 */

const amount = z.number().int({ message: 'invalidAmount' }).min(0).max(100_000_000);
const positiveAmount = z
  .number()
  .int({ message: 'invalidAmount' })
  .min(1, { message: 'invalidAmount' })
  .max(100_000_000);
/** Any caller-chosen key: a retry with the same key does the purchase or the charge once. */
const idempotencyKey = z
  .string()
  .trim()
  .min(4)
  .max(100)
  .regex(/^[\w.:-]+$/);

/** Payment status of a purchase. */
export const PurchasePaymentStatus = { Paid: 1, Pending: 2, Refunded: 3 } as const;
/** Who paid (seed 001 §3 "payer (father or manager)"). */
export const PurchasePayer = { Client: 0, Parent: 1, Manager: 2 } as const;
/**
 * Payment from the money balance ("paid by beats", seed 001 §3). The seed's
 * payment-method enumeration has no value for it; 7 is ours, the next free value.
 */
export const PAYMENT_METHOD_BEATS = 7;

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
  invoiceNumber: z.number(),
  total: z.number(),
  amountBeforeVat: z.number(),
  vat: z.number(),
  vatRateBp: z.number(),
  paymentStatus: z.number(),
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

// ---------------------------------------------------------------- payment methods

const expiryMonth = z
  .string()
  .trim()
  .regex(/^\d{2}\/\d{2}$/, { message: 'invalidExpirationDate' });

/** POST /api/CreditCard: a card (tokenized by the provider) or a MASAV authorization (seed 001 §3). */
export const PaymentMethodInput = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('card'), clientId: id, card: CardInput }),
  z.strictObject({
    kind: z.literal('masav'),
    clientId: id,
    bank: z.object({}).passthrough().optional(),
    bankCode: z
      .string()
      .trim()
      .refine((v) => normalizeBankCode(v) != null, { message: 'invalidBank' }),
    branch: z
      .string()
      .trim()
      .regex(/^\d{1,3}$/, { message: 'invalidBranch' }),
    account: z
      .string()
      .trim()
      .regex(/^\d{2,9}$/, { message: 'invalidAccount' }),
    ownerId: z
      .string()
      .trim()
      .refine((v) => isValidIsraeliId(v), { message: 'invalidPersonalId' }),
    ownerName: text(60).trim().min(1, { message: 'required' }),
    authExpiry: isoDate.nullable().default(null),
    chargeLimit: amount.default(0),
  }),
]);
export type PaymentMethodInput = z.infer<typeof PaymentMethodInput>;

/** PATCH /api/CreditCard/{id}: a card's owner name or expiry (the number is replaced by a new card). */
export const CardPatch = z.strictObject({
  expiry: expiryMonth.optional(),
  ownerName: text(60).trim().optional(),
});
/** PATCH /api/CreditCard/UpdateBankPaymentDetails/{id}. */
export const BankDetailsPatch = z.strictObject({
  bankCode: z
    .string()
    .trim()
    .refine((v) => normalizeBankCode(v) != null, { message: 'invalidBank' })
    .optional(),
  branch: z
    .string()
    .trim()
    .regex(/^\d{1,3}$/, { message: 'invalidBranch' })
    .optional(),
  account: z
    .string()
    .trim()
    .regex(/^\d{2,9}$/, { message: 'invalidAccount' })
    .optional(),
  ownerId: z
    .string()
    .trim()
    .refine((v) => isValidIsraeliId(v), { message: 'invalidPersonalId' })
    .optional(),
  ownerName: text(60).trim().min(1).optional(),
  authExpiry: isoDate.nullable().optional(),
  chargeLimit: amount.optional(),
});

/** A payment method as the API presents it: masked, never a card or account number. */
export const PaymentMethodView = z.object({
  id: z.number(),
  clientId: z.number(),
  kind: z.enum(['card', 'masav']),
  lastFour: z.string().nullable(),
  brand: z.string().nullable(),
  expiry: z.string().nullable(),
  ownerName: z.string(),
  bankCode: z.string().nullable(),
  bankName: z.string().nullable(),
  /** e.g. "***" for the branch and "*****6789" for the account. */
  branchMasked: z.string().nullable(),
  accountMasked: z.string().nullable(),
  ownerIdMasked: z.string(),
  authExpiry: z.string().nullable(),
  chargeLimit: z.number(),
  createdAt: z.string(),
});
export type PaymentMethodView = z.infer<typeof PaymentMethodView>;

// ---------------------------------------------------------------- debts

export const DebtInput = z.strictObject({
  clientId: id,
  amount: positiveAmount,
  description: text(200).trim().default(''),
});
export const DebtPatch = z.strictObject({
  amount: positiveAmount.optional(),
  description: text(200).trim().optional(),
});
export const Debt = z.object({
  id: z.number(),
  clientId: z.number(),
  amount: z.number(),
  paid: z.number(),
  open: z.number(),
  description: z.string(),
  source: z.string(),
  createdAt: z.string(),
  deleted: z.boolean(),
  masavFileId: z.number().nullable(),
});
export type Debt = z.infer<typeof Debt>;

// ---------------------------------------------------------------- subscriptions and renewal

/** GET /api/GetSubscriptions/{id}: the current subscription and every subscription bought. */
export const SubscriptionsResponse = z.object({
  clientId: z.number(),
  current: z.object({
    start: z.string().nullable(),
    end: z.string().nullable(),
    unlimited: z.boolean(),
    active: z.boolean(),
    immersionsLeft: z.number(),
  }),
  endType: z.number(),
  daysToExtend: z.number(),
  history: z.array(
    z.object({
      purchaseId: z.number(),
      invoiceNumber: z.number(),
      at: z.string(),
      period: z.string().nullable(),
      usageType: z.string().nullable(),
      start: z.string().nullable(),
      end: z.string().nullable(),
      price: z.number(),
      kala: z.boolean(),
      immersions: z.number().nullable(),
      source: z.string(),
    }),
  ),
});
export type SubscriptionsResponse = z.infer<typeof SubscriptionsResponse>;

/** POST /api/GetRenewSubscriptionStartAndEndDatesAndPrice/{id}: the renewal quote (no charge). */
export const RenewQuoteResponse = z.object({
  start: z.string(),
  end: z.string(),
  price: z.number(),
  method: z.number(),
  proratedDays: z.number(),
  monthlyPrice: z.number(),
  hasPaymentMethod: z.boolean(),
});

/** Automatic renewal settings of a club (seed 001 §3, §4). */
export const AutoRenewSettings = z.strictObject({
  method: z
    .union([
      z.literal(AutoRenewMethod.FromNextMonth),
      z.literal(AutoRenewMethod.RemainderProrated),
      z.literal(AutoRenewMethod.RemainderAndNextProrated),
    ])
    .default(1),
  lastDayOfMonth: z.number().int().min(1).max(31).nullable().default(null),
  lastDayTreatment: z.enum(['nextMonth', 'remainderAndNext']).default('nextMonth'),
});
export type AutoRenewSettings = z.infer<typeof AutoRenewSettings>;

export const AutoRenewRunResponse = z.object({
  considered: z.number(),
  renewed: z.number(),
  failed: z.number(),
  skipped: z.number(),
});
export const AutoRenewLog = z.object({
  id: z.number(),
  clientId: z.number(),
  clientName: z.string(),
  at: z.string(),
  success: z.boolean(),
  error: z.string().nullable(),
  amount: z.number(),
  purchaseId: z.number().nullable(),
  debtId: z.number().nullable(),
  startDate: z.string().nullable(),
  endDate: z.string().nullable(),
});

// ---------------------------------------------------------------- licenses

/** License bank-transfer request status (seed 001 §4). */
export const LicenseRequestStatus = {
  Undefined: 0,
  Pending: 1,
  ApprovedLoaded: 2,
  RejectedByManager: 3,
  CancelledByCustomer: 4,
  CancelledByManager: 5,
} as const;
/** Minimum licenses of a bank-transfer request (seed 001 §5, §9). */
export const MIN_TRANSFER_LICENSES = 40;
/** Largest reference file, bytes (seed 001 §9: 3 MB). */
export const MAX_REFERENCE_FILE_BYTES = 3 * 1024 * 1024;

/**
 * The bank-transfer license request form (seed 001 §5). Sent as multipart
 * form fields with the reference file; the same schema validates the form.
 */
export const LicenseRequestFields = z.object({
  quantity: z.coerce
    .number({ message: 'required' })
    .int({ message: 'integer' })
    .min(MIN_TRANSFER_LICENSES, { message: 'minLicenses' }),
  amount: z.coerce.number({ message: 'required' }).int().min(1, { message: 'required' }),
  transferDate: isoDate,
  fundsCondition: z.union([z.literal(true), z.literal('true')], { message: 'acceptCondition' }),
  bankCode: z
    .string({ message: 'required' })
    .trim()
    .min(1, { message: 'required' })
    .refine((v) => normalizeBankCode(v) != null, { message: 'invalidBank' }),
  branch: z
    .string({ message: 'required' })
    .trim()
    .regex(/^\d{3}$/, { message: 'branch3Digits' }),
  account: z
    .string({ message: 'required' })
    .trim()
    .regex(/^\d{6,20}$/, { message: 'account6to20' }),
  reference: z.string({ message: 'required' }).trim().regex(/^\d+$/, { message: 'digitsOnly' }).max(30),
  licenseType: z.coerce.number().int().min(1).max(9).default(1),
});
export type LicenseRequestFields = z.infer<typeof LicenseRequestFields>;

export const LicenseRequest = z.object({
  id: z.number(),
  licenseType: z.number(),
  quantity: z.number(),
  price: z.number(),
  amount: z.number(),
  transferDate: z.string(),
  reference: z.string(),
  bankCode: z.string(),
  branchMasked: z.string(),
  accountMasked: z.string(),
  fileName: z.string(),
  fileType: z.string(),
  status: z.number(),
  createdAt: z.string(),
});

/** POST /api/getBuyLink (seed 000 §7). */
export const BuyLinkRequest = z.strictObject({
  code: text(60).trim().default(''),
  email: z.email({ message: 'invalidEmail' }),
  customerName: text(100).trim().min(1, { message: 'required' }),
  externalClubId: id,
  amount: positiveAmount,
  qty: z.number().int().min(1).max(100_000),
  type: z.literal(2),
});

// ---------------------------------------------------------------- MASAV and accounting

export const MasavFile = z.object({
  id: z.number(),
  createdAt: z.string(),
  testMode: z.boolean(),
  serial: z.number(),
  valueDate: z.string(),
  count: z.number(),
  total: z.number(),
});

/** MASAV institution of the club (given by the clearing center). */
export const MasavSettings = z.strictObject({
  institutionCode: z.string().regex(/^\d{8}$/, { message: 'masavInstitution8' }),
  sendingInstitution: z.string().regex(/^\d{5}$/, { message: 'masavSending5' }),
  institutionName: text(30).trim().min(1),
});

/** PATCH /api/Club/UpdateHasavshevetDetails/{id}: accounts of the Hashavshevet export. */
export const HashavshevetDetails = z.strictObject({
  /** Debit account of cash / card receipts. */
  cashAccount: z
    .string()
    .trim()
    .regex(/^\w{1,15}$/),
  creditAccount: z
    .string()
    .trim()
    .regex(/^\w{1,15}$/),
  incomeAccount: z
    .string()
    .trim()
    .regex(/^\w{1,15}$/),
  vatAccount: z
    .string()
    .trim()
    .regex(/^\w{1,15}$/),
  /** Hashavshevet movement type code. */
  movementType: z
    .string()
    .trim()
    .regex(/^\w{1,3}$/)
    .default('1'),
  branch: z
    .string()
    .trim()
    .regex(/^\d{0,3}$/)
    .default(''),
});
/** POST /api/Club/UpdateClubSumitSettings/{id}: the invoicing/clearing company account (SUMIT). */
export const SumitSettings = z.strictObject({
  companyId: z
    .string()
    .trim()
    .regex(/^\d{1,12}$/),
  apiKeySet: z.boolean().optional(),
  apiKey: text(200).trim().min(8).optional(),
  sendInvoices: z.boolean().default(true),
});
/** POST /api/Report/WriteMoveinDat. */
export const MoveinRequest = z.strictObject({ from: isoDate, to: isoDate });

export { BANK_CODE_WIDTH };
