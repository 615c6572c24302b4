/**
 * The clearing-provider interface (DESIGN §7 "Payments"; DOMAIN-FACTS
 * "Payments in Israel"). The product talks to a provider only through this
 * interface; `sandbox.ts` is the built-in provider. Amounts are minor units.
 *
 * PCI DSS (DOMAIN-FACTS "Rules that come from regulation"): the card number
 * and CVV go to `tokenize` and nowhere else; callers keep only the token,
 * the last four digits, the brand and the expiry.
 */

export interface CardDetails {
  number: string;
  /** MM/YY. */
  expiry: string;
  cvv: string;
  ownerId?: string;
  ownerName?: string;
}

export type TokenizeResult =
  | { ok: true; token: string; lastFour: string; brand: string; expiry: string }
  | { ok: false; reason: 'invalid_card' | 'declined' };

export type ChargeResult = { status: 'approved'; providerRef: string } | { status: 'declined'; reason: string };

export type StatusResult =
  | { status: 'approved'; providerRef: string; amount: number }
  | { status: 'declined'; reason: string }
  | { status: 'refunded'; providerRef: string }
  | { status: 'not_found' };

/**
 * The outcome of a call is unknown (timeout, lost connection): the money may
 * or may not have moved. The caller records the charge as uncertain and the
 * safer-payments job settles it with `queryStatus`.
 */
export class ClearingUncertainError extends Error {
  constructor(message = 'clearing outcome unknown') {
    super(message);
  }
}

export interface ClearingProvider {
  readonly name: string;
  /** Exchanges card details for a reusable token (the only call that sees a card number). */
  tokenize(card: CardDetails): Promise<TokenizeResult>;
  /**
   * Charges a token. The provider applies `idempotencyKey` once: a repeated
   * call with the same key answers the first outcome and moves no money.
   * @throws ClearingUncertainError when the outcome is unknown.
   */
  chargeToken(req: { token: string; amount: number; currency: number; idempotencyKey: string }): Promise<ChargeResult>;
  /** Refunds (part of) an approved charge; idempotent on `idempotencyKey`. */
  refund(req: { providerRef: string; amount: number; idempotencyKey: string }): Promise<ChargeResult>;
  /** What the provider recorded for a charge's idempotency key (safer payments). */
  queryStatus(idempotencyKey: string): Promise<StatusResult>;
  /** The provider's hosted payment page for a one-off payment (license purchase, POST /api/getBuyLink). */
  paymentPageUrl(orderCode: string): string;
}

/** Luhn check of a card number (digits only). */
export function luhnValid(digits: string): boolean {
  if (!/^\d{12,19}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** The card brand from its number's prefix. */
export function cardBrand(digits: string): string {
  if (/^4/.test(digits)) return 'Visa';
  if (/^(5[1-5]|2[2-7])/.test(digits)) return 'Mastercard';
  if (/^3[47]/.test(digits)) return 'Amex';
  if (/^3(0[0-5]|[68])/.test(digits)) return 'Diners';
  return 'Other';
}

/** True when MM/YY is a real month that has not ended before `today` (the rule lives in packages/domain). */
export { expiryValid } from '@venue/domain';
