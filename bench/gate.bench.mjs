#!/usr/bin/env node
// Gate benchmark (issue 3 item 10): BENCH_TERMINALS (default 50) simulated terminals,
// each with its own WebSocket, present cards in a closed loop (the next one as soon as
// the decision is back) against the real server, on PostgreSQL (a fresh database on
// BENCH_DATABASE_URL, default the local server) and on PGlite. Records decisions per
// second, p50/p99 latency, the same machine's rate of single-row INSERT ... RETURNING
// round trips through the same pool (the physical limit for a decision that must be
// logged durably) and their ratio, the time for all terminals to connect at once, and
// the server's peak RSS with the terminals connected (server in its own process).
// Run: `node --import tsx bench/gate.bench.mjs` (also from bench/run.sh).
// Writes bench/results/gate.json and appends to bench/RESULTS.md.
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { addResultRow } from './lib/results-md.mjs';
import { serverFlagsLabel, startGateServer } from './lib/gate-server-process.mjs';
import { difference, gateQuantileMs, scrape } from './lib/metrics-scrape.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { runTraffic } = await import(path.join(root, 'apps/terminal/src/traffic.ts'));
const { sumOf } = await import(path.join(root, 'apps/server/test/prometheus.ts'));
const TERMINALS = Number(process.env.BENCH_TERMINALS ?? 50);
const SECONDS = Number(process.env.BENCH_GATE_SECONDS ?? 10);
const WARMUP = Number(process.env.BENCH_GATE_WARMUP ?? 3);
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const only = process.env.BENCH_GATE_ONLY; // 'postgres' or 'pglite'
/** Offered decisions per second (all terminals) of the open-loop latency phase; 0 skips it. */
const RATE = Number(process.env.BENCH_GATE_RATE ?? 2000);

// BENCH_SERVER_NODE_ARGS: more node flags for the server (e.g. --trace-gc), space-separated.
const serverExtraFlags = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);

function startServer(env) {
  // BENCH_CPU_PROF=<dir> writes the server's CPU profile there (for finding what to optimize).
  const prof = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  return startGateServer({ ...env, BENCH_TERMINALS: String(TERMINALS) }, [...prof, ...serverExtraFlags]);
}

const meanBatch = (a, b) => Math.round(((b.items - a.items) / Math.max(1, b.batches - a.batches)) * 10) / 10;

async function run(kind, dbTarget) {
  const server = startServer({ BENCH_GATE_DB: dbTarget });
  const ready = await server.next();
  console.log(`${kind}: server on port ${ready.port}, insert limit ${ready.insertLimit}/s`);
  // CPU per decision (server process, PostgreSQL backends, this client process) over the whole
  // traffic, warm-up included, divided by every decision sent: shows which one is the bottleneck.
  server.send('cpu');
  const cpu0 = await server.next();
  const client0 = process.cpuUsage();
  const traffic = await runTraffic({
    url: `ws://127.0.0.1:${ready.port}`,
    terminals: ready.terminals,
    identifications: ready.cards.map((value) => ({ kind: 'card', value })),
    rate: 0,
    inFlight: 1,
    warmupSeconds: WARMUP,
    durationSeconds: SECONDS,
  });
  const clientCpu = process.cpuUsage(client0);
  server.send('cpu');
  const cpu1 = await server.next();
  const perDecision = (ms) => Math.round((ms / Math.max(1, traffic.sent)) * 1000) / 1000;
  server.send('rss');
  const mem = await server.next(); // peak RSS of the closed loop, before the open-loop phase
  // Latency at a steady offered rate (open loop): in the closed loop above every terminal sends
  // again as soon as it has its answer, so latency there is terminals ÷ throughput by Little's law
  // (queueing at saturation); this measures the latency of a decision at the target rate.
  // /metrics scraped around the open-loop phase: its decision histogram's p99 against the server's own
  // exact p99 (gate-timing.ts) over the same decisions, and the terminals' p99 (issue 33: within 10 %).
  const base = `http://127.0.0.1:${ready.port}`;
  let metricsBefore = null;
  if (RATE > 0) {
    server.send('eld-start');
    await server.next();
    metricsBefore = await scrape(base);
  }
  const atRate =
    RATE > 0
      ? await runTraffic({
          url: `ws://127.0.0.1:${ready.port}`,
          terminals: ready.terminals,
          identifications: ready.cards.map((value) => ({ kind: 'card', value })),
          rate: RATE / TERMINALS,
          warmupSeconds: 2,
          durationSeconds: SECONDS,
        })
      : null;
  let metrics = null;
  if (atRate) {
    const delta = difference(metricsBefore, await scrape(base));
    server.send('eld');
    const exact = (await server.next()).decisions;
    const p99 = gateQuantileMs(delta, 0.99);
    metrics = {
      p50: gateQuantileMs(delta, 0.5),
      p99,
      decisions: sumOf(delta, 'venue_gate_decision_seconds_count'),
      serverExactP99: exact.p99,
      serverExactCount: exact.count,
      // How far the scrape's p99 is from the server's exact one over the same decisions.
      p99Difference: Math.round((p99 / Math.max(0.001, exact.p99) - 1) * 1000) / 10,
    };
    console.log(
      `${kind}: /metrics p99 ${p99} ms over ${metrics.decisions} decisions; the server's exact p99 ${exact.p99} ms (${metrics.p99Difference} %); the terminals' p99 ${atRate.latencyMs.p99} ms`,
    );
  }
  server.send('stop');
  await new Promise((r) => server.child.once('exit', r));
  const result = {
    database: kind,
    terminals: TERMINALS,
    seconds: SECONDS,
    decisionsPerSecond: traffic.decisionsPerSecond,
    latencyMs: traffic.latencyMs,
    insertLimitPerSecond: ready.insertLimit,
    insertCpuMs: ready.insertCpuMs,
    limitRatio: Math.round((ready.insertLimit / Math.max(1, traffic.decisionsPerSecond)) * 100) / 100,
    connectAllMs: traffic.connectMs,
    serverPeakRssMB: Math.round(mem.peakRss / 1048576),
    cpuMsPerDecision: {
      server: perDecision(cpu1.serverCpuMs - cpu0.serverCpuMs),
      database: cpu1.databaseCpuMs == null ? null : perDecision(cpu1.databaseCpuMs - cpu0.databaseCpuMs),
      benchClient: perDecision((clientCpu.user + clientCpu.system) / 1000),
    },
    atRate: atRate && {
      offeredPerSecond: RATE,
      decisionsPerSecond: atRate.decisionsPerSecond,
      latencyMs: atRate.latencyMs,
      errors: atRate.errors,
      offline: atRate.offline,
      bySecond: atRate.bySecond,
      metrics,
    },
    // Group commit (modules/gate/gate-batch.ts): mean entrances per read statement and per log INSERT.
    meanBatch: {
      read: meanBatch(cpu0.batches.read, cpu1.batches.read),
      insert: meanBatch(cpu0.batches.insert, cpu1.batches.insert),
    },
    errors: traffic.errors,
    byStatus: traffic.byStatus,
  };
  console.log(JSON.stringify(result));
  return result;
}

const results = [];
if (only !== 'pglite') {
  const { default: pg } = await import('pg');
  const name = `venue_bench_gate_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  try {
    // A pool size other than the server's default (10) is named in the results.
    const pool = process.env.BENCH_POOL && process.env.BENCH_POOL !== '10' ? ` (pool ${process.env.BENCH_POOL})` : '';
    results.push(await run(`PostgreSQL${pool}`, url.toString()));
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}
if (only !== 'postgres') results.push(await run('PGlite', 'pglite'));

const machine = `${os.cpus().length} cores, node ${process.version}, load ${os.loadavg()[0].toFixed(1)}; server ${serverFlagsLabel(serverExtraFlags)}`;
const date = new Date().toISOString().slice(0, 16).replace('T', ' ');
const command = 'node --import tsx bench/gate.bench.mjs';
mkdirSync(path.join(root, 'bench/results'), { recursive: true });
// BENCH_RECORD=0: a trial that writes bench/results/gate-trial.json and leaves bench/RESULTS.md alone.
const trial = process.env.BENCH_RECORD === '0';
writeFileSync(
  path.join(root, `bench/results/${trial ? 'gate-trial' : 'gate'}.json`),
  `${JSON.stringify({ date, machine, command, results }, null, 2)}\n`,
);
for (const r of trial ? [] : results) {
  addResultRow(
    path.join(root, 'bench/RESULTS.md'),
    `Gate decisions, group commit, with latency at an offered rate (${command})`,
    [
      'date',
      'machine',
      'database',
      'terminals',
      'decisions/s',
      'p50 ms',
      'p99 ms',
      'INSERT…RETURNING/s (same pool)',
      'limit ÷ decisions',
      'all connect ms',
      'server peak RSS MB',
      'at offered rate/s: decisions/s',
      'p50 ms',
      'p99 ms',
      'mean statement batch (read/insert)',
    ],
    [
      date,
      machine,
      r.database,
      r.terminals,
      r.decisionsPerSecond,
      r.latencyMs.p50,
      r.latencyMs.p99,
      r.insertLimitPerSecond,
      r.limitRatio,
      r.connectAllMs,
      r.serverPeakRssMB,
      r.atRate ? `${r.atRate.offeredPerSecond}: ${r.atRate.decisionsPerSecond}` : '',
      r.atRate?.latencyMs.p50 ?? '',
      r.atRate?.latencyMs.p99 ?? '',
      `${r.meanBatch.read}/${r.meanBatch.insert}`,
    ],
  );
  addResultRow(
    path.join(root, 'bench/RESULTS.md'),
    `Gate decisions: CPU ms per decision (${command})`,
    [
      'date',
      'machine',
      'database',
      'decisions/s',
      'server process',
      'PostgreSQL backends',
      'bench client',
      'per INSERT…RETURNING: server',
      'per INSERT…RETURNING: PostgreSQL',
    ],
    [
      date,
      machine,
      r.database,
      r.decisionsPerSecond,
      r.cpuMsPerDecision.server,
      r.cpuMsPerDecision.database,
      r.cpuMsPerDecision.benchClient,
      r.insertCpuMs?.server,
      r.insertCpuMs?.database,
    ],
  );
  const m = r.atRate?.metrics;
  if (m)
    addResultRow(
      path.join(root, 'bench/RESULTS.md'),
      `Gate: /metrics decision histogram against the server's exact p99 (${command}; open-loop phase)`,
      [
        'date',
        'machine',
        'database',
        'offered/s',
        'decisions in the scrape / in the server',
        '/metrics p50 / p99 ms (histogram_quantile)',
        "server's exact p99 ms",
        'difference',
        "terminals' p99 ms",
        'goal (within 10 %)',
      ],
      [
        date,
        machine,
        r.database,
        r.atRate.offeredPerSecond,
        `${m.decisions} / ${m.serverExactCount}`,
        `${m.p50} / ${m.p99}`,
        m.serverExactP99,
        `${m.p99Difference} %`,
        r.atRate.latencyMs.p99,
        Math.abs(m.p99Difference) <= 10 ? 'met' : 'not met',
      ],
    );
}
