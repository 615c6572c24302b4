import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { createTestApp, makeClub, type TestContext } from '../../../test/harness.js';
import * as factory from '../../../test/factories.js';
import { localInstant } from '../../../test/time.js';
import { clubs, purchaseItems, purchases } from '../../db/schema.js';

/**
 * product_daily (the product reports' summary, migration 0019) is kept by
 * triggers: after every kind of write it must equal the summary rebuilt from
 * the purchases (product_daily_rebuild) and the plain aggregate of the product
 * lines of the purchases that were not refunded.
 */
describe('product_daily summary kept by triggers', () => {
  let ctx: TestContext;
  let clubId: number;

  beforeAll(async () => {
    ctx = await createTestApp();
    const c = await makeClub(ctx);
    clubId = c.id;
  });
  afterAll(async () => {
    await ctx.close();
  });

  type Row = Record<string, unknown>;
  const rowsOf = async (q: ReturnType<typeof sql>): Promise<Row[]> =>
    ((await ctx.database.db.execute(q)) as unknown as { rows: Row[] }).rows;
  /** The summary's rows that are not all zero. */
  const snapshot = (): Promise<Row[]> =>
    rowsOf(sql`select day::text as day, kind, item_id, name, terminal_id, user_id, purchases::int as purchases,
        quantity::bigint::text as quantity, amount_before_vat::bigint::text as abv, total::bigint::text as total
      from product_daily where club_id = ${clubId}
        and not (purchases = 0 and quantity = 0 and amount_before_vat = 0 and total = 0)
      order by day, kind, item_id, name, terminal_id, user_id`);
  /** The same figures straight from the lines (local day in the club's zone, refunded purchases left out). */
  const fromLines = (): Promise<Row[]> =>
    rowsOf(sql`with l as (
        select (p.at at time zone coalesce(c.location->>'timeZone', 'Asia/Jerusalem'))::date as day,
               coalesce(p.terminal_id, 0) as t, coalesce(p.user_id, 0) as u, p.id as pid, coalesce(i.item_id, 0) as item,
               i.name, i.quantity, i.amount_before_vat, i.price_with_vat
        from purchases p join clubs c on c.id = p.club_id join purchase_items i on i.purchase_id = p.id
        where p.club_id = ${clubId} and p.payment_status <> 3 and i.item_type = 10),
      g as (
        select day, 0 as kind, 0 as item_id, '' as name, t, u, count(distinct pid) as n, 0 as q, 0 as a, 0 as v
        from l group by day, t, u
        union all
        select day, 1, item, '', t, u, count(distinct pid), sum(quantity), sum(amount_before_vat), sum(price_with_vat)
        from l group by day, t, u, item
        union all
        select day, 2, item, name, t, u, count(*), 0, 0, 0 from l where name <> '' group by day, t, u, item, name)
      select day::text as day, kind::smallint as kind, item_id::int as item_id, name, t::int as terminal_id, u::int as user_id,
        n::int as purchases, q::bigint::text as quantity, a::bigint::text as abv, v::bigint::text as total
      from g order by day, kind, item_id, name, terminal_id, user_id`);
  /** The maintained rows, the rows rebuilt from scratch and the lines' aggregate: all equal. */
  const expectConsistent = async (): Promise<Row[]> => {
    const kept = await snapshot();
    expect(kept).toEqual(await fromLines());
    await ctx.database.db.execute(sql`select product_daily_rebuild(${clubId}::int)`);
    expect(kept).toEqual(await snapshot());
    return kept;
  };

  type Line = { type?: number; item?: number | null; name?: string; qty: number; price: number };
  const buy = async (opts: {
    at: Date;
    status?: number;
    terminalId?: number | null;
    userId?: number;
    lines: Line[];
  }) => {
    const total = opts.lines.reduce((s, i) => s + i.price, 0);
    // Several lines in one statement (the trigger must count a purchase once per product and once over all).
    const { purchase: p } = await factory.makePurchase(ctx, clubId, {
      lines: opts.lines.map((i) => ({
        itemType: i.type ?? 10,
        itemId: i.item === undefined ? 1 : i.item,
        name: i.name ?? '',
        quantity: i.qty,
        unitPrice: Math.round(i.price / i.qty),
        priceWithVat: i.price,
      })),
      at: opts.at,
      total,
      amountBeforeVat: Math.round(total / 1.18),
      vat: total - Math.round(total / 1.18),
      paymentStatus: opts.status ?? 1,
      terminalId: opts.terminalId ?? null,
      userId: opts.userId ?? null,
    });
    return p.id;
  };

  it('follows inserts, refunds, edits, deletes and a change of the club time zone', async () => {
    const { db } = ctx.database;
    const TZ = 'Asia/Jerusalem';
    const a = await buy({
      at: localInstant(TZ, 2025, 3, 1, 23, 30), // 21:30 UTC: the local day is 1 March
      lines: [
        { item: 1, name: 'Soap', qty: 1, price: 590 },
        { item: 1, name: 'Soap (old)', qty: 2, price: 1180 }, // the same product twice: one purchase
        { item: 2, name: 'Towel', qty: 1, price: 2360 },
        { type: 1, item: null, qty: 1, price: 11800 }, // not a product line
      ],
    });
    const b = await buy({
      at: localInstant(TZ, 2025, 3, 1, 10),
      terminalId: 7,
      userId: 4,
      lines: [
        { item: 1, name: 'Soap', qty: 1, price: 590 },
        { item: null, name: '', qty: 1, price: 100 }, // a product line without a product
      ],
    });
    await buy({
      at: localInstant(TZ, 2025, 3, 2, 9),
      status: 3,
      lines: [{ item: 3, name: 'Robe', qty: 1, price: 4000 }],
    });
    let rows = await expectConsistent();
    expect(rows.find((r) => r.kind === 1 && r.item_id === 1 && r.terminal_id === 0)).toMatchObject({
      day: '2025-03-01',
      purchases: 1,
      quantity: '3',
      total: '1770',
    });
    expect(rows.find((r) => r.kind === 0 && r.terminal_id === 7)).toMatchObject({ purchases: 1, user_id: 4 });
    expect(rows.some((r) => r.item_id === 3)).toBe(false); // refunded

    await db.update(purchases).set({ paymentStatus: 3 }).where(eq(purchases.id, a)); // refund
    rows = await expectConsistent();
    expect(rows.some((r) => r.terminal_id === 0)).toBe(false);
    await db.update(purchases).set({ paymentStatus: 1 }).where(eq(purchases.id, a)); // back
    await expectConsistent();
    // Edits of a line: its product, name and quantity; a line turned into another type and back.
    await db
      .update(purchaseItems)
      .set({ itemId: 2, name: 'Towel XL', quantity: 5 })
      .where(sql`${purchaseItems.purchaseId} = ${a} and ${purchaseItems.name} = 'Soap (old)'`);
    await expectConsistent();
    await db.update(purchaseItems).set({ itemType: 4 }).where(eq(purchaseItems.purchaseId, b));
    rows = await expectConsistent();
    expect(rows.some((r) => r.terminal_id === 7)).toBe(false);
    await db
      .update(purchaseItems)
      .set({ itemType: 10 })
      .where(sql`${purchaseItems.purchaseId} = ${b} and ${purchaseItems.itemId} = 1`);
    await expectConsistent();
    // One of the two lines of product 2, then both product 2 lines at once.
    await db.delete(purchaseItems).where(sql`${purchaseItems.purchaseId} = ${a} and ${purchaseItems.name} = 'Towel'`);
    await expectConsistent();
    await db.delete(purchaseItems).where(sql`${purchaseItems.purchaseId} = ${a} and ${purchaseItems.itemId} = 2`);
    rows = await expectConsistent();
    expect(rows.some((r) => r.item_id === 2)).toBe(false);
    // The purchase moves: another day, terminal and seller.
    await db
      .update(purchases)
      .set({ at: localInstant(TZ, 2025, 3, 5, 12), terminalId: 3, userId: 9 })
      .where(eq(purchases.id, a));
    await expectConsistent();
    await db.delete(purchases).where(eq(purchases.id, b)); // its lines remain, without a purchase
    await expectConsistent();

    // A purchase at 23:30 in Jerusalem is on the next day in UTC... and back.
    const late = await buy({
      at: new Date('2025-04-01T21:30:00Z'),
      lines: [{ item: 5, name: 'Cap', qty: 1, price: 10 }],
    });
    expect((await snapshot()).find((r) => r.kind === 1 && r.item_id === 5)?.day).toBe('2025-04-02');
    await db
      .update(clubs)
      .set({ location: { name: 'London', latitude: 51.5, longitude: -0.12, timeZone: 'Europe/London' } })
      .where(eq(clubs.id, clubId));
    expect((await expectConsistent()).find((r) => r.kind === 1 && r.item_id === 5)?.day).toBe('2025-04-01');
    expect(late).toBeGreaterThan(0);
  });
});
