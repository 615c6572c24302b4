#!/usr/bin/env node
// The gate in an emergency and at capacity (issue 36; docs/gate-safety.md). One server process
// (bench/lib/gate-server.mjs, on a fresh PostgreSQL database) with ONE club of BENCH_TERMINALS
// (default 5000) terminals and BENCH_CLIENTS (default 20000) members, every terminal a real
// TerminalClient with its own WebSocket in this process. Measures:
// - open-all: one terminal's fire-alarm input starts the club's open-all (the same push as the
//   console's: setSafety → the bus → every connected terminal of the club); the time from the
//   alarm until every terminal holds its gate open (its `safety` message arrived), and the time
//   until all are back to normal after the console's release (POST /api/GateSafety/ReleaseOpenAll);
// - the gate's p99 with occupancy and anti-passback off and on, in one run: BENCH_GATE_RATE
//   (default 2000) decisions/s offered, open loop, across the terminals, BENCH_GATE_SECONDS
//   (default 10) per phase, phases off, on, off, on (on: every terminal in one area with a
//   capacity far above the members and soft anti-passback, so the same decisions are admitted
//   and every admission writes its stay); the ratio of the on phases' p99 to the off phases'.
// Run: `nice -n 10 npm exec -- node --import tsx bench/gate-safety.bench.mjs` (on the pinned Node 24).
// Appends to bench/RESULTS.md; writes bench/results/gate-safety.json. BENCH_RECORD=0: a trial.
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { addResultRow } from './lib/results-md.mjs';
import { serverFlagsLabel, startGateServer } from './lib/gate-server-process.mjs';
import { signIn } from './lib/http-session.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { TerminalClient } = await import(path.join(root, 'apps/terminal/src/client.ts'));
const { default: pg } = await import('pg');

const TERMINALS = Number(process.env.BENCH_TERMINALS ?? 5000);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 20000);
const RATE = Number(process.env.BENCH_GATE_RATE ?? 2000);
const GATE_SECONDS = Number(process.env.BENCH_GATE_SECONDS ?? 10);
const PORT = Number(process.env.BENCH_PORT ?? 20000 + (process.pid % 10000));
const CONNECT_SECONDS = Number(process.env.BENCH_CONNECT_SECONDS ?? 180);
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const load = () => Math.round(os.loadavg()[0] * 10) / 10;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const pct = (sorted, p) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : 0;
const r1 = (x) => Math.round(x * 10) / 10;
const until = async (cond, ms) => {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) return false;
    await sleep(20);
  }
  return true;
};

const name = `venue_bench_safety_${process.pid}`;
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`CREATE DATABASE ${name}`);
const url = new URL(adminUrl);
url.pathname = `/${name}`;
const dbUrl = url.toString();
const db = new pg.Client({ connectionString: dbUrl });

const env = {
  BENCH_GATE_DB: dbUrl,
  BENCH_CLUBS: '1',
  BENCH_TERMINALS: String(TERMINALS),
  BENCH_CLIENTS: String(CLIENTS),
  BENCH_INSERT_SECONDS: '0',
  // One history row: the server then makes an admin the bench signs in as (the release, the area).
  BENCH_HISTORY_ROWS: '1',
  BENCH_PORT: String(PORT),
};
const result = { terminals: TERMINALS, clients: CLIENTS, load: { start: load() } };
let server;
const clients = [];
try {
  server = startGateServer(env, ['--expose-gc']);
  const ready = await server.next();
  await db.connect();
  const base = `http://127.0.0.1:${ready.port}`;
  const headers = await signIn(base, ready.admin);
  console.log(`server on ${ready.port}: ${ready.terminals.length} terminals, ${CLIENTS} members`);

  for (const t of ready.terminals) {
    clients.push(
      new TerminalClient({
        url: `ws://127.0.0.1:${PORT}`,
        serial: t.serial,
        secret: t.secret,
        heartbeat: true,
        reconnect: true,
        timeoutMs: 10_000,
      }),
    );
  }
  const t0 = performance.now();
  // Bounded: a socket whose first round never settles must not hold the run (a run of 5000 hung here).
  const progress = setInterval(
    () => console.log(`  connecting: ${clients.filter((c) => c.connected).length}/${TERMINALS}`),
    10_000,
  );
  // A refused first attempt is retried by the client's back-off (the server's admission queue).
  await Promise.race([Promise.all(clients.map((c) => c.connect().catch(() => null))), sleep(CONNECT_SECONDS * 1000)]);
  result.connectedAll = await until(() => clients.every((c) => c.connected), CONNECT_SECONDS * 1000);
  clearInterval(progress);
  result.connected = clients.filter((c) => c.connected).length;
  result.connectMs = Math.round(performance.now() - t0);
  console.log(`connected ${result.connected}/${TERMINALS} in ${result.connectMs} ms`);
  await sleep(2000);

  // ---------------------------------------------------------------- open-all to every terminal
  const arrivals = new Array(clients.length).fill(null);
  let start = 0;
  clients.forEach((c, i) =>
    c.on('safety', (s) => {
      if (s.mode === 'openAll' && !s.local && arrivals[i] == null) arrivals[i] = performance.now() - start;
    }),
  );
  result.load.openAll = load();
  start = performance.now();
  clients[0].raiseAlarm('fire-alarm');
  // The alarming terminal holds its own gate at once (local); it counts when the server's state comes back too.
  const reachedAll = await until(() => arrivals.every((a) => a != null), 30_000);
  const got = arrivals.filter((a) => a != null).sort((a, b) => a - b);
  result.openAll = {
    reached: got.length,
    reachedAll,
    lastMs: r1(got.at(-1) ?? NaN),
    p50Ms: r1(pct(got, 50)),
    p99Ms: r1(pct(got, 99)),
    held: clients.filter((c) => c.gateHeldOpen).length,
  };
  console.log(`open-all reached ${got.length}/${clients.length}, last after ${result.openAll.lastMs} ms`);
  console.log('releasing');

  const releaseStart = performance.now();
  const rel = await fetch(`${base}/api/GateSafety/ReleaseOpenAll`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ reason: 'bench release', confirm: true }),
  });
  if (!rel.ok) throw new Error(`release: ${rel.status} ${await rel.text()}`);
  const released = await until(() => clients.every((c) => !c.gateHeldOpen && c.safety.mode === 'normal'), 30_000);
  result.release = { all: released, ms: Math.round(performance.now() - releaseStart) };
  console.log(`released: ${released} in ${result.release.ms} ms`);
  await sleep(2000);

  // ---------------------------------------------------------------- gate p99, occupancy off / on
  const cards = ready.cards;
  let sent = 0;
  const phase = async (seconds) => {
    const lat = [];
    const statuses = {};
    const pending = [];
    const begin = performance.now();
    const first = sent;
    const n = RATE * seconds;
    while (sent < first + n) {
      const due = first + Math.min(n, Math.floor(((performance.now() - begin) / 1000) * RATE));
      for (; sent < due; sent++) {
        const c = clients[sent % clients.length];
        const card = cards[sent % cards.length];
        const s = performance.now();
        pending.push(
          c.present({ kind: 'card', value: card }).then((d) => {
            lat.push(performance.now() - s);
            statuses[d.status] = (statuses[d.status] ?? 0) + 1;
          }),
        );
      }
      await sleep(5);
    }
    await Promise.all(pending);
    lat.sort((a, b) => a - b);
    return { n: lat.length, p50: r1(pct(lat, 50)), p99: r1(pct(lat, 99)), statuses, lat };
  };
  // The area: every terminal, capacity far above the members, soft anti-passback (admits and flags).
  const [{ id: clubId }] = (await db.query(`select id from clubs where external_club_id = 95001`)).rows;
  const areaRes = await fetch(`${base}/api/Occupancy/Areas`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ name: 'Bench hall', capacity: 0, antiPassback: 0, terminalIds: [] }),
  });
  if (!areaRes.ok) throw new Error(`area: ${areaRes.status} ${await areaRes.text()}`);
  const area = await areaRes.json();
  const setArea = async (on) => {
    await db.query(`delete from gate_area_terminals where club_id = $1`, [clubId]);
    if (on)
      await db.query(
        `insert into gate_area_terminals (club_id, terminal_id, area_id) select club_id, id, $2 from terminals where club_id = $1`,
        [clubId, area.id],
      );
    // The PATCH makes the server read the club's areas again at once (the rows above are the bench's shortcut
    // past the API's 500 terminals per area).
    const res = await fetch(`${base}/api/Occupancy/Areas/${area.id}`, {
      method: 'PATCH',
      headers,
      body: JSON.stringify({ capacity: on ? CLIENTS * 10 : 0, antiPassback: on ? 1 : 0 }),
    });
    if (!res.ok) throw new Error(`patch: ${res.status} ${await res.text()}`);
  };
  await setArea(false);
  await phase(1); // warm-up
  result.load.gate = load();
  const phases = [];
  for (const on of [false, true, false, true]) {
    await setArea(on);
    const p = await phase(GATE_SECONDS);
    phases.push({ on, ...p });
    console.log(`occupancy ${on ? 'on ' : 'off'}: n ${p.n} p50 ${p.p50} p99 ${p.p99} ${JSON.stringify(p.statuses)}`);
  }
  const merged = (on) =>
    phases
      .filter((p) => p.on === on)
      .flatMap((p) => p.lat)
      .sort((a, b) => a - b);
  const off = merged(false);
  const onL = merged(true);
  const stays = (await db.query(`select count(*)::int as n from area_presence where club_id = $1`, [clubId])).rows[0].n;
  result.gate = {
    offP50: r1(pct(off, 50)),
    offP99: r1(pct(off, 99)),
    onP50: r1(pct(onL, 50)),
    onP99: r1(pct(onL, 99)),
    ratio: Math.round((pct(onL, 99) / pct(off, 99)) * 100) / 100,
    phases: phases.map(({ lat: _lat, ...p }) => p),
    staysWritten: stays,
  };
  console.log(`p99 off ${result.gate.offP99} on ${result.gate.onP99}: ratio ${result.gate.ratio}`);
} finally {
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  server?.child.kill('SIGKILL');
  await db.end().catch(() => undefined);
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
}

const machine = `${os.cpus().length} cores, node ${process.version}, load ${os.loadavg()[0].toFixed(1)}; server ${serverFlagsLabel()}`;
const date = new Date().toISOString().slice(0, 16).replace('T', ' ');
const command = 'node --import tsx bench/gate-safety.bench.mjs';
mkdirSync(path.join(root, 'bench/results'), { recursive: true });
writeFileSync(
  path.join(root, `bench/results/gate-safety${process.env.BENCH_RECORD === '0' ? '-trial' : ''}.json`),
  `${JSON.stringify({ date, machine, command, result }, null, 2)}\n`,
);
if (process.env.BENCH_RECORD !== '0')
  addResultRow(
    path.join(root, 'bench/RESULTS.md'),
    `The gate in an emergency and at capacity (${command})`,
    [
      'date',
      'machine',
      'terminals / members',
      'connected',
      'open-all: reached, p50 / p99 / last ms',
      'release: all back, ms',
      'offered/s × s per phase',
      'gate p50 / p99 ms, occupancy off',
      'gate p50 / p99 ms, occupancy + anti-passback on',
      'p99 ratio on / off',
      'stays written',
    ],
    [
      date,
      `${machine} (start ${result.load.start}, open-all ${result.load.openAll}, gate ${result.load.gate})`,
      `${TERMINALS} / ${CLIENTS}`,
      `${result.connected} in ${result.connectMs} ms`,
      `${result.openAll?.reached}/${TERMINALS}, ${result.openAll?.p50Ms} / ${result.openAll?.p99Ms} / ${result.openAll?.lastMs}`,
      `${result.release?.all}, ${result.release?.ms}`,
      `${RATE} × ${GATE_SECONDS} (off, on, off, on)`,
      `${result.gate?.offP50} / ${result.gate?.offP99}`,
      `${result.gate?.onP50} / ${result.gate?.onP99}`,
      result.gate?.ratio,
      result.gate?.staysWritten,
    ],
  );
