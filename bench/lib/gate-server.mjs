// The server side of bench/gate.bench.mjs, run in its own process (so its peak
// memory is its own): opens the database (BENCH_GATE_DB = postgres URL of a fresh
// database, or 'pglite'), builds the real app, seeds one club with an open group,
// BENCH_CLIENTS clients with valid subscriptions and cards and BENCH_TERMINALS
// approved terminals, measures the single-row INSERT ... RETURNING limit through
// the same pool, listens, and prints one JSON line: {port, terminals, cards, insertLimit}.
// Then it serves until told 'rss' on stdin (answers its peak RSS), 'cpu' (answers its own CPU
// time and that of the PostgreSQL backends of its database, ms) or 'stop'.
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { openDatabase } = await import(path.join(root, 'apps/server/src/db/index.ts'));
const { buildApp } = await import(path.join(root, 'apps/server/src/app.ts'));
const { loadConfig } = await import(path.join(root, 'apps/server/src/config.ts'));
const { BENCH_METRICS_TOKEN } = await import('./metrics-scrape.mjs');
const { hashTerminalSecret, terminalKey } = await import(
  path.join(root, 'apps/server/src/modules/terminals/terminal-secret.ts')
);
const { gateStatements } = await import(path.join(root, 'apps/server/src/modules/gate/gate-batch.ts'));
const { decisionTimes, histogramMs } = await import(path.join(root, 'apps/server/src/realtime/gate-timing.ts'));
const { sql } = await import('drizzle-orm');

const target = process.env.BENCH_GATE_DB ?? 'pglite';
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 5000);
const TERMINALS = Number(process.env.BENCH_TERMINALS ?? 50);
const POOL = Number(process.env.BENCH_POOL ?? 10);

const database =
  target === 'pglite'
    ? await openDatabase({ dataDir: 'memory://' })
    : await openDatabase({ databaseUrl: target, poolSize: POOL });
const { db } = database;
const rows = (r) => r.rows ?? r;
// The running total of databaseCpuMs() (below): each backend's CPU ticks when last seen, and the sum.
const backendTicks = new Map();
let databaseTicks = 0;
let databaseSampled = false;

// BENCH_CLUBS > 1 (bench/many-terminals.bench.mjs): that many clubs, each with an open group, BENCH_CLIENTS
// clients whose cards are 500001… in every club (a card is unique per club), and BENCH_TERMINALS ÷ clubs
// terminals. BENCH_REUSE=1: the database is already seeded (a restart of the server on it).
const CLUBS = Number(process.env.BENCH_CLUBS ?? 1);
const REUSE = process.env.BENCH_REUSE === '1';
const terminals = [];
let club = { id: 0 };
let group = { id: 0 };
if (REUSE) {
  // nothing to seed: the terminals and their secrets are the bench's
} else if (CLUBS > 1) {
  await seedManyClubs();
} else {
  [club] = rows(
    await db.execute(
      sql`insert into clubs (external_club_id, name, licenses_amount) values (95001, 'bench gate', 100000) returning id`,
    ),
  );
  [group] = rows(
    await db.execute(
      sql`insert into groups (club_id, name, entrance_state) values (${club.id}, 'Members', 2) returning id`,
    ),
  );
  await db.execute(sql`insert into schedules (club_id, group_id, sort_order, days, from_time, to_time, entrance_state)
  values (${club.id}, ${group.id}, 0, '{0,1,2,3,4,5,6}', 0, 1440, 2)`);
  await db.execute(sql`insert into clients (club_id, number, first_name, last_name, group_id, card_serial,
    subscription_start, subscription_end, license_expiry)
  select ${club.id}, i, 'Client', i::text, ${group.id}, (500000 + i)::text, '2020-01-01', '2125-01-01', '2125-01-01'
  from generate_series(1, ${CLIENTS}) as i`);
  const key = await terminalKey(db);
  for (let i = 0; i < TERMINALS; i++) {
    const serial = `BENCH-${i + 1}`;
    const secret = `bench-secret-${i + 1}-${Math.random().toString(36).slice(2)}`;
    await db.execute(sql`insert into terminals (club_id, serial, name, secret_hash, approved)
    values (${club.id}, ${serial}, ${`Bench gate ${i + 1}`}, ${hashTerminalSecret(key, secret)}, true)`);
    terminals.push({ serial, secret });
  }
}

async function seedManyClubs() {
  const perClub = Math.max(1, Math.round(TERMINALS / CLUBS));
  await db.execute(sql`insert into clubs (external_club_id, name, licenses_amount)
    select 96000 + i, 'bench club ' || i, 100000 from generate_series(1, ${CLUBS}) as i`);
  await db.execute(sql`insert into groups (club_id, name, entrance_state)
    select id, 'Members', 2 from clubs where external_club_id > 96000`);
  await db.execute(sql`insert into schedules (club_id, group_id, sort_order, days, from_time, to_time, entrance_state)
    select club_id, id, 0, '{0,1,2,3,4,5,6}', 0, 1440, 2 from groups where name = 'Members'`);
  await db.execute(sql`insert into clients (club_id, number, first_name, last_name, group_id, card_serial,
      subscription_start, subscription_end, license_expiry)
    select g.club_id, i, 'Client', i::text, g.id, (500000 + i)::text, '2020-01-01', '2125-01-01', '2125-01-01'
    from groups g cross join generate_series(1, ${CLIENTS}) as i where g.name = 'Members'`);
  const key = await terminalKey(db);
  const clubIds = rows(await db.execute(sql`select id from clubs where external_club_id > 96000 order by id`)).map(
    (r) => r.id,
  );
  const salt = Math.random().toString(36).slice(2);
  const list = [];
  for (let i = 0; i < clubIds.length * perClub; i++) {
    const serial = `MANY-${i + 1}`;
    const secret = `bench-secret-${i + 1}-${salt}`;
    list.push({
      club_id: clubIds[Math.floor(i / perClub)],
      serial,
      name: `Gate ${i + 1}`,
      secret_hash: hashTerminalSecret(key, secret),
    });
    terminals.push({ serial, secret });
  }
  await db.execute(sql`insert into terminals (club_id, serial, name, secret_hash, approved)
    select club_id, serial, name, secret_hash, true
    from json_to_recordset(${JSON.stringify(list)}::json) as x(club_id int, serial text, name text, secret_hash text)`);
  club = { id: clubIds[0] };
}
// BENCH_HISTORY_ROWS: that many entrances over the past year (for exports and reports run
// against the gate, bench/gate-under-export.bench.mjs), and an admin who may read them.
const HISTORY = REUSE ? 0 : Number(process.env.BENCH_HISTORY_ROWS ?? 0);
let admin = null;
if (HISTORY > 0) {
  const [t0] = rows(await db.execute(sql`select id from terminals where club_id = ${club.id} order by id limit 1`));
  await db.execute(sql`insert into entrance_logs (club_id, terminal_id, client_id, group_id, at, status, reason,
      identification_kind, amount, payment_type)
    select ${club.id}, ${t0.id}, c.id, ${group.id}, now() - (i * (interval '365 days' / ${HISTORY})), 1, 0, 'card', 0, 1
    from generate_series(1, ${HISTORY}) as i
    join clients c on c.club_id = ${club.id} and c.number = 1 + (i % ${CLIENTS})`);
  const { hashPassword } = await import(path.join(root, 'apps/server/src/lib/password.ts'));
  const password = `bench-${Math.random().toString(36).slice(2)}`;
  await db.execute(sql`insert into users (club_id, username, password_hash, name, is_admin)
    values (${club.id}, 'bench-admin', ${await hashPassword(password)}, 'Bench admin', true)`);
  // The club's id is of the kala class (>= 7000): the entrance report needs kala subscription on.
  await db.execute(sql`update clubs set settings = '{"isKalaSubscriptionEnabled": true}' where id = ${club.id}`);
  admin = { username: 'bench-admin', password, externalClubId: 95001 };
}
if (!REUSE) await db.execute(sql`analyze`);

// The physical limit: single-row INSERT ... RETURNING round trips through the same pool,
// as many at once as there are terminals, for a few seconds.
await db.execute(
  sql`create table if not exists bench_probe (id bigserial primary key, club_id int not null, at timestamptz not null, v int)`,
);
async function insertLimit(seconds) {
  let n = 0;
  const end = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: TERMINALS }, async () => {
      while (performance.now() < end) {
        await db.execute(sql`insert into bench_probe (club_id, at, v) values (${club.id}, now(), ${n}) returning id`);
        n++;
      }
    }),
  );
  return Math.round(n / seconds);
}
const insertSeconds = Number(process.env.BENCH_INSERT_SECONDS ?? 5);
if (insertSeconds > 0) await insertLimit(1);
// CPU per insert (this process and the PostgreSQL backends), to compare with CPU per decision.
const dbCpu0 = await databaseCpuMs();
const cpu0 = process.cpuUsage();
const limit = insertSeconds > 0 ? await insertLimit(insertSeconds) : 0;
const cpu1 = process.cpuUsage(cpu0);
const dbCpu1 = await databaseCpuMs();
const perInsert = (ms) => Math.round((ms / Math.max(1, limit * insertSeconds)) * 1000) / 1000;
const insertCpuMs = {
  server: perInsert((cpu1.user + cpu1.system) / 1000),
  database: dbCpu0 == null ? null : perInsert(dbCpu1 - dbCpu0),
};

// /metrics behind a token (docs/operations.md "Metrics"): bench/gate.bench.mjs scrapes it around its
// open-loop phase to check the decision histogram against the server's own exact p99.
const config = { ...loadConfig({}), logLevel: 'silent', metricsToken: BENCH_METRICS_TOKEN };
const app = await buildApp({ config, database });
await app.listen({ port: Number(process.env.BENCH_PORT ?? 0), host: '127.0.0.1' });
const port = app.server.address().port;
const cards = Array.from({ length: CLIENTS }, (_, i) => String(500001 + i));
// Every WebSocket of the terminals: the server's own count (bench/many-terminals.bench.mjs).
const links = () => app.websocketServer?.clients?.size ?? null;
process.stdout.write(
  `${JSON.stringify({ port, terminals, cards, insertLimit: limit, insertCpuMs, kind: database.kind, admin, groupId: group.id })}\n`,
);

function peakRss() {
  const status = readFileSync('/proc/self/status', 'utf8');
  const m = /VmHWM:\s+(\d+) kB/.exec(status);
  return m ? Number(m[1]) * 1024 : process.memoryUsage().rss;
}
// CPU time (ms) of the PostgreSQL server processes serving this database (same machine), as a
// running total since the first call: backends come and go (the pools open and close connections),
// so each call adds what every backend it sees used since it last saw it (all of a new backend's),
// and a backend that ended keeps what it had added — the total never goes back (a backend's time
// after the last sample before it ended is not counted).
async function databaseCpuMs() {
  if (target === 'pglite') return null;
  const pids = rows(await db.execute(sql`select pid from pg_stat_activity where datname = current_database()`)).map(
    (r) => r.pid,
  );
  const now = new Map();
  for (const pid of pids) {
    try {
      const f = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const rest = f.slice(f.lastIndexOf(')') + 2).split(' ');
      now.set(pid, Number(rest[11]) + Number(rest[12])); // utime, stime (fields 14, 15)
    } catch {
      // the backend ended
    }
  }
  for (const [pid, ticks] of now) {
    const before = backendTicks.get(pid);
    if (databaseSampled) databaseTicks += before === undefined ? ticks : Math.max(0, ticks - before);
    backendTicks.set(pid, ticks);
  }
  for (const pid of backendTicks.keys()) if (!now.has(pid)) backendTicks.delete(pid);
  databaseSampled = true;
  return databaseTicks * 10; // USER_HZ = 100
}
// Between 'eld-start' and 'eld' (bench/many-terminals.bench.mjs, the gate phase): the event loop's
// delay (ms: how long a ready message waited for the loop), the server's own decision times
// (realtime/gate-timing.ts: from the terminal's message to the decision written back) and the
// garbage collector's pauses (count and total ms per kind, and the longest), so that a tail seen by
// the terminals can be told apart: the database, this process's loop, or its collector.
const { monitorEventLoopDelay, PerformanceObserver, constants: perfConstants } = await import('node:perf_hooks');
const loopDelay = monitorEventLoopDelay({ resolution: 5 });
let gcs = null;
new PerformanceObserver((list) => {
  if (!gcs) return;
  for (const e of list.getEntries()) {
    const kind = e.detail?.kind === perfConstants.NODE_PERFORMANCE_GC_MAJOR ? 'major' : 'minor';
    gcs[kind].n++;
    gcs[kind].ms += e.duration;
    gcs[kind].max = Math.max(gcs[kind].max, e.duration);
  }
}).observe({ entryTypes: ['gc'] });
process.stdin.on('data', async (d) => {
  const cmd = d.toString().trim();
  if (cmd === 'eld-start') {
    loopDelay.reset();
    loopDelay.enable();
    decisionTimes(true);
    gcs = { major: { n: 0, ms: 0, max: 0 }, minor: { n: 0, ms: 0, max: 0 } };
    process.stdout.write('{}\n');
  }
  if (cmd === 'eld') {
    loopDelay.disable();
    const r = (x) => Math.round(x * 10) / 10;
    const gc = Object.fromEntries(Object.entries(gcs).map(([k, g]) => [k, { n: g.n, ms: r(g.ms), max: r(g.max) }]));
    gcs = null;
    process.stdout.write(`${JSON.stringify({ loop: histogramMs(loopDelay), decisions: decisionTimes(), gc })}\n`);
  }
  if (cmd === 'cpu') {
    const u = process.cpuUsage();
    process.stdout.write(
      `${JSON.stringify({ serverCpuMs: (u.user + u.system) / 1000, databaseCpuMs: await databaseCpuMs(), batches: gateStatements(db).stats() })}\n`,
    );
  }
  if (cmd === 'rss')
    process.stdout.write(`${JSON.stringify({ peakRss: peakRss(), rss: process.memoryUsage().rss, links: links() })}\n`);
  if (cmd === 'gc') {
    globalThis.gc?.();
    process.stdout.write(
      `${JSON.stringify({ rss: process.memoryUsage().rss, heapUsed: process.memoryUsage().heapUsed })}\n`,
    );
  }
  if (cmd === 'stop') {
    await app.close();
    await database.close();
    process.exit(0);
  }
});
