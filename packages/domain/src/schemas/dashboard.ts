import { z } from 'zod';

/**
 * Dashboard charts and counters. Money values in agorot.
 */

/** A chart series: label key and value (counts, or minor units for money). */
export const ChartPoint = z.object({ key: z.string(), value: z.number() });
export const ChartData = z.array(ChartPoint);
export type ChartPoint = z.infer<typeof ChartPoint>;
export const DashboardCount = z.object({ value: z.number() });
