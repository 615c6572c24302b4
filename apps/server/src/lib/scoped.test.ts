import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { openDatabase, type Database } from '../db/index.js';
import { clubs, clients, debts, groups } from '../db/schema.js';
import { queryRows } from '../db/query.js';
import { AppError } from './errors.js';
import { notDeleted, scoped } from './scoped.js';

describe('scoped(db, clubId)', () => {
  let database: Database;
  let a: number;
  let b: number;
  let groupA: number;
  let clientA: number;

  beforeAll(async () => {
    database = await openDatabase({ dataDir: 'memory://' });
    const db = database.db;
    const [ca, cb] = await db
      .insert(clubs)
      .values([
        { externalClubId: 9001, name: 'A' },
        { externalClubId: 9002, name: 'B' },
      ])
      .returning();
    a = ca.id;
    b = cb.id;
    const [g] = await db.insert(groups).values({ clubId: a, name: 'G' }).returning();
    groupA = g.id;
    const [c] = await db.insert(clients).values({ clubId: a, number: 1, firstName: 'x', lastName: 'y' }).returning();
    clientA = c.id;
  });
  afterAll(async () => database.close());

  it('one: the club row; NOT_FOUND for another club', async () => {
    const row = await scoped(database.db, a).one(groups, groupA, 'group');
    expect(row.name).toBe('G');
    const err = await scoped(database.db, b)
      .one(groups, groupA, 'group')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ code: 'NOT_FOUND', status: 404, message: 'group not found' });
  });

  it('live: soft-deleted rows are not found', async () => {
    const s = scoped(database.db, a);
    await s.update(groups, groupA, { deleted: true });
    expect(await s.find(groups, groupA)).toBeDefined();
    expect(await s.find(groups, groupA, { live: true })).toBeUndefined();
    await s.update(groups, groupA, { deleted: false });
    expect(notDeleted(debts)).toBeDefined();
    await database.db.update(clients).set({ status: 3 }).where(eq(clients.id, clientA));
    expect(await s.find(clients, clientA, { live: true })).toBeUndefined();
    await database.db.update(clients).set({ status: 1 }).where(eq(clients.id, clientA));
    expect((await s.one(clients, clientA, 'client', { live: true })).id).toBe(clientA);
  });

  it('where, list, update and remove stay inside the club, also in a transaction', async () => {
    await database.db.transaction(async (tx) => {
      const other = scoped(tx, b);
      expect(await other.update(groups, groupA, { name: 'hacked' })).toBeUndefined();
      expect(await other.remove(groups, groupA)).toBeUndefined();
      expect(await other.list(groups)).toEqual([]);
      const mine = scoped(tx, a);
      expect((await mine.list(groups, eq(groups.name, 'G'))).map((g) => g.id)).toEqual([groupA]);
      const n = await tx.select({ id: groups.id }).from(groups).where(mine.where(groups, undefined));
      expect(n).toHaveLength(1);
    });
    const [d] = await database.db.insert(debts).values({ clubId: a, clientId: clientA, amount: 100 }).returning();
    expect((await scoped(database.db, a).remove(debts, d.id))?.amount).toBe(100);
  });

  it('queryRows types the rows of a raw statement', async () => {
    const rows = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from groups`);
    expect(rows).toEqual([{ n: 1 }]);
  });
});
