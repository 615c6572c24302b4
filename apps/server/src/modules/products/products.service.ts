import { asc, eq, sql } from 'drizzle-orm';
import type { Actor } from '../../lib/actor.js';
import {
  DEFAULT_PRODUCTS_CAPACITY,
  type Capacity,
  type Product,
  type ProductInput,
  type ProductPatch,
} from '@venue/domain';
import type { Db, Tx } from '../../db/index.js';
import { clubs, products } from '../../db/schema.js';
import { audit } from '../../lib/audit.js';
import { AppError } from '../../lib/errors.js';
import { scoped } from '../../lib/scoped.js';

type ProductRow = typeof products.$inferSelect;

/** Maps a product row to the API shape (seed 001 §3 "Product"); price in minor units. */
export function presentProduct(r: ProductRow): Product {
  return {
    id: r.id,
    name: r.name,
    displayName: r.displayName,
    description: r.description,
    type: r.type,
    price: r.price,
    maxQuantity: r.maxQuantity,
    active: r.active,
    createdAt: r.createdAt.toISOString(),
  };
}

/** The club's products that are not deleted, by name (GET /api/Product); inactive ones unless `showInactive` is false. */
export async function listProducts(
  db: Db,
  clubId: number,
  showInactive = true,
): Promise<{ items: Product[]; total: number }> {
  const rows = await db
    .select()
    .from(products)
    .where(scoped(db, clubId).live(products, showInactive ? undefined : eq(products.active, true)))
    .orderBy(asc(products.name), asc(products.id));
  return { items: rows.map(presentProduct), total: rows.length };
}

/** The club's product `id` that is not deleted (locked when `forUpdate`); NOT_FOUND otherwise. */
function productRow(db: Db | Tx, clubId: number, id: number, forUpdate = false): Promise<ProductRow> {
  return scoped(db, clubId).one(products, id, 'product', { live: true, forUpdate });
}

/**
 * One product of the club (GET /api/Product/{id}).
 * @throws AppError NOT_FOUND (404) when the id is not a non-deleted product of this club
 */
export async function getProduct(db: Db, clubId: number, id: number): Promise<Product> {
  return presentProduct(await productRow(db, clubId, id));
}

/**
 * How many products the club may hold (seed 001 §5 "Product creation is capped
 * by club capacity"): its `products` capacity (GET /Club/GetCapacities), or
 * DEFAULT_PRODUCTS_CAPACITY (4, seed 000 §9 "manager mikveh products limit")
 * when the club has none. See docs/api-management.md.
 */
export function productsCapacity(capacities: unknown): number {
  const list = Array.isArray(capacities) ? (capacities as Capacity[]) : [];
  const c = list.find((x) => x && typeof x.name === 'string' && x.name.toLowerCase() === 'products');
  return c && Number.isInteger(c.capacity) && c.capacity >= 0 ? c.capacity : DEFAULT_PRODUCTS_CAPACITY;
}

/**
 * Creates a product (POST /api/Product). The count of non-deleted products is
 * checked under a lock on the club row, so two requests cannot both take the last place.
 * @throws AppError PRODUCT_LIMIT (422, details {limit}) "You cannot create more than N products"
 */
export async function createProduct(db: Db, actor: Actor, input: ProductInput): Promise<Product> {
  const clubId = actor.clubId;
  return db.transaction(async (tx) => {
    const [club] = await tx
      .select({ capacities: clubs.capacities })
      .from(clubs)
      .where(eq(clubs.id, clubId))
      .for('update');
    const limit = productsCapacity(club?.capacities);
    const [{ n }] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(products)
      .where(scoped(tx, clubId).live(products));
    if (n >= limit) {
      throw new AppError('PRODUCT_LIMIT', `You cannot create more than ${limit} products`, { limit });
    }
    const [row] = await tx
      .insert(products)
      .values({ ...input, clubId })
      .returning();
    const created = presentProduct(row);
    await audit(tx, actor, { action: 'create', entity: 'product', entityId: row.id, after: created });
    return created;
  });
}

/**
 * Changes a product (PATCH /api/Product/{id}).
 * @throws AppError NOT_FOUND (404) when the id is not a non-deleted product of this club
 */
export async function updateProduct(db: Db, actor: Actor, id: number, patch: ProductPatch): Promise<Product> {
  const clubId = actor.clubId;
  return db.transaction(async (tx) => {
    const before = presentProduct(await productRow(tx, clubId, id, true));
    if (Object.keys(patch).length > 0) await tx.update(products).set(patch).where(eq(products.id, id));
    const after = presentProduct(await productRow(tx, clubId, id));
    await audit(tx, actor, { action: 'update', entity: 'product', entityId: id, before, after });
    return after;
  });
}

/**
 * Soft-deletes a product (DELETE /api/Product/{id}): past purchases keep naming it.
 * @throws AppError NOT_FOUND (404) when the id is not a non-deleted product of this club
 */
export async function deleteProduct(db: Db, actor: Actor, id: number): Promise<{ ok: true }> {
  const clubId = actor.clubId;
  return db.transaction(async (tx) => {
    const before = presentProduct(await productRow(tx, clubId, id, true));
    await tx.update(products).set({ deleted: true }).where(eq(products.id, id));
    await audit(tx, actor, { action: 'delete', entity: 'product', entityId: id, before });
    return { ok: true as const };
  });
}
