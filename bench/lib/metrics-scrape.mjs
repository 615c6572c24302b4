// Scrapes of the server's /metrics in benchmarks (docs/operations.md "Metrics"): the token the bench
// servers use, a scrape, the difference of two scrapes, and Prometheus's histogram_quantile over it.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { parseScrape, histogramQuantile } = await import(path.join(root, 'apps/server/test/prometheus.ts'));

/** The bench servers' metrics token (bench/lib/gate-server.mjs). */
export const BENCH_METRICS_TOKEN = 'bench-metrics-token-0123456789abcdefghijklmnop';

/** One scrape of `base`/metrics, parsed. */
export async function scrape(base) {
  const res = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${BENCH_METRICS_TOKEN}` } });
  if (!res.ok) throw new Error(`/metrics answered ${res.status}`);
  return parseScrape(await res.text());
}

/** `after` − `before`, sample by sample (counters and histogram buckets over the interval). */
export function difference(before, after) {
  const key = (s) => `${s.name}${JSON.stringify(s.labels)}`;
  const was = new Map(before.samples.map((s) => [key(s), s.value]));
  return { types: after.types, samples: after.samples.map((s) => ({ ...s, value: s.value - (was.get(key(s)) ?? 0) })) };
}

/** The q-quantile of the gate's decision histogram over a difference of scrapes, in ms. */
export function gateQuantileMs(delta, q) {
  return Math.round(histogramQuantile(delta, 'venue_gate_decision_seconds', q) * 1000 * 100) / 100;
}
