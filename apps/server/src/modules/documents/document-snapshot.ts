import type { DocumentKind } from '@venue/domain';

/**
 * Everything a document prints, frozen when it is issued (docs/money.md
 * "Documents"): a reprint years later shows the same club details, customer,
 * lines and payments even when the club or client changed since. Money in
 * minor units (agorot, cents); `issuedAt` an ISO instant shown in `timeZone`.
 */
export interface DocumentSnapshot {
  kind: DocumentKind;
  number: number;
  /** he for clubs in Israel (tax invoice-receipt, credit invoice), en elsewhere (receipt, refund receipt). */
  lang: 'he' | 'en';
  issuedAt: string;
  /** IANA time zone of the club's location. */
  timeZone: string;
  /** ISO 4217 numeric (seed 000 §3 currency codes). */
  currency: number;
  club: { name: string; companyNumber: string; address: string; invoiceEmail: string };
  customer: { name: string; personalId: string; clientId: number | null } | null;
  lines: DocumentLine[];
  totals: { beforeVat: number; vat: number; vatRateBp: number; total: number; rounding: number };
  payments: { method: number; amount: number; lastFour: string }[];
  /** A credit document: the document it credits. */
  refersTo: { kind: DocumentKind; number: number } | null;
  reason: string;
}

/** One line: quantity × unit price (with VAT) = total; total = beforeVat + vat. */
export interface DocumentLine {
  description: string;
  quantity: number;
  unitPrice: number;
  beforeVat: number;
  vat: number;
  total: number;
}
