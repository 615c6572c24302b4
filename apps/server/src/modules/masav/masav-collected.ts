import { and, eq } from 'drizzle-orm';
import type { Tx } from '../../db/index.js';
import { masavResults } from '../../db/schema.js';
import { issueDocumentForCollectedPayment } from '../documents/documents.service.js';

/**
 * What happens to purchases paid by MASAV once the bank collected them (issue
 * 18: "a MASAV payment gets its receipt when collected, not when the file is
 * made"). Called inside the transaction that reads the return file, after the
 * debts are marked paid and their `masav_results` rows written, with the ids
 * of the collected purchases (each once, ascending): each takes the next number
 * of the club's gap-free invoice numbering and its tax invoice-receipt (or
 * receipt), dated when the return file is read (modules/documents
 * `issueDocumentForCollectedPayment`); the number is kept on its
 * `masav_results` row.
 */
export async function onMasavCollected(tx: Tx, clubId: number, purchaseIds: number[]): Promise<void> {
  for (const purchaseId of purchaseIds) {
    const doc = await issueDocumentForCollectedPayment(tx, { clubId, purchaseId });
    await tx
      .update(masavResults)
      .set({ receiptNumber: doc.number })
      .where(
        and(eq(masavResults.clubId, clubId), eq(masavResults.purchaseId, purchaseId), eq(masavResults.collected, true)),
      );
  }
}
