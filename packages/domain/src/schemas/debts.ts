import { z } from 'zod';
import { id, text } from '../parts.js';
import { positiveAmount } from './helpers.js';

/**
 * Debts of a client: create and patch bodies, the debt as the API
 * presents it. Amounts in agorot.
 */

export const DebtInput = z.strictObject({
  clientId: id,
  amount: positiveAmount,
  description: text(200).trim().default(''),
});
export const DebtPatch = z.strictObject({
  amount: positiveAmount.optional(),
  description: text(200).trim().optional(),
});
export const Debt = z.object({
  id: z.number(),
  clientId: z.number(),
  amount: z.number(),
  paid: z.number(),
  open: z.number(),
  description: z.string(),
  source: z.string(),
  createdAt: z.string(),
  deleted: z.boolean(),
  masavFileId: z.number().nullable(),
  /**
   * The bank's return reason code when the last MASAV debit of this debt was returned (the code of
   * the bank's return file, as sent; docs/money.md "MASAV return file"), else null.
   */
  returnReason: z.string().nullable(),
});
export type Debt = z.infer<typeof Debt>;
