import { and, eq, sql } from 'drizzle-orm';
import {
  InvoiceMailSettings,
  type InvoiceMailSettingsView,
  type InvoiceMailSettings as MailInput,
} from '@venue/domain';
import type { Db } from '../../db/index.js';
import { clubMoneySettings, clubs, purchaseDocuments } from '../../db/schema.js';
import { audit } from '../../lib/audit.js';
import type { Actor } from '../../lib/actor.js';
import { dataKeys, decrypt, encrypt } from '../../lib/crypto.js';
import { AppError, notFound } from '../../lib/errors.js';
import { clubSettings } from '../club/club.service.js';
import type { DocumentSnapshot } from './document-snapshot.js';
import { renderDocumentPdf } from './document-pdf.js';
import { DOC_TEXT } from './document-text.js';
import { recordMailSend } from '../../lib/metrics.js';
import { issueSaleDocument } from './documents.service.js';

/**
 * Sending documents to the club's invoice e-mail (seed 001 §3 club settings
 * "invoice e-mail"; docs/money.md "Documents"): the club's SMTP settings in
 * its money settings (the password AES-256-GCM encrypted, never answered) and
 * nodemailer (MIT-0) as the mail transport.
 */

type Stored = Partial<Omit<MailInput, 'password'>> & { passwordEnc?: string };

const AAD = (clubId: number) => `invoice-mail:${clubId}`;

async function readStored(db: Db, clubId: number): Promise<Stored> {
  const [row] = await db
    .select({ m: clubMoneySettings.invoiceMail })
    .from(clubMoneySettings)
    .where(eq(clubMoneySettings.clubId, clubId));
  return (row?.m ?? {}) as Stored;
}

/** The settings as answered: defaults applied, the password left out, the club's invoice e-mail. */
function view(s: Stored, invoiceEmail: string): InvoiceMailSettingsView {
  const { passwordEnc, invoiceEmail: _i, ...plain } = s;
  const { password: _p, ...rest } = InvoiceMailSettings.parse({ ...plain, password: '' });
  return { ...rest, invoiceEmail, passwordSet: !!passwordEnc };
}

/** The club's invoice e-mail (club settings, seed 001 §3). @throws AppError NOT_FOUND (club) */
async function invoiceEmailOf(db: Db, clubId: number): Promise<string> {
  const [club] = await db.select({ settings: clubs.settings }).from(clubs).where(eq(clubs.id, clubId));
  if (!club) throw notFound('club');
  return clubSettings(club).invoiceEmail;
}

/** The club's SMTP settings and invoice e-mail, without the password (`passwordSet` tells whether one is stored). */
export async function getMailSettings(db: Db, clubId: number): Promise<InvoiceMailSettingsView> {
  return view(await readStored(db, clubId), await invoiceEmailOf(db, clubId));
}

/** Saves the club's SMTP settings; an empty password keeps the stored one. Audited (without the password). */
export async function saveMailSettings(db: Db, actor: Actor, input: MailInput): Promise<InvoiceMailSettingsView> {
  const before = await readStored(db, actor.clubId);
  const email = await invoiceEmailOf(db, actor.clubId);
  const { password, invoiceEmail, ...rest } = input;
  const passwordEnc = password ? encrypt(await dataKeys(db), password, AAD(actor.clubId)) : before.passwordEnc;
  const next: Stored = { ...rest, ...(passwordEnc ? { passwordEnc } : {}) };
  const nextEmail = invoiceEmail ?? email;
  await db.transaction(async (tx) => {
    await tx
      .insert(clubMoneySettings)
      .values({ clubId: actor.clubId, invoiceMail: next })
      .onConflictDoUpdate({ target: clubMoneySettings.clubId, set: { invoiceMail: next } });
    if (nextEmail !== email) {
      await tx
        .update(clubs)
        .set({
          settings: sql`coalesce(${clubs.settings}, '{}'::jsonb) || jsonb_build_object('invoiceEmail', ${nextEmail}::text)`,
        })
        .where(eq(clubs.id, actor.clubId));
    }
    await audit(tx, actor, {
      action: 'update',
      entity: 'invoiceMailSettings',
      entityId: actor.clubId,
      before: view(before, email),
      after: view(next, nextEmail),
    });
  });
  return view(next, nextEmail);
}

/**
 * E-mails the purchase's own document (tax invoice-receipt or receipt) to the club's invoice
 * e-mail by `emailDocument`, issuing it first when it has not been (`issueSaleDocument`): the front
 * desk's receipt (docs/front-desk.md "Receipt"). Sending is not a print.
 * @throws AppError NOT_FOUND, DOCUMENT_NOT_ISSUED, DOCUMENT_NOT_REQUIRED, MAIL_NOT_CONFIGURED, MAIL_SEND_FAILED
 */
export async function emailPurchaseDocument(
  db: Db,
  actor: Pick<Actor, 'clubId' | 'userId'>,
  purchaseId: number,
): Promise<{ to: string; messageId: string }> {
  const doc = await issueSaleDocument(db, actor.clubId, purchaseId, actor.userId);
  return emailDocument(db, actor.clubId, doc.id);
}

/**
 * E-mails a document of the club to the club's invoice e-mail as a PDF attachment. The mailbox is
 * the club's own record, so the attachment is a copy (העתק) and is not counted as a print (the
 * original goes to the customer). Records `emailed_at`.
 * @returns the recipient and the SMTP message id
 * @throws AppError NOT_FOUND (not the club's document), MAIL_NOT_CONFIGURED (no invoice e-mail or
 *   SMTP host), MAIL_SEND_FAILED (details.reason: the SMTP server's answer)
 */
export async function emailDocument(
  db: Db,
  clubId: number,
  documentId: number,
): Promise<{ to: string; messageId: string }> {
  const [doc] = await db
    .select()
    .from(purchaseDocuments)
    .where(and(eq(purchaseDocuments.clubId, clubId), eq(purchaseDocuments.id, documentId)));
  if (!doc) throw notFound('document');
  const [club] = await db.select().from(clubs).where(eq(clubs.id, clubId));
  const snap = doc.snapshot as unknown as DocumentSnapshot;
  const pdf = await renderDocumentPdf(snap, true);
  const title = `${DOC_TEXT[snap.lang].title[snap.kind]} ${snap.number}`;
  const sent = await sendToInvoiceMail(db, clubId, 'document', {
    subject: `${club.name}: ${title}`,
    text: `${title}\n${club.name}`,
    attachments: [{ filename: `${doc.kind}-${doc.number}.pdf`, content: pdf, contentType: 'application/pdf' }],
  });
  await db.update(purchaseDocuments).set({ emailedAt: new Date() }).where(eq(purchaseDocuments.id, doc.id));
  return sent;
}

/**
 * Sends a test e-mail to the club's invoice e-mail with its stored SMTP settings (the settings
 * screen's "send test e-mail").
 * @returns the recipient and the SMTP message id
 * @throws AppError MAIL_NOT_CONFIGURED (no invoice e-mail or SMTP host), MAIL_SEND_FAILED (details.reason)
 */
export async function sendTestMail(db: Db, clubId: number): Promise<{ to: string; messageId: string }> {
  const [club] = await db.select({ name: clubs.name }).from(clubs).where(eq(clubs.id, clubId));
  if (!club) throw notFound('club');
  return sendToInvoiceMail(db, clubId, 'test', {
    subject: `${club.name}: test e-mail / דוא״ל בדיקה`,
    text: `This test e-mail was sent by the club's mail settings.\nדוא״ל בדיקה זה נשלח מהגדרות הדואר של המועדון.\n${club.name}`,
  });
}

/** One message to the club's invoice e-mail through its SMTP settings (nodemailer). */
async function sendToInvoiceMail(
  db: Db,
  clubId: number,
  kind: 'document' | 'test',
  message: {
    subject: string;
    text: string;
    attachments?: { filename: string; content: Buffer; contentType: string }[];
  },
): Promise<{ to: string; messageId: string }> {
  const to = await invoiceEmailOf(db, clubId);
  const s = await readStored(db, clubId);
  if (!to || !s.host) throw new AppError('MAIL_NOT_CONFIGURED', 'No invoice e-mail or SMTP server is set');
  const pass = s.passwordEnc ? decrypt(await dataKeys(db), s.passwordEnc, AAD(clubId)) : undefined;
  // Loaded at the first e-mail, not at every start (bench/restart.bench.mjs).
  const { default: nodemailer } = await import('nodemailer');
  const transport = nodemailer.createTransport({
    host: s.host,
    port: s.port ?? 587,
    secure: s.secure ?? false,
    auth: s.user ? { user: s.user, pass } : undefined,
    connectionTimeout: 15_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  try {
    const info = await transport.sendMail({ from: s.from || to, to, ...message });
    recordMailSend(kind, 'sent');
    return { to, messageId: info.messageId };
  } catch (err) {
    recordMailSend(kind, 'failed');
    throw new AppError('MAIL_SEND_FAILED', 'The e-mail could not be sent', { reason: (err as Error).message });
  } finally {
    transport.close();
  }
}
