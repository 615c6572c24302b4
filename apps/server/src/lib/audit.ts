import type { Actor } from './actor.js';
import type { Db, Tx } from '../db/index.js';
import { auditLog } from '../db/schema.js';

/**
 * Writes one audit row (DESIGN §10): who, what, when, from where, before and
 * after. Call inside the transaction of the change, so both land or neither.
 * Never pass secrets (password hashes, card or bank numbers) in before/after.
 */
export async function audit(
  db: Db | Tx,
  actor: Pick<Actor, 'ip'> & { clubId: number | null; userId: number | null },
  entry: {
    action: 'create' | 'update' | 'delete' | 'restore' | 'approve' | string;
    entity: string;
    entityId: string | number;
    before?: unknown;
    after?: unknown;
  },
): Promise<void> {
  await db.insert(auditLog).values({
    clubId: actor.clubId ?? null,
    userId: actor.userId ?? null,
    action: entry.action,
    entity: entry.entity,
    entityId: String(entry.entityId),
    before: entry.before ?? null,
    after: entry.after ?? null,
    ip: actor.ip,
  });
}
