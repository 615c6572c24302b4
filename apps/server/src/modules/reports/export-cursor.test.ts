import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestContext } from '../../../test/harness.js';
import { cursorBatches } from './framework.js';

/** The export's server-side cursor: every row once, in order, in bounded batches; an early stop ends the transaction. */
describe('cursorBatches (report exports)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => {
    await ctx.close();
  });

  const series = (n: number) => sql`select g as n from generate_series(1, ${n}::int) g order by g`;

  it('yields all rows in order, in batches of the size asked', async () => {
    const sizes: number[] = [];
    const seen: number[] = [];
    for await (const batch of cursorBatches(ctx.database.db, series(4500), 1000)) {
      sizes.push(batch.length);
      for (const r of batch) seen.push(Number(r.n));
    }
    expect(sizes).toEqual([1000, 1000, 1000, 1000, 500]);
    expect(seen).toEqual(Array.from({ length: 4500 }, (_, i) => i + 1));
    const exact: number[] = [];
    for await (const batch of cursorBatches(ctx.database.db, series(2000), 1000)) exact.push(batch.length);
    expect(exact).toEqual([1000, 1000]);
    const none: number[] = [];
    for await (const batch of cursorBatches(ctx.database.db, series(0), 1000)) none.push(batch.length);
    expect(none).toEqual([]);
  });

  it('rolls the transaction back when the consumer stops early, and the database answers after', async () => {
    let taken = 0;
    for await (const batch of cursorBatches(ctx.database.db, series(10_000), 100)) {
      taken += batch.length;
      if (taken >= 200) break;
    }
    expect(taken).toBe(200);
    const res = await ctx.database.db.execute(sql`select 41 + 1 as v`);
    expect(Number((res as unknown as { rows: { v: number }[] }).rows[0].v)).toBe(42);
    // A query error inside the cursor reaches the consumer.
    const failing = async () => {
      for await (const batch of cursorBatches(
        ctx.database.db,
        sql`select 1 / (g - 150) as n from generate_series(1, 300) g`,
        100,
      ))
        void batch;
    };
    const err = (await failing().then(
      () => null,
      (e: unknown) => e,
    )) as { message: string; cause?: { message: string } } | null;
    expect(err?.cause?.message ?? err?.message).toMatch(/division by zero/);
    const again = await ctx.database.db.execute(sql`select 1 as v`);
    expect((again as unknown as { rows: unknown[] }).rows).toHaveLength(1);
  });
});
