import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Actor } from '../../lib/actor.js';
import { MasavSettings } from '@venue/domain';
import type { z } from 'zod';
import type { Db, Tx } from '../../db/index.js';
import {
  clients,
  clubMoneySettings,
  debts,
  masavFiles,
  masavResults,
  paymentMethods,
  purchaseItems,
  purchasePayments,
  purchases,
} from '../../db/schema.js';
import { audit } from '../../lib/audit.js';
import { noticeMasavRejected } from '../notifications/money-notices.js';
import { AppError } from '../../lib/errors.js';
import { scoped } from '../../lib/scoped.js';
import { validationError } from '../../lib/validation.js';
import { buildMasavDebitFile, type MasavDebit } from '../../integrations/masav/writer.js';
import { MasavReturnFormatError, readMasavReturnFile } from '../../integrations/masav/return-file.js';
import { onMasavCollected } from './masav-collected.js';
import {
  PaymentMethod,
  PurchaseItemType,
  PurchasePayer,
  PurchasePaymentStatus,
  splitVat,
  vatRateBasisPoints,
} from '@venue/domain';
import { clubSettings, clubToday, getClubRow } from '../club/club.service.js';
import { bankSecret } from '../payment-methods/payment-methods.service.js';
import { clockNow } from '../../lib/clock.js';

/**
 * MASAV files (seed 000 §7 "Masav files"; DESIGN §7): a direct-debit file
 * from the clients with a MASAV authorization and what they owe (their open
 * debts, including purchases paid by MASAV), in the clearing center's format
 * (integrations/masav/writer.ts).
 */

type FileRow = typeof masavFiles.$inferSelect;
export const presentMasavFile = (r: FileRow) => ({
  id: r.id,
  createdAt: r.createdAt.toISOString(),
  testMode: r.testMode,
  serial: r.serial,
  valueDate: r.valueDate,
  count: r.count,
  total: r.total,
  returnedAt: r.returnedAt?.toISOString() ?? null,
});

/** The reference of a debit in the file: the authorization's own, else the client id (stable per authorization). */
export const masavReference = (pm: { reference: string | null; clientId: number }) =>
  (pm.reference ?? String(pm.clientId)).replace(/^0+(?=\d)/, '');

/** The club's MASAV institution settings, or null when never saved (GET /api/MasavFile/Settings). */
export async function masavSettings(db: Db, clubId: number): Promise<z.infer<typeof MasavSettings> | null> {
  const [r] = await scoped(db, clubId).list(clubMoneySettings);
  const parsed = MasavSettings.safeParse(r?.masav ?? {});
  return parsed.success ? parsed.data : null;
}

export async function saveMasavSettings(db: Db, actor: Actor, s: z.infer<typeof MasavSettings>) {
  const before = await masavSettings(db, actor.clubId);
  await db
    .insert(clubMoneySettings)
    .values({ clubId: actor.clubId, masav: s })
    .onConflictDoUpdate({ target: clubMoneySettings.clubId, set: { masav: s } });
  await audit(db, actor, { action: 'update', entity: 'masavSettings', entityId: actor.clubId, before, after: s });
  return s;
}

/**
 * Builds a MASAV debit file. Each client with a live MASAV authorization
 * (authorization expiry not before the value date) is debited the sum of its
 * open debts not already in a file, oldest first, up to the authorization's
 * charge limit (a debt that does not fit waits for the next file). Not in
 * test mode the debts included are marked with the file (in collection), so
 * no later file collects them again; in test mode nothing changes but the
 * stored file. The serial counts the club's real files (1–999, then 1 again).
 *
 * @throws VALIDATION_ERROR masavSettingsRequired; NOTHING_TO_COLLECT.
 */
export async function createMasavFile(
  db: Db,
  actor: Actor,
  opts: { testMode: boolean; valueDate?: string; at?: Date },
) {
  const clubId = actor.clubId;
  const settings = await masavSettings(db, clubId);
  if (!settings) throw validationError([{ path: 'masav', message: 'masavSettingsRequired' }]);
  const club = await getClubRow(db, clubId);
  const today = clubToday(club.location, opts.at ?? clockNow());
  const valueDate = opts.valueDate ?? today;

  const rows = await db
    .select({ pm: paymentMethods, debt: debts, first: clients.firstName, last: clients.lastName })
    .from(debts)
    .innerJoin(
      paymentMethods,
      and(
        eq(paymentMethods.clientId, debts.clientId),
        eq(paymentMethods.kind, 'masav'),
        eq(paymentMethods.deleted, false),
      ),
    )
    .innerJoin(clients, eq(clients.id, debts.clientId))
    .where(
      scoped(db, clubId).live(
        debts,
        isNull(debts.masavFileId),
        sql`${debts.amount} > ${debts.paid}`,
        sql`(${paymentMethods.authExpiry} is null or ${paymentMethods.authExpiry} >= ${valueDate}::date)`,
      ),
    )
    .orderBy(debts.clientId, debts.createdAt, debts.id);

  const byClient = new Map<
    number,
    { pm: (typeof rows)[number]['pm']; name: string; debtIds: number[]; amount: number }
  >();
  for (const r of rows) {
    let e = byClient.get(r.pm.clientId);
    if (!e) {
      e = { pm: r.pm, name: r.pm.ownerName || `${r.first} ${r.last}`.trim(), debtIds: [], amount: 0 };
      byClient.set(r.pm.clientId, e);
    }
    const open = r.debt.amount - r.debt.paid;
    if (e.pm.chargeLimit > 0 && e.amount + open > e.pm.chargeLimit) continue;
    e.amount += open;
    e.debtIds.push(r.debt.id);
  }
  const debits: MasavDebit[] = [];
  const included: number[] = [];
  for (const e of byClient.values()) {
    if (e.amount <= 0) continue;
    const bank = await bankSecret(db, e.pm);
    debits.push({
      bankCode: e.pm.bankCode!,
      branch: bank.branch,
      account: bank.account,
      payerId: bank.ownerId,
      payerName: e.name,
      amount: e.amount,
      reference: masavReference(e.pm),
    });
    included.push(...e.debtIds);
  }
  if (!debits.length) throw new AppError('NOTHING_TO_COLLECT', 'Nothing to collect');

  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${0x4d535646}, ${clubId})`);
    const [{ n }] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(masavFiles)
      .where(scoped(tx, clubId).where(masavFiles, eq(masavFiles.testMode, false)));
    const serial = (Number(n) % 999) + 1;
    const content = buildMasavDebitFile({
      institution: settings,
      valueDate,
      createdDate: today,
      serial,
      debits,
    });
    const [file] = await tx
      .insert(masavFiles)
      .values({
        clubId,
        testMode: opts.testMode,
        serial,
        valueDate,
        count: debits.length,
        total: debits.reduce((s, d) => s + d.amount, 0),
        content,
        userId: actor.userId,
      })
      .returning();
    if (!opts.testMode) {
      for (let i = 0; i < included.length; i += 5000) {
        const chunk = included.slice(i, i + 5000);
        await tx
          .update(debts)
          .set({ masavFileId: file.id })
          .where(scoped(tx, clubId).where(debts, inArray(debts.id, chunk)));
      }
    }
    await audit(tx, actor, { action: 'create', entity: 'masavFile', entityId: file.id, after: presentMasavFile(file) });
    return presentMasavFile(file);
  });
}

/** The club's MASAV files without their content, newest first (GET /api/MasavFile). */
export async function listMasavFiles(db: Db, clubId: number) {
  const rows = await db
    .select({
      id: masavFiles.id,
      clubId: masavFiles.clubId,
      createdAt: masavFiles.createdAt,
      testMode: masavFiles.testMode,
      serial: masavFiles.serial,
      valueDate: masavFiles.valueDate,
      count: masavFiles.count,
      total: masavFiles.total,
      returnedAt: masavFiles.returnedAt,
    })
    .from(masavFiles)
    .where(scoped(db, clubId).where(masavFiles))
    .orderBy(desc(masavFiles.createdAt), desc(masavFiles.id));
  return rows.map((r) => presentMasavFile({ ...r, content: Buffer.alloc(0), userId: null }));
}

/**
 * A MASAV file's name and content (GET /api/MasavFile/Download/{id}); a test file's name starts with TEST-.
 * @throws AppError NOT_FOUND (404) when the id is not a MASAV file of this club
 */
export async function downloadMasavFile(db: Db, clubId: number, id: number) {
  const r = await scoped(db, clubId).one(masavFiles, id, 'masav file');
  return {
    name: `${r.testMode ? 'TEST-' : ''}masav-${String(r.serial).padStart(3, '0')}-${r.valueDate}.msv`,
    content: r.content,
  };
}

/**
 * Reads the bank's return file of a sent MASAV file (docs/money.md "MASAV
 * return file") and settles the file's debts in one transaction: the debits
 * the bank returned go back to open debts (out of the file, so the next file
 * or the desk collects them) with the bank's reason code; every other debt of
 * the file is collected: paid in full, its MASAV purchase marked paid, and
 * `onMasavCollected` called with those purchases (their receipts). Each debt
 * gets a `masav_results` row; the file gets `returned_at`, so a file is
 * settled once.
 *
 * The file is found by the header's institution code, value date and serial
 * among this club's real (not test) files.
 * @throws FILE_REQUIRED (no file); VALIDATION_ERROR masavReturnFormat,
 *   masavReturnTotals, masavReturnUnknownFile, masavReturnAlreadyRead,
 *   masavReturnUnknownDebit (a returned record that is not a debit of the file).
 */
export async function readMasavReturn(db: Db, actor: Actor, content: Buffer | null) {
  if (!content?.length) throw new AppError('FILE_REQUIRED', 'A file is required');
  const clubId = actor.clubId;
  let parsed;
  try {
    parsed = readMasavReturnFile(content);
  } catch (err) {
    if (err instanceof MasavReturnFormatError) throw validationError([{ path: 'file', message: err.reason }]);
    throw err;
  }
  const settings = await masavSettings(db, clubId);
  const [file] = await db
    .select()
    .from(masavFiles)
    .where(
      scoped(db, clubId).where(
        masavFiles,
        eq(masavFiles.testMode, false),
        eq(masavFiles.serial, parsed.serial),
        eq(masavFiles.valueDate, parsed.valueDate),
      ),
    )
    .orderBy(desc(masavFiles.id))
    .limit(1);
  if (!file || (settings && settings.institutionCode !== parsed.institution))
    throw validationError([{ path: 'file', message: 'masavReturnUnknownFile' }]);
  if (file.returnedAt) throw validationError([{ path: 'file', message: 'masavReturnAlreadyRead' }]);
  return db.transaction(async (tx) => settleMasavFile(tx, actor, file, parsed.records));
}

/** The file's debts with the reference each was debited under, oldest first. */
async function fileDebts(tx: Tx, clubId: number, fileId: number) {
  const rows = await tx
    .select({ debt: debts, pmReference: paymentMethods.reference, pmId: paymentMethods.id })
    .from(debts)
    .leftJoin(
      paymentMethods,
      and(
        eq(paymentMethods.clientId, debts.clientId),
        eq(paymentMethods.kind, 'masav'),
        eq(paymentMethods.clubId, clubId),
      ),
    )
    .where(scoped(tx, clubId).where(debts, eq(debts.masavFileId, fileId)))
    .orderBy(debts.id, desc(paymentMethods.id));
  const seen = new Map<number, { debt: typeof debts.$inferSelect; reference: string }>();
  for (const r of rows) {
    if (seen.has(r.debt.id)) continue; // the newest authorization of the client
    seen.set(r.debt.id, {
      debt: r.debt,
      reference: masavReference({ reference: r.pmReference, clientId: r.debt.clientId }),
    });
  }
  return [...seen.values()];
}

type ReturnRecord = ReturnType<typeof readMasavReturnFile>['records'][number];

async function settleMasavFile(tx: Tx, actor: Actor, file: typeof masavFiles.$inferSelect, returned: ReturnRecord[]) {
  const clubId = actor.clubId;
  await tx.execute(sql`select pg_advisory_xact_lock(${0x4d535646}, ${clubId})`);
  const [fresh] = await tx
    .select({ returnedAt: masavFiles.returnedAt })
    .from(masavFiles)
    .where(scoped(tx, clubId).where(masavFiles, eq(masavFiles.id, file.id)));
  if (fresh?.returnedAt) throw validationError([{ path: 'file', message: 'masavReturnAlreadyRead' }]);
  const all = await fileDebts(tx, clubId, file.id);
  const byRef = new Map<string, typeof all>();
  for (const d of all) byRef.set(d.reference, [...(byRef.get(d.reference) ?? []), d]);
  const rejected = new Map<number, string>();
  for (const r of returned) {
    const ds = byRef.get(r.reference);
    const open = ds?.reduce((s, d) => s + d.debt.amount - d.debt.paid, 0);
    if (!ds || open !== r.amount) throw validationError([{ path: 'file', message: 'masavReturnUnknownDebit' }]);
    for (const d of ds) rejected.set(d.debt.id, r.reason);
  }
  const now = clockNow();
  const collectedPurchases: number[] = [];
  const collectedPurchaseOf = new Map<number, number>();
  const out = { fileId: file.id, collected: 0, collectedAmount: 0, rejected: 0, rejectedAmount: 0 };
  for (const { debt } of all) {
    const amount = debt.amount - debt.paid;
    const reason = rejected.get(debt.id);
    const where = scoped(tx, clubId).where(debts, eq(debts.id, debt.id));
    if (reason != null) {
      await tx.update(debts).set({ masavFileId: null, returnReason: reason }).where(where);
      out.rejected++;
      out.rejectedAmount += amount;
    } else {
      await tx.update(debts).set({ paid: debt.amount, returnReason: null }).where(where);
      let purchaseId = debt.purchaseId;
      if (purchaseId == null) {
        // A debt without a sale (a failed renewal's, one registered at the desk): the collection is
        // its sale — a debt payment paid by MASAV, documented with the file's other collections.
        purchaseId = await writeCollectionPurchase(tx, { clubId, fileId: file.id, debt, amount, at: now });
        collectedPurchases.push(purchaseId);
      } else {
        // Only a sale still waiting for the bank gets its document; one closed meanwhile (paid at the
        // desk or written off: Cancelled) was counted in the document that took the money.
        const pending = await tx
          .update(purchases)
          .set({ paymentStatus: PurchasePaymentStatus.Paid })
          .where(
            scoped(tx, clubId).where(
              purchases,
              eq(purchases.id, purchaseId),
              eq(purchases.paymentStatus, PurchasePaymentStatus.Pending),
            ),
          )
          .returning({ id: purchases.id });
        if (pending.length) collectedPurchases.push(purchaseId);
      }
      collectedPurchaseOf.set(debt.id, purchaseId);
      out.collected++;
      out.collectedAmount += amount;
    }
    await tx.insert(masavResults).values({
      clubId,
      masavFileId: file.id,
      debtId: debt.id,
      clientId: debt.clientId,
      purchaseId: collectedPurchaseOf.get(debt.id) ?? debt.purchaseId,
      amount,
      collected: reason == null,
      reasonCode: reason ?? '',
      at: now,
    });
  }
  await tx
    .update(masavFiles)
    .set({ returnedAt: now })
    .where(scoped(tx, clubId).where(masavFiles, eq(masavFiles.id, file.id)));
  await noticeMasavRejected(
    tx,
    clubId,
    all
      .filter(({ debt }) => rejected.has(debt.id))
      .map(({ debt }) => ({
        clientId: debt.clientId,
        amount: debt.amount - debt.paid,
        reason: rejected.get(debt.id)!,
      })),
  );
  await onMasavCollected(
    tx,
    clubId,
    [...new Set(collectedPurchases)].sort((a, b) => a - b),
  );
  await audit(tx, actor, { action: 'update', entity: 'masavReturn', entityId: file.id, after: out });
  return out;
}

/**
 * The sale of a debt without one that a MASAV file collected (docs/money.md "MASAV: a debt
 * without a sale"): a purchase of the debt's client with one PayDebt line of `amount` agorot paid
 * by MASAV, VAT at the club's rate on the collection day, source 'masav', Pending until
 * `onMasavCollected` gives it the next invoice number and its document (so it is income, VAT and
 * a MOVEIN movement once, like a desk payment of the same debt). Idempotent by
 * `masav-collect:<file>:<debt>` (a file is settled once; the key keeps it so).
 * @returns the purchase id
 */
async function writeCollectionPurchase(
  tx: Tx,
  c: { clubId: number; fileId: number; debt: typeof debts.$inferSelect; amount: number; at: Date },
): Promise<number> {
  const club = await getClubRow(tx, c.clubId);
  const settings = clubSettings(club);
  const vatRateBp = vatRateBasisPoints(settings.country, c.at, settings.usSalesTaxBp);
  const { vat } = splitVat(c.amount, vatRateBp);
  const [p] = await tx
    .insert(purchases)
    .values({
      clubId: c.clubId,
      clientId: c.debt.clientId,
      at: c.at,
      invoiceNumber: null,
      total: c.amount,
      amountBeforeVat: c.amount - vat,
      vat,
      vatRateBp,
      paymentStatus: PurchasePaymentStatus.Pending,
      paidOther: c.amount,
      payer: PurchasePayer.Client,
      isAdminUser: false,
      source: 'masav',
      idempotencyKey: `masav-collect:${c.fileId}:${c.debt.id}`,
    })
    .returning({ id: purchases.id });
  await tx.insert(purchaseItems).values({
    clubId: c.clubId,
    purchaseId: p.id,
    itemType: PurchaseItemType.PayDebt,
    itemId: c.debt.id,
    name: c.debt.description,
    quantity: 1,
    unitPrice: c.amount,
    priceWithVat: c.amount,
    amountBeforeVat: c.amount - vat,
  });
  await tx
    .insert(purchasePayments)
    .values({ clubId: c.clubId, purchaseId: p.id, method: PaymentMethod.Masav, amount: c.amount });
  return p.id;
}
