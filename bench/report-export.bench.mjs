#!/usr/bin/env node
// Streaming report export (issue 6 "exports of 100,000 rows stream without
// loading everything into memory"): PostgreSQL (BENCH_DATABASE_URL, default the
// local server), a fresh database with one club and BENCH_EXPORT_ROWS entrances
// (default 100 000) in one range of days plus as many outside it. The real app
// (routes, permissions, the framework's cursor and the streaming .xlsx writer)
// answers POST /api/Report/GetEnteracesReport/Export; the response is read as a
// stream and discarded. Each case runs in a fresh child process (the app, a
// login, one warm-up export of one day, then the case): peak RSS above the
// baseline, sampled every 10 ms, for a tenth of the rows and for all of them
// (flat = about the same), and, for contrast, for reading the same rows into
// memory at once.
// Run: `node --import tsx bench/report-export.bench.mjs` (BENCH_RECORD=0: no RESULTS.md row).
// Writes bench/results/report-export.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { addResultRow } from './lib/results-md.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { openDatabase } = await import(path.join(root, 'apps/server/src/db/index.ts'));
const { buildApp } = await import(path.join(root, 'apps/server/src/app.ts'));
const { loadConfig } = await import(path.join(root, 'apps/server/src/config.ts'));
const { EventBus } = await import(path.join(root, 'apps/server/src/lib/event-bus.ts'));
const { hashPassword } = await import(path.join(root, 'apps/server/src/lib/password.ts'));
const { Api } = await import(path.join(root, 'apps/server/test/harness.ts'));
const { sql } = await import('drizzle-orm');

const ROWS = Number(process.env.BENCH_EXPORT_ROWS ?? 100_000);
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DAYS = 50;
const FROM = '2026-01-01';
const TO = '2026-02-19'; // 50 days

const CHILD = process.env.BENCH_EXPORT_CHILD;
const { default: pg } = await import('pg');
const name = process.env.BENCH_EXPORT_DB ?? `venue_bench_export_${process.pid}`;
const url = new URL(adminUrl);
url.pathname = `/${name}`;
if (!CHILD) {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
}
const database = await openDatabase({ databaseUrl: url.toString() });
const { db } = database;
const rss = () => process.memoryUsage().rss;
const MB = (b) => Math.round((b / 1048576) * 10) / 10;

/** Runs `fn` while sampling RSS every 10 ms; peak minus the RSS just before (after a GC when exposed). */
async function peakDelta(fn) {
  globalThis.gc?.();
  const base = rss();
  let peak = base;
  const timer = setInterval(() => (peak = Math.max(peak, rss())), 10);
  const t0 = performance.now();
  const thread0 = process.threadCpuUsage?.();
  const all0 = process.cpuUsage();
  const out = await fn();
  const ms = Math.round(performance.now() - t0);
  // CPU of the event loop's thread (what the gate's decisions wait behind) and of every thread of the process.
  const thread = thread0 ? process.threadCpuUsage(thread0) : null;
  const all = process.cpuUsage(all0);
  clearInterval(timer);
  peak = Math.max(peak, rss());
  return {
    ms,
    peakRssDeltaMB: MB(peak - base),
    loopCpuMs: thread ? Math.round((thread.user + thread.system) / 1000) : null,
    allCpuMs: Math.round((all.user + all.system) / 1000),
    ...out,
  };
}

const jerusalem = (d) => sql`(${d}::date::timestamp at time zone 'Asia/Jerusalem')`;

if (CHILD) {
  const app = await buildApp({
    config: { ...loadConfig({}), logLevel: 'silent', loginRateLimit: 1000 },
    database,
    bus: new EventBus(),
  });
  await app.ready();
  const [club] = (await db.execute(sql`select id, external_club_id from clubs where external_club_id = 96001`)).rows;
  const api = new Api(app);
  const login = await api.login('bench', 'bench-pass-1', club.external_club_id);
  if (login.statusCode !== 200) throw new Error(`login: ${login.body}`);
  /** The export through the real route, read as a stream and discarded. */
  const exportRange = async (to) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/Report/GetEnteracesReport/Export',
      payload: { period: 'range', from: FROM, to, lang: 'he' },
      headers: { cookie: api.csrfCookie, 'x-xsrf-token': api.xsrf, authorization: `Bearer ${api.token}` },
      payloadAsStream: true,
    });
    if (res.statusCode !== 200) {
      let text = '';
      for await (const chunk of res.stream()) text += chunk;
      throw new Error(`export ${res.statusCode} ${text}`);
    }
    let bytes = 0;
    for await (const chunk of res.stream()) bytes += chunk.length;
    return { bytes };
  };
  await exportRange(FROM); // warm-up: one day (JIT, exceljs, pool)
  const to = CHILD === 'tenth' ? '2026-01-05' : TO;
  const rows = Number(
    (
      await db.execute(sql`select count(*)::int n from entrance_logs where club_id = ${club.id}
        and at >= ${jerusalem(FROM)} and at < ((${to}::date + 1)::timestamp at time zone 'Asia/Jerusalem')`)
    ).rows[0].n,
  );
  const r =
    CHILD === 'contrast'
      ? await peakDelta(async () => {
          const res = await db.execute(sql`select e.*, c.first_name, c.last_name from entrance_logs e
            left join clients c on c.id = e.client_id
            where e.club_id = ${club.id} and e.at >= ${jerusalem(FROM)}
              and e.at < ((${to}::date + 1)::timestamp at time zone 'Asia/Jerusalem') order by e.at desc`);
          return { bytes: null, held: res.rows.length };
        })
      : await peakDelta(() => exportRange(to));
  await app.close();
  await database.close();
  console.log(JSON.stringify({ rows, ...r }));
  process.exit(0);
}

const { execFileSync } = await import('node:child_process');
// Node options of the measured processes: a capped heap (BENCH_EXPORT_HEAP_MB, default 96) shows that the
// export holds a bounded amount, whatever the number of rows (RSS alone also counts garbage not yet collected).
const HEAP_MB = Number(process.env.BENCH_EXPORT_HEAP_MB ?? 96);
const CHILD_ARGS = HEAP_MB > 0 ? [`--max-old-space-size=${HEAP_MB}`] : [];
const results = [];
try {
  const [club] = (
    await db.execute(sql`insert into clubs (external_club_id, name) values (96001, 'bench export') returning id`)
  ).rows;
  await db.execute(sql`insert into users (club_id, username, password_hash, name, is_admin)
    values (${club.id}, 'bench', ${await hashPassword('bench-pass-1')}, 'Bench', true)`);
  // A club id of the kala class (>= 7000) opens the entrances report only with kala subscriptions on (seed 000 §6).
  await db.execute(sql`update clubs set settings = '{"isKalaSubscriptionEnabled": true}' where id = ${club.id}`);
  await db.execute(sql`insert into clients (club_id, number, first_name, last_name)
    select ${club.id}, n, 'first' || n, 'last' || n from generate_series(1, 2000) n`);
  // ROWS in the DAYS days from FROM (Jerusalem days), as many again in the DAYS days before.
  await db.execute(sql`insert into entrance_logs (club_id, terminal_id, client_id, at, status, reason, identification_kind, amount, payment_type)
    select ${club.id}, 1, 1 + (i % 2000),
           ${jerusalem(FROM)} + ((i % ${ROWS})::float8 / ${ROWS} - (i / ${ROWS})) * interval '${sql.raw(String(DAYS))} days',
           1, 0, 'card', 0, 1
    from generate_series(0, ${2 * ROWS - 1}::int) i`);
  await db.execute(sql`analyze`);
  for (const [label, child] of [
    ['export, a tenth of the days', 'tenth'],
    ['export, all rows', 'all'],
    ['contrast: the same rows read into memory at once', 'contrast'],
  ]) {
    const line = execFileSync(
      process.execPath,
      [...CHILD_ARGS, '--expose-gc', '--import', 'tsx', fileURLToPath(import.meta.url)],
      {
        env: { ...process.env, BENCH_EXPORT_CHILD: child, BENCH_EXPORT_DB: name },
        encoding: 'utf8',
      },
    )
      .trim()
      .split('\n')
      .pop();
    const r = { label, ...JSON.parse(line) };
    console.log(r);
    results.push(r);
  }
} finally {
  await database.close();
  const a2 = new pg.Client({ connectionString: adminUrl });
  await a2.connect();
  await a2.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await a2.end();
}

const out = {
  date: new Date().toISOString(),
  machine: { nproc: os.cpus().length, node: process.version, loadAvg1m: Number(os.loadavg()[0].toFixed(1)) },
  database: 'PostgreSQL',
  results,
};
mkdirSync(path.join(root, 'bench/results'), { recursive: true });
writeFileSync(path.join(root, 'bench/results/report-export.json'), `${JSON.stringify(out, null, 2)}\n`);
if (process.env.BENCH_RECORD !== '0') {
  const all = results[1] ?? {};
  addResultRow(
    path.join(root, 'bench/RESULTS.md'),
    'Export CPU on the event loop (node --import tsx bench/report-export.bench.mjs; all rows; CPU ms of the event loop thread vs every thread)',
    [
      'date',
      'machine',
      'label',
      'rows',
      'wall ms',
      'event-loop thread CPU ms',
      'all threads CPU ms',
      'event-loop share',
    ],
    [
      out.date.slice(0, 16).replace('T', ' '),
      `${out.machine.nproc} cores, node ${out.machine.node}, load ${out.machine.loadAvg1m}`,
      process.env.BENCH_LABEL ?? '',
      all.rows,
      all.ms,
      all.loopCpuMs,
      all.allCpuMs,
      all.loopCpuMs != null && all.allCpuMs ? (all.loopCpuMs / all.allCpuMs).toFixed(2) : '',
    ],
  );

  const pick = (i) => results[i] ?? {};
  addResultRow(
    path.join(root, 'bench/RESULTS.md'),
    'Report export streaming (node --import tsx bench/report-export.bench.mjs; peak RSS above baseline, MB)',
    [
      'date',
      'machine',
      'rows (tenth)',
      'ms',
      'peak RSS Δ',
      'rows (all)',
      'ms',
      'peak RSS Δ',
      'xlsx bytes',
      'all rows read at once: peak RSS Δ',
    ],
    [
      out.date.slice(0, 16).replace('T', ' '),
      `${out.machine.nproc} cores, node ${out.machine.node}, load ${out.machine.loadAvg1m}`,
      pick(0).rows,
      pick(0).ms,
      pick(0).peakRssDeltaMB,
      pick(1).rows,
      pick(1).ms,
      pick(1).peakRssDeltaMB,
      pick(1).bytes,
      pick(2).peakRssDeltaMB,
    ],
  );
}
console.log('wrote bench/results/report-export.json');
