#!/usr/bin/env node
// The gate while the retention job runs (issue 39, docs/privacy.md "Retention": "a nightly job …
// in batches without slowing the gate", within 1.5× of idle p99). One server process
// (bench/lib/gate-server.mjs) on a fresh PostgreSQL database (BENCH_DATABASE_URL, default the
// local server) with BENCH_TERMINALS terminals and BENCH_HISTORY_ROWS (default 1 000 000)
// entrances over the past year in one club, whose entrance retention is then set to 30 days, so
// that ~92 % of the rows are due. Open-loop gate traffic at BENCH_GATE_RATE decisions/s for
// BENCH_GATE_SECONDS while idle, then for as long while the club's retention runs (POST
// /api/Privacy/RunRetention: the job's batches of 5000 with its pause), measured in one run and
// given as a ratio, since the machine is shared. Records the rows removed and how long the run
// took (whether the loaded window was under the run throughout).
// Run: `nice -n 10 node --import tsx bench/retention-gate.bench.mjs` (BENCH_RECORD=0: no RESULTS.md row).
// Writes bench/results/retention-gate.json.
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
const SECONDS = Number(process.env.BENCH_GATE_SECONDS ?? 15);
const RATE = Number(process.env.BENCH_GATE_RATE ?? 500);
const HISTORY = Number(process.env.BENCH_HISTORY_ROWS ?? 1_000_000);
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const { default: pg } = await import('pg');
const name = `venue_bench_retention_${process.pid}`;
const adminDb = new pg.Client({ connectionString: adminUrl });
await adminDb.connect();
await adminDb.query(`CREATE DATABASE ${name}`);
const url = new URL(adminUrl);
url.pathname = `/${name}`;
let result;
try {
  const server = startGateServer({
    BENCH_TERMINALS: String(TERMINALS),
    BENCH_INSERT_SECONDS: '1',
    BENCH_GATE_DB: url.toString(),
    BENCH_HISTORY_ROWS: String(HISTORY),
    RETENTION_JOBS: '0',
  });
  const ready = await server.next();
  const base = `http://127.0.0.1:${ready.port}`;
  console.log(`server on port ${ready.port}, ${HISTORY} entrances of history`);
  const db = new pg.Client({ connectionString: url.toString() });
  await db.connect();
  await db.query(`update clubs set settings = settings || '{"retentionEntranceDays": 30}'
    where id = (select club_id from users where username = 'bench-admin')`);
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
  const idle = await traffic();
  console.log(`idle p50/p99 ${idle.latencyMs.p50}/${idle.latencyMs.p99} ms`);
  const started = Date.now();
  let finishedAt = 0;
  const run = fetch(`${base}/api/Privacy/RunRetention`, { method: 'POST', headers, body: '{}' }).then(async (r) => {
    finishedAt = Date.now();
    if (!r.ok) throw new Error(`retention ${r.status}: ${await r.text()}`);
    return r.json();
  });
  await new Promise((r) => setTimeout(r, 1000)); // the run under way
  const during = await traffic();
  const windowEnd = Date.now();
  const ran = await run;
  console.log(
    `during p50/p99 ${during.latencyMs.p50}/${during.latencyMs.p99} ms; removed ${JSON.stringify(ran.removed)}`,
  );
  await db.end();
  server.send('stop');
  await new Promise((r) => server.child.once('exit', r));
  const ratio = (a, b) => Math.round((a / Math.max(0.1, b)) * 100) / 100;
  result = {
    terminals: TERMINALS,
    offeredPerSecond: RATE,
    secondsPerWindow: SECONDS,
    historyRows: HISTORY,
    removed: ran.removed,
    retentionSeconds: Math.round((finishedAt - started) / 100) / 10,
    underRunThroughout: finishedAt >= windowEnd,
    idle: { p50: idle.latencyMs.p50, p99: idle.latencyMs.p99, decisionsPerSecond: idle.decisionsPerSecond },
    during: {
      p50: during.latencyMs.p50,
      p99: during.latencyMs.p99,
      decisionsPerSecond: during.decisionsPerSecond,
      errors: during.errors,
      offline: during.offline,
    },
  };
  result.p50Ratio = ratio(result.during.p50, result.idle.p50);
  result.p99Ratio = ratio(result.during.p99, result.idle.p99);
  console.log(JSON.stringify(result));
} finally {
  await adminDb.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await adminDb.end();
}

const machine = `${os.cpus().length} cores, node ${process.version}, load ${os.loadavg()[0].toFixed(1)}`;
const date = new Date().toISOString().slice(0, 16).replace('T', ' ');
const command = 'nice -n 10 node --import tsx bench/retention-gate.bench.mjs';
mkdirSync(path.join(root, 'bench/results'), { recursive: true });
const trial = process.env.BENCH_RECORD === '0';
writeFileSync(
  path.join(root, `bench/results/${trial ? 'retention-gate-trial' : 'retention-gate'}.json`),
  `${JSON.stringify({ date, machine, command, result }, null, 2)}\n`,
);
if (!trial) {
  addResultRow(
    path.join(root, 'bench/RESULTS.md'),
    `Gate latency while the retention job runs (${command})`,
    [
      'date',
      'machine',
      'offered/s',
      'entrance rows',
      'rows removed',
      'run s (under it throughout)',
      'idle p50/p99 ms',
      'during p50/p99 ms',
      'p50 ratio',
      'p99 ratio',
      'gate errors/offline',
    ],
    [
      date,
      machine,
      RATE,
      HISTORY,
      result.removed.entrance_logs,
      `${result.retentionSeconds} (${result.underRunThroughout ? 'yes' : 'no'})`,
      `${result.idle.p50}/${result.idle.p99}`,
      `${result.during.p50}/${result.during.p99}`,
      result.p50Ratio,
      result.p99Ratio,
      `${result.during.errors}/${result.during.offline}`,
    ],
  );
}
