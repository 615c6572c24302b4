#!/usr/bin/env node
// The gate while the console exports (issue 12 finding 7: one yearly export raised gate p50
// 3–5×; two exports plus report loops pushed p99 to 8.7 s). One server process
// (bench/lib/gate-server.mjs) on a fresh PostgreSQL database (BENCH_DATABASE_URL, default the
// local server) with BENCH_TERMINALS terminals and BENCH_HISTORY_ROWS entrances over the past
// year. Open-loop gate traffic at BENCH_GATE_RATE decisions/s, in alternating windows of
// BENCH_GATE_SECONDS: quiet, then under load (BENCH_EXPORTS concurrent yearly entrance exports
// read to the end as streams, one after another, plus one loop of yearly financial and entrance
// reports), repeated BENCH_ROUNDS times. Records p50/p99 of each kind of window (median over
// the rounds) and their ratios — measured together in one run, as ratios, since the machine is
// shared — and what the load achieved (exports and reports completed).
// Run: `node --import tsx bench/gate-under-export.bench.mjs` (BENCH_RECORD=0: no RESULTS.md row).
// Writes bench/results/gate-under-export.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { addResultRow } from './lib/results-md.mjs';
import { signIn } from './lib/http-session.mjs';
import { startGateServer } from './lib/gate-server-process.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { runTraffic } = await import(path.join(root, 'apps/terminal/src/traffic.ts'));
const TERMINALS = Number(process.env.BENCH_TERMINALS ?? 50);
const SECONDS = Number(process.env.BENCH_GATE_SECONDS ?? 8);
const RATE = Number(process.env.BENCH_GATE_RATE ?? 500);
const HISTORY = Number(process.env.BENCH_HISTORY_ROWS ?? 200_000);
const EXPORTS = Number(process.env.BENCH_EXPORTS ?? 2);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** Whether a loop of yearly reports runs beside the exports (default 1). */
const REPORTS = process.env.BENCH_REPORTS !== '0';
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const startServer = (env) => startGateServer({ ...env, BENCH_TERMINALS: String(TERMINALS), BENCH_INSERT_SECONDS: '1' });

/** Runs the console's load until `stop()`: exports streamed to the end, one report loop. */
function consoleLoad(base, headers) {
  let running = true;
  const done = { exports: 0, exportBytes: 0, reports: 0, errors: 0 };
  const exportLoop = async () => {
    while (running) {
      try {
        const res = await fetch(`${base}/api/Report/GetEnteracesReport/Export`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ period: 'year', lang: 'he' }),
        });
        if (!res.ok) throw new Error(`export ${res.status}`);
        for await (const chunk of res.body) done.exportBytes += chunk.length;
        done.exports++;
      } catch {
        done.errors++;
      }
    }
  };
  const reportLoop = async () => {
    const calls = ['GetFinancialReport', 'GetEnteracesReport'];
    for (let i = 0; running; i++) {
      try {
        const res = await fetch(`${base}/api/Report/${calls[i % 2]}`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ period: 'year', pageSize: 200 }),
        });
        await res.arrayBuffer();
        if (!res.ok) throw new Error(`report ${res.status}`);
        done.reports++;
      } catch {
        done.errors++;
      }
    }
  };
  const loops = [...Array.from({ length: EXPORTS }, exportLoop), ...(REPORTS ? [reportLoop()] : [])];
  return {
    done,
    stop: async () => {
      running = false;
      await Promise.all(loops);
    },
  };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const { default: pg } = await import('pg');
const name = `venue_bench_gate_export_${process.pid}`;
const adminDb = new pg.Client({ connectionString: adminUrl });
await adminDb.connect();
await adminDb.query(`CREATE DATABASE ${name}`);
const url = new URL(adminUrl);
url.pathname = `/${name}`;
let result;
try {
  const server = startServer({ BENCH_GATE_DB: url.toString(), BENCH_HISTORY_ROWS: String(HISTORY) });
  const ready = await server.next();
  const base = `http://127.0.0.1:${ready.port}`;
  console.log(`server on port ${ready.port}, ${HISTORY} entrances of history`);
  const headers = await signIn(base, ready.admin);
  const traffic = () =>
    runTraffic({
      url: `ws://127.0.0.1:${ready.port}`,
      terminals: ready.terminals,
      identifications: ready.cards.map((value) => ({ kind: 'card', value })),
      rate: RATE / TERMINALS,
      warmupSeconds: 1,
      durationSeconds: SECONDS,
    });
  const quiet = [];
  const loaded = [];
  const load = { exports: 0, exportBytes: 0, reports: 0, errors: 0 };
  for (let round = 0; round < ROUNDS; round++) {
    const q = await traffic();
    quiet.push(q);
    const l = consoleLoad(base, headers);
    await new Promise((r) => setTimeout(r, 1000)); // the exports under way
    const u = await traffic();
    await l.stop();
    loaded.push(u);
    for (const k of Object.keys(load)) load[k] += l.done[k];
    console.log(
      `round ${round + 1}: quiet p50/p99 ${q.latencyMs.p50}/${q.latencyMs.p99} ms, under load ${u.latencyMs.p50}/${u.latencyMs.p99} ms (${l.done.exports} exports, ${l.done.reports} reports)`,
    );
  }
  server.send('stop');
  await new Promise((r) => server.child.once('exit', r));
  const p = (runs, k) => median(runs.map((r) => r.latencyMs[k]));
  const ratio = (a, b) => Math.round((a / Math.max(0.1, b)) * 100) / 100;
  result = {
    terminals: TERMINALS,
    offeredPerSecond: RATE,
    secondsPerWindow: SECONDS,
    rounds: ROUNDS,
    historyRows: HISTORY,
    concurrentExports: EXPORTS,
    reportLoop: REPORTS,
    quiet: {
      p50: p(quiet, 'p50'),
      p99: p(quiet, 'p99'),
      decisionsPerSecond: median(quiet.map((r) => r.decisionsPerSecond)),
    },
    underLoad: {
      p50: p(loaded, 'p50'),
      p99: p(loaded, 'p99'),
      decisionsPerSecond: median(loaded.map((r) => r.decisionsPerSecond)),
      errors: loaded.reduce((s, r) => s + r.errors, 0),
      offline: loaded.reduce((s, r) => s + r.offline, 0),
    },
    load,
  };
  result.p50Ratio = ratio(result.underLoad.p50, result.quiet.p50);
  result.p99Ratio = ratio(result.underLoad.p99, result.quiet.p99);
  console.log(JSON.stringify(result));
} finally {
  await adminDb.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await adminDb.end();
}

const machine = `${os.cpus().length} cores, node ${process.version}, load ${os.loadavg()[0].toFixed(1)}`;
const date = new Date().toISOString().slice(0, 16).replace('T', ' ');
const command = 'node --import tsx bench/gate-under-export.bench.mjs';
mkdirSync(path.join(root, 'bench/results'), { recursive: true });
const trial = process.env.BENCH_RECORD === '0';
writeFileSync(
  path.join(root, `bench/results/${trial ? 'gate-under-export-trial' : 'gate-under-export'}.json`),
  `${JSON.stringify({ date, machine, command, result }, null, 2)}\n`,
);
if (!trial) {
  addResultRow(
    path.join(root, 'bench/RESULTS.md'),
    `Gate latency while the console exports (${command})`,
    [
      'date',
      'machine',
      'offered/s',
      'history rows',
      'exports at once (+ report loop)',
      'quiet p50/p99 ms',
      'under load p50/p99 ms',
      'p50 ratio',
      'p99 ratio',
      'exports done',
      'reports done',
      'gate errors/offline',
    ],
    [
      date,
      machine,
      RATE,
      HISTORY,
      `${EXPORTS}${REPORTS ? ' + reports' : ''}`,
      `${result.quiet.p50}/${result.quiet.p99}`,
      `${result.underLoad.p50}/${result.underLoad.p99}`,
      result.p50Ratio,
      result.p99Ratio,
      result.load.exports,
      result.load.reports,
      `${result.underLoad.errors}/${result.underLoad.offline}`,
    ],
  );
}
