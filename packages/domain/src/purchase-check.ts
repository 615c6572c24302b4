import { FeeType, PaymentMethod, PurchaseItemType } from './enums.js';
import type { ErrorCode } from './errors.js';
import { PAYMENT_METHOD_BEATS, type PaymentInput, type PurchaseItemInput } from './schemas/purchases.js';
import { roundCash } from './terminal.js';
import { dealerIdentityGaps, type DealerSettings } from './identity.js';

/**
 * The pure rules of a purchase (seed 000 §3 "Purchase", seed 001 §3; DESIGN
 * §7): the price of each line, the card fee, VAT, cash rounding, whether the
 * payments cover the total, the charge limits and every refusal as an error
 * code. No database: the server's purchase engine reads the context
 * (club settings, client, group, products, the payer's stored payment
 * method), calls {@link checkPurchase}, then charges and writes. The console's
 * price preview (AdminPurchase quote) and the kiosk use the same functions.
 * All amounts are integer agorot.
 */

/**
 * A card fee (seed 000 §3 fee type; club settings creditChargeFee /
 * entranceCreditFee): none, a fixed amount (agorot) or a percentage given in
 * basis points (250 = 2.5%) of `base` (agorot), rounded to the agora.
 */
export function cardFee(base: number, type: number, value: number): number {
  if (base <= 0) return 0;
  if (type === FeeType.Fixed) return value;
  if (type === FeeType.Percentage) return Math.round((base * value) / 10_000);
  return 0;
}

const CARD_METHODS: number[] = [PaymentMethod.CreditCard, PaymentMethod.CreditCardToken, PaymentMethod.CreditCardEmv];

/** True for the card payment methods (seed 000 §3: CreditCard, CreditCardToken, CreditCardEmv). */
export const isCardMethod = (m: number) => CARD_METHODS.includes(m);

/** True when a card's MM/YY expiry is a real month that has not ended before `today` (UTC). */
export function expiryValid(expiry: string, today = new Date()): boolean {
  const m = /^(\d{2})\/(\d{2})$/.exec(expiry.trim());
  if (!m) return false;
  const month = Number(m[1]);
  const year = 2000 + Number(m[2]);
  if (month < 1 || month > 12) return false;
  return year * 12 + month >= today.getUTCFullYear() * 12 + today.getUTCMonth() + 1;
}

/** The sum (agorot) of the payments by one method. */
export function paidBy(payments: readonly Pick<PaymentInput, 'method' | 'amount'>[], method: number): number {
  return payments.filter((p) => p.method === method).reduce((s, p) => s + p.amount, 0);
}

export interface PricedLine {
  input: PurchaseItemInput;
  /** quantity × unitPrice (agorot, VAT included). */
  priceWithVat: number;
  amountBeforeVat: number;
}

export interface PricedPurchase {
  lines: PricedLine[];
  /** Card fee (agorot), included in `total`. */
  fee: number;
  /** Everything to pay (agorot), with VAT and fee. */
  total: number;
  vat: number;
  amountBeforeVat: number;
  /** Cash rounding: paid cash minus the cash due, −4…+5 agorot. */
  rounding: number;
}

export interface FeeSettings {
  creditChargeFeeType: number;
  creditChargeFeeValue: number;
  entranceCreditFeeType: number;
  entranceCreditFeeValue: number;
}

/** The card fee of a purchase: due only when every payment is by card (seed 001 §3 credit fees). */
function purchaseFee(
  items: readonly QuoteLine[],
  gross: number[],
  payments: readonly QuotePayment[],
  fees: FeeSettings,
) {
  const allCard = payments.length > 0 && payments.every((p) => isCardMethod(p.method));
  if (!allCard) return 0;
  const sumOf = (type: number) => items.reduce((s, i, k) => s + (i.itemType === type ? gross[k] : 0), 0);
  return (
    cardFee(sumOf(PurchaseItemType.ChargingMoney), fees.creditChargeFeeType, fees.creditChargeFeeValue) +
    cardFee(sumOf(PurchaseItemType.Entrance), fees.entranceCreditFeeType, fees.entranceCreditFeeValue)
  );
}

/** A line as the price rule needs it: item type, quantity and unit price (agorot, VAT included). */
export type QuoteLine = Pick<PurchaseItemInput, 'itemType' | 'quantity' | 'unitPrice'>;
/** A payment as the price rule needs it: method and amount (agorot; the amount matters only for VAT and cash). */
export type QuotePayment = Pick<PaymentInput, 'method' | 'amount'>;

/** The price of a purchase before it is paid (agorot): what the console's purchase dialog shows. */
export interface PurchaseQuote {
  /** Sum of quantity × unitPrice of the lines (VAT included, no fee). */
  subtotal: number;
  /** Card fee (seed 000 §3 fee types): due only when every payment is by card. */
  fee: number;
  /** subtotal + fee: what the payments must make (cash part rounded, see `cashDue`). */
  total: number;
  /** The amount VAT is due on: total less what is paid from the money balance, temporary balance and Free. */
  vatBase: number;
  /** VAT included in `vatBase`: vatBase − round(vatBase / (1 + rate)). */
  vat: number;
  amountBeforeVat: number;
  /** The cash payment that settles the rest after the non-cash payments, rounded to 10 agorot (DOMAIN-FACTS); null without cash. */
  cashDue: number | null;
}

/**
 * The one price rule (seed 000 §3 "Purchase", fee types; seed 001 §3 club
 * settings credit fees; DOMAIN-FACTS "Money and tax"), used by the server's
 * purchase engine (through {@link pricePurchase}) and by the console's
 * purchase dialog before payment:
 *
 * - subtotal: Σ quantity × unitPrice (prices include VAT);
 * - fee: when there is at least one payment and every payment is by card
 *   (CreditCard, CreditCardToken, CreditCardEmv), the credit-charge fee on the
 *   money loads (ChargingMoney) plus the entrance credit fee on entrances —
 *   none, fixed (agorot) or percentage (basis points, rounded to the agora);
 * - VAT at `vatRateBp` on the total less what is paid by beats, temporary
 *   balance and Free (VAT on a money balance was due when it was loaded);
 * - cash: the cash part (total − non-cash payments) is paid rounded to 10
 *   agorot; card and recorded amounts stay to the agora.
 *
 * Pure; never throws. Amounts are integer agorot.
 */
export function quotePurchase(
  items: readonly QuoteLine[],
  payments: readonly QuotePayment[],
  vatRateBp: number,
  fees: FeeSettings,
): PurchaseQuote {
  const gross = items.map((i) => i.quantity * i.unitPrice);
  const subtotal = gross.reduce((a, b) => a + b, 0);
  const fee = purchaseFee(items, gross, payments, fees);
  const total = subtotal + fee;
  const notVatable =
    paidBy(payments, PAYMENT_METHOD_BEATS) +
    paidBy(payments, PaymentMethod.TempCredit) +
    paidBy(payments, PaymentMethod.Free);
  const vatBase = Math.max(0, total - notVatable);
  const vat = vatBase - Math.round((vatBase * 10_000) / (10_000 + vatRateBp));
  const hasCash = payments.some((p) => p.method === PaymentMethod.Cash);
  const nonCash = payments.filter((p) => p.method !== PaymentMethod.Cash).reduce((s, p) => s + p.amount, 0);
  return {
    subtotal,
    fee,
    total,
    vatBase,
    vat,
    amountBeforeVat: total - vat,
    cashDue: hasCash ? roundCash(Math.max(0, total - nonCash)) : null,
  };
}

/**
 * Prices a purchase and checks its payments with {@link quotePurchase}.
 *
 * - Payments: non-cash payments plus the cash payment must equal the total,
 *   where the cash payment is the cash due rounded to 10 agorot; the rounding
 *   is returned.
 * - Each line's amount before VAT takes its share of the VAT (the last line
 *   the remainder; the fee shares with the first line).
 *
 * @param vatRateBp the VAT rate in basis points (1800 = 18%).
 * @returns the priced purchase, or an error code: 'PAYMENTS_DO_NOT_MATCH_TOTAL'
 *   with `expected`, the amount (agorot) the payments should have made: the
 *   total, or with cash the cash payment due.
 */
export function pricePurchase(
  items: PurchaseItemInput[],
  payments: PaymentInput[],
  vatRateBp: number,
  fees: FeeSettings,
): PricedPurchase | { error: 'PAYMENTS_DO_NOT_MATCH_TOTAL'; expected: number } {
  const q = quotePurchase(items, payments, vatRateBp, fees);
  const { fee, total, vat } = q;
  const gross = items.map((i) => i.quantity * i.unitPrice);

  const nonCash = payments.filter((p) => p.method !== PaymentMethod.Cash).reduce((s, p) => s + p.amount, 0);
  const cashPaid = paidBy(payments, PaymentMethod.Cash);
  let rounding = 0;
  if (q.cashDue != null) {
    const due = total - nonCash;
    if (due < 0 || cashPaid !== q.cashDue) return { error: 'PAYMENTS_DO_NOT_MATCH_TOTAL', expected: roundCash(due) };
    rounding = cashPaid - due;
  } else if (nonCash !== total) {
    return { error: 'PAYMENTS_DO_NOT_MATCH_TOTAL', expected: total };
  }

  // Each line carries its share of the VAT (fee lines share with the first line).
  const lines: PricedLine[] = [];
  let vatLeft = vat;
  items.forEach((input, k) => {
    const price = gross[k] + (k === 0 ? fee : 0);
    const share = k === items.length - 1 ? vatLeft : total > 0 ? Math.round((vat * price) / total) : 0;
    vatLeft -= share;
    lines.push({ input, priceWithVat: gross[k], amountBeforeVat: price - share - (k === 0 ? fee : 0) });
  });
  return { lines, fee, total, vat, amountBeforeVat: total - vat, rounding };
}

/**
 * A refusal of a purchase: the catalogue code (seed 001 §8), the English
 * message and the details the API answers. VALIDATION_ERROR details are field
 * errors `[{ path, message }]`.
 */
export interface PurchaseRefusal {
  code: ErrorCode;
  message: string;
  details?: unknown;
}

const invalid = (path: string, message: string): PurchaseRefusal => ({
  code: 'VALIDATION_ERROR',
  message: 'Invalid input',
  details: [{ path, message }],
});

/** A product of the club as the purchase check needs it (a missing or deleted product is absent). */
export interface CheckProduct {
  price: number;
  active: boolean;
  name: string;
  displayName: string;
  /** Most units in one purchase; 0 = no limit. */
  maxQuantity: number;
}

/** Everything the pure purchase check needs, read by the engine before it charges anything. */
export interface PurchaseCheckInput {
  items: PurchaseItemInput[];
  payments: PaymentInput[];
  /** A staff user at the console (seed 000 §3 IsAdminUser): may give Free and set prices. */
  isAdminUser: boolean;
  /** Who pays: the client, the client's parent, or the manager (seed 000 §3 purchase payer). */
  payer: 'client' | 'parent' | 'manager';
  /** The client buying (null: an anonymous kiosk purchase) and its parent, if any. */
  client: { id: number; parentId: number | null } | null;
  group: { allowPurchases: boolean; minChargeAmount: number; maxChargeAmount: number } | null;
  /**
   * The club's settings; the dealer's identity (country, company number, address) is checked when
   * given — the server always gives the club's whole settings.
   */
  settings: FeeSettings & {
    minChargeAmount: number;
    maxChargeAmount: number;
    isKalaSubscriptionEnabled: boolean;
  } & Partial<DealerSettings>;
  /** The club's live products by id, for Product items with an itemId. */
  products: ReadonlyMap<number, CheckProduct>;
  /** The payer's stored payment method (token card or MASAV authorization), if any. */
  stored: { kind: string; chargeLimit: number } | null;
  vatRateBp: number;
  /** When the purchase happens: a card must not have expired by then. */
  at: Date;
  /**
   * A purchase typed at the console (issue 18): a line priced 0 is refused
   * unless a payment is Free, so a blank price never issues an invoice for ₪0.
   */
  requireExplicitFree?: boolean;
}

/** A purchase that passed the check: its items as sold (product prices applied) and its prices. */
export interface CheckedPurchase extends PricedPurchase {
  items: PurchaseItemInput[];
  /** The client whose balances pay (the client, or its parent when `payer` is 'parent'); null: anonymous. */
  payerId: number | null;
}

/** The charge limits of a money load (seed 001 §3 min/max charge): club and group, 0 = none. */
function chargeRange(input: PurchaseCheckInput, amount: number): PurchaseRefusal | null {
  const mins = [input.settings.minChargeAmount, input.group?.minChargeAmount ?? 0].filter((v) => v > 0);
  const maxs = [input.settings.maxChargeAmount, input.group?.maxChargeAmount ?? 0].filter((v) => v > 0);
  if (amount > 0 && !mins.some((m) => amount < m) && !maxs.some((m) => amount > m)) return null;
  return {
    code: 'CHARGE_AMOUNT_OUT_OF_RANGE',
    message: 'Charge amount out of range',
    details: { min: mins.length ? Math.max(...mins) : 0, max: maxs.length ? Math.min(...maxs) : 0 },
  };
}

/** One item as sold, or its refusal: client required, product price and limit, charge range, subscription. */
function checkItem(input: PurchaseCheckInput, it: PurchaseItemInput, k: number): PurchaseItemInput | PurchaseRefusal {
  const item = { ...it };
  const path = `purchaseItems.${k}`;
  const anonymousOk = [PurchaseItemType.Product, PurchaseItemType.Towel, PurchaseItemType.Entrance] as number[];
  if (!anonymousOk.includes(item.itemType) && !input.client) return invalid(`${path}.itemType`, 'clientRequired');
  if (item.itemType === PurchaseItemType.Product && item.itemId != null) {
    const p = input.products.get(item.itemId);
    if (!p || !p.active) return { code: 'NOT_FOUND', message: 'product not found' };
    if (!input.isAdminUser) item.unitPrice = p.price;
    if (!item.name) item.name = p.displayName || p.name;
    if (p.maxQuantity > 0 && item.quantity > p.maxQuantity) return invalid(`${path}.quantity`, 'maxQuantity');
  }
  if (item.itemType === PurchaseItemType.ChargingMoney) {
    const refused = chargeRange(input, item.quantity * item.unitPrice);
    if (refused) return refused;
  }
  if (item.itemType === PurchaseItemType.NewSubscription) {
    if (!item.subscription) return invalid(`${path}.subscription`, 'required');
    if (item.subscription.kala && !input.settings.isKalaSubscriptionEnabled) {
      return invalid(`${path}.subscription.kala`, 'kalaNotEnabled');
    }
  }
  if (item.itemType === PurchaseItemType.PayDebt && item.itemId == null) return invalid(`${path}.itemId`, 'required');
  return item;
}

/** The refusal of one payment's own rules (Free by staff only, a balance needs a payer, card details), or null. */
function checkPayment(
  input: PurchaseCheckInput,
  items: PurchaseItemInput[],
  payerId: number | null,
  p: PaymentInput,
  k: number,
): PurchaseRefusal | null {
  const bad = (message: string) => invalid(`payments.${k}`, message);
  if (p.method === PaymentMethod.Free && !input.isAdminUser) return bad('freeNotAllowed');
  if ((p.method === PAYMENT_METHOD_BEATS || p.method === PaymentMethod.TempCredit) && payerId == null) {
    return bad('clientRequired');
  }
  if (p.method === PAYMENT_METHOD_BEATS && items.some((i) => i.itemType === PurchaseItemType.ChargingMoney)) {
    return bad('beatsCannotLoadBeats');
  }
  if (p.method === PaymentMethod.CreditCard && !p.card) return bad('cardRequired');
  if (p.method === PaymentMethod.CreditCard && p.card && !expiryValid(p.card.expiry, input.at)) {
    return { code: 'INVALID_EXPIRATION_DATE', message: 'Invalid expiration date' };
  }
  if (p.method === PaymentMethod.CreditCardEmv && (!p.emvReference || !p.lastFour)) return bad('emvReferenceRequired');
  if (p.method === PaymentMethod.Cash && p.cashGiven != null && p.cashGiven < p.amount) return bad('cashGivenTooLow');
  return null;
}

/**
 * A console purchase with a line priced 0 and no Free payment (issue 18: a
 * dialog opened at ₪0 must not issue an invoice for ₪0): PRICE_REQUIRED
 * {path} naming the first such line's unit price. Free is the explicit choice.
 */
function priceRequired(input: PurchaseCheckInput, items: PurchaseItemInput[]): PurchaseRefusal | null {
  if (!input.requireExplicitFree || input.payments.some((p) => p.method === PaymentMethod.Free)) return null;
  const k = items.findIndex((i) => i.quantity * i.unitPrice === 0);
  if (k < 0) return null;
  return { code: 'PRICE_REQUIRED', message: 'A price is required', details: { path: `purchaseItems.${k}.unitPrice` } };
}

/** The refusal of a payment by a stored method the payer lacks, or above the MASAV authorization's limit. */
function checkStored(input: PurchaseCheckInput, p: PaymentInput, k: number): PurchaseRefusal | null {
  const { stored } = input;
  if (p.method === PaymentMethod.CreditCardToken && (!stored || stored.kind !== 'card')) {
    return { code: 'NO_PAYMENT_METHOD', message: 'No stored card', details: { path: `payments.${k}` } };
  }
  if (p.method === PaymentMethod.Masav && (!stored || stored.kind !== 'masav')) {
    return { code: 'NO_PAYMENT_METHOD', message: 'No MASAV authorization', details: { path: `payments.${k}` } };
  }
  if (p.method === PaymentMethod.Masav && stored && stored.chargeLimit > 0 && p.amount > stored.chargeLimit) {
    return {
      code: 'CHARGE_AMOUNT_OUT_OF_RANGE',
      message: 'Above the authorization charge limit',
      details: { max: stored.chargeLimit },
    };
  }
  return null;
}

/**
 * The refusal of a sale whose tax document the club cannot issue (no dealer number, one failing
 * its check digit, or no address: `dealerIdentityGaps`), or null. `details.fields` lists the gaps.
 */
export function dealerRefusal(settings: Partial<DealerSettings>): PurchaseRefusal | null {
  const fields = dealerIdentityGaps({
    country: settings.country ?? '',
    companyNumber: settings.companyNumber ?? '',
    addressCity: settings.addressCity ?? '',
    addressStreet: settings.addressStreet ?? '',
  });
  if (fields.length === 0) return null;
  return {
    code: 'DEALER_IDENTITY_MISSING',
    message: `A tax document needs the club's ${fields.join(', ')}`,
    details: { fields },
  };
}

/**
 * Checks a purchase before anything is charged (seed 000 §3 "Purchase",
 * seed 001 §3). In this order, the first failing rule refuses:
 *
 * 1. payer 'parent' needs a client with a parent (VALIDATION_ERROR payer/noParent);
 * 2. a group that does not allow purchases refuses non-staff (PURCHASES_NOT_ALLOWED);
 * 3. each item: a client for anything but Product, Towel, Entrance
 *    (clientRequired); a Product must be live (NOT_FOUND), takes its price
 *    unless staff set one, and respects its maxQuantity; a money load is
 *    within the club's and group's min/max charge (CHARGE_AMOUNT_OUT_OF_RANGE
 *    {min, max}); a subscription needs its details, and kala needs the
 *    club's kala setting; a debt payment names the debt;
 * 4. each payment: Free only by staff, beats and temporary credit need a
 *    payer, beats cannot load beats, a card needs its details and an
 *    unexpired month (INVALID_EXPIRATION_DATE), EMV needs its reference and
 *    last four, cash given covers the amount;
 * 5. a console purchase (`requireExplicitFree`) has no line priced 0 unless
 *    a payment is Free (PRICE_REQUIRED {path});
 * 6. the payments match the total with the card fee and cash rounding
 *    (PAYMENTS_DO_NOT_MATCH_TOTAL {expected} in agorot);
 * 6a. a sale of a total above 0 is a tax document in Israel, which needs the
 *    club's dealer number and address (DEALER_IDENTITY_MISSING {fields}:
 *    `dealerIdentityGaps`; docs/money.md "The dealer's identity on tax documents");
 * 7. a token card or MASAV payment needs the payer's stored method
 *    (NO_PAYMENT_METHOD {path}); MASAV stays within the authorization's
 *    charge limit (CHARGE_AMOUNT_OUT_OF_RANGE {max}).
 *
 * Balances (enough money, enough licenses, debt left to pay) are checked
 * where they are spent, under the row lock of the write.
 *
 * @returns the checked purchase (items as sold, prices, payer), or `{ refusal }`.
 */
export function checkPurchase(input: PurchaseCheckInput): CheckedPurchase | { refusal: PurchaseRefusal } {
  const { client } = input;
  let payerId = client?.id ?? null;
  if (input.payer === 'parent') {
    if (!client?.parentId) return { refusal: invalid('payer', 'noParent') };
    payerId = client.parentId;
  }
  if (input.group && !input.group.allowPurchases && !input.isAdminUser) {
    return { refusal: { code: 'PURCHASES_NOT_ALLOWED', message: 'PURCHASES_NOT_ALLOWED' } };
  }
  const items: PurchaseItemInput[] = [];
  for (const [k, it] of input.items.entries()) {
    const item = checkItem(input, it, k);
    if ('code' in item) return { refusal: item };
    items.push(item);
  }
  for (const [k, p] of input.payments.entries()) {
    const refused = checkPayment(input, items, payerId, p, k);
    if (refused) return { refusal: refused };
  }
  const blank = priceRequired(input, items);
  if (blank) return { refusal: blank };
  const priced = pricePurchase(items, input.payments, input.vatRateBp, input.settings);
  if ('error' in priced) {
    return {
      refusal: {
        code: 'PAYMENTS_DO_NOT_MATCH_TOTAL',
        message: 'Payments do not match the total',
        details: { expected: priced.expected },
      },
    };
  }
  const dealer = priced.total > 0 ? dealerRefusal(input.settings) : null;
  if (dealer) return { refusal: dealer };
  for (const [k, p] of input.payments.entries()) {
    const refused = checkStored(input, p, k);
    if (refused) return { refusal: refused };
  }
  return { ...priced, items, payerId };
}

/**
 * Whether a purchase received nothing: no payment other than Free has an
 * amount (a ₪0 purchase, or lines given by the Free payment method). Such a
 * purchase is no sale for tax purposes — there is no consideration — so it
 * takes no invoice number and gets no tax document, and there is nothing to
 * refund (docs/money.md "Documents", "Nothing paid").
 * @param payments the purchase's payments (method, amount in agorot)
 */
export function nothingPaid(payments: readonly { method: number; amount: number }[]): boolean {
  return payments.every((p) => p.method === PaymentMethod.Free || p.amount === 0);
}

/** How a purchase was paid, as stored on it (agorot): the purchases row's paid* columns, excess and change. */
export interface PaymentTotals {
  paidCash: number;
  paidCredit: number;
  paidBeats: number;
  paidTemp: number;
  /** MASAV and Free. */
  paidOther: number;
  paidMasav: number;
  /** Cash handed over beyond the amount and kept by the club (keepExcess). */
  excess: number;
  /** Cash handed over beyond the amount and given back. */
  change: number;
}

/** Sums the payments of a purchase by kind (seed 000 §3 payment methods; docs/cash.md excess and change). */
export function paymentTotals(payments: PaymentInput[]): PaymentTotals {
  const cash = payments.filter((p) => p.method === PaymentMethod.Cash && p.cashGiven != null);
  const over = (keep: boolean) =>
    cash.filter((p) => Boolean(p.keepExcess) === keep).reduce((s, p) => s + (p.cashGiven! - p.amount), 0);
  return {
    paidCash: paidBy(payments, PaymentMethod.Cash),
    paidCredit: payments.filter((p) => isCardMethod(p.method)).reduce((s, p) => s + p.amount, 0),
    paidBeats: paidBy(payments, PAYMENT_METHOD_BEATS),
    paidTemp: paidBy(payments, PaymentMethod.TempCredit),
    paidOther: paidBy(payments, PaymentMethod.Masav) + paidBy(payments, PaymentMethod.Free),
    paidMasav: paidBy(payments, PaymentMethod.Masav),
    excess: over(true),
    change: over(false),
  };
}
