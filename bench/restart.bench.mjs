#!/usr/bin/env node
// Restart after a crash (issue 33 finding 6; docs/operations.md "Restart after a crash"): the server
// as `npm start` runs it (apps/server src/main.ts), with the demo club (DEMO_CLIENTS 2000, DEMO_DAYS 30;
// its history written before the first kill), and the demo's terminals connected from this process
// (the simulator's client, reconnecting with its own back-off). BENCH_KILLS (3) times: SIGKILL the
// server, start it again at once on the same data, and measure from the new process's spawn
//   - listening: GET /api/health answers 200;
//   - ready: GET /api/ready answers 200 (the database answers);
//   - gates back: every terminal has its welcome again.
// On PGlite (DATA_DIR) and, with BENCH_DATABASE_URL (default the local server; "none" skips it), on a
// fresh PostgreSQL database. Goals: ready < 5 s, gates back < 10 s (median of the kills).
// Run: `node --import tsx bench/restart.bench.mjs` (BENCH_RECORD=0: no RESULTS.md row).
// Writes bench/results/restart.json.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { addResultRow } from './lib/results-md.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const serverDir = path.join(root, 'apps/server');
const { TerminalClient } = await import(path.join(root, 'apps/terminal/src/client.ts'));
const KILLS = Number(process.env.BENCH_KILLS ?? 3);
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const demo = { DEMO_CLIENTS: process.env.DEMO_CLIENTS ?? '2000', DEMO_DAYS: process.env.DEMO_DAYS ?? '30' };
const serverFlags = JSON.parse(readFileSync(path.join(serverDir, 'package.json'), 'utf8'))
  .scripts.start.split(' ')
  .filter((w) => /^--[\w-]+=/.test(w));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const load = () => Number(os.loadavg()[0].toFixed(1));

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** Starts the server as `npm start` does; `ok(path)` polls an endpoint until 200. */
function start(env, port) {
  const child = spawn(process.execPath, [...serverFlags, '--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', DEMO_HISTORY: 'wait' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const ok = async (p, limitMs = 20 * 60_000) => {
    const end = Date.now() + limitMs;
    while (Date.now() < end) {
      if (child.exitCode != null) throw new Error(`server exited ${child.exitCode}\n${out.slice(-3000)}`);
      try {
        if ((await fetch(`http://127.0.0.1:${port}${p}`)).ok) return;
      } catch {
        /* not listening yet */
      }
      await sleep(25);
    }
    throw new Error(`${p} not 200 in ${limitMs} ms\n${out.slice(-3000)}`);
  };
  return { child, ok, out: () => out };
}

async function measure(kind, env) {
  const port = await freePort();
  const t0 = performance.now();
  let server = start(env, port);
  await server.ok('/api/ready');
  const firstMs = Math.round(performance.now() - t0);
  const secrets = JSON.parse(readFileSync(path.join(env.DATA_DIR, 'terminal-secrets.json'), 'utf8'));
  const clients = Object.entries(secrets).map(
    ([serial, secret]) =>
      new TerminalClient({ url: `ws://127.0.0.1:${port}`, serial, secret, heartbeat: true, reconnect: true }),
  );
  // A demo terminal that is not approved or not in use may be refused: the ones welcomed are measured.
  const connected = (await Promise.allSettled(clients.map((c) => c.connect()))).filter((r) => r.status === 'fulfilled');
  const gates = clients.filter((c) => c.connected);
  console.log(`${kind}: first start ${firstMs} ms; ${gates.length}/${clients.length} gates connected`);
  const kills = [];
  try {
    for (let k = 0; k < KILLS; k++) {
      await sleep(2000);
      server.child.kill('SIGKILL');
      await new Promise((r) => server.child.once('exit', r));
      await sleep(200);
      const t = performance.now();
      server = start(env, port);
      const since = () => Math.round(performance.now() - t);
      let listening = null;
      let ready = null;
      const healthy = server.ok('/api/health').then(() => (listening = since()));
      await server.ok('/api/ready');
      ready = since();
      await healthy;
      const end = Date.now() + 120_000;
      while (!gates.every((c) => c.connected) && Date.now() < end) await sleep(25);
      const back = gates.every((c) => c.connected) ? since() : null;
      // The server's own account of its start (src/main.ts): modules (ms before main ran), database, ...
      const phases = /started in \d+ ms: ([^)]*) ms\)/.exec(server.out())?.[1] ?? null;
      kills.push({ listening, ready, gatesBack: back, phases });
      console.log(
        `${kind} kill ${k + 1}: listening ${listening} ms, ready ${ready} ms, gates back ${back ?? '—'} ms (${phases})`,
      );
    }
  } finally {
    await Promise.all(clients.map((c) => c.close().catch(() => {})));
    server.child.kill('SIGTERM');
    await new Promise((r) => (server.child.exitCode != null ? r() : server.child.once('exit', r)));
  }
  const med = (k) => (kills.every((x) => x[k] != null) ? median(kills.map((x) => x[k])) : null);
  return {
    firstStartMs: firstMs,
    gates: gates.length,
    welcomed: connected.length,
    kills,
    listeningMs: med('listening'),
    readyMs: med('ready'),
    gatesBackMs: med('gatesBack'),
  };
}

const result = { demo, kills: KILLS, loads: [load()] };
{
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'venue-restart-'));
  try {
    result.pglite = await measure('PGlite', { ...demo, DATA_DIR: dataDir });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  result.loads.push(load());
}
if (adminUrl !== 'none') {
  const { default: pg } = await import('pg');
  const name = `venue_bench_restart_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'venue-restart-pg-'));
  try {
    result.postgres = await measure('PostgreSQL', { ...demo, DATA_DIR: dataDir, DATABASE_URL: url.toString() });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
  result.loads.push(load());
}
const met = (r) => r && r.readyMs != null && r.readyMs < 5000 && r.gatesBackMs != null && r.gatesBackMs < 10_000;
result.met = met(result.pglite) && (!result.postgres || met(result.postgres));
console.log(JSON.stringify(result));

const machine = `${os.cpus().length} cores, node ${process.version}, load ${result.loads.join(' → ')}`;
const date = new Date().toISOString().slice(0, 16).replace('T', ' ');
const command = 'node --import tsx bench/restart.bench.mjs';
const trial = process.env.BENCH_RECORD === '0';
mkdirSync(path.join(root, 'bench/results'), { recursive: true });
writeFileSync(
  path.join(root, `bench/results/restart${trial ? '-trial' : ''}.json`),
  `${JSON.stringify({ date, machine, command, result }, null, 2)}\n`,
);
const cell = (r) =>
  r
    ? `${r.listeningMs} / ${r.readyMs} / ${r.gatesBackMs ?? '—'} (${r.gates} gates; each kill ${r.kills.map((k) => `${k.ready}/${k.gatesBack ?? '—'}`).join(', ')})`
    : '—';
if (!trial)
  addResultRow(
    path.join(root, 'bench/RESULTS.md'),
    `Restart after a crash (${command}; ms from the new process's spawn, median of the kills)`,
    [
      'date',
      'machine',
      'demo',
      'PGlite listening / ready / gates back',
      'PostgreSQL listening / ready / gates back',
      'goal (ready < 5 s, gates < 10 s)',
    ],
    [
      date,
      machine,
      `${demo.DEMO_CLIENTS} clients, ${demo.DEMO_DAYS} days`,
      cell(result.pglite),
      cell(result.postgres),
      result.met ? 'met' : 'not met',
    ],
  );
