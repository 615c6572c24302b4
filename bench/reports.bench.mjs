#!/usr/bin/env node
// Entrance report and dashboard on millions of rows: fills entrance_logs of one
// club with BENCH_REPORT_ROWS rows (default 2 000 000) over three years (plus a
// second club with as many rows, which the queries must skip), then times the
// real service functions. Runs on PostgreSQL (BENCH_DATABASE_URL, default the
// local server) in a fresh database, and on PGlite in memory with a tenth of
// the rows. Run with tsx: `node --import tsx bench/reports.bench.mjs`.
// Writes bench/results/reports.json and appends to bench/RESULTS.md.
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { addResultRow } from './lib/results-md.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { openDatabase } = await import(path.join(root, 'apps/server/src/db/index.ts'));
const { entranceReport } = await import(path.join(root, 'apps/server/src/modules/reports/reports.service.ts'));
const dash = await import(path.join(root, 'apps/server/src/modules/dashboard/dashboard.service.ts'));
const { sql } = await import('drizzle-orm');

const ROWS = Number(process.env.BENCH_REPORT_ROWS ?? 2_000_000);
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function fill(db, clubA, clubB, rows) {
  // Rows spread evenly over the three years before now; statuses mostly approved.
  for (const clubId of [clubA, clubB]) {
    const chunk = 500_000;
    for (let off = 0; off < rows; off += chunk) {
      const n = Math.min(chunk, rows - off);
      await db.execute(sql`insert into entrance_logs (club_id, terminal_id, client_id, group_id, at, status, reason, identification_kind, amount, payment_type)
        select ${clubId}::int, 1 + (i % 3), 1 + (i % 2000), 1 + (i % 4),
               now() - (i::float8 / ${rows}::float8) * interval '1095 days',
               case when i % 20 = 0 then 4 when i % 33 = 0 then 2 when i % 97 = 0 then 8 else 1 end,
               0, 'card', case when i % 5 = 0 then 1000 else 0 end, 1
        from generate_series(${off}::int, ${off + n - 1}::int) as i`);
    }
  }
  await db.execute(sql`analyze entrance_logs`);
}

async function time(label, fn, repeat = 3) {
  await fn(); // warm
  const t0 = performance.now();
  let r;
  for (let i = 0; i < repeat; i++) r = await fn();
  const ms = Math.round(((performance.now() - t0) / repeat) * 10) / 10;
  console.log(`  ${label}: ${ms} ms`);
  return { label, ms, total: r?.total };
}

async function run(kind, database, rows) {
  const { db } = database;
  const [a] = (await db.execute(sql`insert into clubs (external_club_id, name) values (91001, 'bench A') returning id`))
    .rows;
  const [b] = (await db.execute(sql`insert into clubs (external_club_id, name) values (91002, 'bench B') returning id`))
    .rows;
  const t0 = performance.now();
  await fill(db, a.id, b.id, rows);
  console.log(`${kind}: filled ${2 * rows} rows in ${Math.round(performance.now() - t0)} ms`);
  const f = (o) => ({ period: 'day', page: 1, pageSize: 50, sort: 'at', order: 'desc', ...o });
  const timings = [
    await time('report day', () => entranceReport(db, a.id, f({}))),
    await time('report week', () => entranceReport(db, a.id, f({ period: 'week' }))),
    await time('report month', () => entranceReport(db, a.id, f({ period: 'month' }))),
    await time('report month, page 20', () => entranceReport(db, a.id, f({ period: 'month', page: 20 }))),
    await time('report year', () => entranceReport(db, a.id, f({ period: 'year' }))),
    await time('report year, failed only', () => entranceReport(db, a.id, f({ period: 'year', status: [2, 4, 8] }))),
    await time('report year, sort by client', () => entranceReport(db, a.id, f({ period: 'year', sort: 'client' }))),
    await time('dashboard monthly count', () => dash.monthlyEntranceCount(db, a.id)),
    await time('dashboard active clients', () => dash.activeClientsCount(db, a.id)),
    await time('dashboard by status', () => dash.chartEntranceByStatus(db, a.id)),
    await time('dashboard by hour', () => dash.chartConfirmedEntranceByTime(db, a.id)),
  ];
  return { kind, rowsPerClub: rows, timings };
}

const results = [];
{
  const { default: pg } = await import('pg');
  const name = `venue_bench_reports_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  let ok = true;
  try {
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
  } catch (err) {
    ok = false;
    console.log(`PostgreSQL: skipped (${err.message})`);
  }
  if (ok) {
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const d = await openDatabase({ databaseUrl: url.toString() });
    try {
      results.push(await run('PostgreSQL', d, ROWS));
    } finally {
      await d.close();
      const a2 = new pg.Client({ connectionString: adminUrl });
      await a2.connect();
      await a2.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a2.end();
    }
  }
}
{
  const d = await openDatabase({ dataDir: 'memory://' });
  try {
    results.push(await run('PGlite', d, Math.round(ROWS / 10)));
  } finally {
    await d.close();
  }
}

const out = {
  date: new Date().toISOString(),
  machine: { nproc: os.cpus().length, node: process.version, loadAvg1m: Number(os.loadavg()[0].toFixed(1)) },
  results,
};
mkdirSync(path.join(root, 'bench/results'), { recursive: true });
writeFileSync(path.join(root, 'bench/results/reports.json'), `${JSON.stringify(out, null, 2)}\n`);
for (const r of results) {
  const pick = (l) => r.timings.find((t) => t.label === l)?.ms;
  addResultRow(
    path.join(root, 'bench/RESULTS.md'),
    'Entrance report and dashboard (ms per call; rows per club, a second club as large)',
    ['date', 'machine', 'database', 'rows', 'day', 'month', 'year', 'year by client', 'monthly count', 'by hour'],
    [
      out.date.slice(0, 16).replace('T', ' '),
      `${out.machine.nproc} cores, node ${out.machine.node}, load ${out.machine.loadAvg1m}`,
      r.kind,
      r.rowsPerClub,
      pick('report day'),
      pick('report month'),
      pick('report year'),
      pick('report year, sort by client'),
      pick('dashboard monthly count'),
      pick('dashboard by hour'),
    ],
  );
}
console.log('wrote bench/results/reports.json and bench/RESULTS.md');
