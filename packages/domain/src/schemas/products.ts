import { z } from 'zod';
import { money, text } from '../parts.js';

/**
 * Products (seed 001 §3; seed 000 §9 products limit): types, create and
 * patch bodies, the product as the API presents it, the list query. Prices
 * in agorot.
 */

/** Product type (seed 001 §3): Basic, Extra, Popup. */
export const ProductType = { Basic: 1, Extra: 2, Popup: 3 } as const;
export const PRODUCT_TYPES = [1, 2, 3] as const;
/** Products a club may hold when its capacities name none (seed 000 §9 "manager mikveh products limit 4"). */
export const DEFAULT_PRODUCTS_CAPACITY = 4;

export const ProductInput = z.strictObject({
  name: text(60).trim().min(1, { message: 'required' }),
  displayName: text(60).trim().default(''),
  description: text(500).trim().default(''),
  type: z.union(PRODUCT_TYPES.map((t) => z.literal(t))).default(1),
  price: money.min(0).max(100_000_000),
  maxQuantity: z.number().int().min(0).max(10_000).default(0),
  active: z.boolean().default(true),
});
export type ProductInput = z.infer<typeof ProductInput>;
export const ProductPatch = z
  .strictObject({
    name: text(60).trim().min(1, { message: 'required' }),
    displayName: text(60).trim(),
    description: text(500).trim(),
    type: z.union(PRODUCT_TYPES.map((t) => z.literal(t))),
    price: money.min(0).max(100_000_000),
    maxQuantity: z.number().int().min(0).max(10_000),
    active: z.boolean(),
  })
  .partial();
export type ProductPatch = z.infer<typeof ProductPatch>;
export const Product = z.object({
  id: z.number(),
  name: z.string(),
  displayName: z.string(),
  description: z.string(),
  type: z.number(),
  price: z.number(),
  maxQuantity: z.number(),
  active: z.boolean(),
  createdAt: z.string(),
});
export type Product = z.infer<typeof Product>;
/** GET /api/Product: `showInactive` (default true) lists inactive products too. */
export const ProductListQuery = z.object({ showInactive: z.union([z.boolean(), z.stringbool()]).default(true) });
