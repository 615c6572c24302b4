import type { AuditAction, AuditEntity } from '@venue/domain';
import type { Actor } from './actor.js';
import type { Db, Tx } from '../db/index.js';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { auditLog } from '../db/schema.js';
import { scoped, type ClubTable, type RowOf } from './scoped.js';

/**
 * Writes one audit row (DESIGN §10): who, what, when, from where, before and
 * after. Call inside the transaction of the change, so both land or neither.
 * Never pass secrets (password hashes, card or bank numbers) in before/after.
 */
export async function audit(
  db: Db | Tx,
  actor: Pick<Actor, 'ip'> & { clubId: number | null; userId: number | null },
  entry: {
    /** Codes of the label catalogue (packages/domain labels.ts): a new one needs its labels there first. */
    action: AuditAction;
    entity: AuditEntity;
    entityId: string | number;
    before?: unknown;
    after?: unknown;
  },
): Promise<void> {
  await db.insert(auditLog).values({
    // Club 0: the service operator's actions outside any club (audit_log.club_id is never null, docs/scaling.md).
    clubId: actor.clubId ?? 0,
    userId: actor.userId ?? null,
    action: entry.action,
    entity: entry.entity,
    entityId: String(entry.entityId),
    before: entry.before ?? null,
    after: entry.after ?? null,
    ip: actor.ip,
  });
}

/**
 * Updates the club's row `before` of `table` with `values` and writes its
 * audit row (`update` of `entity`, before and after as `present` shows them)
 * in one transaction; answers the updated row as `present` shows it.
 * `before` is the row as read (for instance by `scoped(db, clubId).one`).
 */
export async function auditedUpdate<T extends ClubTable, V>(
  db: Db,
  actor: Actor,
  table: T,
  entity: AuditEntity,
  before: RowOf<T> & { id: number },
  values: PgUpdateSetSource<T>,
  present: (row: RowOf<T>) => V,
): Promise<V> {
  return db.transaction(async (tx) => {
    const updated = (await scoped(tx, actor.clubId).update(table, before.id, values))!;
    await audit(tx, actor, {
      action: 'update',
      entity,
      entityId: before.id,
      before: present(before),
      after: present(updated),
    });
    return present(updated);
  });
}
