import { z } from 'zod';
import { keyOr } from '../zod-keys.js';
import { id, isoDate, text } from '../parts.js';
import { normalizeBankCode } from '../banks.js';
import { positiveAmount } from './helpers.js';

/**
 * Licenses (seed 000 §7; seed 001 §4, §5, §9): bank-transfer requests and
 * their status, the buy link. Money in agorot.
 */

/** License bank-transfer request status (seed 001 §4). */
export const LicenseRequestStatus = {
  Undefined: 0,
  Pending: 1,
  ApprovedLoaded: 2,
  RejectedByManager: 3,
  CancelledByCustomer: 4,
  CancelledByManager: 5,
} as const;
/** Minimum licenses of a bank-transfer request (seed 001 §5, §9). */
export const MIN_TRANSFER_LICENSES = 40;
/** Largest reference file, bytes (seed 001 §9: 3 MB). */
export const MAX_REFERENCE_FILE_BYTES = 3 * 1024 * 1024;

/**
 * The bank-transfer license request form (seed 001 §5). Sent as multipart
 * form fields with the reference file; the same schema validates the form.
 */
export const LicenseRequestFields = z.object({
  quantity: z.coerce
    .number({ message: 'required' })
    .int({ message: 'integer' })
    .min(MIN_TRANSFER_LICENSES, { message: 'minLicenses' }),
  amount: z.coerce.number({ message: 'required' }).int().min(1, { message: 'required' }),
  transferDate: isoDate,
  fundsCondition: z.union([z.literal(true), z.literal('true')], { message: 'acceptCondition' }),
  bankCode: z
    .string({ message: 'required' })
    .trim()
    .min(1, { message: 'required' })
    .refine((v) => normalizeBankCode(v) != null, { message: 'invalidBank' }),
  branch: z
    .string({ message: 'required' })
    .trim()
    .regex(/^\d{3}$/, { message: 'branch3Digits' }),
  account: z
    .string({ message: 'required' })
    .trim()
    .regex(/^\d{6,20}$/, { message: 'account6to20' }),
  reference: z.string({ message: 'required' }).trim().regex(/^\d+$/, { message: 'digitsOnly' }).max(30),
  licenseType: z.coerce.number().int().min(1).max(9).default(1),
});
export type LicenseRequestFields = z.infer<typeof LicenseRequestFields>;

export const LicenseRequest = z.object({
  id: z.number(),
  licenseType: z.number(),
  quantity: z.number(),
  price: z.number(),
  amount: z.number(),
  transferDate: z.string(),
  reference: z.string(),
  bankCode: z.string(),
  branchMasked: z.string(),
  accountMasked: z.string(),
  fileName: z.string(),
  fileType: z.string(),
  status: z.number(),
  createdAt: z.string(),
  /**
   * While pending: the day the licenses are expected to load, YYYY-MM-DD —
   * LICENSE_TRANSFER_BUSINESS_DAYS Israeli business days after the request's
   * day in Israel (business-days.ts; seed 000 §9). Null once answered.
   */
  expectedLoadDate: z.string().nullable(),
  /** The operator's reason of a rejection or cancellation, or null. */
  reason: z.string().nullable(),
});

/** POST /api/getBuyLink (seed 000 §7). */
export const BuyLinkRequest = z.strictObject({
  code: text(60).trim().default(''),
  email: z.email(keyOr('invalidEmail')),
  customerName: text(100).trim().min(1, { message: 'required' }),
  externalClubId: id,
  amount: positiveAmount,
  qty: z.number().int().min(1).max(100_000),
  type: z.literal(2),
});
