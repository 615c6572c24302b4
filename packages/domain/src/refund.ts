/**
 * The refund rule (issue 18 "partial refunds"; docs/money.md "Refunds"): pure,
 * run by the server's refund service and by the console's refund dialog (its
 * preview of the amount, the VAT and where the money goes), so the two never
 * differ. Amounts are integer minor units (agorot).
 *
 * A purchase's refundable lines are its items and, when a card fee was charged,
 * the fee as its own line (key 0) — the same lines its document prints
 * ({@link purchaseDocumentLines}), each with its share of the purchase's VAT
 * (purchase-check.ts `pricePurchase`). A refund takes an amount from chosen
 * lines, or an amount spread over every line in proportion to what is left of
 * it, or (neither) everything that is left. The VAT of a refunded amount is the
 * line's VAT in the same proportion; the refund that empties a line takes
 * exactly the line's VAT that is left, so the refunds of a line sum to it.
 * The money goes back to each payment in proportion to what it paid (largest
 * remainder; the refund that completes the purchase gives back exactly what is
 * left of each payment, so the cash rounding is returned with it).
 */

/** A line of a purchase as refunds see it. */
export interface RefundableLine {
  /** The purchase item's id; 0 is the card fee. */
  key: number;
  /** The item type (seed 000 §3), null for the fee. */
  itemType: number | null;
  quantity: number;
  /** Price with VAT and its VAT, minor units. */
  total: number;
  vat: number;
  /** What earlier refunds took of this line. */
  refundedTotal: number;
  refundedVat: number;
  refundedQuantity: number;
}

/** A payment of the purchase (its row id) and what earlier refunds gave back of it. */
export interface RefundablePayment {
  id: number;
  method: number;
  amount: number;
  lastFour: string;
  refunded: number;
}

/** What the user asks: chosen lines (each whole, or an amount of it), or an amount, or (neither) all that is left. */
export interface RefundChoice {
  lines?: { key: number; amount?: number }[];
  amount?: number;
}

export interface PlannedRefundLine {
  key: number;
  itemType: number | null;
  /** Items given back whole: the line's remaining quantity when this refund empties it, else 0. */
  quantity: number;
  amount: number;
  vat: number;
  /** True when this refund takes what was left of the line. */
  completesLine: boolean;
}

export interface PlannedRefund {
  lines: PlannedRefundLine[];
  total: number;
  vat: number;
  beforeVat: number;
  payments: { id: number; method: number; amount: number; lastFour: string }[];
  /** True when nothing is left to refund after this one (the purchase becomes Refunded). */
  complete: boolean;
}

/** Why a refund is refused (REFUND_NOT_POSSIBLE details.reason) with the amount still refundable. */
export type RefundRefusal =
  | { reason: 'refunded'; refundable: 0 }
  | { reason: 'overRefund'; refundable: number; key?: number }
  | { reason: 'badAmount'; refundable: number }
  | { reason: 'unknownLine'; refundable: number; key: number };

/** What is left of a line. */
export const lineLeft = (l: RefundableLine): number => l.total - l.refundedTotal;

/** What is left of the purchase to refund (sum of what is left of its lines). */
export function refundableTotal(lines: readonly RefundableLine[]): number {
  return lines.reduce((s, l) => s + lineLeft(l), 0);
}

/**
 * The printed lines of a purchase: each item with its VAT, and the card fee as
 * its own line (key 0). The fee's VAT is carried in the first item's share
 * (`pricePurchase`), so it is split back out in proportion; the lines sum to
 * the purchase's totals exactly.
 */
export function purchaseDocumentLines<
  T extends { id: number; itemType: number; quantity: number; priceWithVat: number; amountBeforeVat: number },
>(fee: number, items: readonly T[]): { key: number; item: T | null; quantity: number; total: number; vat: number }[] {
  const lines = items.map((i) => ({
    key: i.id,
    item: i as T | null,
    quantity: i.quantity,
    total: i.priceWithVat,
    vat: i.priceWithVat - i.amountBeforeVat,
  }));
  if (fee > 0 && lines.length) {
    const first = lines[0];
    const feeVat = Math.round((first.vat * fee) / (first.total + fee));
    first.vat -= feeVat;
    lines.push({ key: 0, item: null, quantity: 1, total: fee, vat: feeVat });
  }
  return lines;
}

/** Splits `amount` over `weights` in proportion, largest remainder, each share capped by its weight. */
export function splitProportionally(amount: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (sum <= 0 || amount <= 0) return weights.map(() => 0);
  const target = Math.min(amount, sum);
  const exact = weights.map((w) => (w * target) / sum);
  const out = exact.map((x) => Math.floor(x));
  let left = target - out.reduce((a, b) => a + b, 0);
  const order = exact.map((x, i) => ({ i, frac: x - Math.floor(x) })).sort((a, b) => b.frac - a.frac || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    if (out[i] < weights[i]) {
      out[i]++;
      left--;
    }
  }
  return out;
}

/** The VAT of `amount` taken from a line: in proportion to what is left, or exactly what is left of its VAT. */
export function refundLineVat(l: RefundableLine, amount: number): number {
  const left = lineLeft(l);
  const vatLeft = l.vat - l.refundedVat;
  if (amount >= left) return vatLeft;
  return left > 0 ? Math.round((vatLeft * amount) / left) : 0;
}

/**
 * Plans a refund of a purchase (pure; see the module's comment for the rule).
 * @param lines the purchase's lines with what earlier refunds took
 * @param payments the purchase's payments with what earlier refunds gave back
 * @param choice chosen lines and/or an amount; neither = everything left
 * @returns the planned refund, or a refusal: 'refunded' (nothing left), 'overRefund' (more than is
 *   left, of the purchase or of a chosen line `key`), 'badAmount' (an amount ≤ 0, not whole agorot, or
 *   lines with an amount that differs from their sum), 'unknownLine' (a key not of this purchase)
 */
export function planRefund(
  lines: readonly RefundableLine[],
  payments: readonly RefundablePayment[],
  choice: RefundChoice,
): PlannedRefund | { refusal: RefundRefusal } {
  const refundable = refundableTotal(lines);
  if (refundable <= 0) return { refusal: { reason: 'refunded', refundable: 0 } };
  const bad = (a: number | undefined) => a != null && (!Number.isInteger(a) || a <= 0);
  if (bad(choice.amount) || choice.lines?.some((l) => bad(l.amount)))
    return { refusal: { reason: 'badAmount', refundable } };
  const amounts = new Map<number, number>();
  if (choice.lines?.length) {
    for (const c of choice.lines) {
      const line = lines.find((l) => l.key === c.key);
      if (!line) return { refusal: { reason: 'unknownLine', refundable, key: c.key } };
      const want = (amounts.get(c.key) ?? 0) + (c.amount ?? lineLeft(line));
      if (want > lineLeft(line)) return { refusal: { reason: 'overRefund', refundable, key: c.key } };
      if (want > 0) amounts.set(c.key, want);
    }
    const sum = [...amounts.values()].reduce((a, b) => a + b, 0);
    if (sum <= 0) return { refusal: { reason: 'overRefund', refundable } };
    if (choice.amount != null && choice.amount !== sum) return { refusal: { reason: 'badAmount', refundable } };
  } else {
    const amount = choice.amount ?? refundable;
    if (amount > refundable) return { refusal: { reason: 'overRefund', refundable } };
    const shares = splitProportionally(amount, lines.map(lineLeft));
    lines.forEach((l, i) => shares[i] > 0 && amounts.set(l.key, shares[i]));
  }
  const planned: PlannedRefundLine[] = lines
    .filter((l) => amounts.has(l.key))
    .map((l) => {
      const amount = amounts.get(l.key)!;
      const completesLine = amount === lineLeft(l);
      return {
        key: l.key,
        itemType: l.itemType,
        quantity: completesLine ? l.quantity - l.refundedQuantity : 0,
        amount,
        vat: refundLineVat(l, amount),
        completesLine,
      };
    });
  const total = planned.reduce((s, l) => s + l.amount, 0);
  const vat = planned.reduce((s, l) => s + l.vat, 0);
  const complete = total === refundable;
  const payLeft = payments.map((p) => p.amount - p.refunded);
  const back = complete ? payLeft : splitProportionally(total, payLeft);
  return {
    lines: planned,
    total,
    vat,
    beforeVat: total - vat,
    payments: payments
      .map((p, i) => ({ id: p.id, method: p.method, amount: back[i], lastFour: p.lastFour }))
      .filter((p) => p.amount > 0),
    complete,
  };
}
