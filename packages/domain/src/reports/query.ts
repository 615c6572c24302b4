import { z } from 'zod';
import { id, int32, positiveInt, text } from '../parts.js';
import { PERIODS } from '../period.js';

// The report calls' zod schemas, apart from the catalogue (reports.ts) so that
// the console's router can list the report screens without loading zod
// (docs/operations.md "Console files").

/**
 * Body of every `POST /api/Report/...` call: the period (seed 001 §2), paging,
 * sort (a sortable column key of the report, else 400) and the report's own
 * filters (ignored by reports that do not list them).
 */
export const ReportQuery = z.object({
  period: z.enum(PERIODS).default('day'),
  anchor: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'invalidDate' })
    .optional(),
  from: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'invalidDate' })
    .optional(),
  to: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'invalidDate' })
    .optional(),
  page: positiveInt.default(1),
  pageSize: z.number().int().min(1).max(1000).default(50),
  sort: text(40).optional(),
  /** Default: the report's `defaultOrder`, else 'desc'. */
  order: z.enum(['asc', 'desc']).optional(),
  /** Language of the export's headers and labels (the export call only). */
  lang: z.enum(['he', 'en']).default('he'),
  terminalId: id.optional(),
  groupId: id.optional(),
  clientId: id.optional(),
  /**
   * Client search (issue 19): words of the name, a client number, an ID
   * number or a card serial — the client list's search; reports that list
   * the `client` filter keep the rows of the matching clients of the club.
   */
  client: text(60).optional(),
  // Bounded lists (docs/security.md "Input"): a list longer than its values can be is bad input (400), never work for the database.
  status: z.array(int32).max(100, { message: 'tooLong' }).optional(),
  paymentMethod: z.array(z.number().int().min(0).max(99)).max(100, { message: 'tooLong' }).optional(),
  itemType: z.array(z.number().int().min(0).max(99)).max(100, { message: 'tooLong' }).optional(),
  productId: id.optional(),
  userId: id.optional(),
  success: z.boolean().optional(),
});
export type ReportQuery = z.input<typeof ReportQuery>;

/** Answer of a report: one page of rows, the row count, totals (numbers and breakdowns) over all matching rows. */
export const ReportResult = z.object({
  items: z.array(z.record(z.string(), z.unknown())),
  total: z.number(),
  totals: z.record(z.string(), z.union([z.number(), z.record(z.string(), z.number())])),
  range: z.object({ from: z.string(), to: z.string() }),
});
export type ReportResult = z.infer<typeof ReportResult>;
