#!/usr/bin/env node
// Backlogs that always drain (issue 33 finding 2; docs/terminal-protocol.md "Offline uploads").
// BENCH_TERMINALS (default 50) terminals of one club connect to a server (its own process,
// bench/lib/gate-server.mjs, on a fresh PostgreSQL database) and get their valid lists; the server is
// killed (SIGKILL); while it is down the terminals decide BENCH_EVENTS (default 10,000) presentations
// offline between them (queued, as at real gates); the server is started again on the same database
// and port, CPU-throttled: pinned to one core (`taskset -c 0`) beside BENCH_BUSY (default 2) busy loops
// pinned to the same core, so it gets at most a third of one core (less under the machine's own load).
// Measured from the restart (and from the server listening again, which the goal counts from): every
// terminal back, every queue empty (the terminals' view), and
// every event in entrance_logs exactly once (count and distinct (terminal, event id)); also the
// offline batches sent and acknowledged, and refusals for back-pressure. Goal: drained exactly once
// within 60 s. Before (a batch sent again after 10 s under a new id, late answers ignored, two
// statements per event), 9,842 of such events were still queued 120 s after the reconnect.
// Run: `node --import tsx bench/offline-drain.bench.mjs`. Appends to bench/RESULTS.md; writes
// bench/results/offline-drain.json. BENCH_DATABASE_URL: the PostgreSQL server (default local).
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { addResultRow } from './lib/results-md.mjs';
import { startGateServer } from './lib/gate-server-process.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { TerminalClient } = await import(path.join(root, 'apps/terminal/src/client.ts'));
const { default: pg } = await import('pg');

const TERMINALS = Number(process.env.BENCH_TERMINALS ?? 50);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000);
const BUSY = Number(process.env.BENCH_BUSY ?? 2);
const GOAL_SECONDS = 60;
const LIMIT_SECONDS = Number(process.env.BENCH_LIMIT_SECONDS ?? 180);
const PORT = Number(process.env.BENCH_PORT ?? 21000 + (process.pid % 9000));
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const load = () => Math.round(os.loadavg()[0] * 10) / 10;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const until = async (cond, ms) => {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) return false;
    await sleep(100);
  }
  return true;
};

const name = `venue_bench_drain_${process.pid}`;
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`CREATE DATABASE ${name}`);
const url = new URL(adminUrl);
url.pathname = `/${name}`;
const probe = new pg.Client({ connectionString: url.toString() });
const env = {
  BENCH_GATE_DB: url.toString(),
  BENCH_TERMINALS: String(TERMINALS),
  BENCH_CLIENTS: '2000',
  BENCH_INSERT_SECONDS: '0',
  BENCH_PORT: String(PORT),
};
const result = { terminals: TERMINALS, events: EVENTS, busy: BUSY, load: { start: load() } };
const busy = [];
let server;
try {
  server = startGateServer(env);
  const ready = await server.next();
  await probe.connect();
  const clients = ready.terminals.map(
    (t) =>
      new TerminalClient({
        url: `ws://127.0.0.1:${PORT}`,
        serial: t.serial,
        secret: t.secret,
        heartbeat: true,
        reconnect: true,
        timeoutMs: 10_000,
      }),
  );
  await Promise.all(clients.map((c) => c.connect()));
  await until(() => clients.every((c) => c.validList), 30_000);
  let batches = 0;
  let acks = 0;
  let refused = 0;
  for (const c of clients) {
    c.on('uploaded', () => acks++);
    c.on('message', (m) => m.type === 'error' && /^UPLOAD_/.test(m.code) && refused++);
  }

  // The crash, and the backlog the gates build while the server is down.
  server.child.kill('SIGKILL');
  await new Promise((r) => server.child.once('exit', r));
  await until(() => clients.every((c) => !c.connected), 30_000);
  const eventIds = new Set();
  for (let i = 0; i < EVENTS; i++) {
    const c = clients[i % clients.length];
    const d = await c.present({ kind: 'card', value: ready.cards[i % ready.cards.length] });
    eventIds.add(d.eventId);
  }
  const queued = clients.reduce((s, c) => s + c.offlineQueue.length, 0);
  for (const c of clients) c.on('offline-batch', () => batches++);

  // The restart, on one core shared with busy loops.
  for (let i = 0; i < BUSY; i++) {
    busy.push(spawn('taskset', ['-c', '0', process.execPath, '-e', 'for(;;){}'], { stdio: 'ignore' }));
  }
  result.load.restart = load();
  const t0 = performance.now();
  server = startGateServer({ ...env, BENCH_REUSE: '1' }, [], ['taskset', '-c', '0']);
  await server.next();
  const listeningMs = Math.round(performance.now() - t0);
  let backMs = null;
  let emptyMs = null;
  const drained = await until(() => {
    const now = Math.round(performance.now() - t0);
    if (backMs == null && clients.every((c) => c.connected)) backMs = now;
    if (emptyMs == null && clients.every((c) => c.offlineQueue.length === 0)) emptyMs = now;
    return emptyMs != null;
  }, LIMIT_SECONDS * 1000);
  for (const b of busy.splice(0)) b.kill('SIGKILL');
  await sleep(2000); // a late duplicate would show here
  const counted = (
    await probe.query(
      `select count(*)::int as n, count(distinct (terminal_id, event_id))::int as d,
         count(*) filter (where event_id = any($1))::int as mine
       from entrance_logs where offline`,
      [[...eventIds]],
    )
  ).rows[0];
  Object.assign(result, {
    queued,
    listeningMs,
    allBackMs: backMs,
    drainedMs: drained ? emptyMs : null,
    stillQueued: clients.reduce((s, c) => s + c.offlineQueue.length, 0),
    rows: counted.n,
    distinct: counted.d,
    ofTheseEvents: counted.mine,
    batchesSent: batches,
    acks,
    refused,
    exactlyOnce: counted.n === EVENTS && counted.d === EVENTS && counted.mine === EVENTS,
    // The goal counts from the server answering again (how long it takes to start is the restart's row,
    // bench/restart.bench.mjs).
    drainedAfterListeningMs: drained ? emptyMs - listeningMs : null,
    met: drained && emptyMs - listeningMs <= GOAL_SECONDS * 1000 && counted.n === EVENTS && counted.d === EVENTS,
  });
  result.load.end = load();
  console.log(JSON.stringify(result));
  await Promise.all(clients.map((c) => c.close()));
  server.send('stop');
  await new Promise((r) => server.child.once('exit', r));
} finally {
  for (const b of busy) b.kill('SIGKILL');
  if (server?.child.exitCode == null) server?.child.kill('SIGKILL');
  await probe.end().catch(() => {});
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
}

const machine = `${os.cpus().length} cores, node ${process.version}, load ${result.load.start} → ${result.load.restart} → ${result.load.end}`;
const date = new Date().toISOString().slice(0, 16).replace('T', ' ');
const command = 'node --import tsx bench/offline-drain.bench.mjs';
mkdirSync(path.join(root, 'bench/results'), { recursive: true });
writeFileSync(
  path.join(root, `bench/results/offline-drain${process.env.BENCH_RECORD === '0' ? '-trial' : ''}.json`),
  `${JSON.stringify({ date, machine, command, result }, null, 2)}\n`,
);
if (process.env.BENCH_RECORD !== '0')
  addResultRow(
    path.join(root, 'bench/RESULTS.md'),
    `Offline backlogs after a crash, server CPU-throttled (${command})`,
    [
      'date',
      'machine',
      'terminals',
      'events queued',
      'throttle',
      'server listening ms',
      'all terminals back ms',
      'all queues empty ms (after listening)',
      'rows / distinct',
      'batches sent / acks / refused',
      'goal (≤ 60 s after listening, exactly once)',
    ],
    [
      date,
      machine,
      TERMINALS,
      result.queued,
      `one core (taskset -c 0) shared with ${BUSY} busy loops`,
      result.listeningMs,
      result.allBackMs,
      result.drainedMs != null
        ? `${result.drainedMs} (${result.drainedAfterListeningMs})`
        : `not in ${LIMIT_SECONDS} s (${result.stillQueued} still queued)`,
      `${result.rows} / ${result.distinct}`,
      `${result.batchesSent} / ${result.acks} / ${result.refused}`,
      result.met ? 'met' : 'not met',
    ],
  );
