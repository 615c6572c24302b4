#!/usr/bin/env node
// What the gate leaves to the old generation (docs/scaling.md "The gate's tail at 5 000 links").
// The tail of bench/many-terminals.bench.mjs is the server's major collections, and they come as often
// as the young generation promotes. This bench runs bench/lib/gate-replay.mjs — the gate at 2,000
// presentations/s in one process, no sockets — under V8's --trace-gc-nvp and sums the bytes each
// scavenge promoted during the measured 10 s, for three workloads side by side:
// - gate: the product's decision (`processEntrance`);
// - gate-read: the gate's batched read only;
// - pg-pool: node-postgres's Pool alone running a one-row named statement at the same rate — the
//   check against code we did not write: what the driver does without the product.
// Each workload runs BENCH_RUNS (default 3) times in a fresh process: the promotion is bimodal (a
// run either keeps up a chain of promoted garbage or does not), so one run says little.
// Run: `npm exec -- node --import tsx bench/gate-promotion.bench.mjs` (the pinned node; any node by its own path). Appends to bench/RESULTS.md; writes
// bench/results/gate-promotion.json.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { addResultRow } from './lib/results-md.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const RATE = Number(process.env.BENCH_RATE ?? 2000);
const MODES = (process.env.BENCH_REPLAYS ?? 'gate,gate-read,pg-pool').split(',');
const FLAGS = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);

/** Runs one replay; answers promoted MB, scavenges and mark-compacts inside its window, and its latency. */
function replay(mode) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--trace-gc-nvp', ...FLAGS, '--import', 'tsx', path.join(root, 'bench/lib/gate-replay.mjs')],
      {
        cwd: root,
        env: { ...process.env, BENCH_REPLAY: mode, BENCH_SECONDS: String(SECONDS), BENCH_RATE: String(RATE) },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('exit', (code) => {
      const w = /WINDOW (\d+) (\d+)/.exec(err);
      const last = out
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .pop();
      if (code !== 0 || !w || !last) return reject(new Error(`replay ${mode} failed (${code}): ${err.slice(-2000)}`));
      const [from, to] = [Number(w[1]), Number(w[2])];
      let promoted = 0;
      let scavenges = 0;
      let markCompacts = 0;
      // Only the main isolate's lines (tsx's module loader runs on a thread with a heap of its own).
      const isolate = (line) => /^\[\d+:(0x[0-9a-f]+)\]/.exec(line)?.[1];
      const count = new Map();
      for (const line of out.split('\n')) count.set(isolate(line), (count.get(isolate(line)) ?? 0) + 1);
      count.delete(undefined);
      const main = [...count].sort((a, b) => b[1] - a[1])[0]?.[0];
      for (const line of out.split('\n')) {
        const t = /\s(\d+) ms: /.exec(line);
        if (!t || isolate(line) !== main || Number(t[1]) < from || Number(t[1]) > to) continue;
        const gc = / gc=(\w+)/.exec(line)?.[1];
        if (gc === 's') scavenges++;
        if (gc === 'mc') markCompacts++;
        promoted += Number(/ promoted=(\d+)/.exec(line)?.[1] ?? 0);
      }
      const seconds = (to - from) / 1000;
      resolve({
        promotedMBPer10s: Math.round((promoted / 1e6 / seconds) * 10 * 10) / 10,
        scavenges,
        markCompacts,
        ...JSON.parse(last),
      });
    });
  });
}

const result = { rate: RATE, seconds: SECONDS, runs: RUNS, load: Math.round(os.loadavg()[0] * 10) / 10, modes: {} };
for (const mode of MODES) {
  result.modes[mode] = [];
  for (let r = 0; r < RUNS; r++) {
    const x = await replay(mode);
    console.log(mode, JSON.stringify(x));
    result.modes[mode].push(x);
  }
}
mkdirSync(path.join(root, 'bench/results'), { recursive: true });
writeFileSync(path.join(root, 'bench/results/gate-promotion.json'), `${JSON.stringify(result, null, 2)}\n`);
const cell = (mode) =>
  result.modes[mode]
    ? result.modes[mode].map((x) => `${x.promotedMBPer10s} (${x.markCompacts} MC, p99 ${x.p99})`).join(' · ')
    : null;
addResultRow(
  path.join(root, 'bench/RESULTS.md'),
  'Gate: bytes promoted to the old generation per 10 s (node --import tsx bench/gate-promotion.bench.mjs)',
  [
    'date',
    'machine',
    'rate/s',
    'node flags',
    'gate MB (mark-compacts, p99 ms) per run',
    'gate read only',
    'node-postgres Pool alone',
  ],
  [
    new Date().toISOString().slice(0, 16).replace('T', ' '),
    `${os.cpus().length} cores, node ${process.version}, load ${result.load}`,
    RATE,
    FLAGS.join(' ') || '—',
    cell('gate'),
    cell('gate-read'),
    cell('pg-pool'),
  ],
);
