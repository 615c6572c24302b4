import { z } from 'zod';
import { idParam, int32, isoDate, positiveInt, text } from '../parts.js';
import { PERIODS } from '../period.js';

/**
 * The report filter (seed 001 §2: day, week, month, year, range) and the
 * entrance report.
 */

/** Filter of the report calls (seed 001 §2: day, week, month, year, range). */
export const ReportFilter = z.object({
  period: z.enum(PERIODS).default('day'),
  /** The day inside the period (default today); for 'range', from and to. */
  anchor: isoDate.optional(),
  from: isoDate.optional(),
  to: isoDate.optional(),
  page: positiveInt.default(1),
  pageSize: z.number().int().min(1).max(1000).default(50),
  terminalId: idParam.optional(),
  groupId: idParam.optional(),
  clientId: idParam.optional(),
  /** Client search: name, client number, ID number or card (reports/query.ts ReportQuery `client`). */
  client: text(60).optional(),
  status: z.array(int32).optional(),
  sort: z.enum(['at', 'status', 'client', 'terminal']).default('at'),
  order: z.enum(['asc', 'desc']).default('desc'),
});
export type ReportFilter = z.infer<typeof ReportFilter>;

/** One row of the entrance report. */
export const EntranceRow = z.object({
  id: z.number(),
  at: z.string(),
  clientId: z.number().nullable(),
  clientNumber: z.number().nullable(),
  clientName: z.string().nullable(),
  groupName: z.string().nullable(),
  terminalId: z.number().nullable(),
  terminalName: z.string().nullable(),
  status: z.number(),
  reason: z.number(),
  identificationKind: z.string(),
  amount: z.number(),
  paymentType: z.number(),
});
export type EntranceRow = z.infer<typeof EntranceRow>;

export const EntranceReport = z.object({
  items: z.array(EntranceRow),
  total: z.number(),
  totals: z.object({
    count: z.number(),
    approved: z.number(),
    failed: z.number(),
    amount: z.number(),
    byStatus: z.record(z.string(), z.number()),
  }),
  range: z.object({ from: z.string(), to: z.string() }),
});
export type EntranceReport = z.infer<typeof EntranceReport>;
