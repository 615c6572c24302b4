import type { Tx } from '../../db/index.js';
import { balanceLedger } from '../../db/schema.js';

/**
 * The balance ledger (docs/money.md): every change of a client's money,
 * temporary, bonus or immersion balance has a row; the balance is the sum of
 * its rows.
 */

/** One balance_ledger row to write: a signed change (agorot, or immersions for 'subscription'). */
export interface LedgerEntry {
  clientId: number;
  kind: 'money' | 'temp' | 'bonus' | 'subscription';
  delta: number;
  source: string;
}

/**
 * Writes balance_ledger rows of one cause (`source` rows of `sourceId`), at
 * `at`, by `userId` (null: no user). Nothing when `entries` is empty.
 */
export async function writeLedger(
  tx: Tx,
  clubId: number,
  entries: LedgerEntry[],
  cause: { sourceId: number; at: Date; userId?: number | null },
): Promise<void> {
  if (!entries.length) return;
  await tx.insert(balanceLedger).values(
    entries.map((l) => ({
      clubId,
      clientId: l.clientId,
      kind: l.kind,
      delta: l.delta,
      source: l.source,
      sourceId: cause.sourceId,
      at: cause.at,
      userId: cause.userId ?? null,
    })),
  );
}
