#!/usr/bin/env node
// Console load benchmark: what a user waits for and downloads before the
// sign-in form, and before the dashboard shows its counters, in headless
// Chromium against the real server and the built console (apps/web/dist).
//
// Two transfer modes in one run, on the same server, so they compare as a
// ratio on a noisy machine:
//   identity — the browser asks for no compression (what every load cost
//              before the server compressed; Accept-Encoding: identity);
//   br/gzip  — the browser's own Accept-Encoding.
// Each on two links: this machine as it is, and a slow mobile link (150 ms
// round trip, 1.6 Mbit/s down, 750 kbit/s up — Lighthouse's "slow 4G") with
// the CPU slowed 4×. A repeat visit (same browser profile) shows what the
// immutable cache of hashed files saves.
//
//   npm run build && node bench/console-load.bench.mjs
//
// The JSON result also takes the median visit's dashboard load apart
// (breakdown: when the sign-in, session and dashboard calls went out and were
// answered, how many script files were asked for, the largest).
//
// WEB_DIST=<dir> measures another build (say, the one before a change) on
// the same server; BENCH_LABEL=<text> names it in the results table.
//
// BENCH_DATA_DIR=<dir> serves a database prepared before (the full demo club: a
// first start with the default DEMO_CLIENTS=2000 and DEMO_DAYS=365 and
// DEMO_HISTORY=wait, then stopped), copied afresh for each run, so that a
// "before" and an "after" run read the same club; BENCH_LINKS=slow4g-compressed
// (a comma list) measures only those links; BENCH_COLD=1 skips the repeat visit.
// Besides the counters, each visit waits for the dashboard to be usable: every
// chart drawn (or showing its empty state) and no spinner left (issue 35).
//
// Writes bench/results/console-load.json and adds rows to bench/RESULTS.md.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { addResultRow } from './lib/results-md.mjs';

const root = path.resolve(import.meta.dirname, '..');
const resultsDir = path.join(root, 'bench/results');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

const LABEL = process.env.BENCH_LABEL ? ` (${process.env.BENCH_LABEL})` : '';
if (!existsSync(path.join(process.env.WEB_DIST ?? path.join(root, 'apps/web/dist'), 'index.html'))) {
  console.error('Build the console first: npm run build');
  process.exit(1);
}

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

async function startServer() {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'venue-load-'));
  if (process.env.BENCH_DATA_DIR) cpSync(process.env.BENCH_DATA_DIR, dataDir, { recursive: true });
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: path.join(root, 'apps/server'),
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      DEMO_CLIENTS: '300',
      DEMO_DAYS: '60',
      LOGIN_RATE_LIMIT: '1000',
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const deadline = Date.now() + 5 * 60_000;
  for (;;) {
    if (Date.now() > deadline || child.exitCode != null) throw new Error('server did not start');
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) break;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    origin: `http://127.0.0.1:${port}`,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => child.on('exit', r));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const SLOW_4G = {
  offline: false,
  latency: 150,
  downloadThroughput: (1.6e6 / 8) * 0.9,
  uploadThroughput: (750e3 / 8) * 0.9,
};

/**
 * One visit: the sign-in form, then sign in and wait for the dashboard's
 * counters. Answers milliseconds from navigation and bytes received (all,
 * and of scripts) up to each point.
 */
async function visit(context, origin, { identity, slow }) {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  if (identity) await cdp.send('Network.setExtraHTTPHeaders', { headers: { 'Accept-Encoding': 'identity' } });
  if (slow) {
    await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  }
  const types = new Map();
  let bytes = 0;
  let scriptBytes = 0;
  // Every request after the sign-in click, for the breakdown: what went out when (ms from the click), its type and size.
  const requests = new Map();
  let clickedAt = null;
  cdp.on('Network.requestWillBeSent', (e) => {
    if (clickedAt == null) return;
    const url = new URL(e.request.url);
    requests.set(e.requestId, { path: url.pathname, sentMs: Math.round(performance.now() - clickedAt) });
  });
  cdp.on('Network.responseReceived', (e) => types.set(e.requestId, e.type));
  cdp.on('Network.loadingFinished', (e) => {
    bytes += e.encodedDataLength;
    if (types.get(e.requestId) === 'Script') scriptBytes += e.encodedDataLength;
    const r = requests.get(e.requestId);
    if (r)
      Object.assign(r, {
        doneMs: Math.round(performance.now() - clickedAt),
        type: types.get(e.requestId),
        bytes: e.encodedDataLength,
      });
  });
  const t0 = performance.now();
  await page.goto(`${origin}/login`);
  await page.getByTestId('login-username').waitFor({ timeout: 120_000 });
  const login = { ms: Math.round(performance.now() - t0), bytes, scriptBytes };
  await page.getByTestId('login-username').fill('admin');
  await page.getByTestId('login-password').fill('demo1234');
  await page.getByTestId('login-club').fill('1001');
  const t1 = performance.now();
  const b1 = bytes;
  const s1 = scriptBytes;
  clickedAt = t1;
  if (process.env.BENCH_PROFILE) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 1000 });
    await cdp.send('Profiler.start');
  }
  await page.getByTestId('login-submit').click();
  // The figure drawn: [data-counter] (the first screen before antd, and the dashboard), or antd's
  // Statistic in builds from before the first screen (WEB_DIST).
  await page
    .getByTestId('card-valid-licenses')
    .locator('[data-counter], .ant-statistic-content')
    .first()
    .waitFor({ timeout: 120_000 });
  const dashboard = { ms: Math.round(performance.now() - t1), bytes: bytes - b1, scriptBytes: scriptBytes - s1 };
  // Usable: every chart card drawn (a canvas) or showing its empty state, and no spinner left.
  await page.waitForFunction(
    () => {
      const doc = globalThis.document;
      const cards = [...doc.querySelectorAll('.dashboard-chart-card')];
      return (
        cards.length >= 6 &&
        cards.every((c) => c.querySelector('canvas, .ant-empty')) &&
        !doc.querySelector('#main-content .ant-spin-spinning, #main-content .ant-skeleton-active')
      );
    },
    null,
    { timeout: 180_000, polling: 100 },
  );
  const usableMs = Math.round(performance.now() - t1);
  const profile = process.env.BENCH_PROFILE ? profileSummary((await cdp.send('Profiler.stop')).profile) : undefined;
  await page.close();
  const breakdown = breakdownOf([...requests.values()], dashboard.ms);
  // BENCH_TRACE=1: every request after the click (path, sent and done ms, bytes) in the JSON.
  if (process.env.BENCH_TRACE) breakdown.requests = [...requests.values()].sort((a, b) => a.sentMs - b.sentMs);
  if (profile) breakdown.profile = profile;
  return { login, dashboard, usableMs, breakdown };
}

/**
 * BENCH_PROFILE=1: the main thread's CPU profile from the click until the
 * dashboard is usable (sampled every ms, at the slowed CPU), summed by script file and by
 * function (self time, ms), and busy time per 500 ms from the click.
 */
function profileSummary(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const fileOf = (n) =>
    n.callFrame.url ? n.callFrame.url.replace(/^.*\//, '') : `(${n.callFrame.functionName || 'native'})`;
  const byFile = new Map();
  const byFn = new Map();
  const buckets = [];
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i];
    const n = byId.get(profile.samples[i]);
    const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    if (n.callFrame.functionName === '(idle)') continue;
    const f = fileOf(n);
    byFile.set(f, (byFile.get(f) ?? 0) + dt);
    const fn = `${n.callFrame.functionName || '(anonymous)'} ${f}:${n.callFrame.lineNumber}`;
    byFn.set(fn, (byFn.get(fn) ?? 0) + dt);
    const b = Math.floor((t - profile.startTime) / 500_000);
    buckets[b] = (buckets[b] ?? 0) + dt;
  }
  const top = (m, k) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, k)
      .map(([name, ms]) => `${Math.round(ms)} ${name}`);
  return {
    busyMs: Math.round([...byFile.values()].reduce((a, b) => a + b, 0)),
    busyPer500ms: [...buckets].map((v) => Math.round(v ?? 0)),
    byFile: top(byFile, 15),
    byFunction: top(byFn, 25),
  };
}

/**
 * Where the time after the click went: the sign-in call, the session's calls,
 * the dashboard's calls (first sent, last answered), and the script files
 * asked for before the counters showed (their count matters on a slow link:
 * six connections, one file at a time each).
 */
function breakdownOf(requests, untilMs) {
  const before = requests.filter((r) => r.sentMs <= untilMs);
  const api = (re) => before.filter((r) => re.test(r.path));
  const span = (rs) =>
    rs.length === 0
      ? null
      : { sentMs: Math.min(...rs.map((r) => r.sentMs)), doneMs: Math.max(...rs.map((r) => r.doneMs ?? untilMs)) };
  const scripts = before.filter((r) => r.type === 'Script');
  return {
    signIn: span(api(/^\/api\/Account$/)),
    session: span(api(/^\/api\/(Account\/GetCurrent|Club\/GetCurrent|Club\/GetCapacities|Group)$/)),
    dashboardCalls: span(api(/^\/api\/Dashboard\//)),
    dashboardCallCount: api(/^\/api\/Dashboard\//).length,
    scriptFiles: scripts.length,
    scriptsDoneMs: span(scripts)?.doneMs ?? null,
    largestScripts: scripts
      .sort((a, b) => (b.bytes ?? 0) - (a.bytes ?? 0))
      .slice(0, 5)
      .map((r) => `${r.path.replace(/^\/assets\//, '')} ${r.bytes ?? '?'}`),
  };
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

const server = await startServer();
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
});
const results = {};
try {
  const only = process.env.BENCH_LINKS?.split(',');
  for (const slow of [false, true]) {
    for (const identity of [true, false]) {
      const key = `${slow ? 'slow4g' : 'local'}-${identity ? 'identity' : 'compressed'}`;
      if (only && !only.includes(key)) continue;
      const first = [];
      const repeat = [];
      for (let i = 0; i < ROUNDS; i++) {
        const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
        first.push(await visit(context, server.origin, { identity, slow }));
        await context.clearCookies();
        if (!process.env.BENCH_COLD) repeat.push(await visit(context, server.origin, { identity, slow }));
        await context.close();
      }
      const sum = (runs, part, field) => median(runs.map((r) => r[part][field]));
      results[key] = {
        loginMs: sum(first, 'login', 'ms'),
        loginBytes: sum(first, 'login', 'bytes'),
        loginScriptBytes: sum(first, 'login', 'scriptBytes'),
        dashboardMs: sum(first, 'dashboard', 'ms'),
        dashboardBytes: sum(first, 'dashboard', 'bytes'),
        usableMs: median(first.map((r) => r.usableMs)),
        repeatLoginMs: repeat.length ? sum(repeat, 'login', 'ms') : null,
        repeatLoginBytes: repeat.length ? sum(repeat, 'login', 'bytes') : null,
        // The first visit whose dashboard time is the median's, taken apart.
        breakdown: first.find((r) => r.dashboard.ms === sum(first, 'dashboard', 'ms'))?.breakdown,
      };
      console.log(key, JSON.stringify(results[key]));
    }
  }
} finally {
  await browser.close();
  await server.stop();
}

mkdirSync(resultsDir, { recursive: true });
const date = new Date().toISOString().slice(0, 16).replace('T', ' ');
const machine = `${os.cpus().length} cores, node ${process.version}, load ${os.loadavg()[0].toFixed(1)}`;
writeFileSync(
  path.join(resultsDir, 'console-load.json'),
  JSON.stringify({ date, machine, label: process.env.BENCH_LABEL ?? null, rounds: ROUNDS, results }, null, 2),
);
const demo = process.env.BENCH_DATA_DIR ? 'prepared club (BENCH_DATA_DIR)' : '300 clients, 60 days';
for (const [key, r] of Object.entries(results)) {
  addResultRow(
    path.join(root, 'bench/RESULTS.md'),
    'Console load: dashboard counters and usable (headless Chromium, median of rounds, cold visits; ms after the sign-in click)',
    [
      'date',
      'machine',
      'club',
      'link, transfer',
      'counters ms',
      'usable ms (every chart drawn)',
      'bytes to the counters',
    ],
    [date, machine, demo, `${key}${LABEL}`, r.dashboardMs, r.usableMs, r.dashboardBytes],
  );
  if (process.env.BENCH_COLD) continue;
  addResultRow(
    path.join(root, 'bench/RESULTS.md'),
    'Console load (headless Chromium, median of rounds; ms and bytes received)',
    [
      'date',
      'machine',
      'link, transfer',
      'sign-in form ms',
      'sign-in bytes (scripts)',
      'dashboard after sign-in ms',
      'dashboard bytes',
      'repeat visit: sign-in ms',
      'repeat visit bytes',
    ],
    [
      date,
      machine,
      `${key}${LABEL}`,
      r.loginMs,
      `${r.loginBytes} (${r.loginScriptBytes})`,
      r.dashboardMs,
      r.dashboardBytes,
      r.repeatLoginMs,
      r.repeatLoginBytes,
    ],
  );
}
