import { createHistogram, type RecordableHistogram } from 'node:perf_hooks';

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

/** Decision times since the last reset: count and p50/p99/max in milliseconds (0.01 ms steps). */
export function decisionTimes(reset = false): { count: number; p50: number; p99: number; max: number } {
  const ms = (ns: number) => Math.round(ns / 1e4) / 100;
  const out = {
    count: decisions.count,
    p50: decisions.count ? ms(decisions.percentile(50)) : 0,
    p99: decisions.count ? ms(decisions.percentile(99)) : 0,
    max: decisions.count ? ms(decisions.max) : 0,
  };
  if (reset) decisions.reset();
  return out;
}
