import { z } from 'zod';
import { CardInput, PurchaseItemInput } from './schemas/purchases.js';
import { Identification } from './schemas/terminals.js';
import { Inventory } from './terminal.js';
import * as parts from './parts.js';

/**
 * Terminal protocol v1 messages of kiosk purchases and paying at the gate
 * (seed 000 §3 Purchase, entrance state OpenWithPay; docs/terminal-protocol.md "Kiosk purchases and paying at the
 * gate"). protocol.ts adds them to its message unions. Amounts in agorot.
 */

const eventId = parts.eventId;
const amount = z.number().int().min(0).max(100_000_000);

/**
 * One payment of a kiosk purchase. Methods: 0 Cash (`cashSessionId`: a cash
 * session of this terminal in state `begin` whose inserted money covers the
 * cash part; completing the purchase completes the session), 1 CreditCard
 * (`card`: tokenized by the clearing provider, then charged), 2
 * CreditCardToken (the client's stored card), 3 TempCredit, 4 CreditCardEmv
 * (the terminal's reader already charged: `emvReference`, `lastFour`) — the
 * numbers of seed 000 §3; 5 Masav and 6 Free are not kiosk methods —
 * 7 beats (money balance). `amount` may be left out on a single payment: the
 * server fills in the total (with the card fee and the cash rounding).
 */
export const KioskPayment = z.strictObject({
  method: z.literal([0, 1, 2, 3, 4, 7]),
  amount: amount.optional(),
  card: CardInput.optional(),
  cashSessionId: z.string().trim().min(1).max(100).optional(),
  emvReference: z.string().trim().max(60).optional(),
  lastFour: z
    .string()
    .regex(/^\d{4}$/)
    .optional(),
});
export type KioskPayment = z.infer<typeof KioskPayment>;

/**
 * A purchase at the terminal (kiosk: subscription, money load, product,
 * towel, debt; at the gate: an Entrance item, which also admits the client
 * with reason 7 EntryByPayment when the gate's state is OpenWithPay). The
 * `eventId` is the purchase's idempotency key: a resend answers the first
 * purchase and charges nothing again. `identification` names the client
 * (optional for an anonymous product or towel purchase paid by cash or card).
 */
export const TerminalPurchase = z.object({
  type: z.literal('purchase'),
  eventId,
  identification: Identification.optional(),
  items: z
    .array(PurchaseItemInput.partial({ unitPrice: true }))
    .min(1)
    .max(20),
  payments: z.array(KioskPayment).min(1).max(4),
});
export type TerminalPurchase = z.infer<typeof TerminalPurchase>;
/** What a terminal may send (defaults not yet applied). */
export type TerminalPurchaseInput = z.input<typeof TerminalPurchase>;

/** Error codes of a purchase-result (besides the AppError codes of createPurchase, e.g. PAYMENT_ERROR). */
export const KIOSK_ERRORS = [
  'CLIENT_NOT_FOUND',
  'TERMINAL_NOT_APPROVED',
  'CASH_SESSION_INVALID',
  'CASH_NOT_ENOUGH',
  'PAYMENT_NOT_REQUIRED',
] as const;

/**
 * The answer to a `purchase`. `ok: false` changes nothing (a declined card is
 * not charged). For an Entrance item at the gate `decision` carries the
 * entrance's status: 1 reason 7 (gate opens) or 9 reason 27 (payment failed).
 * `cash` is the completed cash session's state (change to pay out).
 */
export const ServerPurchaseResult = z.object({
  type: z.literal('purchase-result'),
  eventId,
  ok: z.boolean(),
  purchaseId: z.number().int().optional(),
  invoiceNumber: z.number().int().optional(),
  total: z.number().int().optional(),
  balanceAfter: z.number().int().optional(),
  subscriptionEnd: z.string().optional(),
  change: z.number().int().optional(),
  error: z.string().optional(),
  /** More about the error: the reason of PAYMENT_ERROR (declined, uncertain, …), the expected total. */
  details: z.record(z.string(), z.unknown()).optional(),
  /** A cash payment: the settled session; in `startPayout` the terminal pays `change` and sends cash-payout-done. */
  cash: z
    .object({
      sessionId: z.string(),
      state: z.string(),
      change: z.object({ coins: Inventory, bills: Inventory, amount: z.number().int() }).optional(),
      /** Change the inventories could not cover (a payout error owed to the client) and its error code. */
      unpaid: z.number().int().optional(),
      excess: z.number().int().optional(),
      error: z.string().optional(),
    })
    .optional(),
  decision: z
    .object({
      status: z.number().int(),
      reason: z.number().int(),
      gateOpenSeconds: z.number().int(),
      message: z.string(),
    })
    .optional(),
});
export type ServerPurchaseResult = z.infer<typeof ServerPurchaseResult>;
