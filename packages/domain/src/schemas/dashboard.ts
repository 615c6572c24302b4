import { z } from 'zod';

/**
 * Dashboard charts and counters. Money values in agorot.
 */

/** A chart series: label key and value (counts, or minor units for money). */
export const ChartPoint = z.object({ key: z.string(), value: z.number() });
export const ChartData = z.array(ChartPoint);
export type ChartPoint = z.infer<typeof ChartPoint>;
export const DashboardCount = z.object({ value: z.number() });

/**
 * Whether the club's history (the demo club's year) is still being written
 * (docs/demo-club.md "While the history is written"): the days written so
 * far of all days; null when it is not being written.
 */
export const HistoryStatus = z.object({
  writing: z.boolean(),
  day: z.number().int().nullable(),
  days: z.number().int().nullable(),
});
export type HistoryStatus = z.infer<typeof HistoryStatus>;
