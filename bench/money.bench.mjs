#!/usr/bin/env node
// Money at scale (issue 4): automatic renewal for BENCH_MONEY_CLIENTS clients
// (default 10 000) whose subscriptions end tomorrow, each with a stored card
// and a previous monthly subscription: the real runAutoRenew (quote, charge
// through the sandbox provider, purchase with invoice number, ledger, log)
// for all of them; and building a MASAV debit file for as many MASAV
// authorizations with open debts (the real createMasavFile: decrypting the
// bank details, the fixed-width writer), the file parsed back and checked.
// PostgreSQL (BENCH_DATABASE_URL, default the local server) in a fresh
// database, and PGlite in memory. Run with tsx: `node --import tsx bench/money.bench.mjs`.
// Writes bench/results/money.json and a row per database in bench/RESULTS.md.
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
const { createMasavFile } = await import(path.join(root, 'apps/server/src/modules/masav/masav.service.ts'));
const { SandboxProvider } = await import(path.join(root, 'apps/server/src/integrations/clearing/sandbox.ts'));
const { dataKeys, encrypt } = await import(path.join(root, 'apps/server/src/lib/crypto.ts'));
const { parseMasavDebitFile } = await import(path.join(root, 'apps/server/test/masav-parser.ts'));
const { isoDate, localParts, plusDays, withIsraeliIdCheckDigit } = await import(
  path.join(root, 'packages/domain/src/index.ts')
);
const { sql } = await import('drizzle-orm');
// The dealer's identity an Israeli club needs to sell (docs/money.md "The dealer's identity on tax documents").
const BENCH_DEALER = { companyNumber: '514123454', addressCity: 'ירושלים', addressStreet: 'רחוב הבדיקה' };

const N = Number(process.env.BENCH_MONEY_CLIENTS ?? 10_000);
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const today = isoDate(localParts(new Date(), 'Asia/Jerusalem'));

async function seed(db) {
  const [club] = (
    await db.execute(sql`insert into clubs (external_club_id, name, licenses_amount, settings)
      values (${5000 + Math.floor(Math.random() * 1000)}, 'Bench club', 100000,
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
  // Renewal clients 1..N, MASAV clients N+1..2N.
  await db.execute(sql`insert into clients (club_id, number, first_name, last_name, group_id, subscription_start, subscription_end, license_expiry)
    select ${clubId}, n, 'לקוח', 'מספר ' || n, ${g.id}, ${start}::date, ${end}::date, '2099-12-31'
      from generate_series(1, ${2 * N}) n`);
  await db.execute(sql`insert into payment_methods (club_id, client_id, kind, card_token, card_last_four, card_brand, card_expiry)
    select ${clubId}, c.id, 'card', 'sbx_ok_4242_bench' || c.id, '4242', 'Visa', '12/39'
      from clients c where c.club_id = ${clubId} and c.number <= ${N}`);
  await db.execute(sql`insert into purchases (club_id, client_id, at, invoice_number, total, amount_before_vat, vat, vat_rate_bp,
      payment_status, paid_cash, source, idempotency_key)
    select ${clubId}, c.id, now() - interval '20 days', c.number, 30000, 25424, 4576, 1800, 1, 30000, 'console', 'seed-' || c.id
      from clients c where c.club_id = ${clubId} and c.number <= ${N}`);
  await db.execute(sql`insert into purchase_items (club_id, purchase_id, item_type, quantity, unit_price, price_with_vat, amount_before_vat, expiry, details)
    select ${clubId}, p.id, 1, 1, 30000, 30000, 25424, ${end}::date,
           jsonb_build_object('period', 'month', 'monthlyPrice', 30000, 'start', ${start}::text, 'end', ${end}::text)
      from purchases p where p.club_id = ${clubId}`);
  await db.execute(sql`insert into invoice_counters (club_id, last) values (${clubId}, ${N})`);
  // MASAV authorizations, encrypted as the service stores them, and one open debt each.
  const keys = await dataKeys(db);
  const ids = (
    await db.execute(sql`select id, number from clients where club_id = ${clubId} and number > ${N} order by id`)
  ).rows;
  for (let i = 0; i < ids.length; i += 1000) {
    const chunk = ids.slice(i, i + 1000).map((r) => ({
      clubId,
      clientId: r.id,
      bankEnc: encrypt(
        keys,
        JSON.stringify({
          branch: '571',
          account: '041116',
          ownerId: withIsraeliIdCheckDigit(String(10_000_000 + r.number)),
        }),
        `club:${clubId}:client:${r.id}:bank`,
      ),
    }));
    const values = sql.join(
      chunk.map(
        (c) =>
          sql`(${c.clubId}, ${c.clientId}, 'masav', '12', ${c.bankEnc}, '116', 'בעל חשבון', ${String(c.clientId)})`,
      ),
      sql`, `,
    );
    await db.execute(
      sql`insert into payment_methods (club_id, client_id, kind, bank_code, bank_enc, account_last, owner_name, reference) values ${values}`,
    );
  }
  await db.execute(sql`insert into debts (club_id, client_id, amount, description, source)
    select ${clubId}, c.id, 1000 + (c.number % 50) * 10, 'bench', 'manual' from clients c where c.club_id = ${clubId} and c.number > ${N}`);
  await db.execute(sql`insert into club_money_settings (club_id, masav)
    values (${clubId}, ${JSON.stringify({ institutionCode: '12345678', sendingInstitution: '12345', institutionName: 'Bench' })}::jsonb)`);
  return clubId;
}

async function run(kind, d) {
  const db = d.db;
  const t0 = performance.now();
  const clubId = await seed(db);
  const seedMs = performance.now() - t0;
  const provider = new SandboxProvider();
  const r0 = performance.now();
  const renewal = await runAutoRenew(db, provider, clubId, { concurrency: d.kind === 'postgres' ? 4 : 1 });
  const renewMs = performance.now() - r0;
  if (renewal.renewed !== N) throw new Error(`renewed ${renewal.renewed} of ${N}`);
  const req = { auth: { clubId, userId: null }, ip: 'bench' };
  const m0 = performance.now();
  const file = await createMasavFile(db, req, { testMode: true });
  const masavMs = performance.now() - m0;
  const [{ content }] = (await db.execute(sql`select content from masav_files where id = ${file.id}`)).rows;
  const parsed = parseMasavDebitFile(Buffer.from(content));
  if (parsed.count !== N) throw new Error(`MASAV file has ${parsed.count} of ${N}`);
  const res = {
    kind,
    clients: N,
    seedMs: Math.round(seedMs),
    autoRenewMs: Math.round(renewMs),
    autoRenewPerClientMs: +(renewMs / N).toFixed(2),
    masavFileMs: Math.round(masavMs),
    masavBytes: Buffer.from(content).length,
  };
  console.log(res);
  return res;
}

const results = [];
{
  const d = await openDatabase({ dataDir: 'memory://' });
  try {
    results.push(await run('PGlite', d));
  } finally {
    await d.close();
  }
}
{
  const { default: pg } = await import('pg');
  const name = `venue_bench_money_${process.pid}`;
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
writeFileSync(path.join(root, 'bench/results/money.json'), `${JSON.stringify(out, null, 2)}\n`);
for (const r of results) {
  addResultRow(
    path.join(root, 'bench/RESULTS.md'),
    'Money: automatic renewal and MASAV file (ms)',
    ['date', 'machine', 'database', 'clients', 'auto-renew all', 'per client', 'MASAV file', 'MASAV bytes'],
    [
      out.date.slice(0, 16).replace('T', ' '),
      `${out.machine.nproc} cores, node ${out.machine.node}, load ${out.machine.loadAvg1m}`,
      r.kind,
      r.clients,
      r.autoRenewMs,
      r.autoRenewPerClientMs,
      r.masavFileMs,
      r.masavBytes,
    ],
  );
}
console.log('wrote bench/results/money.json and bench/RESULTS.md');
