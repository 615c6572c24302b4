#!/usr/bin/env node
// Many terminals on one server instance, and the reconnect storm (issue 20; docs/scaling.md).
// BENCH_TERMINALS (default 5000) terminals across BENCH_CLUBS (default 1000) clubs, each a real
// TerminalClient with its own WebSocket in this one process, connect to one server (its own process,
// bench/lib/gate-server.mjs, on a fresh PostgreSQL database). Measures:
// - connect: all terminals at once (admission control queues or refuses with 1013, the terminals back
//   off with jitter), time until every one is welcomed;
// - memory per connection: the server's RSS after a forced GC, with the terminals connected, minus
//   before they connected, ÷ terminals; and the server's peak RSS;
// - heartbeat cost: the server's CPU over BENCH_IDLE_SECONDS (default 35: every terminal heartbeats
//   once in 30 s) with no traffic, per heartbeat and as % of one core;
// - the gate at BENCH_GATE_RATE (default 2000) decisions/s offered across the terminals, open loop,
//   for BENCH_GATE_SECONDS (default 10): p50/p99;
// - the reconnect storm: the server is killed (SIGKILL) with every terminal connected;
//   BENCH_OFFLINE_TERMINALS (default 10 %) of them present BENCH_OFFLINE_EACH (2) cards while it is
//   down (decided offline, queued); the server is started again on the same database and port; time
//   until every terminal is connected again and every offline event is in entrance_logs exactly once
//   (count and distinct (terminal, event id)), and the gate's latency meanwhile (one presentation
//   every 50 ms at terminals already back).
// Run: `npm exec -- node --import tsx bench/many-terminals.bench.mjs` (on the pinned Node 24). Appends to bench/RESULTS.md; writes
// bench/results/many-terminals.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { addResultRow } from './lib/results-md.mjs';
import { serverFlagsLabel, startGateServer } from './lib/gate-server-process.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { TerminalClient } = await import(path.join(root, 'apps/terminal/src/client.ts'));
const { histogramMs } = await import(path.join(root, 'apps/server/src/realtime/gate-timing.ts'));
const { default: pg } = await import('pg');

const TERMINALS = Number(process.env.BENCH_TERMINALS ?? 5000);
const CLUBS = Number(process.env.BENCH_CLUBS ?? 1000);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 20);
const RATE = Number(process.env.BENCH_GATE_RATE ?? 2000);
const GATE_SECONDS = Number(process.env.BENCH_GATE_SECONDS ?? 10);
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 35);
const OFFLINE_TERMINALS = Number(process.env.BENCH_OFFLINE_TERMINALS ?? Math.round(TERMINALS / 10));
const OFFLINE_EACH = Number(process.env.BENCH_OFFLINE_EACH ?? 2);
// Below the ephemeral range (32768–60999 here), where 5,000 terminals' own sockets take their ports.
const PORT = Number(process.env.BENCH_PORT ?? 20000 + (process.pid % 10000));
// How long the connect phase and the storm may take before the bench records what it reached (s).
const CONNECT_SECONDS = Number(process.env.BENCH_CONNECT_SECONDS ?? 120);
// More node flags for the server (e.g. --trace-gc), space-separated.
const serverFlags = ['--expose-gc', ...(process.env.BENCH_SERVER_FLAGS ?? '').split(' ').filter(Boolean)];
const load = () => Math.round(os.loadavg()[0] * 10) / 10;
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const pct = (sorted, p) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : 0;
const r1 = (x) => Math.round(x * 10) / 10;
const until = async (cond, ms) => {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) return false;
    await sleep(100);
  }
  return true;
};

const name = `venue_bench_many_${process.pid}`;
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`CREATE DATABASE ${name}`);
const url = new URL(adminUrl);
url.pathname = `/${name}`;
const dbUrl = url.toString();
const probe = new pg.Client({ connectionString: dbUrl });

const env = {
  BENCH_GATE_DB: dbUrl,
  BENCH_CLUBS: String(CLUBS),
  BENCH_TERMINALS: String(TERMINALS),
  BENCH_CLIENTS: String(CLIENTS),
  BENCH_INSERT_SECONDS: '0',
  BENCH_PORT: String(PORT),
};
// The machine is shared: its load average at each phase is recorded beside the numbers.
const result = { terminals: TERMINALS, clubs: CLUBS, load: { start: load() } };
try {
  let server = startGateServer(env, serverFlags);
  const ready = await server.next();
  await probe.connect();
  console.log(`server on ${ready.port}: ${ready.terminals.length} terminals in ${CLUBS} clubs`);
  const cards = ready.cards;
  server.send('gc');
  const base = await server.next();

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
  const allConnected = () => clients.every((c) => c.connected);
  // The server's share of a core while terminals connect: on a shared machine the kernel gives a
  // process 1/load of the cores, and the handshake rate follows that share, not the code.
  server.send('cpu');
  const connectCpu0 = await server.next();
  let t0 = performance.now();
  // The handshake rate: how many are connected after each second (the first 10 % and the half show
  // the admission queue's pace apart from the last terminals' back-off).
  const curve = [];
  const sampler = setInterval(() => curve.push(clients.filter((c) => c.connected).length), 1000);
  // All at once; a refused or failed first attempt is retried by the client's back-off.
  await Promise.all(clients.map((c) => c.connect().catch(() => null)));
  const connectedAll = await until(allConnected, CONNECT_SECONDS * 1000);
  clearInterval(sampler);
  result.connectAllMs = Math.round(performance.now() - t0);
  result.connectedAll = connectedAll;
  result.connected = clients.filter((c) => c.connected).length;
  const secondsTo = (n) => {
    const i = curve.findIndex((x) => x >= n);
    return i < 0 ? null : i + 1;
  };
  result.secondsToHalf = secondsTo(Math.ceil(TERMINALS / 2));
  result.hellosPerSecond = r1(result.connected / (result.connectAllMs / 1000));
  result.load.connected = load();
  server.send('cpu');
  result.serverCpuPercentConnecting = r1(
    (((await server.next()).serverCpuMs - connectCpu0.serverCpuMs) / result.connectAllMs) * 100,
  );
  console.log(`connected: ${clients.filter((c) => c.connected).length}/${TERMINALS} in ${result.connectAllMs} ms`);

  server.send('gc');
  const withLinks = await server.next();
  result.kbPerConnection = r1((withLinks.rss - base.rss) / TERMINALS / 1024);
  result.heapKbPerConnection = r1((withLinks.heapUsed - base.heapUsed) / TERMINALS / 1024);
  result.rssConnectedMB = Math.round(withLinks.rss / 1048576);

  // Heartbeat cost: no traffic, every terminal heartbeats once per 30 s.
  server.send('cpu');
  const c0 = await server.next();
  await sleep(IDLE_SECONDS * 1000);
  server.send('cpu');
  const c1 = await server.next();
  const heartbeats = (TERMINALS * IDLE_SECONDS) / 30;
  result.idleCpuPercent = r1(((c1.serverCpuMs - c0.serverCpuMs) / (IDLE_SECONDS * 1000)) * 100);
  result.idleDbCpuPercent = r1(((c1.databaseCpuMs - c0.databaseCpuMs) / (IDLE_SECONDS * 1000)) * 100);
  result.cpuMsPerHeartbeat = Math.round(((c1.serverCpuMs - c0.serverCpuMs) / heartbeats) * 1000) / 1000;

  // The gate at RATE/s offered, open loop, round robin over the terminals; the terminals of one club
  // present different cards in a round (people, not one card at five gates in the same millisecond:
  // that case is the rapid re-entry rule's, realtime/cluster.test.ts; before 2026-11-27 the bench
  // presented the same card at a club's five terminals at once, and the per-card order made the
  // fifth wait for four decisions). BENCH_GATE_WARMUP seconds at the same rate first (default 1,
  // not measured): the gate's pool opens its connections and plans its statements on first use.
  // The simulator's own CPU and loop delay (all terminals in this process) are recorded: on 2
  // cores it competes, and a decision that arrived while it was busy is measured late.
  const perClub = Math.max(1, Math.round(TERMINALS / CLUBS));
  let sent = 0;
  const offered = async (seconds, onDecision) => {
    const pending = [];
    const start = performance.now();
    const first = sent;
    const n = RATE * seconds;
    while (sent < first + n) {
      const due = first + Math.min(n, Math.floor(((performance.now() - start) / 1000) * RATE));
      for (; sent < due; sent++) {
        const t = sent % TERMINALS;
        const card = cards[(Math.floor(sent / TERMINALS) * perClub + (t % perClub)) % cards.length];
        const s = performance.now();
        pending.push(
          clients[t].present({ kind: 'card', value: card }).then((d) => onDecision(d, performance.now() - s)),
        );
      }
      await sleep(5);
    }
    await Promise.all(pending);
    return performance.now() - start;
  };
  await offered(Number(process.env.BENCH_GATE_WARMUP ?? 1), () => undefined);
  server.send('cpu');
  const gateCpu0 = await server.next();
  server.send('eld-start');
  await server.next();
  const simLoop = monitorEventLoopDelay({ resolution: 5 });
  simLoop.enable();
  const benchCpu0 = process.cpuUsage();
  const lat = [];
  let offline = 0;
  const gateWallMs = await offered(GATE_SECONDS, (d, ms) => {
    lat.push(ms);
    if (d.offline) offline++;
  });
  const benchCpu = process.cpuUsage(benchCpu0);
  simLoop.disable();
  server.send('eld');
  const inServer = await server.next();
  server.send('cpu');
  const gateCpu1 = await server.next();
  lat.sort((a, b) => a - b);
  result.gate = {
    offered: RATE,
    decisionsPerSecond: Math.round(lat.length / (gateWallMs / 1000)),
    p50: r1(pct(lat, 50)),
    p99: r1(pct(lat, 99)),
    max: r1(lat.at(-1) ?? 0),
    offline,
    simulatorCpuPercent: r1(((benchCpu.user + benchCpu.system) / 1000 / gateWallMs) * 100),
    serverCpuPercent: r1(((gateCpu1.serverCpuMs - gateCpu0.serverCpuMs) / gateWallMs) * 100),
    // The server's own view (realtime/gate-timing.ts), its event loop and its garbage collector.
    serverDecisions: inServer.decisions,
    serverLoopDelay: inServer.loop,
    serverGc: inServer.gc,
    simulatorLoopDelay: histogramMs(simLoop),
  };
  result.load.gate = load();
  server.send('rss');
  result.peakRssMB = Math.round((await server.next()).peakRss / 1048576);
  console.log(JSON.stringify(result));

  // The reconnect storm.
  const before = Number((await probe.query('select count(*) from entrance_logs where offline')).rows[0].count);
  server.child.kill('SIGKILL');
  await new Promise((r) => server.child.once('exit', r));
  await until(() => clients.every((c) => !c.connected), 30_000);
  let queued = 0;
  for (let i = 0; i < OFFLINE_TERMINALS; i++) {
    const c = clients[Math.floor((i * TERMINALS) / OFFLINE_TERMINALS)];
    for (let k = 0; k < OFFLINE_EACH; k++) {
      await c.present({ kind: 'card', value: cards[(i + k) % cards.length] });
      queued++;
    }
  }
  const expected = before + queued;
  server = startGateServer({ ...env, BENCH_REUSE: '1' }, serverFlags);
  await server.next();
  t0 = performance.now();
  const stormLat = [];
  let probing = true;
  const prober = (async () => {
    let i = 0;
    while (probing) {
      const c = clients.find((x, j) => j >= i % TERMINALS && x.connected) ?? clients.find((x) => x.connected);
      i += 7;
      if (c) {
        const s = performance.now();
        const d = await c.present({ kind: 'card', value: cards[i % cards.length] });
        if (!d.offline) stormLat.push(performance.now() - s);
      }
      await sleep(50);
    }
  })();
  const offlineCount = async () =>
    (
      await probe.query(
        'select count(*)::int as n, count(distinct (terminal_id, event_id))::int as d from entrance_logs where offline',
      )
    ).rows[0];
  let allBackMs = null;
  const ok = await until(async () => {
    if (allBackMs == null && allConnected()) allBackMs = Math.round(performance.now() - t0);
    return allBackMs != null && (await offlineCount()).n >= expected;
  }, CONNECT_SECONDS * 1000);
  const stormMs = Math.round(performance.now() - t0);
  probing = false;
  await prober;
  await sleep(2000); // a late duplicate would show here
  const counted = await offlineCount();
  stormLat.sort((a, b) => a - b);
  result.storm = {
    offlineEvents: queued,
    reconnectedMs: allBackMs,
    ingestedMs: ok ? stormMs : null,
    ingested: counted.n - before,
    distinct: counted.d - before,
    duplicates: counted.n - counted.d,
    reconnected: clients.filter((c) => c.connected).length,
    gateDuring: { decisions: stormLat.length, p50: r1(pct(stormLat, 50)), p99: r1(pct(stormLat, 99)) },
  };
  server.send('rss');
  result.storm.peakRssMB = Math.round((await server.next()).peakRss / 1048576);
  result.load.storm = load();
  console.log(JSON.stringify(result.storm));
  await Promise.all(clients.map((c) => c.close()));
  server.send('stop');
  await new Promise((r) => server.child.once('exit', r));
} finally {
  await probe.end().catch(() => {});
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
}

const machine = `${os.cpus().length} cores, node ${process.version}, load ${os.loadavg()[0].toFixed(1)}; server ${serverFlagsLabel(serverFlags)}`;
const date = new Date().toISOString().slice(0, 16).replace('T', ' ');
const command = 'node --import tsx bench/many-terminals.bench.mjs';
mkdirSync(path.join(root, 'bench/results'), { recursive: true });
writeFileSync(
  path.join(root, `bench/results/many-terminals${process.env.BENCH_RECORD === '0' ? '-trial' : ''}.json`),
  `${JSON.stringify({ date, machine, command, result }, null, 2)}\n`,
);
const s = result.storm ?? {};
// BENCH_RECORD=0: a trial that leaves bench/RESULTS.md alone.
if (process.env.BENCH_RECORD !== '0')
  addResultRow(
    path.join(root, 'bench/RESULTS.md'),
    `Many terminals on one instance, and the reconnect storm (${command})`,
    [
      'date',
      'machine',
      'terminals / clubs',
      'all connect ms',
      'KB per connection (RSS / heap)',
      'RSS connected MB',
      'idle CPU % server / PostgreSQL',
      'server CPU ms per heartbeat',
      'offered/s: decisions/s',
      'p50 ms',
      'p99 ms',
      'peak RSS MB',
      'storm: offline events',
      'all reconnected ms',
      'all ingested ms',
      'ingested / duplicates',
      'gate during storm: n, p50/p99 ms',
    ],
    [
      date,
      `${machine} (start ${result.load.start}, connected ${result.load.connected}, gate ${result.load.gate}, storm ${result.load.storm})`,
      `${TERMINALS} / ${CLUBS}`,
      `${result.connectAllMs} (${result.connected} connected, ${result.hellosPerSecond}/s, half at ${result.secondsToHalf ?? '—'} s; server ${result.serverCpuPercentConnecting} % of a core)`,
      `${result.kbPerConnection} / ${result.heapKbPerConnection}`,
      result.rssConnectedMB,
      `${result.idleCpuPercent} / ${result.idleDbCpuPercent}`,
      result.cpuMsPerHeartbeat,
      `${result.gate?.offered} for ${GATE_SECONDS} s: ${result.gate?.decisionsPerSecond} (${result.gate?.offline} offline; simulator ${result.gate?.simulatorCpuPercent} % CPU)`,
      result.gate?.p50,
      result.gate?.serverDecisions
        ? `${result.gate.p99} (in the server p50 ${result.gate.serverDecisions.p50} / p99 ${result.gate.serverDecisions.p99} / max ${result.gate.serverDecisions.max}; server ${result.gate.serverCpuPercent} % of a core; major GCs ${result.gate.serverGc.major.n}, longest pause ${result.gate.serverGc.major.max} ms; loop delay p99 server ${result.gate.serverLoopDelay.p99}, simulator ${result.gate.simulatorLoopDelay.p99})`
        : result.gate?.p99,
      result.peakRssMB,
      s.offlineEvents,
      s.reconnectedMs ?? `— (${s.reconnected}/${TERMINALS} in ${CONNECT_SECONDS} s)`,
      s.ingestedMs,
      `${s.ingested} / ${s.duplicates}`,
      s.gateDuring ? `${s.gateDuring.decisions}, ${s.gateDuring.p50}/${s.gateDuring.p99}` : '',
    ],
  );
