import { randomBytes } from 'node:crypto';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Actor } from '../../lib/actor.js';
import {
  addIsraeliBusinessDays,
  isoDate,
  LICENSE_TRANSFER_BUSINESS_DAYS,
  localParts,
  LicenseRequestFields,
  LicenseRequestStatus,
  MAX_REFERENCE_FILE_BYTES,
  normalizeBankCode,
  type BuyLinkRequest,
} from '@venue/domain';
import type { z } from 'zod';
import type { Db } from '../../db/index.js';
import { clubCards, clubMoneySettings, clubs, licenseOrders, licenseRequests } from '../../db/schema.js';
import { audit } from '../../lib/audit.js';
import { dataKeys, encrypt } from '../../lib/crypto.js';
import { AppError, notFound } from '../../lib/errors.js';
import { scoped } from '../../lib/scoped.js';
import { validationError } from '../../lib/validation.js';
import { chargeOnce } from '../../integrations/clearing/charges.js';
import { expiryValid, type ClearingProvider } from '../../integrations/clearing/provider.js';
import { clubToday } from '../club/club.service.js';

/**
 * Licenses of the club (seed 000 §7 "Licenses"; seed 001 §3 "License request",
 * §5 bank-transfer validation, §8 messages). The club's pool is
 * clubs.licenses_amount; a client's license is bought with a License purchase
 * item (modules/purchases/purchase.service.ts), which takes one from the pool.
 */

/** Price of one license for a year when the club has none set, minor units (docs/money.md). */
export const DEFAULT_LICENSE_PRICE = 3000;

/** The club's yearly price of one license in agorot (GET /api/License/Price): its own, or DEFAULT_LICENSE_PRICE. */
export async function licensePrice(db: Db, clubId: number): Promise<number> {
  const [r] = await scoped(db, clubId).list(clubMoneySettings);
  return r && r.licensePrice > 0 ? r.licensePrice : DEFAULT_LICENSE_PRICE;
}

// ------------------------------------------------------------ card purchase (provider's payment page)

/**
 * POST /api/getBuyLink: an order for `qty` licenses and the provider's
 * payment page where it is paid by card. The amount must be qty × the price.
 */
export async function createBuyLink(
  db: Db,
  provider: ClearingProvider,
  actor: Actor,
  body: z.infer<typeof BuyLinkRequest>,
) {
  if (body.externalClubId !== actor.externalClubId) throw notFound('club');
  const price = await licensePrice(db, actor.clubId);
  if (body.amount !== body.qty * price) {
    throw validationError([{ path: 'amount', message: 'amountMismatch' }]);
  }
  const code = randomBytes(12).toString('base64url');
  const [o] = await db
    .insert(licenseOrders)
    .values({
      clubId: actor.clubId,
      code,
      quantity: body.qty,
      amount: body.amount,
      email: body.email,
      customerName: body.customerName,
    })
    .returning();
  await audit(db, actor, {
    action: 'create',
    entity: 'licenseOrder',
    entityId: o.id,
    after: { qty: o.quantity, amount: o.amount },
  });
  return { url: provider.paymentPageUrl(code), code };
}

export async function orderByCode(db: Db, code: string) {
  const [o] = await db.select().from(licenseOrders).where(eq(licenseOrders.code, code));
  if (!o) throw notFound('order');
  return o;
}

/**
 * Keeps the card a club paid licenses with as its stored card (token, last
 * four, brand, expiry; PCI DSS: no card number), replacing the previous one.
 */
export async function saveClubCard(
  db: Db,
  clubId: number,
  card: { token: string; lastFour: string; brand: string; expiry: string },
): Promise<void> {
  await db
    .insert(clubCards)
    .values({ clubId, ...card })
    .onConflictDoUpdate({ target: clubCards.clubId, set: { ...card, savedAt: new Date() } });
}

/**
 * The sandbox payment page's submit: the card is tokenized and charged once
 * (idempotency key = the order and the card), and the licenses are loaded into the pool
 * exactly once (the order moves from 'open' to 'paid' in the same statement
 * batch). Returns the order's final state.
 */
export async function payLicenseOrder(
  db: Db,
  provider: ClearingProvider,
  code: string,
  card: { number: string; expiry: string; cvv: string },
): Promise<{ status: string; quantity: number; reason?: string }> {
  const o = await orderByCode(db, code);
  if (o.status === 'paid') return { status: 'paid', quantity: o.quantity };
  if (!expiryValid(card.expiry)) return { status: 'open', quantity: o.quantity, reason: 'INVALID_EXPIRATION_DATE' };
  const t = await provider.tokenize({ ...card, number: card.number.replace(/\D/g, '') });
  if (!t.ok) return { status: 'open', quantity: o.quantity, reason: t.reason };
  const charge = await chargeOnce(db, provider, {
    clubId: o.clubId,
    clientId: null,
    // One charge per order and card: a resubmitted form charges once; another card is a new attempt.
    idempotencyKey: `license-order:${o.code}:${t.brand}:${t.lastFour}:${card.expiry.replace('/', '')}`,
    token: t.token,
    amount: o.amount,
    currency: 376,
    lastFour: t.lastFour,
    brand: t.brand,
  });
  if (charge.status !== 'approved') {
    return {
      status: 'open',
      quantity: o.quantity,
      reason: charge.status === 'declined' ? (charge.error ?? 'declined') : 'uncertain',
    };
  }
  // The card that paid becomes the club's stored card for the operator's yearly charge (docs/operator.md).
  await saveClubCard(db, o.clubId, { token: t.token, lastFour: t.lastFour, brand: t.brand, expiry: t.expiry });
  await db.transaction(async (tx) => {
    const done = await tx
      .update(licenseOrders)
      .set({ status: 'paid', chargeId: charge.id })
      .where(and(eq(licenseOrders.id, o.id), eq(licenseOrders.status, 'open')))
      .returning({ id: licenseOrders.id });
    if (done.length) {
      await tx
        .update(clubs)
        .set({ licensesAmount: sql`${clubs.licensesAmount} + ${o.quantity}` })
        .where(eq(clubs.id, o.clubId));
    }
  });
  return { status: 'paid', quantity: o.quantity };
}

// ------------------------------------------------------------ bank-transfer request

/** The file kinds the reference may be, by their first bytes (seed 001 §5: pdf, jpg, jpeg, png). */
export function sniffReferenceFile(buf: Buffer): 'pdf' | 'png' | 'jpeg' | null {
  if (buf.subarray(0, 5).toString('latin1') === '%PDF-') return 'pdf';
  if (buf.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff) return 'jpeg';
  return null;
}

/**
 * POST /api/AddLicensesRequest/HandleAddLicensesRequest (multipart: the
 * fields of LicenseRequestFields and one file `file`). Every rule of seed 001
 * §5: quantity ≥ 40, amount = quantity × price, transfer date not in the
 * future, funds condition accepted, known bank, branch 3 digits, account
 * 6–20 digits, reference digits only, reference file pdf/jpg/jpeg/png by
 * content up to 3 MB. Payer bank details are stored encrypted.
 * @throws VALIDATION_ERROR (field details), FILE_REQUIRED, FILE_TOO_LARGE, UNSUPPORTED_FILE_TYPE.
 */
export async function createLicenseRequest(
  db: Db,
  actor: Actor,
  form: { fields: Record<string, string>; file: { name: string; buf: Buffer } | null },
) {
  const { fields, file } = form;
  const parsed = LicenseRequestFields.safeParse(fields);
  if (!parsed.success) {
    throw validationError(parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })));
  }
  const v = parsed.data;
  const club = (await db.select().from(clubs).where(eq(clubs.id, actor.clubId)))[0];
  const price = await licensePrice(db, actor.clubId);
  const errors = [];
  if (v.amount !== v.quantity * price) errors.push({ path: 'amount', message: 'amountMismatch' });
  if (v.transferDate > clubToday(club.location, new Date()))
    errors.push({ path: 'transferDate', message: 'dateInFuture' });
  if (errors.length) throw validationError(errors);
  if (!file || file.buf.length === 0) throw new AppError('FILE_REQUIRED', 'A reference file is required');
  if (file.buf.length > MAX_REFERENCE_FILE_BYTES) throw new AppError('FILE_TOO_LARGE', 'File too large (max 3MB)');
  const kind = sniffReferenceFile(file.buf);
  if (!kind) throw new AppError('UNSUPPORTED_FILE_TYPE', 'Unsupported file type (choose pdf or image)');
  const keys = await dataKeys(db);
  const bankCode = normalizeBankCode(v.bankCode)!;
  const [r] = await db
    .insert(licenseRequests)
    .values({
      clubId: actor.clubId,
      licenseType: v.licenseType,
      quantity: v.quantity,
      price,
      amount: v.amount,
      transferDate: v.transferDate,
      reference: v.reference,
      bankCode,
      bankEnc: encrypt(
        keys,
        JSON.stringify({ branch: v.branch, account: v.account }),
        `club:${actor.clubId}:license-request`,
      ),
      fileName: file.name.slice(0, 200),
      fileType: kind,
      file: file.buf,
      status: LicenseRequestStatus.Pending,
      userId: actor.userId,
    })
    .returning();
  await audit(db, actor, {
    action: 'create',
    entity: 'licenseRequest',
    entityId: r.id,
    after: presentLicenseRequest(r, v.account),
  });
  return presentLicenseRequest(r, v.account);
}

type RequestRow = typeof licenseRequests.$inferSelect;
export function presentLicenseRequest(r: RequestRow, account?: string) {
  return {
    id: r.id,
    licenseType: r.licenseType,
    quantity: r.quantity,
    price: r.price,
    amount: r.amount,
    transferDate: r.transferDate,
    reference: r.reference,
    bankCode: r.bankCode,
    branchMasked: '***',
    accountMasked: account ? `****${account.slice(-3)}` : '****',
    fileName: r.fileName,
    fileType: r.fileType,
    status: r.status,
    createdAt: r.createdAt.toISOString(),
    expectedLoadDate: r.status === LicenseRequestStatus.Pending ? expectedLoadDate(r.createdAt) : null,
    reason: r.reason,
  };
}

/**
 * The day a bank-transfer request made at `at` is expected to load:
 * LICENSE_TRANSFER_BUSINESS_DAYS Israeli business days after its day in
 * Israel (the transfer clears in Israeli banks whatever the club's location;
 * seed 000 §9, packages/domain business-days.ts). YYYY-MM-DD.
 */
export function expectedLoadDate(at: Date): string {
  const p = localParts(at, 'Asia/Jerusalem');
  return isoDate(addIsraeliBusinessDays({ year: p.year, month: p.month, day: p.day }, LICENSE_TRANSFER_BUSINESS_DAYS));
}

/** The club's license requests, newest first, of one license type when given (GET /api/getLicenseRequest/). */
export async function listLicenseRequests(db: Db, clubId: number, licenseType?: number) {
  const rows = await db
    .select()
    .from(licenseRequests)
    .where(
      scoped(db, clubId).where(licenseRequests, licenseType ? eq(licenseRequests.licenseType, licenseType) : undefined),
    )
    .orderBy(desc(licenseRequests.createdAt), desc(licenseRequests.id));
  return rows.map((r) => presentLicenseRequest(r));
}

/** `{count}` of the club's pending license requests (GET /api/AddLicensesRequest/GetAddLicensesRequestsCount). */
export async function pendingRequestsCount(db: Db, clubId: number) {
  const [r] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(licenseRequests)
    .where(scoped(db, clubId).where(licenseRequests, eq(licenseRequests.status, LicenseRequestStatus.Pending)));
  return { count: Number(r.n) };
}

/** Count and licenses asked per request status (GET /api/AddLicensesRequest/GetAddLicensesRequestsSummary). */
export async function requestsSummary(db: Db, clubId: number) {
  const rows = await db
    .select({
      status: licenseRequests.status,
      n: sql<number>`count(*)::int`,
      qty: sql<number>`coalesce(sum(quantity), 0)::int`,
    })
    .from(licenseRequests)
    .where(scoped(db, clubId).where(licenseRequests))
    .groupBy(licenseRequests.status);
  return rows.map((r) => ({ status: r.status, count: Number(r.n), quantity: Number(r.qty) }));
}

/**
 * The operator answers a request (seed 001 §4 statuses): ApprovedLoaded adds
 * the quantity to the club's pool once; the club itself may only cancel.
 */
export async function setRequestStatus(db: Db, actor: Actor, id: number, status: number) {
  const operator = actor.level === 1;
  if (!operator && status !== LicenseRequestStatus.CancelledByCustomer) throw new AppError('NOT_AUTHORIZED');
  return db.transaction(async (tx) => {
    const [r] = await tx
      .update(licenseRequests)
      .set({ status })
      .where(
        scoped(tx, actor.clubId).where(
          licenseRequests,
          eq(licenseRequests.id, id),
          eq(licenseRequests.status, LicenseRequestStatus.Pending),
        ),
      )
      .returning();
    if (!r) throw notFound('pending license request');
    if (status === LicenseRequestStatus.ApprovedLoaded) {
      await tx
        .update(clubs)
        .set({ licensesAmount: sql`${clubs.licensesAmount} + ${r.quantity}` })
        .where(eq(clubs.id, r.clubId));
    }
    await audit(tx, actor, { action: 'update', entity: 'licenseRequest', entityId: id, after: { status } });
    return presentLicenseRequest(r);
  });
}
