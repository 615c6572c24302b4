import type { Actor } from '../../lib/actor.js';
import { and, eq, gte, sql } from 'drizzle-orm';
import type { BonusEntries } from '@venue/domain';
import type { Db } from '../../db/index.js';
import { balanceLedger, clients } from '../../db/schema.js';
import { audit } from '../../lib/audit.js';
import { AppError, notFound } from '../../lib/errors.js';
import { scoped } from '../../lib/scoped.js';

/**
 * Bonus entrances (reason EntryByBonus; docs/entrance-reasons.md "Bonus
 * entrances"): a count per client (clients.bonus_entries) that the gate
 * spends, one per entrance, before money. Every change is a balance_ledger
 * row of kind 'bonus' (delta in entrances), so the count always equals the
 * sum of its rows.
 *
 * Gives `count` bonus entrances to a client of the club (negative takes them
 * back; 422 VALIDATION_ERROR when that would go below 0; 404 for another
 * club's client). Audited.
 */
export async function addBonusEntries(db: Db, actor: Actor, clientId: number, count: number): Promise<BonusEntries> {
  const clubId = actor.clubId;
  return db.transaction(async (tx) => {
    const [c] = await tx
      .select({ id: clients.id, bonusEntries: clients.bonusEntries })
      .from(clients)
      .where(scoped(tx, clubId).live(clients, eq(clients.id, clientId)));
    if (!c) throw notFound('client');
    const [u] = await tx
      .update(clients)
      .set({ bonusEntries: sql`${clients.bonusEntries} + ${count}` })
      .where(and(eq(clients.id, c.id), gte(clients.bonusEntries, Math.max(0, -count))))
      .returning({ bonusEntries: clients.bonusEntries });
    if (!u) {
      throw new AppError('VALIDATION_ERROR', 'Not that many bonus entrances', [{ path: 'count', message: 'tooMany' }]);
    }
    const [l] = await tx
      .insert(balanceLedger)
      .values({ clubId, clientId: c.id, kind: 'bonus', delta: count, source: 'manager', userId: actor.userId })
      .returning({ id: balanceLedger.id });
    await audit(tx, actor, {
      action: 'update',
      entity: 'client.bonusEntries',
      entityId: c.id,
      before: { bonusEntries: c.bonusEntries },
      after: { bonusEntries: u.bonusEntries, ledgerId: l.id },
    });
    return { bonusEntries: u.bonusEntries };
  });
}
