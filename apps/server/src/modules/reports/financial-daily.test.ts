import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { createTestApp, makeClub, type TestContext } from '../../../test/harness.js';
import * as factory from '../../../test/factories.js';
import { localInstant } from '../../../test/time.js';
import { clubs, purchaseItems, purchasePayments, purchases } from '../../db/schema.js';

/**
 * financial_daily (the financial report's summary, migration 0011) is kept by
 * triggers: after every kind of write it must equal the summary rebuilt from
 * the purchases (financial_daily_rebuild), which is the plain aggregate.
 */
describe('financial_daily summary kept by triggers', () => {
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
  const snapshot = async (): Promise<Row[]> => {
    const res = await ctx.database.db.execute(sql`select day::text as day, terminal_id, user_id, kind, key,
        purchases::int as purchases, quantity::bigint::text as quantity, amount_before_vat::bigint::text as abv, total::bigint::text as total
      from financial_daily where club_id = ${clubId}
        and not (purchases = 0 and quantity = 0 and amount_before_vat = 0 and total = 0)
      order by day, kind, key, terminal_id, user_id`);
    return (res as unknown as { rows: Row[] }).rows;
  };
  /** The maintained rows, then the same rows rebuilt from scratch: must be equal. */
  const expectConsistent = async () => {
    const kept = await snapshot();
    await ctx.database.db.execute(sql`select financial_daily_rebuild(${clubId}::int)`);
    expect(kept).toEqual(await snapshot());
    return kept;
  };

  const buy = async (opts: {
    at: Date;
    status?: number;
    fee?: number;
    terminalId?: number | null;
    items: { type: number; qty: number; price: number }[];
    pays: { method: number; amount: number }[];
  }) => {
    const total = opts.items.reduce((s, i) => s + i.price, 0) + (opts.fee ?? 0);
    // Several lines in one statement (the trigger must count a purchase once per type).
    const { purchase: p } = await factory.makePurchase(ctx, clubId, {
      lines: opts.items.map((i) => ({ itemType: i.type, quantity: i.qty, unitPrice: i.price, priceWithVat: i.price })),
      payments: opts.pays.map((x) => [x.method, x.amount]),
      at: opts.at,
      total,
      amountBeforeVat: Math.round(total / 1.18),
      vat: total - Math.round(total / 1.18),
      paymentStatus: opts.status ?? 1,
      fee: opts.fee ?? 0,
      terminalId: opts.terminalId ?? null,
    });
    return p.id;
  };

  it('follows inserts, refunds, edits, deletes and a change of the club time zone', async () => {
    const { db } = ctx.database;
    const TZ = 'Asia/Jerusalem';
    const a = await buy({
      at: localInstant(TZ, 2025, 3, 1, 23, 30), // 21:30 UTC: the local day is 1 March
      fee: 50,
      items: [
        { type: 1, qty: 1, price: 1180 },
        { type: 1, qty: 2, price: 2360 },
        { type: 10, qty: 3, price: 300 },
      ],
      pays: [
        { method: 0, amount: 2000 },
        { method: 1, amount: 1890 },
      ],
    });
    const b = await buy({
      at: localInstant(TZ, 2025, 3, 1, 10),
      terminalId: 7,
      items: [{ type: 10, qty: 1, price: 100 }],
      pays: [{ method: 1, amount: 100 }],
    });
    await buy({ at: localInstant(TZ, 2025, 3, 2, 9), status: 3, items: [{ type: 2, qty: 1, price: 500 }], pays: [] });
    let rows = await expectConsistent();
    const type1 = rows.find((r) => r.kind === 1 && r.key === 1 && r.terminal_id === 0);
    expect(type1).toMatchObject({ day: '2025-03-01', purchases: 1, quantity: '3', total: '3540' });
    expect(rows.find((r) => r.kind === 0 && r.terminal_id === 0)).toMatchObject({ purchases: 1, total: '50' });
    expect(rows.some((r) => r.kind === 1 && r.key === 2)).toBe(false); // refunded

    await db.update(purchases).set({ paymentStatus: 3 }).where(eq(purchases.id, a)); // refund
    await expectConsistent();
    await db.update(purchases).set({ paymentStatus: 1 }).where(eq(purchases.id, a)); // back
    await expectConsistent();
    await db.update(purchaseItems).set({ itemType: 4, quantity: 5 }).where(eq(purchaseItems.purchaseId, b));
    await expectConsistent();
    await db.delete(purchaseItems).where(sql`${purchaseItems.purchaseId} = ${a} and ${purchaseItems.itemType} = 1`); // both type-1 lines at once
    rows = await expectConsistent();
    expect(rows.some((r) => r.kind === 1 && r.key === 1)).toBe(false);
    await db.delete(purchasePayments).where(eq(purchasePayments.purchaseId, a));
    await expectConsistent();
    await db
      .update(purchases)
      .set({ at: localInstant(TZ, 2025, 3, 5, 12), terminalId: 3, fee: 80 })
      .where(eq(purchases.id, a));
    await expectConsistent();
    await db.delete(purchaseItems).where(eq(purchaseItems.purchaseId, b));
    await db.delete(purchases).where(eq(purchases.id, b));
    await expectConsistent();

    // A purchase at 23:30 in Jerusalem is on the next day in UTC... and back.
    const late = await buy({ at: new Date('2025-04-01T21:30:00Z'), items: [{ type: 3, qty: 1, price: 10 }], pays: [] });
    expect((await snapshot()).find((r) => r.kind === 1 && r.key === 3)?.day).toBe('2025-04-02');
    await db
      .update(clubs)
      .set({ location: { name: 'London', latitude: 51.5, longitude: -0.12, timeZone: 'Europe/London' } })
      .where(eq(clubs.id, clubId));
    expect((await expectConsistent()).find((r) => r.kind === 1 && r.key === 3)?.day).toBe('2025-04-01');
    expect(late).toBeGreaterThan(0);
  });
  it('follows multi-row inserts of purchases, lines and payments (one statement each, migration 0033)', async () => {
    const { db } = ctx.database;
    const at = localInstant('Europe/London', 2025, 6, 10, 12);
    const base = { clubId, total: 0, amountBeforeVat: 0, vat: 0, vatRateBp: 1800, source: 'console' };
    const made = await db
      .insert(purchases)
      .values([
        { ...base, at, paymentStatus: 1, fee: 30, idempotencyKey: 'bulk-1' },
        { ...base, at, paymentStatus: 1, fee: 0, terminalId: 4, idempotencyKey: 'bulk-2' },
        { ...base, at, paymentStatus: 3, fee: 20, idempotencyKey: 'bulk-3' },
        { ...base, at, paymentStatus: 1, fee: 5, idempotencyKey: 'bulk-4' },
      ])
      .returning({ id: purchases.id });
    const [p1, p2, p3, p4] = made.map((r) => r.id);
    const line = (purchaseId: number, itemType: number, quantity: number, price: number) => ({
      clubId,
      purchaseId,
      itemType,
      quantity,
      unitPrice: price,
      priceWithVat: price,
      amountBeforeVat: Math.round(price / 1.18),
    });
    // p4 gets a line first: the next statement's lines of p4 must not count it again.
    await db.insert(purchaseItems).values([line(p4, 1, 1, 100)]);
    await db
      .insert(purchaseItems)
      .values([
        line(p1, 1, 1, 1000),
        line(p1, 1, 2, 2000),
        line(p1, 5, 1, 300),
        line(p2, 1, 1, 700),
        line(p3, 1, 1, 900),
        line(p4, 1, 3, 330),
        line(p4, 2, 1, 50),
      ]);
    await db.insert(purchasePayments).values([
      { clubId, purchaseId: p1, method: 0, amount: 1000 },
      { clubId, purchaseId: p1, method: 0, amount: 2330 },
      { clubId, purchaseId: p2, method: 1, amount: 700 },
      { clubId, purchaseId: p3, method: 0, amount: 920 },
      { clubId, purchaseId: p4, method: 1, amount: 485 },
    ]);
    const rows = await expectConsistent();
    const day = rows.filter((r) => r.day === '2025-06-10' && r.terminal_id === 0);
    expect(day.find((r) => r.kind === 1 && r.key === 1)).toMatchObject({ purchases: 2, quantity: '7', total: '3430' });
    expect(day.find((r) => r.kind === 0)).toMatchObject({ purchases: 2, total: '35' });
    expect(day.find((r) => r.kind === 2 && r.key === 0)).toMatchObject({ purchases: 2, total: '3330' });
    // A purchase inserted after its lines could exist is not possible (foreign key); a later line of
    // the same type in its own statement adds its sums only.
    await db.insert(purchaseItems).values([line(p2, 1, 1, 70), line(p2, 1, 1, 30)]);
    await expectConsistent();
  });
});
