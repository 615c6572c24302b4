#!/usr/bin/env node
// Automatic renewal, before and after (issue 18): BENCH_RENEW_CLIENTS clients
// (default 10 000) whose subscriptions end tomorrow, each with a stored card
// and a previous monthly subscription, renewed twice on identical data in two
// clubs of one database: "before" by the per-client path (one createPurchase
// per client, 4 at a time on PostgreSQL as the server ran it,
// test/auto-renew-reference.ts) and "after" by the set-based runAutoRenew
// (modules/subscriptions/auto-renew.batch.ts). Both charge through the sandbox
// provider and write purchases, items, payments, charges and logs; the run
// checks that both renewed every client and wrote the same totals.
// BENCH_RENEW_BEFORE_CLIENTS (default the same N) lets the slow "before" run a
// smaller set (its per-client time is then the figure to compare).
// PostgreSQL (BENCH_DATABASE_URL, default the local server) in a fresh
// database, and PGlite in memory. Run: `node --import tsx bench/renewal.bench.mjs`.
// Writes bench/results/renewal.json and a row per database in bench/RESULTS.md.
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { addResultRow } from './lib/results-md.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { openDatabase } = await import(path.join(root, 'apps/server/src/db/index.ts'));
const { runAutoRenew } = await import(
  path.join(root, 'apps/server/src/modules/subscriptions/subscriptions.service.ts')
);
const { runAutoRenewPerClient } = await import(path.join(root, 'apps/server/test/auto-renew-reference.ts'));
const { SandboxProvider } = await import(path.join(root, 'apps/server/src/integrations/clearing/sandbox.ts'));
const { isoDate, localParts, plusDays } = await import(path.join(root, 'packages/domain/src/index.ts'));
const { sql } = await import('drizzle-orm');
// The dealer's identity an Israeli club needs to sell (docs/money.md "The dealer's identity on tax documents").
const BENCH_DEALER = { companyNumber: '514123454', addressCity: 'ירושלים', addressStreet: 'רחוב הבדיקה' };

const N = Number(process.env.BENCH_RENEW_CLIENTS ?? 10_000);
const NB = Number(process.env.BENCH_RENEW_BEFORE_CLIENTS ?? N);
const only = process.env.BENCH_RENEW_DB; // 'pglite' | 'postgres' | undefined (both)
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const today = isoDate(localParts(new Date(), 'Asia/Jerusalem'));

/** A club with `n` due clients (stored card, last month bought 20 days ago); returns its id. */
async function seed(database, n) {
  // One transaction without the server pool's statement timeout (10 000 rows through the summary triggers).
  return database.transaction(async (db) => {
    if (process.env.BENCH_RENEW_PG) await db.execute(sql`set local statement_timeout = 0`);
    return seedIn(db, n);
  });
}

async function seedIn(db, n) {
  const [club] = (
    await db.execute(sql`insert into clubs (external_club_id, name, licenses_amount, settings)
      values (${5000 + Math.floor(Math.random() * 100000)}, 'Bench club', 100000,
              ${JSON.stringify({ autoRenewDaysBefore: 3, autoRenewDaysAfter: 3, ...BENCH_DEALER })}::jsonb) returning id`)
  ).rows;
  const clubId = club.id;
  const [g] = (
    await db.execute(
      sql`insert into groups (club_id, name, subscription_end_type) values (${clubId}, 'G', 2) returning id`,
    )
  ).rows;
  const end = plusDays(today, 1);
  const start = plusDays(today, -20);
  await db.execute(sql`insert into clients (club_id, number, first_name, last_name, group_id, subscription_start, subscription_end, license_expiry)
    select ${clubId}, n, 'לקוח', 'מספר ' || n, ${g.id}, ${start}::date, ${end}::date, '2099-12-31'
      from generate_series(1, ${n}) n`);
  await db.execute(sql`insert into payment_methods (club_id, client_id, kind, card_token, card_last_four, card_brand, card_expiry)
    select ${clubId}, c.id, 'card', 'sbx_ok_4242_bench' || c.id, '4242', 'Visa', '12/39'
      from clients c where c.club_id = ${clubId}`);
  // In slices of 1 000 clients: each statement stays well inside the pool's statement timeout.
  for (let lo = 1; lo <= n; lo += 1000) {
    const hi = Math.min(n, lo + 999);
    await db.execute(sql`insert into purchases (club_id, client_id, at, invoice_number, total, amount_before_vat, vat, vat_rate_bp,
        payment_status, paid_cash, source, idempotency_key)
      select ${clubId}, c.id, now() - interval '20 days', c.number, 30000, 25424, 4576, 1800, 1, 30000, 'console', 'seed-' || c.id
        from clients c where c.club_id = ${clubId} and c.number between ${lo} and ${hi}`);
    await db.execute(sql`insert into purchase_items (club_id, purchase_id, item_type, quantity, unit_price, price_with_vat, amount_before_vat, expiry, details)
      select ${clubId}, p.id, 1, 1, 30000, 30000, 25424, ${end}::date,
             jsonb_build_object('period', 'month', 'monthlyPrice', 30000, 'start', ${start}::text, 'end', ${end}::text)
        from purchases p where p.club_id = ${clubId} and p.invoice_number between ${lo} and ${hi}`);
  }
  await db.execute(sql`insert into invoice_counters (club_id, last) values (${clubId}, ${n})`);
  return clubId;
}

async function sums(db, clubId) {
  const [r] = (
    await db.execute(sql`select count(*)::int as n, coalesce(sum(total), 0)::int as total,
      (select count(*)::int from auto_renew_logs where club_id = ${clubId} and success) as logs,
      (select count(*)::int from charges where club_id = ${clubId} and status = 'approved' and purchase_id is not null) as charges
      from purchases where club_id = ${clubId} and source = 'autorenew'`)
  ).rows;
  return r;
}

async function run(kind, d) {
  const db = d.db;
  if (d.kind === 'postgres') process.env.BENCH_RENEW_PG = '1';
  const before = await seed(db, NB);
  const after = await seed(db, N);
  const t0 = performance.now();
  const old = await runAutoRenewPerClient(db, new SandboxProvider(), before, {
    concurrency: d.kind === 'postgres' ? 4 : 1,
  });
  const beforeMs = performance.now() - t0;
  const t1 = performance.now();
  const set = await runAutoRenew(db, new SandboxProvider(), after);
  const afterMs = performance.now() - t1;
  if (old.renewed !== NB || set.renewed !== N) throw new Error(`renewed ${old.renewed}/${NB} and ${set.renewed}/${N}`);
  const a = await sums(db, before);
  const b = await sums(db, after);
  if (NB === N && JSON.stringify(a) !== JSON.stringify(b)) throw new Error(`totals differ: ${JSON.stringify([a, b])}`);
  const res = {
    kind,
    clients: N,
    beforeClients: NB,
    beforeMs: Math.round(beforeMs),
    afterMs: Math.round(afterMs),
    beforePerClientMs: +(beforeMs / NB).toFixed(3),
    afterPerClientMs: +(afterMs / N).toFixed(3),
    speedup: +(beforeMs / NB / (afterMs / N)).toFixed(1),
    totals: b,
  };
  console.log(res);
  return res;
}

const results = [];
if (only !== 'postgres') {
  const d = await openDatabase({ dataDir: 'memory://' });
  try {
    results.push(await run('PGlite', d));
  } finally {
    await d.close();
  }
}
if (only !== 'pglite') {
  const { default: pg } = await import('pg');
  const name = `venue_bench_renewal_${process.pid}`;
  let ok = true;
  try {
    const admin = new pg.Client({ connectionString: adminUrl });
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
      results.push(await run('PostgreSQL', d));
    } finally {
      await d.close();
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  }
}

const out = {
  date: new Date().toISOString(),
  machine: { nproc: os.cpus().length, node: process.versions.node, loadAvg1m: +os.loadavg()[0].toFixed(1) },
  results,
};
mkdirSync(path.join(root, 'bench/results'), { recursive: true });
writeFileSync(path.join(root, 'bench/results/renewal.json'), `${JSON.stringify(out, null, 2)}\n`);
for (const r of results) {
  addResultRow(
    path.join(root, 'bench/RESULTS.md'),
    'Automatic renewal: per client (before) and in sets (after) (node --import tsx bench/renewal.bench.mjs)',
    [
      'date',
      'machine',
      'database',
      'clients after',
      'after ms',
      'clients before',
      'before ms',
      'after ms/client',
      'before ms/client',
      'speed-up',
    ],
    [
      out.date.slice(0, 16).replace('T', ' '),
      `${out.machine.nproc} cores, node ${out.machine.node}, load ${out.machine.loadAvg1m}`,
      r.kind,
      r.clients,
      r.afterMs,
      r.beforeClients,
      r.beforeMs,
      r.afterPerClientMs,
      r.beforePerClientMs,
      `${r.speedup}×`,
    ],
  );
}
console.log('wrote bench/results/renewal.json and bench/RESULTS.md');
