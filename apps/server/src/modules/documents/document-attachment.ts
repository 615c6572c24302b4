import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/index.js';
import { purchaseDocuments } from '../../db/schema.js';
import { renderDocumentPdf } from './document-pdf.js';
import type { DocumentSnapshot } from './document-snapshot.js';

/**
 * A tax document of the club as an e-mail attachment for the member (docs/notifications.md
 * "Delivery and retries"): marked copy (העתק), since the original is the document's first print
 * (docs/money.md "Documents"); not counted as a print. Null when the club has no such document.
 */
export async function documentAttachment(
  db: Db,
  clubId: number,
  documentId: number,
): Promise<{ filename: string; content: Buffer; contentType: string } | null> {
  const [doc] = await db
    .select()
    .from(purchaseDocuments)
    .where(and(eq(purchaseDocuments.clubId, clubId), eq(purchaseDocuments.id, documentId)));
  if (!doc) return null;
  const pdf = await renderDocumentPdf(doc.snapshot as unknown as DocumentSnapshot, true);
  return { filename: `${doc.kind}-${doc.number}.pdf`, content: pdf, contentType: 'application/pdf' };
}
