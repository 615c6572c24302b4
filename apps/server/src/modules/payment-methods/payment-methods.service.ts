import { desc, eq } from 'drizzle-orm';
import type { Actor } from '../../lib/actor.js';
import { validateBankAccount, RESULT } from 'israeli-bank-validation';
import { ISRAELI_BANKS, normalizeBankCode, type PaymentMethodInput, type PaymentMethodView } from '@venue/domain';
import type { z } from 'zod';
import type { BankDetailsPatch, CardPatch } from '@venue/domain';
import type { Db, Tx } from '../../db/index.js';
import { clients, paymentMethods } from '../../db/schema.js';
import { audit, auditedUpdate } from '../../lib/audit.js';
import { dataKeys, decrypt, encrypt } from '../../lib/crypto.js';
import { AppError, notFound } from '../../lib/errors.js';
import { scoped } from '../../lib/scoped.js';
import { pgError } from '../../lib/validation.js';
import { expiryValid, type ClearingProvider } from '../../integrations/clearing/provider.js';

/**
 * Payment methods of clients (seed 000 §7 "Credit cards and bank details";
 * seed 001 §3 "Payment method", §5 "Only one payment method per client",
 * "Credit card expiry must be valid"). A card is tokenized by the clearing
 * provider: only the token, last four, brand and expiry are kept (PCI DSS).
 * A MASAV authorization's branch, account and payer ID are AES-256-GCM
 * encrypted (lib/crypto.ts) and shown masked.
 */

type Row = typeof paymentMethods.$inferSelect;
interface BankSecret {
  branch: string;
  account: string;
  ownerId: string;
}

const aad = (clubId: number, clientId: number) => `club:${clubId}:client:${clientId}:bank`;
const mask = (s: string, keep: number) => '*'.repeat(Math.max(0, s.length - keep)) + s.slice(-keep);

export function presentPaymentMethod(r: Row): PaymentMethodView {
  return {
    id: r.id,
    clientId: r.clientId,
    kind: r.kind as 'card' | 'masav',
    lastFour: r.cardLastFour,
    brand: r.cardBrand,
    expiry: r.cardExpiry,
    ownerName: r.ownerName,
    bankCode: r.bankCode,
    bankName: r.bankCode ? (ISRAELI_BANKS[r.bankCode]?.en ?? null) : null,
    branchMasked: r.kind === 'masav' ? '***' : null,
    accountMasked: r.accountLast ? `*****${r.accountLast}` : null,
    ownerIdMasked: r.ownerIdMasked,
    authExpiry: r.authExpiry,
    chargeLimit: r.chargeLimit,
    createdAt: r.createdAt.toISOString(),
  };
}

/** The decrypted bank details of a MASAV authorization (server-side only: the MASAV file writer). */
export async function bankSecret(db: Db | Tx, r: Row): Promise<BankSecret> {
  return JSON.parse(decrypt(await dataKeys(db), r.bankEnc!, aad(r.clubId, r.clientId))) as BankSecret;
}

/** Checks a bank account: known bank code (DOMAIN-FACTS list) and the clearing center's check digits. */
export function checkBankAccount(bankCode: string, branch: string, account: string): string {
  const code = normalizeBankCode(bankCode);
  if (!code) throw new AppError('INVALID_BANK_DETAILS', 'Unknown bank', [{ path: 'bankCode', message: 'invalidBank' }]);
  // israeli-bank-validation implements the check-digit rules per bank; UNKNOWN (rules it lacks) is accepted.
  if (validateBankAccount(code, branch.padStart(3, '0'), account) === RESULT.NOT_VALID) {
    throw new AppError('INVALID_BANK_DETAILS', 'Invalid bank account', [
      { path: 'account', message: 'invalidAccount' },
    ]);
  }
  return code;
}

/** The club's payment methods that are not deleted, newest first, at most 5000 (GET /api/CreditCard). */
export async function listPaymentMethods(db: Db, clubId: number): Promise<PaymentMethodView[]> {
  const rows = await db
    .select()
    .from(paymentMethods)
    .where(scoped(db, clubId).live(paymentMethods))
    .orderBy(desc(paymentMethods.id))
    .limit(5000);
  return rows.map(presentPaymentMethod);
}

/**
 * A client's payment method, or null when it has none (GET /api/CreditCard/GetByClientId/{id}).
 * @throws AppError NOT_FOUND (404) when the client is not a non-deleted client of this club
 */
export async function getByClient(db: Db, clubId: number, clientId: number): Promise<PaymentMethodView | null> {
  await scoped(db, clubId).one(clients, clientId, 'client', { live: true });
  const [r] = await db
    .select()
    .from(paymentMethods)
    .where(scoped(db, clubId).live(paymentMethods, eq(paymentMethods.clientId, clientId)));
  return r ? presentPaymentMethod(r) : null;
}

/**
 * POST /api/CreditCard: stores a client's payment method.
 * @throws PAYMENT_METHOD_EXISTS (409) when the client has one (seed 001 §5),
 *   INVALID_EXPIRATION_DATE, PAYMENT_ERROR (the provider refused the card),
 *   INVALID_BANK_DETAILS, NOT_FOUND.
 */
export async function createPaymentMethod(
  db: Db,
  provider: ClearingProvider,
  actor: Actor,
  input: PaymentMethodInput,
): Promise<PaymentMethodView> {
  const clubId = actor.clubId;
  await scoped(db, clubId).one(clients, input.clientId, 'client', { live: true });
  const existing = await getByClient(db, clubId, input.clientId);
  if (existing) throw new AppError('PAYMENT_METHOD_EXISTS', 'Only one payment method per client');
  let values: typeof paymentMethods.$inferInsert;
  if (input.kind === 'card') {
    if (!expiryValid(input.card.expiry)) throw new AppError('INVALID_EXPIRATION_DATE', 'Invalid expiration date');
    const t = await provider.tokenize({ ...input.card, number: input.card.number.replace(/\D/g, '') });
    if (!t.ok) throw new AppError('PAYMENT_ERROR', 'Payment error', { reason: t.reason });
    values = {
      clubId,
      clientId: input.clientId,
      kind: 'card',
      cardToken: t.token,
      cardLastFour: t.lastFour,
      cardBrand: t.brand,
      cardExpiry: t.expiry,
      ownerName: input.card.ownerName,
      ownerIdMasked: input.card.ownerId ? mask(input.card.ownerId, 3) : '',
    };
  } else {
    const code = checkBankAccount(input.bankCode, input.branch, input.account);
    const keys = await dataKeys(db);
    const secret: BankSecret = { branch: input.branch, account: input.account, ownerId: input.ownerId };
    values = {
      clubId,
      clientId: input.clientId,
      kind: 'masav',
      bankCode: code,
      bankEnc: encrypt(keys, JSON.stringify(secret), aad(clubId, input.clientId)),
      accountLast: input.account.slice(-3),
      ownerName: input.ownerName,
      ownerIdMasked: mask(input.ownerId, 3),
      authExpiry: input.authExpiry,
      chargeLimit: input.chargeLimit,
      reference: String(input.clientId),
    };
  }
  try {
    return await db.transaction(async (tx) => {
      const [r] = await tx.insert(paymentMethods).values(values).returning();
      const view = presentPaymentMethod(r);
      await audit(tx, actor, { action: 'create', entity: 'paymentMethod', entityId: r.id, after: view });
      return view;
    });
  } catch (err) {
    if (pgError(err).constraint === 'payment_methods_client') {
      throw new AppError('PAYMENT_METHOD_EXISTS', 'Only one payment method per client');
    }
    throw err;
  }
}

/** PATCH /api/CreditCard/{id}: a card's expiry or owner name. */
export async function updateCard(
  db: Db,
  actor: Actor,
  id: number,
  patch: z.infer<typeof CardPatch>,
): Promise<PaymentMethodView> {
  const r = await scoped(db, actor.clubId).one(paymentMethods, id, 'payment method', { live: true });
  if (r.kind !== 'card') throw notFound('card');
  if (patch.expiry && !expiryValid(patch.expiry))
    throw new AppError('INVALID_EXPIRATION_DATE', 'Invalid expiration date');
  return auditedUpdate(
    db,
    actor,
    paymentMethods,
    'paymentMethod',
    r,
    { cardExpiry: patch.expiry ?? r.cardExpiry, ownerName: patch.ownerName ?? r.ownerName },
    presentPaymentMethod,
  );
}

/** PATCH /api/CreditCard/UpdateBankPaymentDetails/{id}: the MASAV authorization's details. */
export async function updateBankDetails(
  db: Db,
  actor: Actor,
  id: number,
  patch: z.infer<typeof BankDetailsPatch>,
): Promise<PaymentMethodView> {
  const r = await scoped(db, actor.clubId).one(paymentMethods, id, 'payment method', { live: true });
  if (r.kind !== 'masav') throw notFound('bank details');
  const cur = await bankSecret(db, r);
  const next: BankSecret = {
    branch: patch.branch ?? cur.branch,
    account: patch.account ?? cur.account,
    ownerId: patch.ownerId ?? cur.ownerId,
  };
  const code = checkBankAccount(patch.bankCode ?? r.bankCode!, next.branch, next.account);
  const keys = await dataKeys(db);
  return auditedUpdate(
    db,
    actor,
    paymentMethods,
    'paymentMethod',
    r,
    {
      bankCode: code,
      bankEnc: encrypt(keys, JSON.stringify(next), aad(r.clubId, r.clientId)),
      accountLast: next.account.slice(-3),
      ownerIdMasked: mask(next.ownerId, 3),
      ownerName: patch.ownerName ?? r.ownerName,
      authExpiry: patch.authExpiry !== undefined ? patch.authExpiry : r.authExpiry,
      chargeLimit: patch.chargeLimit ?? r.chargeLimit,
    },
    presentPaymentMethod,
  );
}

/** DELETE /api/CreditCard/{id}: removes the method (the row stays, marked deleted, for history). */
export async function deletePaymentMethod(db: Db, actor: Actor, id: number): Promise<{ ok: true }> {
  const r = await scoped(db, actor.clubId).one(paymentMethods, id, 'payment method', { live: true });
  await db.transaction(async (tx) => {
    await tx
      .update(paymentMethods)
      .set({ deleted: true, cardToken: null, bankEnc: null })
      .where(eq(paymentMethods.id, id));
    await audit(tx, actor, {
      action: 'delete',
      entity: 'paymentMethod',
      entityId: id,
      before: presentPaymentMethod(r),
    });
  });
  return { ok: true };
}

/**
 * One payment method of the club (GET /api/CreditCard/{id}).
 * @throws AppError NOT_FOUND (404) when the id is not a non-deleted payment method of this club
 */
export async function getPaymentMethod(db: Db, clubId: number, id: number): Promise<PaymentMethodView> {
  return presentPaymentMethod(await scoped(db, clubId).one(paymentMethods, id, 'payment method', { live: true }));
}
