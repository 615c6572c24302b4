import {
  FeeType,
  PAYMENT_METHOD_BEATS,
  PaymentMethod,
  PurchaseItemType,
  roundCash,
  type PaymentInput,
  type PurchaseItemInput,
} from '@venue/domain';

/**
 * The pure part of a purchase (seed 000 §3 "Purchase", seed 001 §3; DESIGN
 * §7): prices of the lines, the card fee, VAT, cash rounding and whether the
 * payments cover the total. No database; `purchase.service.ts` applies it.
 * All amounts are integer minor units (agorot).
 */

export { roundCash };

/**
 * A card fee (seed 000 §3 fee type; club settings creditChargeFee /
 * entranceCreditFee): none, a fixed amount (minor units) or a percentage
 * given in basis points (250 = 2.5%) of `base`, rounded to the minor unit.
 */
export function cardFee(base: number, type: number, value: number): number {
  if (base <= 0) return 0;
  if (type === FeeType.Fixed) return value;
  if (type === FeeType.Percentage) return Math.round((base * value) / 10_000);
  return 0;
}

const CARD_METHODS: number[] = [PaymentMethod.CreditCard, PaymentMethod.CreditCardToken, PaymentMethod.CreditCardEmv];
export const isCardMethod = (m: number) => CARD_METHODS.includes(m);

export interface Line {
  input: PurchaseItemInput;
  /** quantity × unitPrice. */
  priceWithVat: number;
  amountBeforeVat: number;
}

export interface PricedPurchase {
  lines: Line[];
  /** Card fee, included in `total`. */
  fee: number;
  /** Everything to pay, with VAT and fee. */
  total: number;
  vat: number;
  amountBeforeVat: number;
  /** Cash rounding: paid cash minus the cash due, −4…+5. */
  rounding: number;
}

export interface FeeSettings {
  creditChargeFeeType: number;
  creditChargeFeeValue: number;
  entranceCreditFeeType: number;
  entranceCreditFeeValue: number;
}

/**
 * Prices a purchase and checks its payments.
 *
 * - Lines: quantity × unitPrice (VAT included, seed 001 §1).
 * - Fee: when every payment is by card, the credit-charge fee on the money
 *   loads (ChargingMoney) and the entrance credit fee on entrances are added.
 * - VAT is due on money received now: the VAT base is the total less what is
 *   paid from the money balance (VAT was invoiced when it was loaded), the
 *   temporary balance and Free; VAT = base − base / (1 + rate), and each
 *   line's amount before VAT takes its share (the last line the remainder).
 * - Payments: non-cash payments plus the cash payment must equal the total,
 *   where the cash payment is the cash due rounded to 10 agorot; the rounding
 *   is returned.
 *
 * @returns the priced purchase, or an error code: 'PAYMENTS_DO_NOT_MATCH_TOTAL'.
 */
export function pricePurchase(
  items: PurchaseItemInput[],
  payments: PaymentInput[],
  vatRateBp: number,
  fees: FeeSettings,
): PricedPurchase | { error: 'PAYMENTS_DO_NOT_MATCH_TOTAL'; expected: number } {
  const gross = items.map((i) => i.quantity * i.unitPrice);
  const allCard = payments.length > 0 && payments.every((p) => isCardMethod(p.method));
  let fee = 0;
  if (allCard) {
    const loads = items.reduce((s, i, k) => s + (i.itemType === PurchaseItemType.ChargingMoney ? gross[k] : 0), 0);
    const entrances = items.reduce((s, i, k) => s + (i.itemType === PurchaseItemType.Entrance ? gross[k] : 0), 0);
    fee =
      cardFee(loads, fees.creditChargeFeeType, fees.creditChargeFeeValue) +
      cardFee(entrances, fees.entranceCreditFeeType, fees.entranceCreditFeeValue);
  }
  const total = gross.reduce((a, b) => a + b, 0) + fee;

  const cash = payments.filter((p) => p.method === PaymentMethod.Cash);
  const nonCash = payments.filter((p) => p.method !== PaymentMethod.Cash).reduce((s, p) => s + p.amount, 0);
  const cashPaid = cash.reduce((s, p) => s + p.amount, 0);
  let rounding = 0;
  if (cash.length > 0) {
    const due = total - nonCash;
    if (due < 0 || cashPaid !== roundCash(due))
      return { error: 'PAYMENTS_DO_NOT_MATCH_TOTAL', expected: roundCash(due) };
    rounding = cashPaid - due;
  } else if (nonCash !== total) {
    return { error: 'PAYMENTS_DO_NOT_MATCH_TOTAL', expected: total };
  }

  const notVatable = payments
    .filter(
      (p) =>
        p.method === PAYMENT_METHOD_BEATS || p.method === PaymentMethod.TempCredit || p.method === PaymentMethod.Free,
    )
    .reduce((s, p) => s + p.amount, 0);
  const base = Math.max(0, total - notVatable);
  const vat = base - Math.round((base * 10_000) / (10_000 + vatRateBp));

  // Each line carries its share of the VAT (fee lines share with the first line).
  const lines: Line[] = [];
  let vatLeft = vat;
  items.forEach((input, k) => {
    const price = gross[k] + (k === 0 ? fee : 0);
    const share = k === items.length - 1 ? vatLeft : total > 0 ? Math.round((vat * price) / total) : 0;
    vatLeft -= share;
    lines.push({ input, priceWithVat: gross[k], amountBeforeVat: price - share - (k === 0 ? fee : 0) });
  });
  return { lines, fee, total, vat, amountBeforeVat: total - vat, rounding };
}
