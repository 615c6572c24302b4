import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Tx } from '../../db/index.js';
import { invoiceCounters, masavResults } from '../../db/schema.js';

/**
 * What happens to purchases paid by MASAV once the bank collected them
 * (issue 18: "a MASAV payment gets its receipt when collected, not when the
 * file is made"). Called inside the transaction that reads the return file,
 * after the debts are marked paid and their `masav_results` rows written, with
 * the ids of the collected purchases (each once, in ascending order).
 *
 * The document function of the invoices work is wired here by the lead
 * (`setMasavCollectedHook(issueReceiptsForCollected)` at start-up); until then
 * the default gives each collected purchase a receipt number from the club's
 * existing gap-free numbering (`invoice_counters`, the same counter as
 * invoice numbers) and records it on its `masav_results` row.
 */
export type MasavCollectedHook = (tx: Tx, clubId: number, purchaseIds: number[]) => Promise<void>;

/**
 * The default hook: the next number of the club's invoice counter for each
 * collected purchase, kept in `masav_results.receipt_number` (the counter row
 * stays locked until the transaction commits, so numbers have no gaps).
 */
export const assignReceiptNumbers: MasavCollectedHook = async (tx, clubId, purchaseIds) => {
  for (const purchaseId of purchaseIds) {
    const [counter] = await tx
      .insert(invoiceCounters)
      .values({ clubId, last: 1 })
      .onConflictDoUpdate({ target: invoiceCounters.clubId, set: { last: sql`${invoiceCounters.last} + 1` } })
      .returning({ last: invoiceCounters.last });
    await tx
      .update(masavResults)
      .set({ receiptNumber: counter.last })
      .where(
        and(
          eq(masavResults.clubId, clubId),
          inArray(masavResults.purchaseId, [purchaseId]),
          eq(masavResults.collected, true),
        ),
      );
  }
};

let hook: MasavCollectedHook = assignReceiptNumbers;

/** The hook in force (modules/masav calls it; tests and start-up may replace it). */
export const onMasavCollected: MasavCollectedHook = (tx, clubId, purchaseIds) =>
  purchaseIds.length ? hook(tx, clubId, purchaseIds) : Promise.resolve();

/** Replaces the hook (the invoices work's document function); returns the previous one. */
export function setMasavCollectedHook(next: MasavCollectedHook): MasavCollectedHook {
  const prev = hook;
  hook = next;
  return prev;
}
