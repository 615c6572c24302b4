import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inArray } from 'drizzle-orm';
import { createTestApp, signedInAdmin, TEST_DB, type TestContext } from '../../../test/harness.js';
import * as factory from '../../../test/factories.js';
import { terminals } from '../../db/schema.js';
import { LastContactWriter, touchLastConnection } from './link.service.js';

/** Heartbeats' last contacts written together (docs/scaling.md "Many terminals"). */
describe(`last contacts written in one statement (${TEST_DB})`, () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => ctx.close());

  it('writes every noted contact at flush, keeps a later contact already written, and nothing before', async () => {
    const { club } = await signedInAdmin(ctx);
    const db = ctx.database.db;
    const [a, b, c] = await Promise.all(
      ['A', 'B', 'C'].map((n) => factory.makeTerminal(ctx, club.id, { name: `Gate ${n}` })),
    );
    const t0 = new Date('2026-11-26T10:00:00.000Z');
    const later = new Date('2026-11-26T10:05:00.000Z');
    // C's link closed later than its noted heartbeat: the close wrote directly.
    await touchLastConnection(db, c.id, later);
    const writer = new LastContactWriter(db, 60_000);
    writer.note(a.id, t0);
    writer.note(b.id, new Date(t0.getTime() + 1234));
    writer.note(c.id, t0);
    const read = async () =>
      Object.fromEntries(
        (
          await db
            .select({ id: terminals.id, at: terminals.lastConnection })
            .from(terminals)
            .where(inArray(terminals.id, [a.id, b.id, c.id]))
        ).map((r) => [r.id, r.at?.toISOString() ?? null]),
      );
    // Nothing is written before the flush.
    expect((await read())[a.id]).toBeNull();
    await writer.flush();
    expect(await read()).toEqual({
      [a.id]: t0.toISOString(),
      [b.id]: new Date(t0.getTime() + 1234).toISOString(),
      [c.id]: later.toISOString(),
    });
    // A flush with nothing noted writes nothing and resolves.
    await writer.flush();
  });
});
