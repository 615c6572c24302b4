import { z } from 'zod';
import { isoDate, text } from '../parts.js';
import { BANK_CODE_WIDTH } from '../banks.js';

/**
 * MASAV files and settings, and the accounting exports (Hashavshevet
 * accounts, SUMIT invoicing settings, movein.dat).
 */

export const MasavFile = z.object({
  id: z.number(),
  createdAt: z.string(),
  testMode: z.boolean(),
  serial: z.number(),
  valueDate: z.string(),
  count: z.number(),
  total: z.number(),
  /** When the bank's return file of this file was read (collected and rejected debits settled), or null. */
  returnedAt: z.string().nullable(),
});

/** MASAV institution of the club (given by the clearing center). */
export const MasavSettings = z.strictObject({
  institutionCode: z.string().regex(/^\d{8}$/, { message: 'masavInstitution8' }),
  sendingInstitution: z.string().regex(/^\d{5}$/, { message: 'masavSending5' }),
  institutionName: text(30).trim().min(1),
});

/** PATCH /api/Club/UpdateHasavshevetDetails/{id}: accounts of the Hashavshevet export. */
export const HashavshevetDetails = z.strictObject({
  /** Debit account of cash / card receipts. */
  cashAccount: z
    .string()
    .trim()
    .regex(/^\w{1,15}$/),
  creditAccount: z
    .string()
    .trim()
    .regex(/^\w{1,15}$/),
  incomeAccount: z
    .string()
    .trim()
    .regex(/^\w{1,15}$/),
  vatAccount: z
    .string()
    .trim()
    .regex(/^\w{1,15}$/),
  /**
   * MASAV money not collected yet (a receivable of its own until the bank's
   * return file says it was collected); required once a MASAV payment is exported.
   */
  masavAccount: z
    .string()
    .trim()
    .regex(/^\w{0,15}$/)
    .default(''),
  /** The bank account collected MASAV money lands in; required once a collection is exported. */
  bankAccount: z
    .string()
    .trim()
    .regex(/^\w{0,15}$/)
    .default(''),
  /** Hashavshevet movement type code. */
  movementType: z
    .string()
    .trim()
    .regex(/^\w{1,3}$/)
    .default('1'),
  branch: z
    .string()
    .trim()
    .regex(/^\d{0,3}$/)
    .default(''),
});
/** POST /api/Club/UpdateClubSumitSettings/{id}: the invoicing/clearing company account (SUMIT). */
export const SumitSettings = z.strictObject({
  companyId: z
    .string()
    .trim()
    .regex(/^\d{1,12}$/),
  apiKeySet: z.boolean().optional(),
  apiKey: text(200).trim().min(8).optional(),
  sendInvoices: z.boolean().default(true),
});
/** What reading a MASAV return file did (POST /api/MasavFile/Return): counts and agorot. */
export const MasavReturnResult = z.object({
  fileId: z.number(),
  collected: z.number(),
  collectedAmount: z.number(),
  rejected: z.number(),
  rejectedAmount: z.number(),
});
/** POST /api/Report/WriteMoveinDat. */
export const MoveinRequest = z.strictObject({ from: isoDate, to: isoDate });

export { BANK_CODE_WIDTH };
