import {
  isoDate,
  localParts,
  PaymentMethod,
  periodMonths,
  PurchaseItemType,
  quotePurchase,
  subscriptionDates,
  vatRateBasisPoints,
  type Club,
  type ClientFull,
  type DealerIdentityGap,
  type FeeSettings,
  type Group,
  type PurchaseQuote,
  type SubscriptionPeriod,
} from '@venue/domain';
import { ApiError } from '../../platform/api/apiClient';

/**
 * The purchase dialog's arithmetic, all of it from packages/domain (issue 18
 * "One price rule"; no second copy here): the quote before payment, what a
 * single payment must be, the subscription dates before payment, and where a
 * line's price comes from. Amounts are integer agorot; dates YYYY-MM-DD.
 */

/** A line of the dialog: its price is null until it comes from a source or is typed (never a blank ₪0). */
export interface QuoteItem {
  itemType: number;
  quantity: number;
  unitPrice: number | null;
}
export interface QuotePay {
  method: number;
  amount: number;
}

/** The club's settings the price rule needs (GET /api/Club/GetCurrent). */
export type PriceClub = Pick<Club, 'country'> & Partial<Pick<Club, 'usSalesTaxBp'>> & FeeSettings;

/**
 * The quote of the dialog's lines and payments (domain `quotePurchase`), at
 * the club's VAT rate of `at` (domain `vatRateBasisPoints`). A line without a
 * price counts 0 here; {@link missingPrice} keeps it from being paid.
 */
export function dialogQuote(
  items: readonly QuoteItem[],
  pays: readonly QuotePay[],
  club: PriceClub,
  at: Date,
): PurchaseQuote & { vatRateBp: number } {
  const vatRateBp = vatRateBasisPoints(club.country, at, club.usSalesTaxBp ?? 0);
  const lines = items.map((i) => ({
    itemType: i.itemType as 1,
    quantity: i.quantity,
    unitPrice: i.unitPrice ?? 0,
  }));
  const payments = pays.map((p) => ({ method: p.method as 0, amount: p.amount }));
  return { ...quotePurchase(lines, payments, vatRateBp, club), vatRateBp };
}

/**
 * What the one payment of a purchase must be when it is paid by `method`: the
 * total with the card fee for a card, the cash total rounded to 10 agorot for
 * cash (issue 18 bug 1: a ₪100 card load in a 2.5% club is ₪102.50).
 */
export function singlePaymentDue(items: readonly QuoteItem[], method: number, club: PriceClub, at: Date): number {
  const q = dialogQuote(items, [{ method, amount: 0 }], club, at);
  return method === PaymentMethod.Cash ? (q.cashDue ?? q.total) : q.total;
}

/**
 * The index of the first line that may not be paid yet: no price, or a price
 * of 0 without a Free payment (issue 18 bug 2; the server answers
 * PRICE_REQUIRED). −1 when every line may be paid.
 */
export function missingPrice(items: readonly QuoteItem[], pays: readonly QuotePay[]): number {
  const free = pays.some((p) => p.method === PaymentMethod.Free);
  return items.findIndex((i) => i.unitPrice == null || (!free && i.unitPrice * i.quantity === 0));
}

/** The amount (agorot) the server expected, from a PAYMENTS_DO_NOT_MATCH_TOTAL answer's details; else null. */
export function expectedAmount(err: unknown): number | null {
  if (!(err instanceof ApiError) || err.code !== 'PAYMENTS_DO_NOT_MATCH_TOTAL') return null;
  const raw = err.raw as { expected?: unknown } | null | undefined;
  return typeof raw?.expected === 'number' ? raw.expected : null;
}

const DEALER_GAPS: readonly string[] = [
  'companyNumber',
  'companyNumberInvalid',
  'address',
] satisfies DealerIdentityGap[];

/**
 * What the server found missing when it refused a sale for the club's dealer identity
 * (DEALER_IDENTITY_MISSING `details.fields`; docs/money.md "The dealer's identity on tax
 * documents"); null for any other answer.
 */
export function refusedDealerGaps(err: unknown): DealerIdentityGap[] | null {
  if (!(err instanceof ApiError) || err.code !== 'DEALER_IDENTITY_MISSING') return null;
  const fields = (err.raw as { fields?: unknown } | null | undefined)?.fields;
  return Array.isArray(fields)
    ? fields.filter((f): f is DealerIdentityGap => typeof f === 'string' && DEALER_GAPS.includes(f))
    : [];
}

/** The club's local date (YYYY-MM-DD) of `at`, in the club's time zone (not the browser's). */
export function clubDate(club: Pick<Club, 'location'>, at: Date): string {
  return isoDate(localParts(at, club.location.timeZone));
}

/** What the subscription preview needs of the client (GET /api/GetSubscriptions/{id}). */
export interface SubscriptionContext {
  currentEnd: string | null;
  endType: number;
  daysToExtend: number;
}

/**
 * The start and end a new subscription will get (domain `subscriptionDates`,
 * the engine's rule): the given dates, or from the day after the current one
 * ends (or today), by the group's end type and days to extend (issue 18 bug 3).
 */
export function subscriptionPreview(
  today: string,
  sub: SubscriptionContext,
  period: SubscriptionPeriod,
  given: { start?: string; end?: string } = {},
): { start: string; end: string } {
  return subscriptionDates(
    today,
    sub.currentEnd,
    { period, endType: sub.endType, daysToExtend: sub.daysToExtend },
    given,
  );
}

/**
 * The client's group among the session's groups, from GET /api/GetClientFull/{id}
 * (`ClientFull`: the client's fields, `groupId` among them, are under `client`;
 * the answer's own `group` is a summary without the schedule). Null while the
 * client loads or when it has no group. The group's schedule rows are where an
 * entrance's or a subscription's price comes from (seed 001 §3 "Schedule entry").
 */
export function clientGroup<G extends { id: number }>(
  full: Pick<ClientFull, 'client'> | undefined,
  groups: readonly G[],
): G | null {
  const groupId = full?.client.groupId ?? null;
  return groupId == null ? null : (groups.find((g) => g.id === groupId) ?? null);
}

/** A place a line's price comes from: a schedule row of the client's group, or a product. */
export interface PriceSource {
  value: string;
  name: string;
  price: number;
  itemId?: number;
}

/**
 * The price sources of an item type: the client's group's schedule rows with a
 * price (entrances and subscriptions; seed 001 §3 "Schedule entry" price) and
 * the club's active products with a price (products).
 */
export function priceSources(
  itemType: number,
  group: Pick<Group, 'schedule'> | null | undefined,
  products: readonly { id: number; name: string; displayName: string; price: number; active: boolean }[],
): PriceSource[] {
  if (itemType === PurchaseItemType.Product) {
    return products
      .filter((p) => p.active && p.price > 0)
      .map((p) => ({ value: `p${p.id}`, name: p.displayName || p.name, price: p.price, itemId: p.id }));
  }
  if (itemType !== PurchaseItemType.Entrance && itemType !== PurchaseItemType.NewSubscription) return [];
  return (group?.schedule ?? [])
    .filter((r) => r.price > 0)
    .map((r) => ({ value: `s${r.id}`, name: r.displayName || r.description, price: r.price }));
}

/**
 * The starting price of a subscription line: the client's last monthly price
 * (the renewal quote's, seed 000 §7) times the period's months; null when
 * unknown (the cashier picks a source or types it).
 */
export function subscriptionStartPrice(monthlyPrice: number | null | undefined, period: SubscriptionPeriod) {
  const months = periodMonths(period);
  return monthlyPrice && months > 0 ? monthlyPrice * months : null;
}
