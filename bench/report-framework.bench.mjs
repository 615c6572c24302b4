#!/usr/bin/env node
// The report framework against hand-tuned SQL, in the same run (issue 6 "speed
// at scale": first page with totals, median ms, ratio to the hand-tuned query).
// PostgreSQL only (BENCH_DATABASE_URL, default the local server), a fresh
// database: one club with BENCH_ENTRANCES entrances (default 2 000 000) and
// BENCH_PURCHASES purchases (default 500 000, one item and one payment each)
// over three years, and a second club as large that every query must skip.
// Run: `node --import tsx bench/report-framework.bench.mjs`.
// Writes bench/results/report-framework.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { openDatabase } = await import(path.join(root, 'apps/server/src/db/index.ts'));
const { runReport } = await import(path.join(root, 'apps/server/src/modules/reports/framework.ts'));
const defs = await import(path.join(root, 'apps/server/src/modules/reports/definitions.ts'));
const { resolveReportRange } = await import(path.join(root, 'apps/server/src/modules/reports/report-range.ts'));
const { ReportQuery } = await import(path.join(root, 'packages/domain/src/reports.ts'));
const { sql } = await import('drizzle-orm');

const ENTRANCES = Number(process.env.BENCH_ENTRANCES ?? 2_000_000);
const PURCHASES = Number(process.env.BENCH_PURCHASES ?? 500_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function fill(db, clubs) {
  for (const clubId of clubs) {
    for (let off = 0; off < ENTRANCES; off += 500_000) {
      const n = Math.min(500_000, ENTRANCES - off);
      await db.execute(sql`insert into entrance_logs (club_id, terminal_id, client_id, group_id, at, status, reason, identification_kind, amount, payment_type)
        select ${clubId}::int, 1 + (i % 3), 1 + (i % 2000), 1 + (i % 4),
               now() - (i::float8 / ${ENTRANCES}::float8) * interval '1095 days',
               case when i % 20 = 0 then 4 when i % 33 = 0 then 2 when i % 97 = 0 then 8 else 1 end,
               0, 'card', case when i % 5 = 0 then 1000 else 0 end, 1
        from generate_series(${off}::int, ${off + n - 1}::int) as i`);
    }
    await db.execute(sql`insert into purchases (club_id, client_id, at, invoice_number, total, amount_before_vat, vat, vat_rate_bp,
          payment_status, paid_cash, paid_credit, source, idempotency_key)
        select ${clubId}::int, 1 + (i % 2000), now() - (i::float8 / ${PURCHASES}::float8) * interval '1095 days', i + 1,
               1180 * (1 + i % 10), 1000 * (1 + i % 10), 180 * (1 + i % 10), 1800, case when i % 50 = 0 then 3 else 1 end,
               case when i % 2 = 0 then 1180 * (1 + i % 10) else 0 end, case when i % 2 = 1 then 1180 * (1 + i % 10) else 0 end,
               'console', 'b' || i
        from generate_series(0, ${PURCHASES - 1}::int) as i`);
    await db.execute(sql`insert into purchase_items (club_id, purchase_id, item_type, name, quantity, unit_price, price_with_vat, amount_before_vat)
        select p.club_id, p.id, (array[1, 2, 3, 4, 10])[1 + (p.id % 5)], '', 1, p.total, p.total, p.amount_before_vat
        from purchases p where p.club_id = ${clubId}`);
    await db.execute(sql`insert into purchase_payments (club_id, purchase_id, method, amount)
        select p.club_id, p.id, case when p.paid_cash > 0 then 0 else 1 end, p.total from purchases p where p.club_id = ${clubId}`);
  }
  await db.execute(sql`analyze`);
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function measure(fn) {
  await fn();
  const ms = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await fn();
    ms.push(performance.now() - t0);
  }
  return Math.round(median(ms) * 10) / 10;
}

/** Hand-tuned: the same figures in the fewest statements, written for this report only. */
const HAND = {
  entrances: (clubId, r) => [
    sql`select status, count(*)::int n, sum(amount)::bigint a from entrance_logs
        where club_id = ${clubId} and at >= ${r.start} and at < ${r.end} group by status`,
    sql`select e.id, e.at, e.client_id, c.number, c.first_name, c.last_name, g.name, e.terminal_id, t.name, e.status, e.reason,
               e.identification_kind, e.amount, e.payment_type
        from entrance_logs e
        left join clients c on c.id = e.client_id left join groups g on g.id = e.group_id left join terminals t on t.id = e.terminal_id
        where e.club_id = ${clubId} and e.at >= ${r.start} and e.at < ${r.end} order by e.at desc, e.id desc limit 50`,
  ],
  purchases: (clubId, r) => [
    sql`select count(*), sum(amount_before_vat), sum(vat), sum(total), sum(paid_cash), sum(paid_credit), sum(paid_beats),
               sum(paid_temp), sum(paid_other)
        from purchases where club_id = ${clubId} and at >= ${r.start} and at < ${r.end}`,
    sql`select p.*, c.first_name, c.last_name,
               (select json_agg(json_build_object('t', i.item_type, 'n', i.name, 'q', i.quantity)) from purchase_items i where i.purchase_id = p.id)
        from purchases p left join clients c on c.id = p.client_id
        where p.club_id = ${clubId} and p.at >= ${r.start} and p.at < ${r.end} order by p.at desc, p.id desc limit 50`,
  ],
  payments: (clubId, r) => [
    sql`select pp.method, count(*), sum(pp.amount) from purchase_payments pp join purchases p on p.id = pp.purchase_id
        where p.club_id = ${clubId} and p.at >= ${r.start} and p.at < ${r.end} group by pp.method`,
    sql`select pp.*, p.at, p.invoice_number from purchase_payments pp join purchases p on p.id = pp.purchase_id
        where p.club_id = ${clubId} and p.at >= ${r.start} and p.at < ${r.end} order by p.at desc, pp.id desc limit 50`,
  ],
  financial: (clubId, r) => [
    sql`select i.item_type, count(distinct i.purchase_id), sum(i.quantity), sum(i.amount_before_vat),
               sum(i.price_with_vat - i.amount_before_vat), sum(i.price_with_vat)
        from purchase_items i join purchases p on p.id = i.purchase_id
        where p.club_id = ${clubId} and p.at >= ${r.start} and p.at < ${r.end} and p.payment_status <> 3
        group by rollup (i.item_type)`,
    sql`select pp.method, sum(pp.amount), sum(p.fee) from purchase_payments pp join purchases p on p.id = pp.purchase_id
        where p.club_id = ${clubId} and p.at >= ${r.start} and p.at < ${r.end} and p.payment_status <> 3 group by pp.method`,
  ],
};

const CASES = [
  ['entrances', 'month'],
  ['entrances', 'year'],
  ['purchases', 'month'],
  ['purchases', 'year'],
  ['payments', 'year'],
  ['financial', 'year'],
];
const DEF = {
  entrances: defs.entrancesReport,
  purchases: defs.purchasesReport,
  payments: defs.paymentsReport,
  financial: defs.financialReport,
};

const { default: pg } = await import('pg');
const name = `venue_bench_rf_${process.pid}`;
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`CREATE DATABASE ${name}`);
await admin.end();
const url = new URL(adminUrl);
url.pathname = `/${name}`;
const database = await openDatabase({ databaseUrl: url.toString() });
const results = [];
try {
  const { db } = database;
  const [a] = (await db.execute(sql`insert into clubs (external_club_id, name) values (92001, 'bench A') returning id`))
    .rows;
  const [b] = (await db.execute(sql`insert into clubs (external_club_id, name) values (92002, 'bench B') returning id`))
    .rows;
  const t0 = performance.now();
  await fill(db, [a.id, b.id]);
  console.log(
    `filled ${2 * ENTRANCES} entrances, ${2 * PURCHASES} purchases in ${Math.round(performance.now() - t0)} ms`,
  );
  for (const [report, period] of CASES) {
    const q = ReportQuery.parse({ period });
    const r = await resolveReportRange(db, a.id, q);
    const framework = await measure(() => runReport(db, DEF[report], a.id, q));
    const hand = await measure(async () => {
      for (const s of HAND[report](a.id, r)) await db.execute(s);
    });
    const row = {
      report,
      period,
      frameworkMs: framework,
      handMs: hand,
      ratio: Math.round((framework / hand) * 100) / 100,
    };
    console.log(row);
    results.push(row);
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
  entrancesPerClub: ENTRANCES,
  purchasesPerClub: PURCHASES,
  runs: RUNS,
  results,
};
mkdirSync(path.join(root, 'bench/results'), { recursive: true });
writeFileSync(path.join(root, 'bench/results/report-framework.json'), `${JSON.stringify(out, null, 2)}\n`);
