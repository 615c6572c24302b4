import { z } from 'zod';
import { AutoRenewMethod } from '../subscription.js';

/**
 * Subscriptions and automatic renewal (seed 001 §3, §4): a client's
 * subscriptions, the renewal quote, the club's renewal settings, runs and
 * their log. Money in agorot.
 */

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
      invoiceNumber: z.number().nullable(),
      /** The purchase's payment status (seed 000 §3): with no invoice number, Pending = MASAV awaiting collection, else nothing was paid. */
      paymentStatus: z.number(),
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
  /** Due clients without a stored payment method: logged with error NO_PAYMENT_METHOD, nothing charged. */
  noPaymentMethod: z.number(),
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
