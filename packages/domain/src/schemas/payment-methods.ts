import { z } from 'zod';
import { id, isoDate, text } from '../parts.js';
import { isValidIsraeliId } from '../identity.js';
import { normalizeBankCode } from '../banks.js';
import { amount } from './helpers.js';
import { CardInput } from './purchases.js';

/**
 * Stored payment methods (seed 001 §3): cards tokenized by the provider
 * and MASAV bank authorizations, their patches and masked views. Charge
 * limits in agorot.
 */

const expiryMonth = z
  .string()
  .trim()
  .regex(/^\d{2}\/\d{2}$/, { message: 'invalidExpirationDate' });

/** POST /api/CreditCard: a card (tokenized by the provider) or a MASAV authorization (seed 001 §3). */
export const PaymentMethodInput = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('card'), clientId: id, card: CardInput }),
  z.strictObject({
    kind: z.literal('masav'),
    clientId: id,
    bank: z.object({}).passthrough().optional(),
    bankCode: z
      .string()
      .trim()
      .refine((v) => normalizeBankCode(v) != null, { message: 'invalidBank' }),
    branch: z
      .string()
      .trim()
      .regex(/^\d{1,3}$/, { message: 'invalidBranch' }),
    account: z
      .string()
      .trim()
      .regex(/^\d{2,9}$/, { message: 'invalidAccount' }),
    ownerId: z
      .string()
      .trim()
      .refine((v) => isValidIsraeliId(v), { message: 'invalidPersonalId' }),
    ownerName: text(60).trim().min(1, { message: 'required' }),
    authExpiry: isoDate.nullable().default(null),
    chargeLimit: amount.default(0),
  }),
]);
export type PaymentMethodInput = z.infer<typeof PaymentMethodInput>;

/** PATCH /api/CreditCard/{id}: a card's owner name or expiry (the number is replaced by a new card). */
export const CardPatch = z.strictObject({
  expiry: expiryMonth.optional(),
  ownerName: text(60).trim().optional(),
});
/** PATCH /api/CreditCard/UpdateBankPaymentDetails/{id}. */
export const BankDetailsPatch = z.strictObject({
  bankCode: z
    .string()
    .trim()
    .refine((v) => normalizeBankCode(v) != null, { message: 'invalidBank' })
    .optional(),
  branch: z
    .string()
    .trim()
    .regex(/^\d{1,3}$/, { message: 'invalidBranch' })
    .optional(),
  account: z
    .string()
    .trim()
    .regex(/^\d{2,9}$/, { message: 'invalidAccount' })
    .optional(),
  ownerId: z
    .string()
    .trim()
    .refine((v) => isValidIsraeliId(v), { message: 'invalidPersonalId' })
    .optional(),
  ownerName: text(60).trim().min(1).optional(),
  authExpiry: isoDate.nullable().optional(),
  chargeLimit: amount.optional(),
});

/** A payment method as the API presents it: masked, never a card or account number. */
export const PaymentMethodView = z.object({
  id: z.number(),
  clientId: z.number(),
  kind: z.enum(['card', 'masav']),
  lastFour: z.string().nullable(),
  brand: z.string().nullable(),
  expiry: z.string().nullable(),
  ownerName: z.string(),
  bankCode: z.string().nullable(),
  bankName: z.string().nullable(),
  /** e.g. "***" for the branch and "*****6789" for the account. */
  branchMasked: z.string().nullable(),
  accountMasked: z.string().nullable(),
  ownerIdMasked: z.string(),
  authExpiry: z.string().nullable(),
  chargeLimit: z.number(),
  createdAt: z.string(),
});
export type PaymentMethodView = z.infer<typeof PaymentMethodView>;
