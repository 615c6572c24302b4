#!/usr/bin/env node
// Start-up benchmark (DESIGN §2 "bench/"): how long the server takes to answer
// /api/health on a fresh, empty data directory (migrations + demo club load) and
// on a second start over the same data; and how many bytes of JavaScript the
// console's first load downloads (gzip) — the JS files index.html references as
// its entry script and module preloads, plus their static imports.
//
//   node bench/startup.mjs            (DEMO_CLIENTS / DEMO_DAYS as for the server)
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node bench/startup.mjs
//                                     (also measures on a fresh PostgreSQL database)
//
// Writes bench/results/startup.json and appends a row to bench/RESULTS.md.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { addResultRow } from './lib/results-md.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const serverDir = path.join(root, 'apps/server');
const webDist = path.join(root, 'apps/web/dist');
const resultsDir = path.join(root, 'bench/results');

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.unref();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** Starts the server, waits for /api/health, stops it; returns timings and log facts. */
async function startOnce(env, label) {
  const port = await freePort();
  const t0 = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const exited = new Promise((resolve) => child.on('exit', resolve));
  let ready = false;
  const deadline = Date.now() + 10 * 60_000;
  while (!ready && Date.now() < deadline) {
    if (child.exitCode != null) break;
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      ready = res.ok;
    } catch {
      /* not listening yet */
    }
    if (!ready) await new Promise((r) => setTimeout(r, 50));
  }
  const wallMs = Math.round(performance.now() - t0);
  // A first start writes the demo's year of history in the background (docs/demo-club.md
  // "First start"): sign in while it runs, then wait for its last line.
  let signIn = null;
  let historyWallMs = null;
  if (ready && /ready to sign in/.test(out)) {
    signIn = await demoSignIn(port);
    const until = Date.now() + 15 * 60_000;
    while (!/Demo club history loaded in/.test(out) && child.exitCode == null && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 100));
    }
    if (/Demo club history loaded in/.test(out)) historyWallMs = Math.round(performance.now() - t0);
  }
  child.kill('SIGTERM');
  await exited;
  if (!ready) throw new Error(`${label}: server did not become ready\n${out}`);
  const num = (re) => {
    const m = out.match(re);
    return m ? Number(m[1]) : null;
  };
  const result = {
    wallMs,
    serverReportedMs: num(/started in (\d+) ms/),
    demoLoadMs: num(/Demo club ready to sign in in (\d+) ms/),
    signIn,
    historyWallMs,
    historyMs: num(/Demo club history loaded in (\d+) ms/),
    demoEntrances: num(/Demo club history loaded in \d+ ms: (\d+) entrances/),
    demoMoney: (out.match(/ {2}money: .*/) ?? [null])[0],
  };
  console.log(
    `${label}: ready in ${wallMs} ms (server says ${result.serverReportedMs} ms)` +
      (result.demoLoadMs != null
        ? `, demo club and clients ${result.demoLoadMs} ms; sign-in ${JSON.stringify(result.signIn)}; ` +
          `history (background) done ${result.historyWallMs} ms after the start (${result.historyMs} ms), ` +
          `${result.demoEntrances} entrances\n${result.demoMoney}`
        : ''),
  );
  return result;
}

/** Signs in as the demo admin while the history loads: status and milliseconds. */
async function demoSignIn(port) {
  const t = performance.now();
  const health = await fetch(`http://127.0.0.1:${port}/api/health`);
  const cookie = (health.headers.getSetCookie?.() ?? []).map((c) => c.split(';')[0]).join('; ');
  const xsrf = /XSRF-TOKEN=([^;]+)/.exec(cookie)?.[1] ?? '';
  const res = await fetch(`http://127.0.0.1:${port}/api/Account`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie, 'X-XSRF-TOKEN': xsrf },
    body: JSON.stringify({ username: 'admin', password: 'demo1234', externalClubId: 1001 }),
  });
  return { status: res.status, ms: Math.round(performance.now() - t) };
}

async function measureStartup(kind, envFor) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'venue-bench-'));
  const setup = await envFor(dataDir);
  try {
    const first = await startOnce(setup.env, `${kind} first start (migrate + demo club)`);
    const second = await startOnce(setup.env, `${kind} second start (existing data)`);
    return { first, second };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    await setup.cleanup?.();
  }
}

async function postgresEnv(adminUrl) {
  const { default: pg } = await import(path.join(root, 'node_modules/pg/lib/index.js'));
  const name = `venue_bench_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return (dataDir) => ({
    env: { DATA_DIR: dataDir, DATABASE_URL: url.toString() },
    cleanup: async () => {
      const a = new pg.Client({ connectionString: adminUrl });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    },
  });
}

/** JS files of the first load: entry scripts and module preloads of index.html, plus their static imports. */
function firstLoadJs() {
  const index = path.join(webDist, 'index.html');
  if (!existsSync(index)) return { skipped: 'apps/web/dist/index.html is missing: run `npm run build` first' };
  const html = readFileSync(index, 'utf8');
  const refs = new Set();
  for (const m of html.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g)) refs.add(m[1]);
  for (const m of html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)) refs.add(m[1]);
  const files = new Map();
  const queue = [...refs].map((r) => path.join(webDist, r.replace(/^\//, '')));
  while (queue.length) {
    const f = queue.shift();
    if (files.has(f) || !existsSync(f)) continue;
    const buf = readFileSync(f);
    files.set(f, { bytes: buf.length, gzipBytes: gzipSync(buf).length });
    // Static imports only ("import"./x.js"" or "from"./x.js""); import("./x.js") is lazy.
    for (const m of buf.toString('utf8').matchAll(/(?:\bimport|\bfrom)\s*["'](\.{1,2}\/[^"']+\.js)["']/g)) {
      queue.push(path.resolve(path.dirname(f), m[1]));
    }
  }
  const list = [...files].map(([f, s]) => ({ file: path.relative(webDist, f), ...s }));
  return {
    files: list,
    bytes: list.reduce((a, x) => a + x.bytes, 0),
    gzipBytes: list.reduce((a, x) => a + x.gzipBytes, 0),
  };
}

const demoClients = Number(process.env.DEMO_CLIENTS ?? 2000);
const demoDays = Number(process.env.DEMO_DAYS ?? 365);
const machine = {
  nproc: os.cpus().length,
  cpu: os.cpus()[0]?.model ?? '',
  memGb: Math.round(os.totalmem() / 2 ** 30),
  node: process.version,
  platform: `${os.platform()} ${os.release()}`,
  loadAvg1m: Number(os.loadavg()[0].toFixed(1)),
};
const demoEnv = { DEMO_CLIENTS: String(demoClients), DEMO_DAYS: String(demoDays) };

const pglite = await measureStartup('PGlite', async (dataDir) => ({ env: { ...demoEnv, DATA_DIR: dataDir } }));
let postgres = null;
if (process.env.BENCH_DATABASE_URL) {
  const envFor = await postgresEnv(process.env.BENCH_DATABASE_URL);
  postgres = await measureStartup('PostgreSQL', async (dataDir) => {
    const e = envFor(dataDir);
    return { env: { ...demoEnv, ...e.env }, cleanup: e.cleanup };
  });
}
const web = firstLoadJs();
if (web.skipped) console.log(`console first load: skipped (${web.skipped})`);
else console.log(`console first load: ${web.files.length} JS files, ${web.bytes} bytes, ${web.gzipBytes} bytes gzip`);

const result = {
  date: new Date().toISOString(),
  machine,
  demo: { clients: demoClients, days: demoDays },
  startup: { pglite, postgres },
  web,
};
mkdirSync(resultsDir, { recursive: true });
writeFileSync(path.join(resultsDir, 'startup.json'), `${JSON.stringify(result, null, 2)}\n`);

const pg = postgres
  ? [`${postgres.first.wallMs} (history done at ${postgres.first.historyWallMs})`, postgres.second.wallMs]
  : [null, null];
addResultRow(
  path.join(root, 'bench/RESULTS.md'),
  'Start-up and console first load',
  [
    'date',
    'machine',
    'demo',
    'PGlite first start (demo load)',
    'PGlite second start',
    'PostgreSQL first start (demo load)',
    'PostgreSQL second start',
    'first-load JS gzip (files)',
  ],
  [
    result.date.slice(0, 16).replace('T', ' '),
    `${machine.nproc} cores, node ${machine.node}, load ${machine.loadAvg1m}`,
    `${demoClients} clients, ${demoDays} days, ${pglite.first.demoEntrances} entrances`,
    `${pglite.first.wallMs} (history done at ${pglite.first.historyWallMs})`,
    pglite.second.wallMs,
    pg[0],
    pg[1],
    web.skipped ? 'skipped: no dist' : `${web.gzipBytes} (${web.files.length})`,
  ],
);
console.log(`wrote ${path.relative(root, path.join(resultsDir, 'startup.json'))} and bench/RESULTS.md`);
