#!/usr/bin/env node
// The report framework against hand-tuned SQL, in the same run (issue 6 "speed
// at scale": first page with totals, median ms, ratio to the hand-tuned query).
// PostgreSQL only (BENCH_DATABASE_URL, default the local server), a fresh
// database of BENCH_CLUBS clubs (default 1 000): one big club with
// BENCH_ENTRANCES entrances (default 2 000 000) and BENCH_PURCHASES purchases
// (default 500 000, one item and one payment each) over three years, 2 000
// clients and 4 groups; the other clubs with BENCH_SMALL_CLIENTS clients of
// their own (default 100), BENCH_SMALL_ENTRANCES entrances (default 1 000) and
// BENCH_SMALL_PURCHASES purchases (default 250) each, of their own clients, over
// the same three years, all generated set-based (generate_series), so every
// query must skip the other clubs' rows through its club-leading index.
// Times every report's first page with totals and every dashboard call on the
// big club against hand-tuned SQL in the same run: the two timed alternately, medians of at
// least BENCH_RUNS pairs and of as many as fit in 400 ms (at most 301; see measurePair).
// Run: `node --import tsx bench/report-framework.bench.mjs` (BENCH_RECORD=0 for a
// trial that writes no RESULTS.md row; BENCH_KEEP=1 keeps the database for EXPLAIN).
// Writes bench/results/report-framework.json and a table in bench/RESULTS.md.
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
const dash = await import(path.join(root, 'apps/server/src/modules/dashboard/dashboard.service.ts'));
const { sql } = await import('drizzle-orm');
const { addResultRow } = await import('./lib/results-md.mjs');
// Hand-tuned SQL for the other reports, by report id (same shape as HAND below).
const { HAND_MORE } = await import('./lib/report-hand-sql.mjs');

const ENTRANCES = Number(process.env.BENCH_ENTRANCES ?? 2_000_000);
const PURCHASES = Number(process.env.BENCH_PURCHASES ?? 500_000);
const CLUBS = Number(process.env.BENCH_CLUBS ?? 1000);
const SMALL_ENTRANCES = Number(process.env.BENCH_SMALL_ENTRANCES ?? 1000);
const SMALL_PURCHASES = Number(process.env.BENCH_SMALL_PURCHASES ?? 250);
const SMALL_CLIENTS = Number(process.env.BENCH_SMALL_CLIENTS ?? 100);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** The big club: clients, groups, entrances, purchases with one item and one payment each. */
async function fillBig(db, clubId) {
  await db.execute(
    sql`insert into groups (club_id, name) select ${clubId}::int, 'group ' || g from generate_series(1, 4) g`,
  );
  await db.execute(sql`insert into clients (club_id, number, first_name, last_name, license_expiry)
      select ${clubId}::int, n, 'first' || n, 'last' || n, (current_date + (n % 400 - 200))::date
      from generate_series(1, 2000) n`);
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
  await db.execute(sql`insert into purchase_items (club_id, purchase_id, item_type, item_id, name, quantity, unit_price, price_with_vat, amount_before_vat)
      select p.club_id, p.id, (array[1, 2, 3, 4, 10])[1 + (p.id % 5)], case when p.id % 5 = 4 then 1 + (p.id / 5) % 20 end, '', 1,
             p.total, p.total, p.amount_before_vat
      from purchases p where p.club_id = ${clubId}`);
  await db.execute(sql`insert into purchase_payments (club_id, purchase_id, method, amount)
      select p.club_id, p.id, case when p.paid_cash > 0 then 0 else 1 end, p.total from purchases p where p.club_id = ${clubId}`);
}

/**
 * The other clubs, all at once (set-based): each SMALL_CLIENTS clients of its
 * own and a small history of them spread over the same three years (a row's
 * client is its club's, found by (club_id, number) in one hash join).
 */
async function fillSmall(db, bigId) {
  await db.execute(sql`insert into clubs (external_club_id, name)
      select 93000 + g, 'bench ' || g from generate_series(1, ${CLUBS - 1}::int) g`);
  await db.execute(sql`insert into clients (club_id, number, first_name, last_name, license_expiry)
      select c.id, n, 'first' || n, 'last' || n, (current_date + (n % 400 - 200))::date
      from clubs c cross join generate_series(1, ${SMALL_CLIENTS}::int) n where c.id <> ${bigId}`);
  await db.execute(sql`insert into entrance_logs (club_id, terminal_id, client_id, group_id, at, status, reason, identification_kind, amount, payment_type)
      select c.id, 1, cl.id, null, now() - (((i * 7919 + c.id) % ${SMALL_ENTRANCES}::int)::float8 / ${SMALL_ENTRANCES}::float8) * interval '1095 days',
             case when i % 20 = 0 then 4 else 1 end, 0, 'card', 0, 1
      from clubs c cross join generate_series(0, ${SMALL_ENTRANCES - 1}::int) i
      join clients cl on cl.club_id = c.id and cl.number = 1 + (i % ${SMALL_CLIENTS}::int)
      where c.id <> ${bigId}`);
  await db.execute(sql`insert into purchases (club_id, client_id, at, invoice_number, total, amount_before_vat, vat, vat_rate_bp,
        payment_status, paid_cash, source, idempotency_key)
      select c.id, cl.id, now() - (((i * 7919 + c.id) % ${SMALL_PURCHASES}::int)::float8 / ${SMALL_PURCHASES}::float8) * interval '1095 days',
             i + 1, 1180, 1000, 180, 1800, 1, 1180, 'console', 's' || i
      from clubs c cross join generate_series(0, ${SMALL_PURCHASES - 1}::int) i
      join clients cl on cl.club_id = c.id and cl.number = 1 + (i % ${SMALL_CLIENTS}::int)
      where c.id <> ${bigId}`);
  await db.execute(sql`insert into purchase_items (club_id, purchase_id, item_type, name, quantity, unit_price, price_with_vat, amount_before_vat)
      select p.club_id, p.id, 1, '', 1, p.total, p.total, p.amount_before_vat from purchases p where p.club_id <> ${bigId}`);
  await db.execute(sql`insert into purchase_payments (club_id, purchase_id, method, amount)
      select p.club_id, p.id, 0, p.total from purchases p where p.club_id <> ${bigId}`);
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

/**
 * The framework's call and its hand-tuned version timed alternately (A, B, A, B …) after a
 * warm-up of each, so both see the same moments of this shared machine, for at least RUNS
 * pairs and until 400 ms have been spent (at most 301 pairs): a call of 1 ms gets ~200
 * samples instead of 7, and its median no longer swings with a few slow moments.
 * Returns both medians (ms, one decimal).
 */
async function measurePair(a, b) {
  await a();
  await b();
  const ma = [];
  const mb = [];
  const start = performance.now();
  while (ma.length < RUNS || (performance.now() - start < 400 && ma.length < 301)) {
    let t0 = performance.now();
    await a();
    ma.push(performance.now() - t0);
    t0 = performance.now();
    await b();
    mb.push(performance.now() - t0);
  }
  const r = (x) => Math.round(median(x) * 10) / 10;
  return [r(ma), r(mb), ma.length];
}

/** Hand-tuned: the same figures in the fewest statements, written for this report only. */
const HAND = {
  // Totals from the daily summary (merged rows and deltas, the framework's source), by local day; the page from the rows.
  entrances: (clubId, r) => [
    sql`select status, sum(n)::int n, sum(amount)::bigint a from (
          select status, n, amount from activity_daily
          where club_id = ${clubId} and day between ${r.from}::date and ${r.to}::date and kind = 1
          union all
          select status, n, amount from activity_daily_delta
          where club_id = ${clubId} and day between ${r.from}::date and ${r.to}::date and kind = 1) s
        group by status`,
    sql`select e.id, e.at, e.client_id, c.number, c.first_name, c.last_name, (select name from groups where id = e.group_id),
               e.terminal_id, (select name from terminals where id = e.terminal_id), e.status, e.reason,
               e.identification_kind, e.amount, e.payment_type
        from entrance_logs e left join clients c on c.id = e.client_id
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
  // Totals: financial_daily's payment methods (not refunded) plus the refunded purchases' payments.
  payments: (clubId, r) => [
    sql`select method, sum(n), sum(amount) from (
          select key as method, purchases as n, total as amount from financial_daily
          where club_id = ${clubId} and kind = 2 and day between ${r.from}::date and ${r.to}::date
          union all
          select pp.method, 1, pp.amount from purchases p join purchase_payments pp on pp.purchase_id = p.id
          where p.club_id = ${clubId} and p.payment_status = 3 and p.at >= ${r.start} and p.at < ${r.end}) m
        group by method`,
    sql`select pp.id, p.at, p.invoice_number, p.client_id, c.number, c.first_name, c.last_name, pp.method, pp.amount,
               pp.last_four, (select name from terminals where id = p.terminal_id), (select name from users where id = p.user_id)
        from purchase_payments pp join purchases p on p.id = pp.purchase_id left join clients c on c.id = p.client_id
        where p.club_id = ${clubId} and p.at >= ${r.start} and p.at < ${r.end} order by p.at desc, pp.id desc limit 50`,
  ],
  // From the daily summary (the framework's source), by local day.
  financial: (clubId, r) => [
    sql`select kind, key, sum(purchases), sum(quantity), sum(amount_before_vat), sum(total) from financial_daily
        where club_id = ${clubId} and day between ${r.from}::date and ${r.to}::date group by rollup ((kind, key))`,
  ],
  // Totals from activity_daily; the page: the newest 50 of each half merged, items for those rows only.
  activities: (clubId, r) => [
    sql`select kind, status, sum(n), sum(amount) from (
          select kind, status, n, amount from activity_daily
          where club_id = ${clubId} and day between ${r.from}::date and ${r.to}::date
          union all
          select kind, status, n, amount from activity_daily_delta
          where club_id = ${clubId} and day between ${r.from}::date and ${r.to}::date) s
        group by kind, status`,
    sql`select a.*, c.number, c.first_name, c.last_name, (select name from terminals where id = a.terminal_id),
               (select json_agg(json_build_object('t', i.item_type, 'n', i.name, 'q', i.quantity) order by i.id)
                  from purchase_items i where i.purchase_id = a.pid)
        from ((select e.id, null::bigint pid, e.at, e.client_id, e.terminal_id, e.status, e.amount from entrance_logs e
               where e.club_id = ${clubId} and e.at >= ${r.start} and e.at < ${r.end} order by e.at desc limit 50)
              union all
              (select null, p.id, p.at, p.client_id, p.terminal_id, null, p.total from purchases p
               where p.club_id = ${clubId} and p.at >= ${r.start} and p.at < ${r.end} order by p.at desc limit 50)
              order by at desc limit 50) a
        left join clients c on c.id = a.client_id
        order by a.at desc`,
  ],
  // One client's entrances: the (client_id, at) index.
  clientEntrances: (clubId, r, q) => [
    sql`select e.id, e.at, (select name from terminals where id = e.terminal_id), (select name from groups where id = e.group_id),
               e.status, e.reason, e.amount, count(*) over () n,
               count(*) filter (where e.status = 1) over () approved, sum(e.amount) over () total
        from entrance_logs e
        where e.client_id = ${q.clientId} and e.club_id = ${clubId} and e.at >= ${r.start} and e.at < ${r.end}
        order by e.at desc, e.id desc limit 50`,
  ],
};

/** The same aggregates from the rows themselves (before the summary tables), for reference. */
const HAND_RAW = {
  financial: (clubId, r) => [
    sql`select i.item_type, count(distinct i.purchase_id), sum(i.quantity), sum(i.amount_before_vat),
               sum(i.price_with_vat - i.amount_before_vat), sum(i.price_with_vat)
        from purchase_items i join purchases p on p.id = i.purchase_id
        where p.club_id = ${clubId} and p.at >= ${r.start} and p.at < ${r.end} and p.payment_status <> 3
        group by rollup (i.item_type)`,
    sql`select pp.method, sum(pp.amount), sum(p.fee) from purchase_payments pp join purchases p on p.id = pp.purchase_id
        where p.club_id = ${clubId} and p.at >= ${r.start} and p.at < ${r.end} and p.payment_status <> 3 group by pp.method`,
  ],
  entrances: (clubId, r) => [
    sql`select status, count(*)::int n, sum(amount)::bigint a from entrance_logs
        where club_id = ${clubId} and at >= ${r.start} and at < ${r.end} group by status`,
  ],
  payments: (clubId, r) => [
    sql`select pp.method, count(*), sum(pp.amount) from purchase_payments pp join purchases p on p.id = pp.purchase_id
        where p.club_id = ${clubId} and p.at >= ${r.start} and p.at < ${r.end} group by pp.method`,
  ],
  activities: (clubId, r) => [
    sql`select status, count(*), sum(amount) from entrance_logs
        where club_id = ${clubId} and at >= ${r.start} and at < ${r.end} group by status`,
    sql`select count(*), sum(total) from purchases where club_id = ${clubId} and at >= ${r.start} and at < ${r.end}`,
  ],
};

/** Hand-tuned dashboard queries: this month's bounds computed once, one statement each. */
const HAND_DASH = {
  monthlyEntranceCount: (clubId, r) =>
    sql`select count(*) from entrance_logs where club_id = ${clubId} and at >= ${r.start} and at < ${r.end} and status = 1`,
  activeClientsCount: (clubId) =>
    sql`select count(distinct client_id) from entrance_logs where club_id = ${clubId} and at >= now() - interval '30 days'
        and at <= now() and status = 1 and client_id is not null`,
  chartEntranceByStatus: (clubId, r) =>
    sql`select status, count(*) from entrance_logs where club_id = ${clubId} and at >= ${r.start} and at < ${r.end} group by 1`,
  chartConfirmedEntranceByTime: (clubId, r) =>
    sql`select extract(hour from at at time zone 'Asia/Jerusalem'), count(*) from entrance_logs
        where club_id = ${clubId} and at >= ${r.start} and at < ${r.end} and status = 1 group by 1`,
  monthlyIncome: (clubId, r) =>
    sql`select sum(total) from purchases where club_id = ${clubId} and at >= ${r.start} and at < ${r.end} and payment_status <> 3`,
  // Today in the club's zone (the period's zone), as the call.
  expiredLicensesCount: (clubId, r) =>
    sql`select count(*) from clients where club_id = ${clubId} and status <> 3
        and license_expiry < (now() at time zone ${r.timeZone})::date`,
  lastWeekArrivalsCount: (clubId) =>
    sql`select count(*) from entrance_logs where club_id = ${clubId} and at >= now() - interval '7 days'
        and at <= now() and status = 1`,
  validLicensesCount: (clubId, r) =>
    sql`select count(*) from clients where club_id = ${clubId} and status <> 3
        and license_expiry >= (now() at time zone ${r.timeZone})::date`,
  chartPaymentData: (clubId, r) =>
    sql`select case when payment_type = 0 and reason = 7 then 6 else payment_type end, count(*) from entrance_logs
        where club_id = ${clubId} and at >= ${r.start} and at < ${r.end} and status = 1 group by 1 order by 1`,
  // The financial daily summary's item types (purchases not refunded, local days) hold these sums.
  chartByItemType: (clubId, r) =>
    sql`select key, sum(total) v, sum(quantity) q from financial_daily
        where club_id = ${clubId} and kind = 1 and day between ${r.from}::date and ${r.to}::date
        group by key having sum(purchases) <> 0 order by key`,
  // The daily summary product_daily: per product (kind 1), the lines' names (kind 2), then named.
  chartByProduct: (clubId, r) =>
    sql`select coalesce(pr.name, s.n, ''), s.v, s.q from (
          select f.item_id, max(f.name) filter (where f.kind = 2 and f.purchases > 0) n, sum(f.total) v, sum(f.quantity) q
          from product_daily f
          where f.club_id = ${clubId} and f.kind in (1, 2) and f.day between ${r.from}::date and ${r.to}::date
          group by f.item_id having sum(f.purchases) filter (where f.kind = 1) > 0) s
        left join products pr on pr.id = s.item_id and pr.club_id = ${clubId} order by 2 desc, 1`,
  // Counted per group id, then named.
  chartEntranceByGroup: (clubId, r) =>
    sql`select coalesce(g.name, ''), e.n from (
          select group_id, count(*) n from entrance_logs
          where club_id = ${clubId} and at >= ${r.start} and at < ${r.end} and status = 1 group by group_id) e
        left join groups g on g.id = e.group_id and g.club_id = ${clubId} order by 2 desc, 1`,
};

const DEF = {
  entrances: defs.entrancesReport,
  purchases: defs.purchasesReport,
  payments: defs.paymentsReport,
  financial: defs.financialReport,
  activities: defs.activitiesReport,
  clientEntrances: defs.clientEntrancesReport,
};
/** Every report of the framework for this month, and the large ones (and a client's entrances) for a year too. */
const CASES = [
  ...defs.REPORT_DEFINITIONS.map((d) => [d, 'month']),
  ...Object.values(DEF).map((d) => [d, 'year']),
  // The product reports read the daily summary product_daily: a year too.
  [defs.productsReport, 'year'],
  [defs.productMatrixReport, 'year'],
];
const handOf = (d) => {
  const key = Object.keys(DEF).find((k) => DEF[k] === d);
  if (key) return HAND[key];
  return HAND_MORE[d.meta.id];
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
let fillMs = 0;
let summaryWrite = null;
try {
  const { db } = database;
  const [a] = (await db.execute(sql`insert into clubs (external_club_id, name) values (92001, 'bench A') returning id`))
    .rows;
  const t0 = performance.now();
  // The summary triggers (migrations 0011, 0017) are off while generating; the summaries are then built in one pass.
  const triggers = async (on) => {
    for (const t of ['purchases', 'purchase_items', 'purchase_payments', 'entrance_logs'])
      await db.execute(sql.raw(`alter table ${t} ${on ? 'enable' : 'disable'} trigger user`));
  };
  await triggers(false);
  await fillBig(db, a.id);
  if (CLUBS > 1) await fillSmall(db, a.id);
  await triggers(true);
  await db.execute(sql`select financial_daily_rebuild(null)`);
  await db.execute(sql`select product_daily_rebuild(null)`);
  await db.execute(sql`select activity_daily_rebuild(null)`);
  // VACUUM as autovacuum would after a load: sets the visibility map, so index-only joins read no heap.
  await db.execute(sql`vacuum analyze`);
  fillMs = Math.round(performance.now() - t0);
  console.log(`filled ${CLUBS} clubs in ${fillMs} ms`);
  for (const [def, period] of CASES) {
    const q = ReportQuery.parse({ period, ...(def.meta.required?.includes('clientId') ? { clientId: 1 } : {}) });
    const r = await resolveReportRange(db, a.id, q);
    const key = Object.keys(DEF).find((k) => DEF[k] === def);
    const handSql = handOf(def);
    const callFramework = () => runReport(db, def, a.id, q);
    const [framework, hand, samples] = handSql
      ? await measurePair(callFramework, async () => {
          for (const s of handSql(a.id, r, q)) await db.execute(s);
        })
      : [await measure(callFramework), null, RUNS];
    const raw = HAND_RAW[key]
      ? await measure(async () => {
          for (const s of HAND_RAW[key](a.id, r)) await db.execute(s);
        })
      : undefined;
    const row = {
      call: `Report/${def.meta.call}`,
      report: def.meta.id,
      period,
      frameworkMs: framework,
      handMs: hand,
      ratio: hand ? Math.round((framework / hand) * 100) / 100 : null,
      samples,
      ...(raw !== undefined ? { handRawMs: raw } : {}),
    };
    console.log(JSON.stringify(row));
    results.push(row);
  }
  // What the summary triggers add to writing a purchase (one line, one payment), per purchase.
  const writeCost = async (on) => {
    await triggers(on);
    const base = 10_000_000 + (on ? 0 : 100_000);
    const t = performance.now();
    for (let k = 0; k < 200; k++) {
      await db.transaction(async (tx) => {
        const [p] = (
          await tx.execute(sql`insert into purchases (club_id, at, invoice_number, total, amount_before_vat, vat, vat_rate_bp,
              payment_status, paid_cash, source, idempotency_key)
            values (${a.id}, now(), ${base + k}, 1180, 1000, 180, 1800, 1, 1180, 'console', ${`w${base + k}`}) returning id`)
        ).rows;
        await tx.execute(sql`insert into purchase_items (club_id, purchase_id, item_type, name, quantity, unit_price, price_with_vat, amount_before_vat)
            values (${a.id}, ${p.id}, 1, '', 1, 1180, 1180, 1000)`);
        await tx.execute(
          sql`insert into purchase_payments (club_id, purchase_id, method, amount) values (${a.id}, ${p.id}, 0, 1180)`,
        );
      });
    }
    return (performance.now() - t) / 200;
  };
  const writeOff = await writeCost(false);
  const writeOn = await writeCost(true);
  await db.execute(sql`select financial_daily_rebuild(${a.id}::int)`);
  summaryWrite = {
    msPerPurchaseWithoutTriggers: Math.round(writeOff * 100) / 100,
    msPerPurchaseWithTriggers: Math.round(writeOn * 100) / 100,
  };
  console.log(
    'purchase write (1 line, 1 payment, own transaction) and entrance_logs insert (ms per statement, trigger off/on):',
    summaryWrite,
  );
  const month = await resolveReportRange(db, a.id, ReportQuery.parse({ period: 'month' }));
  const dashCalls = [
    ['GetMonthlyEntranceCount', () => dash.monthlyEntranceCount(db, a.id), 'monthlyEntranceCount'],
    ['GetActiveClientsCount', () => dash.activeClientsCount(db, a.id), 'activeClientsCount'],
    ['GetLastWeekArrivalsCount', () => dash.lastWeekArrivalsCount(db, a.id), 'lastWeekArrivalsCount'],
    ['GetValidLicensesCount', () => dash.validLicensesCount(db, a.id), 'validLicensesCount'],
    ['GetChartEntranceByStatus', () => dash.chartEntranceByStatus(db, a.id), 'chartEntranceByStatus'],
    [
      'GetChartConfirmedEntranceByTime',
      () => dash.chartConfirmedEntranceByTime(db, a.id),
      'chartConfirmedEntranceByTime',
    ],
    ['GetMonthlyIncome', () => dash.monthlyIncome(db, a.id), 'monthlyIncome'],
    ['GetExpiredLicensesCount', () => dash.expiredLicensesCount(db, a.id), 'expiredLicensesCount'],
    ['GetChartPaymentData', () => dash.chartPaymentData(db, a.id), 'chartPaymentData'],
    ['GetChartDataByItemType', () => dash.chartByItemType(db, a.id, 'amount'), 'chartByItemType'],
    ['GetChartDataQtyByItemType', () => dash.chartByItemType(db, a.id, 'quantity'), 'chartByItemType'],
    ['GetChartDataByProduct', () => dash.chartByProduct(db, a.id, 'amount'), 'chartByProduct'],
    ['GetChartDataQtyByProduct', () => dash.chartByProduct(db, a.id, 'quantity'), 'chartByProduct'],
    ['GetChartEntranceByGroup', () => dash.chartEntranceByGroup(db, a.id), 'chartEntranceByGroup'],
  ];
  for (const [call, fn, key] of dashCalls) {
    const [framework, hand, samples] = await measurePair(fn, () => db.execute(HAND_DASH[key](a.id, month)));
    const row = {
      call: `Dashboard/${call}`,
      report: 'dashboard',
      period: 'month',
      frameworkMs: framework,
      handMs: hand,
      ratio: Math.round((framework / hand) * 100) / 100,
      samples,
    };
    console.log(JSON.stringify(row));
    results.push(row);
  }
  // Last (its rows would change the figures above): what activity_daily's insert trigger adds to
  // the gate's log insert (its statement, gate-batch.ts: unnest of arrays, ON CONFLICT DO NOTHING),
  // per statement of 1 and of 256 rows (one club, or spread over 64 clubs), each statement its own
  // transaction; off and on alternate over 5 rounds, the median round kept.
  const pgArray = (xs) => `{${xs.map((x) => (x == null ? 'NULL' : `"${x}"`)).join(',')}}`;
  const clubIds = (await db.execute(sql`select id from clubs order by id limit 64`)).rows.map((r) => Number(r.id));
  let eventSeq = 0;
  const logInsert = async (rows, spread) => {
    const cols = [[], [], [], [], [], [], [], [], [], [], [], []];
    for (let k = 0; k < rows; k++) {
      const i = eventSeq++;
      const row = [
        spread ? clubIds[i % clubIds.length] : a.id,
        1 + (i % 3),
        1 + (i % 2000),
        1 + (i % 4),
        new Date().toISOString(),
        i % 20 === 0 ? 4 : i % 33 === 0 ? 2 : 1,
        0,
        'card',
        i % 5 === 0 ? 1000 : 0,
        1,
        `bw${i}`,
        null,
      ];
      row.forEach((v, j) => cols[j].push(v));
    }
    const c = cols.map(pgArray);
    await db.execute(sql`insert into entrance_logs (club_id, terminal_id, client_id, group_id, at, status, reason,
        identification_kind, amount, payment_type, event_id, payer_client_id)
      select * from unnest(${c[0]}::int[], ${c[1]}::int[], ${c[2]}::int[], ${c[3]}::int[], ${c[4]}::timestamptz[],
        ${c[5]}::smallint[], ${c[6]}::smallint[], ${c[7]}::text[], ${c[8]}::int[], ${c[9]}::smallint[],
        ${c[10]}::text[], ${c[11]}::int[])
      on conflict (terminal_id, event_id) do nothing`);
  };
  const gateTrigger = (on) =>
    db.execute(
      sql.raw(`alter table entrance_logs ${on ? 'enable' : 'disable'} trigger activity_daily_entrance_insert`),
    );
  const logCost = async (rows, spread, statements) => {
    const rounds = { off: [], on: [] };
    for (let round = 0; round < 5; round++) {
      for (const on of [false, true]) {
        await gateTrigger(on);
        const t = performance.now();
        for (let k = 0; k < statements; k++) await logInsert(rows, spread);
        rounds[on ? 'on' : 'off'].push((performance.now() - t) / statements);
      }
    }
    await gateTrigger(true);
    return { off: Math.round(median(rounds.off) * 1000) / 1000, on: Math.round(median(rounds.on) * 1000) / 1000 };
  };
  const one = await logCost(1, false, 200);
  const batch = await logCost(256, false, 20);
  const spreadBatch = await logCost(256, true, 20);
  // The compaction of what those statements appended (the trigger was on for half of them).
  const [{ n: deltaRows }] = (await db.execute(sql`select count(*)::int as n from activity_daily_delta`)).rows;
  const tc = performance.now();
  await db.execute(sql`select activity_daily_compact()`);
  const compactMs = Math.round(performance.now() - tc);
  await db.execute(sql`select activity_daily_rebuild(null)`);
  summaryWrite.entranceInsert1Row = one;
  summaryWrite.entranceInsert256RowsOneClub = batch;
  summaryWrite.entranceInsert256Rows64Clubs = spreadBatch;
  summaryWrite.compaction = { deltaRows, ms: compactMs };
  console.log('entrance_logs insert, ms per statement, activity_daily trigger off/on:', {
    one,
    batch,
    spreadBatch,
    compaction: summaryWrite.compaction,
  });
} finally {
  await database.close();
  if (process.env.BENCH_KEEP) console.log(`kept database ${name}`);
  else {
    const a2 = new pg.Client({ connectionString: adminUrl });
    await a2.connect();
    await a2.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await a2.end();
  }
}
const out = {
  date: new Date().toISOString(),
  machine: { nproc: os.cpus().length, node: process.version, loadAvg1m: Number(os.loadavg()[0].toFixed(1)) },
  database: 'PostgreSQL',
  clubs: CLUBS,
  entrancesBigClub: ENTRANCES,
  purchasesBigClub: PURCHASES,
  clientsPerOtherClub: SMALL_CLIENTS,
  entrancesPerOtherClub: SMALL_ENTRANCES,
  purchasesPerOtherClub: SMALL_PURCHASES,
  fillMs,
  summaryWrite,
  runs: RUNS,
  results,
};
mkdirSync(path.join(root, 'bench/results'), { recursive: true });
writeFileSync(path.join(root, 'bench/results/report-framework.json'), `${JSON.stringify(out, null, 2)}\n`);
// BENCH_RECORD=0: a trial run (e.g. at a reduced scale) that leaves bench/RESULTS.md alone.
const heading = 'Reports and dashboard at scale (node --import tsx bench/report-framework.bench.mjs)';
const columns = ['date', 'machine', 'data', 'call', 'period', 'median ms', 'hand-tuned ms', 'ratio'];
const machine = `${out.machine.nproc} cores, node ${out.machine.node}, load ${out.machine.loadAvg1m}`;
const data = `${CLUBS} clubs; big: ${ENTRANCES} entrances, ${PURCHASES} purchases`;
for (const r of process.env.BENCH_RECORD === '0' ? [] : results) {
  addResultRow(path.join(root, 'bench/RESULTS.md'), heading, columns, [
    out.date.slice(0, 16).replace('T', ' '),
    machine,
    data,
    r.call,
    r.period,
    r.frameworkMs,
    r.handMs,
    r.ratio,
  ]);
}
console.log('wrote bench/results/report-framework.json and bench/RESULTS.md');
