import { and, eq, is, ne, type SQL } from 'drizzle-orm';
import { PgColumn, type PgTable, type PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { ClientStatus } from '@venue/domain';
import type { Db, Tx } from '../db/index.js';
import { clients } from '../db/schema.js';
import { notFound } from './errors.js';

/**
 * Club scoping in the data layer (STYLE point 7, DESIGN §6): every row that
 * belongs to a club carries `club_id`, and a query of a club's data must name
 * it. `scoped(db, clubId)` builds that condition and the not-found error in
 * one place, so a service cannot forget either.
 *
 * Works on the database handle and on a transaction alike.
 */

/** A table whose rows belong to a club. */
export type ClubOwned = PgTable & { clubId: PgColumn };
/** A table whose rows belong to a club and have a numeric `id`. */
export type ClubTable = ClubOwned & { id: PgColumn };

/** A selected row of `T`. */
export type RowOf<T extends PgTable> = T['$inferSelect'];

/** Options of `one` / `find`. */
export interface FindOptions {
  /** Also require the row not to be soft-deleted (see `notDeleted`). */
  live?: boolean;
  /** Lock the row for the rest of the transaction (`select … for update`). */
  forUpdate?: boolean;
}

/**
 * The "not soft-deleted" condition of a table: `status <> Deleted` for
 * clients (a deleted client keeps its row, status Deleted), `deleted = false`
 * for tables with a `deleted` flag (groups, terminals, products, debts,
 * payment methods), none for the others.
 */
export function notDeleted(table: ClubOwned): SQL | undefined {
  if (Object.is(table, clients)) return ne(clients.status, ClientStatus.Deleted);
  return 'deleted' in table && is(table.deleted, PgColumn) ? eq(table.deleted, false) : undefined;
}

/** The club-scoped data access of one club; see `scoped`. */
export interface Scoped {
  readonly clubId: number;
  /** `club_id = clubId AND …conditions` of `table` (undefined conditions are skipped). */
  where(table: ClubOwned, ...conditions: (SQL | undefined)[]): SQL;
  /** `where` plus `notDeleted(table)`. */
  live(table: ClubOwned, ...conditions: (SQL | undefined)[]): SQL;
  /** The club's row `id` of `table`, or undefined. */
  find<T extends ClubTable>(table: T, id: number, opts?: FindOptions): Promise<RowOf<T> | undefined>;
  /**
   * The club's row `id` of `table`.
   * @throws AppError NOT_FOUND (404, message "<what> not found") when there is
   *   no such row in this club (another club's id answers the same).
   */
  one<T extends ClubTable>(table: T, id: number, what: string, opts?: FindOptions): Promise<RowOf<T>>;
  /** Every row of the club in `table` matching `conditions` (unordered). */
  list<T extends ClubOwned>(table: T, ...conditions: (SQL | undefined)[]): Promise<RowOf<T>[]>;
  /** Sets `values` on the club's row `id`; the updated row, or undefined when there is none. */
  update<T extends ClubTable>(table: T, id: number, values: PgUpdateSetSource<T>): Promise<RowOf<T> | undefined>;
  /** Deletes the club's row `id`; the deleted row, or undefined when there was none. */
  remove<T extends ClubTable>(table: T, id: number): Promise<RowOf<T> | undefined>;
}

/**
 * Data access scoped to `clubId` on `db` (the handle or a transaction).
 *
 * ```ts
 * const s = scoped(tx, actor.clubId);
 * const debt = await s.one(debts, id, 'debt', { live: true }); // 404 NOT_FOUND "debt not found"
 * await tx.select().from(debts).where(s.where(debts, eq(debts.clientId, clientId)));
 * ```
 */
export function scoped(db: Db | Tx, clubId: number): Scoped {
  const where = (table: ClubOwned, ...conditions: (SQL | undefined)[]) => and(eq(table.clubId, clubId), ...conditions)!;
  const live = (table: ClubOwned, ...conditions: (SQL | undefined)[]) => where(table, ...conditions, notDeleted(table));
  // Drizzle infers nothing useful from `select().from(T)` for a generic T: rows are typed once here.
  const rows = <T extends PgTable>(q: Promise<unknown>) => q as Promise<RowOf<T>[]>;
  const selectFrom = (table: PgTable) => db.select().from(table);
  const find = async <T extends ClubTable>(table: T, id: number, opts: FindOptions = {}) => {
    const cond = (opts.live ? live : where)(table, eq(table.id, id));
    const q = selectFrom(table).where(cond);
    const [r] = await rows<T>(opts.forUpdate ? q.for('update') : q);
    return r;
  };
  return {
    clubId,
    where,
    live,
    find,
    async one(table, id, what, opts) {
      const r = await find(table, id, opts);
      if (!r) throw notFound(what);
      return r;
    },
    list: (table, ...conditions) => rows(selectFrom(table).where(where(table, ...conditions))),
    async update(table, id, values) {
      const q = db
        .update(table)
        .set(values)
        .where(where(table, eq(table.id, id)))
        .returning();
      const [r] = await rows<typeof table>(q);
      return r;
    },
    async remove(table, id) {
      const [r] = await rows<typeof table>(
        db
          .delete(table)
          .where(where(table, eq(table.id, id)))
          .returning(),
      );
      return r;
    },
  };
}
