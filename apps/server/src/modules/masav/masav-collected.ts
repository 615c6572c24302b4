import { and, eq } from 'drizzle-orm';
import type { Tx } from '../../db/index.js';
import { masavResults } from '../../db/schema.js';
import { issueDocumentForCollectedPayment } from '../documents/documents.service.js';

/**
 * What happens to purchases paid by MASAV once the bank collected them
 * (issue 18: "a MASAV payment gets its receipt when collected, not when the
 * file is made"). Called inside the transaction that reads the return file,
 * after the debts are marked paid and their `masav_results` rows written, with
 * the ids of the collected purchases (each once, in ascending order).
 */
export type MasavCollectedHook = (tx: Tx, clubId: number, purchaseIds: number[]) => Promise<void>;

/**
 * The default hook: each collected purchase gets its number from the club's
 * gap-free invoice numbering and its tax invoice-receipt (or receipt), dated
 * when collected (modules/documents `issueDocumentForCollectedPayment`); the
 * number is kept on its `masav_results` row.
 */
export const issueReceiptsForCollected: MasavCollectedHook = async (tx, clubId, purchaseIds) => {
  for (const purchaseId of purchaseIds) {
    const doc = await issueDocumentForCollectedPayment(tx, { clubId, purchaseId });
    await tx
      .update(masavResults)
      .set({ receiptNumber: doc.number })
      .where(
        and(eq(masavResults.clubId, clubId), eq(masavResults.purchaseId, purchaseId), eq(masavResults.collected, true)),
      );
  }
};

let hook: MasavCollectedHook = issueReceiptsForCollected;

/** The hook in force (modules/masav calls it; tests and start-up may replace it). */
export const onMasavCollected: MasavCollectedHook = (tx, clubId, purchaseIds) =>
  purchaseIds.length ? hook(tx, clubId, purchaseIds) : Promise.resolve();

/** Replaces the hook (the invoices work's document function); returns the previous one. */
export function setMasavCollectedHook(next: MasavCollectedHook): MasavCollectedHook {
  const prev = hook;
  hook = next;
  return prev;
}
