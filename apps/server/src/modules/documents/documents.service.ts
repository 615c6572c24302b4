import { and, asc, eq, sql } from 'drizzle-orm';
import {
  dealerRefusal,
  DocumentKind,
  nothingPaid,
  purchaseDocumentLines,
  PurchasePaymentStatus,
  type PurchaseDocument,
} from '@venue/domain';
import type { Db, Tx } from '../../db/index.js';
import {
  clients,
  clubs,
  debts,
  documentCounters,
  invoiceCounters,
  purchaseDocuments,
  purchaseItems,
  purchasePayments,
  purchases,
} from '../../db/schema.js';
import { AppError, notFound } from '../../lib/errors.js';
import { scoped } from '../../lib/scoped.js';
import { clubLocation, clubSettings } from '../club/club.service.js';
import type { DocumentLine, DocumentSnapshot } from './document-snapshot.js';
import { feeName, itemTypeName } from './document-text.js';
import { renderDocumentPdf } from './document-pdf.js';
import { clockNow } from '../../lib/clock.js';
import { assertNumbersOpen } from '../../lib/history-writing.js';

/**
 * Documents of purchases (issue 18; docs/money.md "Documents"): issue (a
 * snapshot of what is printed, numbered without gaps), print (the first PDF
 * is the original, every later one a copy, each print counted), list.
 */

type DocRow = typeof purchaseDocuments.$inferSelect;
type PurchaseRow = typeof purchases.$inferSelect;

/** A document row as the API lists it. */
export function presentDocument(d: DocRow): PurchaseDocument {
  return {
    id: d.id,
    purchaseId: d.purchaseId,
    kind: d.kind,
    number: d.number,
    issuedAt: d.issuedAt.toISOString(),
    prints: d.prints,
    emailedAt: d.emailedAt?.toISOString() ?? null,
  };
}

/** Whether the club issues Israeli tax documents (clubs whose country is Israel, seed 000 §3). */
function isIsraeli(club: typeof clubs.$inferSelect): boolean {
  return clubSettings(club).country === 'Israel';
}

/** The kind of a purchase's own document: a tax invoice-receipt in Israel, a receipt elsewhere. */
export function saleKind(israeli: boolean): DocumentKind {
  return israeli ? DocumentKind.InvoiceReceipt : DocumentKind.Receipt;
}

/** The kind of a refund's document: a tax credit invoice in Israel, a refund receipt elsewhere. */
export function creditKind(israeli: boolean): DocumentKind {
  return israeli ? DocumentKind.CreditInvoice : DocumentKind.RefundReceipt;
}

/**
 * The lines of a purchase as printed: each item with its price before VAT and
 * its VAT, and the card fee as its own line — `purchaseDocumentLines` of
 * packages/domain (the fee's VAT split back out of the first item's share), so
 * the lines' sums equal the purchase's totals exactly and a refund's lines are
 * the same lines. With `refunded`, only those lines, each for its refunded
 * amount and VAT (a credit document).
 */
export function documentLines(
  lang: 'he' | 'en',
  p: Pick<PurchaseRow, 'fee'>,
  items: (typeof purchaseItems.$inferSelect)[],
  refunded?: { key: number; quantity: number; amount: number; vat: number }[],
): DocumentLine[] {
  const all = purchaseDocumentLines(p.fee, items);
  const describe = (l: (typeof all)[number]) =>
    l.item ? [itemTypeName(lang, l.item.itemType), l.item.name].filter(Boolean).join(' – ') : feeName(lang);
  if (!refunded)
    return all.map((l) => ({
      description: describe(l),
      quantity: l.quantity,
      unitPrice: l.item ? l.item.unitPrice : l.total,
      beforeVat: l.total - l.vat,
      vat: l.vat,
      total: l.total,
    }));
  return refunded.map((r) => {
    const l = all.find((x) => x.key === r.key)!;
    // A line refunded whole prints its items and unit price; a part of a line prints one amount.
    const whole = r.quantity > 0 && r.amount === l.total;
    return {
      description: describe(l),
      quantity: whole ? r.quantity : 1,
      unitPrice: whole && l.item ? l.item.unitPrice : r.amount,
      beforeVat: r.amount - r.vat,
      vat: r.vat,
      total: r.amount,
    };
  });
}

/** The club's printed address: street and house number, city. */
function clubAddress(club: typeof clubs.$inferSelect): string {
  const s = clubSettings(club);
  const street = [s.addressStreet, s.addressHouseNumber].filter(Boolean).join(' ');
  return [street, s.addressCity].filter(Boolean).join(', ');
}

/**
 * Builds what a document of a purchase prints (its snapshot).
 * @param o.kind the document kind; o.number its gap-free number; o.issuedAt the tax event's instant
 * @throws AppError DEALER_IDENTITY_MISSING {fields} for an Israeli tax document while the club's
 *   dealer number or address is missing or invalid: a tax document is never frozen without them
 *   (docs/money.md "The dealer's identity on tax documents")
 */
async function buildSnapshot(
  db: Db | Tx,
  p: PurchaseRow,
  o: { kind: DocumentKind; number: number; issuedAt: Date; refersTo?: DocumentSnapshot['refersTo']; reason?: string },
): Promise<DocumentSnapshot> {
  const [club] = await db.select().from(clubs).where(eq(clubs.id, p.clubId));
  if (!club) throw notFound('club');
  const s = clubSettings(club);
  const lang = isIsraeli(club) ? 'he' : 'en';
  const dealer = dealerRefusal(s);
  if (dealer) throw new AppError(dealer.code, dealer.message, dealer.details);
  const [items, pays, client] = await Promise.all([
    db.select().from(purchaseItems).where(eq(purchaseItems.purchaseId, p.id)).orderBy(asc(purchaseItems.id)),
    db.select().from(purchasePayments).where(eq(purchasePayments.purchaseId, p.id)).orderBy(asc(purchasePayments.id)),
    p.clientId != null
      ? db
          .select({ firstName: clients.firstName, lastName: clients.lastName, personalId: clients.personalId })
          .from(clients)
          .where(and(eq(clients.id, p.clientId), eq(clients.clubId, p.clubId)))
          .then((r) => r[0])
      : Promise.resolve(undefined),
  ]);
  return {
    kind: o.kind,
    number: o.number,
    lang,
    issuedAt: o.issuedAt.toISOString(),
    timeZone: clubLocation(club).timeZone,
    currency: club.currency,
    club: { name: club.name, companyNumber: s.companyNumber, address: clubAddress(club), invoiceEmail: s.invoiceEmail },
    customer: client
      ? {
          name: `${client.firstName} ${client.lastName}`.trim(),
          personalId: client.personalId,
          clientId: p.clientId,
        }
      : null,
    lines: documentLines(lang, p, items),
    totals: {
      beforeVat: p.amountBeforeVat,
      vat: p.vat,
      vatRateBp: p.vatRateBp,
      total: p.total,
      rounding: p.rounding,
    },
    // Card numbers exist here only as their last four digits (PCI DSS; DOMAIN-FACTS).
    payments: pays.map((x) => ({ method: x.method, amount: x.amount, lastFour: x.lastFour })),
    refersTo: o.refersTo ?? null,
    reason: o.reason ?? '',
  };
}

/** Whether a stored purchase received nothing (`nothingPaid` of its payments; docs/money.md "Nothing paid"). */
export async function purchaseNothingPaid(db: Db | Tx, purchaseId: number): Promise<boolean> {
  const pays = await db
    .select({ method: purchasePayments.method, amount: purchasePayments.amount })
    .from(purchasePayments)
    .where(eq(purchasePayments.purchaseId, purchaseId));
  return nothingPaid(pays);
}

/**
 * Issues the purchase's own document (tax invoice-receipt in Israel, receipt elsewhere) unless it
 * exists; its number is the purchase's invoice number and its date the purchase's.
 * @returns the document row
 * @throws AppError NOT_FOUND (not the club's purchase), DOCUMENT_NOT_ISSUED (a MASAV payment not collected yet),
 *   DOCUMENT_NOT_REQUIRED (nothing was paid: no tax document, docs/money.md "Nothing paid")
 */
export async function issueSaleDocument(db: Db | Tx, clubId: number, purchaseId: number, userId: number | null) {
  const p = await scoped(db, clubId).one(purchases, purchaseId, 'purchase');
  const kinds = [DocumentKind.InvoiceReceipt, DocumentKind.Receipt];
  const existing = await db
    .select()
    .from(purchaseDocuments)
    .where(and(eq(purchaseDocuments.clubId, clubId), eq(purchaseDocuments.purchaseId, purchaseId)));
  const found = existing.find((d) => (kinds as number[]).includes(d.kind));
  if (found) return found;
  if (p.invoiceNumber == null) {
    if (p.paymentStatus !== PurchasePaymentStatus.Pending && (await purchaseNothingPaid(db, p.id)))
      throw new AppError('DOCUMENT_NOT_REQUIRED', 'Nothing was paid: a purchase paid by Free has no tax document');
    throw new AppError('DOCUMENT_NOT_ISSUED', 'The payment is not collected yet');
  }
  const [club] = await db.select().from(clubs).where(eq(clubs.id, clubId));
  const kind = saleKind(isIsraeli(club));
  const snapshot = await buildSnapshot(db, p, { kind, number: p.invoiceNumber, issuedAt: p.at });
  const [row] = await db
    .insert(purchaseDocuments)
    .values({
      clubId,
      purchaseId,
      kind,
      number: p.invoiceNumber,
      issuedAt: p.at,
      snapshot: snapshot as unknown as Record<string, unknown>,
      userId,
    })
    .onConflictDoNothing()
    .returning();
  if (row) return row;
  // A concurrent request issued it first.
  const [again] = await db
    .select()
    .from(purchaseDocuments)
    .where(
      and(
        eq(purchaseDocuments.clubId, clubId),
        eq(purchaseDocuments.purchaseId, purchaseId),
        eq(purchaseDocuments.kind, kind),
      ),
    );
  return again;
}

/**
 * Issues a credit document (credit invoice in Israel, refund receipt elsewhere) for one refund of a
 * purchase (whole or partial: exactly its lines, amount and VAT), inside the refund's transaction, numbered by the club's counter of that kind (no gaps:
 * the counter row stays locked until commit).
 */
export async function issueCreditDocument(
  tx: Tx,
  p: PurchaseRow,
  o: {
    refunded: { method: number; amount: number; lastFour: string }[];
    /** The refunded lines (key = item id, 0 the card fee) with their amounts and VAT. */
    lines: { key: number; quantity: number; amount: number; vat: number }[];
    /**
     * The cash rounding given back with this refund (agorot): the money returned less the lines'
     * total — the sale's rounding on the refund that completes the purchase, else 0 — so the credit
     * mirrors the sale document and the two net to zero (docs/money.md "Refunds").
     */
    rounding: number;
    reason: string;
    at: Date;
    userId: number | null;
  },
): Promise<DocRow> {
  const sale = await issueSaleDocument(tx, p.clubId, p.id, o.userId);
  const israeli = sale.kind === DocumentKind.InvoiceReceipt;
  const kind = creditKind(israeli);
  const [counter] = await tx
    .insert(documentCounters)
    .values({ clubId: p.clubId, kind, last: 1 })
    .onConflictDoUpdate({
      target: [documentCounters.clubId, documentCounters.kind],
      set: { last: sql`${documentCounters.last} + 1` },
    })
    .returning({ last: documentCounters.last });
  const snapshot = await buildSnapshot(tx, p, {
    kind,
    number: counter.last,
    issuedAt: o.at,
    refersTo: { kind: sale.kind as DocumentKind, number: sale.number },
    reason: o.reason,
  });
  // Exactly the refunded amount: its lines, totals and where the money went.
  const [items] = [
    await tx.select().from(purchaseItems).where(eq(purchaseItems.purchaseId, p.id)).orderBy(asc(purchaseItems.id)),
  ];
  snapshot.lines = documentLines(snapshot.lang, p, items, o.lines);
  const total = o.lines.reduce((s, l) => s + l.amount, 0);
  const vat = o.lines.reduce((s, l) => s + l.vat, 0);
  snapshot.totals = { beforeVat: total - vat, vat, vatRateBp: p.vatRateBp, total, rounding: o.rounding };
  snapshot.payments = o.refunded;
  const [row] = await tx
    .insert(purchaseDocuments)
    .values({
      clubId: p.clubId,
      purchaseId: p.id,
      kind,
      number: counter.last,
      issuedAt: o.at,
      snapshot: snapshot as unknown as Record<string, unknown>,
      userId: o.userId,
    })
    .returning();
  return row;
}

/** The documents of a club's purchase, in issue order. @throws AppError NOT_FOUND */
export async function listPurchaseDocuments(db: Db, clubId: number, purchaseId: number): Promise<PurchaseDocument[]> {
  await scoped(db, clubId).one(purchases, purchaseId, 'purchase');
  const rows = await db
    .select()
    .from(purchaseDocuments)
    .where(and(eq(purchaseDocuments.clubId, clubId), eq(purchaseDocuments.purchaseId, purchaseId)))
    .orderBy(asc(purchaseDocuments.id));
  return rows.map(presentDocument);
}

/** A printed document: its PDF and file name. */
export interface PrintedDocument {
  filename: string;
  pdf: Buffer;
  copy: boolean;
}

/**
 * Prints a document of the club: counts the print (atomically: of two requests at once exactly one
 * gets the original) and renders the PDF, the first print marked original (מקור), every later one
 * copy (העתק) — Income Tax bookkeeping instructions (docs/money.md "Documents").
 * @throws AppError NOT_FOUND (not the club's document)
 */
export async function printDocument(db: Db, clubId: number, documentId: number): Promise<PrintedDocument> {
  const [row] = await db
    .update(purchaseDocuments)
    .set({ prints: sql`${purchaseDocuments.prints} + 1`, lastPrintedAt: new Date() })
    .where(and(eq(purchaseDocuments.clubId, clubId), eq(purchaseDocuments.id, documentId)))
    .returning();
  if (!row) throw notFound('document');
  const snap = row.snapshot as unknown as DocumentSnapshot;
  const copy = row.prints > 1;
  const pdf = await renderDocumentPdf(snap, copy);
  return { filename: `${row.kind}-${row.number}${copy ? '-copy' : ''}.pdf`, pdf, copy };
}

/**
 * Prints the purchase's own document, issuing it first when this is its first request.
 * @throws AppError NOT_FOUND, DOCUMENT_NOT_ISSUED (a MASAV payment not collected yet), DOCUMENT_NOT_REQUIRED (nothing paid)
 */
export async function printPurchaseDocument(
  db: Db,
  clubId: number,
  purchaseId: number,
  userId: number | null,
): Promise<PrintedDocument> {
  const doc = await issueSaleDocument(db, clubId, purchaseId, userId);
  return printDocument(db, clubId, doc.id);
}

/**
 * The MASAV collection of a purchase (for the MASAV return-file reader, helper "acct"; docs/money.md
 * "Documents"): a purchase paid by MASAV has no invoice number until its debit is collected. Call
 * this inside the transaction that records the collection: it takes the club's next invoice number
 * (invoice_counters, no gaps), sets it on the purchase, marks the purchase Paid and issues its tax
 * invoice-receipt (or receipt) dated `collectedAt`. Idempotent: a purchase that already has its
 * number answers its document unchanged.
 *
 * @param ref.clubId the club; ref.purchaseId the purchase, or ref.debtId the MASAV debt
 *   (debts.purchase_id names its purchase); ref.collectedAt the value date of the collection
 * @returns the document (as the API lists it)
 * @throws AppError NOT_FOUND (no such purchase or debt in the club, or a debt without a purchase),
 *   HISTORY_BEING_WRITTEN (the club's demo history is still being written)
 */
export async function issueDocumentForCollectedPayment(
  tx: Tx,
  ref: { clubId: number; purchaseId?: number; debtId?: number; collectedAt?: Date; userId?: number | null },
): Promise<PurchaseDocument> {
  assertNumbersOpen(ref.clubId);
  let purchaseId = ref.purchaseId;
  if (purchaseId == null && ref.debtId != null) {
    const [d] = await tx
      .select({ purchaseId: debts.purchaseId })
      .from(debts)
      .where(and(eq(debts.clubId, ref.clubId), eq(debts.id, ref.debtId)));
    purchaseId = d?.purchaseId ?? undefined;
  }
  if (purchaseId == null) throw notFound('purchase');
  const [p] = await tx
    .select()
    .from(purchases)
    .where(and(eq(purchases.clubId, ref.clubId), eq(purchases.id, purchaseId)))
    .for('update');
  if (!p) throw notFound('purchase');
  if (p.invoiceNumber == null) {
    const [counter] = await tx
      .insert(invoiceCounters)
      .values({ clubId: ref.clubId, last: 1 })
      .onConflictDoUpdate({ target: invoiceCounters.clubId, set: { last: sql`${invoiceCounters.last} + 1` } })
      .returning({ last: invoiceCounters.last });
    const at = ref.collectedAt ?? clockNow();
    await tx
      .update(purchases)
      .set({ invoiceNumber: counter.last, paymentStatus: PurchasePaymentStatus.Paid })
      .where(eq(purchases.id, p.id));
    const updated = { ...p, invoiceNumber: counter.last, paymentStatus: PurchasePaymentStatus.Paid };
    const [club] = await tx.select().from(clubs).where(eq(clubs.id, ref.clubId));
    const kind = saleKind(isIsraeli(club));
    const snapshot = await buildSnapshot(tx, updated, { kind, number: counter.last, issuedAt: at });
    const [row] = await tx
      .insert(purchaseDocuments)
      .values({
        clubId: ref.clubId,
        purchaseId: p.id,
        kind,
        number: counter.last,
        issuedAt: at,
        snapshot: snapshot as unknown as Record<string, unknown>,
        userId: ref.userId ?? null,
      })
      .returning();
    return presentDocument(row);
  }
  return presentDocument(await issueSaleDocument(tx, ref.clubId, p.id, ref.userId ?? null));
}
