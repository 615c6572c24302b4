import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { EntranceStatus } from '@venue/domain';

/**
 * What an operator watches (docs/operations.md "Metrics"): one Prometheus
 * registry per process, in the text format of prom-client (Apache-2.0),
 * served at `/metrics` (plugins/metrics.ts: its own port, or the public port
 * behind a token, never open by default).
 *
 * Counters and histograms are recorded where things happen (the gate, the
 * HTTP hooks, the jobs, the deliveries); gauges that describe a server
 * instance (terminals connected, pools, the offline backlog, whether the
 * database answers) are read at scrape time from the sources each app
 * registers (`addMetricsSource`), summed over the apps of the process.
 */
export const metricsRegistry = new Registry();

collectDefaultMetrics({ register: metricsRegistry });

/**
 * Upper bounds (seconds) of the gate's decision histogram: 10 % apart from
 * 1 ms to 300 ms, where a decision's p99 lies on any load this server
 * meets (2–60 ms at 50–5 000 terminals; docs/scaling.md), so that
 * `histogram_quantile(0.99, …)` — linear inside a bucket — is within a few
 * per cent of the exact quantile (at most the bucket's 10 %) (bench/gate.bench.mjs checks it against the
 * terminals' own p99); coarser below and above.
 */
export const GATE_BUCKETS: readonly number[] = (() => {
  const out = [0.00025, 0.0005, 0.00075];
  for (let b = 0.001; b < 0.3; b *= 1.1) out.push(Number(b.toPrecision(3)));
  out.push(0.3, 0.4, 0.5, 0.75, 1, 1.5, 2, 3, 5, 10);
  return [...new Set(out)].sort((a, b) => a - b);
})();

/** The outcome of a gate decision as the histogram labels it: entry, refused, payment, or offline (DECIDE_OFFLINE). */
export type GateOutcome = 'entry' | 'refused' | 'payment' | 'offline';

/** Label of each entrance status (seed 000 §4), snake case: `approved`, `subscription_expired`, … */
const STATUS_LABEL: Record<number, string> = Object.fromEntries(
  Object.entries(EntranceStatus).map(([k, v]) => [v, k.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase()]),
);

const gateDecisionSeconds = new Histogram({
  name: 'venue_gate_decision_seconds',
  help: 'Time from a terminal entrance frame arriving to its decision being written back, by outcome',
  labelNames: ['outcome'],
  buckets: [...GATE_BUCKETS],
  registers: [metricsRegistry],
});
const gateDecisions = new Counter({
  name: 'venue_gate_decisions_total',
  help: 'Live gate decisions by entrance status (seed 000 §4); "offline" = answered DECIDE_OFFLINE',
  labelNames: ['status'],
  registers: [metricsRegistry],
});

/**
 * Records one live gate decision: `status` the entrance status (or 'offline'
 * when the server answered DECIDE_OFFLINE), `seconds` from the frame's
 * arrival to the decision's write.
 */
export function recordGateDecision(status: number | 'offline', seconds: number): void {
  const outcome: GateOutcome =
    status === 'offline'
      ? 'offline'
      : status === EntranceStatus.Approved
        ? 'entry'
        : status === EntranceStatus.Payment
          ? 'payment'
          : 'refused';
  gateDecisionSeconds.observe({ outcome }, seconds);
  gateDecisions.inc({ status: gateStatusLabel(status) });
}

/** The `status` label of a gate decision: the entrance status's name in snake case, or `offline`. */
export function gateStatusLabel(status: number | 'offline'): string {
  return status === 'offline' ? 'offline' : (STATUS_LABEL[status] ?? String(status));
}

const httpSeconds = new Histogram({
  name: 'venue_http_request_duration_seconds',
  help: 'HTTP requests by method, route pattern (never the raw URL) and status class',
  labelNames: ['method', 'route', 'status'],
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
  registers: [metricsRegistry],
});

/** Records one HTTP request: `route` is the matched route's pattern (`/api/Client/:id`), or `unmatched`. */
export function recordHttpRequest(method: string, route: string, statusCode: number, seconds: number): void {
  httpSeconds.observe({ method, route, status: `${Math.floor(statusCode / 100)}xx` }, seconds);
}

const databaseUnavailable = new Counter({
  name: 'venue_database_unavailable_total',
  help: 'Requests and gate decisions that met the database out of reach (503 on the console, DECIDE_OFFLINE at the gate)',
  labelNames: ['path'],
  registers: [metricsRegistry],
});

/** Counts one request (`console`) or gate decision (`gate`) that met the database out of reach. */
export function recordDatabaseUnavailable(path: 'console' | 'gate'): void {
  databaseUnavailable.inc({ path });
}

const jobRuns = new Counter({
  name: 'venue_job_runs_total',
  help: 'Runs of the scheduled jobs by job and outcome (ok, failed)',
  labelNames: ['job', 'outcome'],
  registers: [metricsRegistry],
});
const jobSeconds = new Histogram({
  name: 'venue_job_duration_seconds',
  help: 'Duration of the scheduled jobs',
  labelNames: ['job'],
  buckets: [0.01, 0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600],
  registers: [metricsRegistry],
});
const jobLastSuccess = new Gauge({
  name: 'venue_job_last_success_timestamp_seconds',
  help: 'When each scheduled job last ran without failing (unix seconds)',
  labelNames: ['job'],
  registers: [metricsRegistry],
});

/**
 * Runs one scheduled job and records it (runs, failures, duration, last
 * success). The job's error is thrown on to the caller, which logs it.
 */
export async function trackJob<T>(job: string, run: () => Promise<T>): Promise<T> {
  const end = jobSeconds.startTimer({ job });
  try {
    const out = await run();
    jobRuns.inc({ job, outcome: 'ok' });
    jobLastSuccess.set({ job }, Date.now() / 1000);
    return out;
  } catch (err) {
    jobRuns.inc({ job, outcome: 'failed' });
    throw err;
  } finally {
    end();
  }
}

const webhookDeliveries = new Counter({
  name: 'venue_webhook_deliveries_total',
  help: 'Attempts of the incident webhook (docs/messages.md "Webhook") by outcome: delivered, retry (failed, tried again later), failed (given up)',
  labelNames: ['outcome'],
  registers: [metricsRegistry],
});

/** Counts one attempt of an incident webhook delivery. */
export function recordWebhookAttempt(outcome: 'delivered' | 'retry' | 'failed'): void {
  webhookDeliveries.inc({ outcome });
}

const mailSends = new Counter({
  name: 'venue_mail_sends_total',
  help: "E-mails to a club's invoice address (documents, test e-mail) by outcome: sent, failed",
  labelNames: ['kind', 'outcome'],
  registers: [metricsRegistry],
});

/** Counts one e-mail to a club's invoice address. */
export function recordMailSend(kind: 'document' | 'test', outcome: 'sent' | 'failed'): void {
  mailSends.inc({ kind, outcome });
}

const offlineEvents = new Counter({
  name: 'venue_offline_events_total',
  help: 'Entrances terminals decided offline and uploaded, received by this instance',
  registers: [metricsRegistry],
});

/** A pool's connections at this moment: `pool` names it (main, gate, replica, or pglite). */
export interface PoolStat {
  pool: string;
  inUse: number;
  idle: number;
  waiting: number;
  max: number;
}

/** What one app of the process tells the gauges at scrape time. */
export interface MetricsSource {
  /** Terminals whose link is open on this app. */
  terminals(): number;
  /** The database pools of the app. */
  pools(): PoolStat[];
  /** Whether the database answers now (a `select 1` with a short limit). */
  databaseAnswers(): Promise<boolean>;
}

const sources = new Set<MetricsSource>();
/** Offline events received in uploads and not yet applied, per upload under way (this process). */
let offlineBacklog = 0;

/** Adds an app's gauges' source; returns its removal (on the app's close). */
export function addMetricsSource(source: MetricsSource): () => void {
  sources.add(source);
  return () => sources.delete(source);
}

/**
 * An offline upload of `events` entrances arrived: they count in the backlog
 * until the returned function is called (applied, or failed).
 */
export function offlineUploadArrived(events: number): () => void {
  offlineBacklog += events;
  offlineEvents.inc(events);
  let done = false;
  return () => {
    if (done) return;
    done = true;
    offlineBacklog -= events;
  };
}

new Gauge({
  name: 'venue_terminals_connected',
  help: 'Terminals whose link is open on this server instance',
  registers: [metricsRegistry],
  collect() {
    let n = 0;
    for (const s of sources) n += s.terminals();
    this.set(n);
  },
});
new Gauge({
  name: 'venue_offline_backlog_events',
  help: 'Entrances decided offline that terminals uploaded and this instance has not yet applied',
  registers: [metricsRegistry],
  collect() {
    this.set(offlineBacklog);
  },
});

function poolGauge(name: string, help: string, pick: (p: PoolStat) => number) {
  return new Gauge({
    name,
    help,
    labelNames: ['pool'],
    registers: [metricsRegistry],
    collect() {
      this.reset();
      const sums = new Map<string, number>();
      for (const s of sources) for (const p of s.pools()) sums.set(p.pool, (sums.get(p.pool) ?? 0) + pick(p));
      for (const [pool, v] of sums) this.set({ pool }, v);
    },
  });
}
poolGauge('venue_db_pool_in_use', 'Database connections running a statement or a transaction', (p) => p.inUse);
poolGauge('venue_db_pool_idle', 'Database connections open and idle', (p) => p.idle);
poolGauge('venue_db_pool_waiting', 'Statements waiting for a database connection', (p) => p.waiting);
poolGauge('venue_db_pool_max', 'Largest number of connections of the pool', (p) => p.max);

new Gauge({
  name: 'venue_database_up',
  help: 'Whether the database answers select 1 within a second (1) or not (0), checked at each scrape',
  registers: [metricsRegistry],
  async collect() {
    let up = 1;
    for (const s of sources) if (!(await s.databaseAnswers())) up = 0;
    this.set(sources.size ? up : 0);
  },
});

/** The metrics in Prometheus's text format, and its content type. */
export async function metricsText(): Promise<{ contentType: string; body: string }> {
  return { contentType: metricsRegistry.contentType, body: await metricsRegistry.metrics() };
}
