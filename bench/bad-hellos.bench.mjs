#!/usr/bin/env node
// Other gates during a flood of bad hellos (issue 33 finding 6; docs/scaling.md "Bad hellos").
// BENCH_TERMINALS (50) gates of one club decide at BENCH_GATE_RATE (500) decisions/s, open loop, in
// alternating windows of BENCH_GATE_SECONDS: quiet, then while BENCH_BAD_HELLOS (1,000) hellos with a
// wrong secret arrive from one address (BENCH_FLOOD_ADDRESS, 127.0.0.2; the gates are at 127.0.0.1), BENCH_FLOOD_CONCURRENCY (50) sockets at a time (each opens a
// WebSocket, says hello and is closed 4401 — or refused at the upgrade with 429 once its address is
// limited), sent once per window from the end of its 1 s warm-up. BENCH_ROUNDS (3) rounds; medians. Measured twice in one run, each on a server of its own:
// "before" with the per-address limit off (TERMINAL_HELLO_FAILURES=1000000000), "after" with the
// server's defaults. Goal: other gates' p99 under the flood ≤ 1.5× quiet.
// Run: `node --import tsx bench/bad-hellos.bench.mjs` (BENCH_RECORD=0: no RESULTS.md row).
// Writes bench/results/bad-hellos.json.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { addResultRow } from './lib/results-md.mjs';
import { startGateServer } from './lib/gate-server-process.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { runTraffic } = await import(path.join(root, 'apps/terminal/src/traffic.ts'));
const { TERMINAL_PROTOCOL_VERSION } = await import(path.join(root, 'packages/domain/src/index.ts'));
const TERMINALS = Number(process.env.BENCH_TERMINALS ?? 50);
const SECONDS = Number(process.env.BENCH_GATE_SECONDS ?? 8);
const RATE = Number(process.env.BENCH_GATE_RATE ?? 500);
const BAD = Number(process.env.BENCH_BAD_HELLOS ?? 1000);
const CONCURRENCY = Number(process.env.BENCH_FLOOD_CONCURRENCY ?? 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const FLOOD_ADDRESS = process.env.BENCH_FLOOD_ADDRESS ?? '127.0.0.2';
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** One bad hello: 'closed' (4401 and the like), 'refused' (HTTP 429 at the upgrade) or 'error'. */
function badHello(wsUrl, i) {
  return new Promise((resolve) => {
    // From another address than the gates (127.0.0.2): the flood's source, not the site's.
    const ws = new WebSocket(`${wsUrl}/api/terminal/ws`, { localAddress: FLOOD_ADDRESS });
    const timer = setTimeout(() => (ws.terminate(), resolve('error')), 15_000);
    const end = (how) => {
      clearTimeout(timer);
      resolve(how);
    };
    ws.on('open', () =>
      ws.send(
        JSON.stringify({ type: 'hello', version: TERMINAL_PROTOCOL_VERSION, serial: `BAD-${i}`, secret: 'wrong' }),
      ),
    );
    ws.on('close', () => end('closed'));
    ws.on('unexpected-response', (_req, res) => {
      end(res.statusCode === 429 ? 'refused' : 'error');
      ws.terminate();
    });
    ws.on('error', () => end('error'));
  });
}

/** Sends `BAD` bad hellos, `CONCURRENCY` at a time, starting at once; resolves with what became of them. */
async function flood(wsUrl) {
  const done = { closed: 0, refused: 0, error: 0 };
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < BAD) done[await badHello(wsUrl, next++)]++;
    }),
  );
  return done;
}

// The flood runs in a process of its own (`bad-hellos.bench.mjs flood <ws url>`), so that its sockets do
// not share the event loop of the gates' traffic generator and the latencies measured are the server's.
if (process.argv[2] === 'flood') {
  const t0 = performance.now();
  const done = await flood(process.argv[3]);
  process.stdout.write(`${JSON.stringify({ ...done, ms: Math.round(performance.now() - t0) })}\n`);
  process.exit(0);
}
function floodProcess(wsUrl) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), 'flood', wsUrl], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`flood exited ${code}`))));
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ratio = (a, b) => Math.round((a / Math.max(0.1, b)) * 100) / 100;

/** Quiet and flooded windows against one server started with `env`. */
async function measure(label, env, dbUrl) {
  const server = startGateServer({ ...env, BENCH_GATE_DB: dbUrl, BENCH_TERMINALS: String(TERMINALS) });
  const ready = await server.next();
  const wsUrl = `ws://127.0.0.1:${ready.port}`;
  const traffic = () =>
    runTraffic({
      url: wsUrl,
      terminals: ready.terminals,
      identifications: ready.cards.map((value) => ({ kind: 'card', value })),
      rate: RATE / TERMINALS,
      warmupSeconds: 1,
      durationSeconds: SECONDS,
    });
  const quiet = [];
  const flooded = [];
  const hellos = { closed: 0, refused: 0, error: 0, ms: [] };
  try {
    for (let round = 0; round < ROUNDS; round++) {
      quiet.push(await traffic());
      // The flood: BAD hellos as fast as CONCURRENCY sockets go, from about the end of the window's warm-up.
      const f = (async () => {
        const d = await floodProcess(wsUrl);
        for (const k of ['closed', 'refused', 'error']) hellos[k] += d[k];
        hellos.ms.push(d.ms);
      })();
      flooded.push(await traffic());
      await f;
      const q = quiet.at(-1).latencyMs;
      const u = flooded.at(-1).latencyMs;
      console.log(
        `${label} round ${round + 1}: quiet p50/p99 ${q.p50}/${q.p99} ms, flooded ${u.p50}/${u.p99} ms (flood ${hellos.ms.at(-1)} ms)`,
      );
      // The address's bucket refills only partly between rounds (20 a minute): later rounds meet a
      // source already limited, as a flood that goes on does.
    }
  } finally {
    server.send('stop');
    await new Promise((r) => server.child.once('exit', r));
  }
  const p = (runs, k) => median(runs.map((r) => r.latencyMs[k]));
  const out = {
    quiet: { p50: p(quiet, 'p50'), p99: p(quiet, 'p99') },
    flooded: {
      p50: p(flooded, 'p50'),
      p99: p(flooded, 'p99'),
      errors: flooded.reduce((s, r) => s + r.errors, 0),
      offline: flooded.reduce((s, r) => s + r.offline, 0),
    },
    hellos: { closed: hellos.closed, refused: hellos.refused, error: hellos.error, floodMs: median(hellos.ms) },
  };
  out.p99Ratio = ratio(out.flooded.p99, out.quiet.p99);
  out.p50Ratio = ratio(out.flooded.p50, out.quiet.p50);
  return out;
}

const { default: pg } = await import('pg');
const adminDb = new pg.Client({ connectionString: adminUrl });
await adminDb.connect();
const result = { terminals: TERMINALS, offeredPerSecond: RATE, badHellosPerFlood: BAD, concurrency: CONCURRENCY };
const loads = [os.loadavg()[0]];
for (const [label, env] of [
  ['before', { TERMINAL_HELLO_FAILURES: '1000000000' }],
  ['after', {}],
]) {
  const name = `venue_bench_bad_hellos_${label}_${process.pid}`;
  await adminDb.query(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  try {
    result[label] = await measure(label, env, url.toString());
  } finally {
    await adminDb.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
  loads.push(os.loadavg()[0]);
}
await adminDb.end();
result.met = result.after.p99Ratio <= 1.5;
console.log(JSON.stringify(result));

const machine = `${os.cpus().length} cores, node ${process.version}, load ${loads.map((l) => l.toFixed(1)).join(' → ')}`;
const date = new Date().toISOString().slice(0, 16).replace('T', ' ');
const command = 'node --import tsx bench/bad-hellos.bench.mjs';
const trial = process.env.BENCH_RECORD === '0';
mkdirSync(path.join(root, 'bench/results'), { recursive: true });
writeFileSync(
  path.join(root, `bench/results/bad-hellos${trial ? '-trial' : ''}.json`),
  `${JSON.stringify({ date, machine, command, result }, null, 2)}\n`,
);
const cell = (r) =>
  `${r.quiet.p50}/${r.quiet.p99} → ${r.flooded.p50}/${r.flooded.p99} (p99 ${r.p99Ratio}×; hellos closed ${r.hellos.closed}, refused 429 ${r.hellos.refused}, failed ${r.hellos.error}, flood took ${r.hellos.floodMs} ms; gate errors/offline ${r.flooded.errors}/${r.flooded.offline})`;
if (!trial)
  addResultRow(
    path.join(root, 'bench/RESULTS.md'),
    `Other gates during a flood of bad hellos from one address (${command})`,
    [
      'date',
      'machine',
      'gates, offered/s',
      'flood',
      'before: limit off — quiet → flooded p50/p99 ms',
      'after: 20 failures a minute per address — quiet → flooded p50/p99 ms',
      'goal (after p99 ≤ 1.5×)',
    ],
    [
      date,
      machine,
      `${TERMINALS}, ${RATE}`,
      `${BAD} wrong-secret hellos from 127.0.0.2, ${CONCURRENCY} at a time, once per ${SECONDS} s window`,
      cell(result.before),
      cell(result.after),
      result.met ? 'met' : 'not met',
    ],
  );
