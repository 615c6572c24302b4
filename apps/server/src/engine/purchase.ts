/**
 * The pure part of a purchase lives in `packages/domain/src/purchase-check.ts`
 * (prices, card fee, VAT, cash rounding, every refusal); re-exported here for
 * the server modules that price a purchase.
 */
export { cardFee, isCardMethod, pricePurchase, roundCash } from '@venue/domain';
export type { FeeSettings, PricedLine, PricedPurchase } from '@venue/domain';
