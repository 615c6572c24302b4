import { createHistogram, type Histogram, type RecordableHistogram } from 'node:perf_hooks';

/**
 * How long this process took to decide live entrances: from the terminal's
 * `entrance` message being handled to its `decision` being written to the
 * socket (database round trips, queueing behind other decisions, the event
 * loop). The terminal's own measure adds the network and its own loop
 * (bench/many-terminals.bench.mjs compares the two; docs/scaling.md).
 * Nanosecond histogram, process-wide, reset by the reader.
 */
const decisions: RecordableHistogram = createHistogram();

/** Records one decision that took `ms` milliseconds. */
export function recordDecisionTime(ms: number): void {
  decisions.record(Math.max(1, Math.round(ms * 1e6)));
}

/** A nanosecond histogram's count and p50/p99/max in milliseconds (0.01 ms steps; zeros when empty). */
export function histogramMs(h: Histogram): {
  count: number;
  p50: number;
  p99: number;
  max: number;
} {
  const ms = (ns: number) => (h.count ? Math.round(ns / 1e4) / 100 : 0);
  return { count: h.count, p50: ms(h.percentile(50)), p99: ms(h.percentile(99)), max: ms(h.max) };
}

/** Decision times since the last reset: count and p50/p99/max in milliseconds (0.01 ms steps). */
export function decisionTimes(reset = false): ReturnType<typeof histogramMs> {
  const out = histogramMs(decisions);
  if (reset) decisions.reset();
  return out;
}
