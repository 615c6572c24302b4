/**
 * Reading Prometheus's text exposition format (version 0.0.4) in tests: each
 * sample line `name{label="value",…} number` becomes a sample; `# TYPE` lines
 * give each family's type.
 */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Scrape {
  samples: Sample[];
  /** Family name → counter, gauge, histogram, summary or untyped. */
  types: Map<string, string>;
}

const LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** Parses a scrape; throws on a line that is neither a comment nor a sample. */
export function parseScrape(text: string): Scrape {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    if (line.startsWith('#')) {
      const t = /^# TYPE (\S+) (\S+)$/.exec(line);
      if (t) types.set(t[1], t[2]);
      continue;
    }
    const m = LINE.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(LABEL))
      labels[l[1]] = l[2].replace(/\\(.)/g, (_, c) => (c === 'n' ? '\n' : c));
    samples.push({ name: m[1], labels, value: m[3] === '+Inf' ? Infinity : Number(m[3]) });
  }
  return { samples, types };
}

/** Sum of the samples named `name` whose labels include `where`. */
export function sumOf(scrape: Scrape, name: string, where: Record<string, string> = {}): number {
  return scrape.samples
    .filter((s) => s.name === name && Object.entries(where).every(([k, v]) => s.labels[k] === v))
    .reduce((a, s) => a + s.value, 0);
}

/**
 * Prometheus's `histogram_quantile(q, …)` over the `<name>_bucket` samples matching `where`
 * (summed per bound): the bucket holding rank q·count, linear inside it; the lowest bucket
 * starts at 0. Returns NaN when empty.
 */
export function histogramQuantile(scrape: Scrape, name: string, q: number, where: Record<string, string> = {}): number {
  const byBound = new Map<number, number>();
  for (const s of scrape.samples) {
    if (s.name !== `${name}_bucket`) continue;
    if (!Object.entries(where).every(([k, v]) => s.labels[k] === v)) continue;
    const le = s.labels.le === '+Inf' ? Infinity : Number(s.labels.le);
    byBound.set(le, (byBound.get(le) ?? 0) + s.value);
  }
  const buckets = [...byBound].sort((a, b) => a[0] - b[0]);
  const total = buckets.at(-1)?.[1] ?? 0;
  if (!total) return NaN;
  const rank = q * total;
  let prevBound = 0;
  let prevCount = 0;
  for (const [bound, count] of buckets) {
    if (count >= rank) {
      if (bound === Infinity) return prevBound;
      return prevBound + ((bound - prevBound) * (rank - prevCount)) / Math.max(1e-12, count - prevCount);
    }
    prevBound = bound;
    prevCount = count;
  }
  return prevBound;
}
