#!/usr/bin/env node
// The clients list at scale (issue 5): fills one club with BENCH_CLIENTS clients
// (default 100 000; Hebrew and English names, phones, personal IDs, cards,
// groups, subscriptions) and a second club with a fifth as many, then times
// the real service function listClients (the page and its total, as
// GET /api/Client answers them) for paging, sorting, filtering and searching.
// Median of BENCH_CLIENTS_REPEAT calls (default 21) after one warm-up call.
// PostgreSQL (BENCH_DATABASE_URL, default the local server) in a fresh
// database; PGlite in memory with the same rows. Run with tsx:
// `node --import tsx bench/clients.bench.mjs`.
// Writes bench/results/clients.json and a row per database in bench/RESULTS.md.
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { addResultRow } from './lib/results-md.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { openDatabase } = await import(path.join(root, 'apps/server/src/db/index.ts'));
const { listClients } = await import(path.join(root, 'apps/server/src/modules/clients/clients.service.ts'));
const { ClientListQuery } = await import(path.join(root, 'packages/domain/src/index.ts'));
const { sql } = await import('drizzle-orm');

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 100_000);
const REPEAT = Number(process.env.BENCH_CLIENTS_REPEAT ?? 21);
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const FIRST = [
  'שרה',
  'רחל',
  'לאה',
  'רבקה',
  'מרים',
  'חנה',
  'אסתר',
  'דבורה',
  'יעל',
  'נעמי',
  'Sarah',
  'Rachel',
  'Leah',
  'Miriam',
  'Hannah',
  'Esther',
  'Deborah',
  'Naomi',
  'Ruth',
  'Judith',
];
const LAST = [
  'כהן',
  'לוי',
  'מזרחי',
  'פרץ',
  'ביטון',
  'דהן',
  'אברהם',
  'פרידמן',
  'שפירא',
  'גולדברג',
  'Cohen',
  'Levy',
  'Friedman',
  'Goldberg',
  'Katz',
  'Klein',
  'Weiss',
  'Schwartz',
  'Rosen',
  'Adler',
  'Stein',
  'Berger',
  'Gross',
];

async function fill(db, clubId, n, groupIds) {
  const arr = (xs) => sql.raw(`array[${xs.map((x) => `'${x}'`).join(',')}]`);
  await db.execute(sql`insert into clients (club_id, number, first_name, last_name, personal_id, phone, city, group_id,
      card_serial, subscription_start, subscription_end, license_expiry, status, balance, created_at)
    select ${clubId}::int, i,
           (${arr(FIRST)})[1 + (i * 7) % ${FIRST.length}],
           (${arr(LAST)})[1 + (i * 13) % ${LAST.length}] || case when i % 3 = 0 then '' else ' ' || (i % 997)::text end,
           lpad((100000000 + i * 37)::text, 9, '0'),
           '+9725' || (i % 9)::text || lpad((i * 7919 % 10000000)::text, 7, '0'),
           case when i % 2 = 0 then 'ירושלים' else 'בני ברק' end,
           (${sql.raw(`array[${groupIds.join(',')}]`)})[1 + i % ${groupIds.length}],
           'C' || (1000000 + i)::text,
           current_date - (i % 400),
           current_date - (i % 400) + 365,
           current_date + (i % 700) - 200,
           case when i % 50 = 0 then 3 when i % 20 = 0 then 2 else 1 end,
           (i % 100) * 100,
           now() - (i::float8 / ${n}::float8) * interval '1000 days'
      from generate_series(1, ${n}::int) as i`);
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function time(label, fn) {
  await fn(); // warm
  const samples = [];
  let r;
  for (let i = 0; i < REPEAT; i++) {
    const t0 = performance.now();
    r = await fn();
    samples.push(performance.now() - t0);
  }
  const ms = Math.round(median(samples) * 10) / 10;
  const p90 = Math.round([...samples].sort((a, b) => a - b)[Math.floor(samples.length * 0.9)] * 10) / 10;
  console.log(`  ${label}: median ${ms} ms, p90 ${p90} ms (${r.total} matching)`);
  return { label, ms, p90, total: r.total };
}

async function run(kind, database, n) {
  const { db } = database;
  const rows = (r) => r.rows;
  const [a] = rows(
    await db.execute(sql`insert into clubs (external_club_id, name) values (92001, 'bench A') returning id`),
  );
  const [b] = rows(
    await db.execute(sql`insert into clubs (external_club_id, name) values (92002, 'bench B') returning id`),
  );
  const groupsOf = async (clubId) => {
    const ids = [];
    for (const name of ['נשים', 'כלות', 'מנויים', 'חד פעמי']) {
      const [g] = rows(
        await db.execute(sql`insert into groups (club_id, name) values (${clubId}, ${name}) returning id`),
      );
      ids.push(g.id);
    }
    return ids;
  };
  const ga = await groupsOf(a.id);
  const gb = await groupsOf(b.id);
  const t0 = performance.now();
  await fill(db, a.id, n, ga);
  await fill(db, b.id, Math.round(n / 5), gb);
  // What autovacuum does on a live server: statistics, and the visibility map for index-only counts.
  await db.execute(sql`vacuum analyze clients`);
  console.log(`${kind}: filled ${n} + ${Math.round(n / 5)} clients in ${Math.round(performance.now() - t0)} ms`);
  const q = (o) => ClientListQuery.parse(o);
  const list = (o) => () => listClients(db, a.id, q(o));
  const timings = [
    await time('page 1 (by number)', list({})),
    await time('page 200 of 25', list({ page: 200 })),
    await time('sort by name, page 1', list({ sort: 'name' })),
    await time('sort by subscription end desc', list({ sort: 'subscriptionEnd', order: 'desc' })),
    await time('group filter, sort by name', list({ groupId: ga[1], sort: 'name' })),
    await time('subscription valid', list({ subscription: 'valid' })),
    await time('search last name', list({ search: 'פרידמן' })),
    await time('search two words', list({ search: 'שרה כהן' })),
    await time('search rare name + number', list({ search: 'goldberg 55' })),
    await time(
      'search phone 050-...',
      list({ search: `05${4444 % 9}-${String((4444 * 7919) % 10000000).padStart(7, '0')}` }),
    ),
    await time('search personal ID', list({ search: String(100000000 + 5555 * 37) })),
    await time('search card serial', list({ search: 'C1077777' })),
    await time('search client number', list({ search: '77777' })),
    await time('search no match', list({ search: 'zzzzqq' })),
  ];
  return { kind, clients: n, otherClubClients: Math.round(n / 5), repeat: REPEAT, timings };
}

const results = [];
{
  const { default: pg } = await import('pg');
  const name = `venue_bench_clients_${process.pid}`;
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
      results.push(await run('PostgreSQL', d, CLIENTS));
    } finally {
      await d.close();
      const a2 = new pg.Client({ connectionString: adminUrl });
      await a2.connect();
      await a2.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a2.end();
    }
  }
}
if (process.env.BENCH_CLIENTS_PGLITE !== '0') {
  const d = await openDatabase({ dataDir: 'memory://' });
  try {
    results.push(await run('PGlite', d, CLIENTS));
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
writeFileSync(path.join(root, 'bench/results/clients.json'), `${JSON.stringify(out, null, 2)}\n`);
for (const r of results) {
  const pick = (l) => r.timings.find((t) => t.label === l)?.ms;
  const searches = r.timings.filter((t) => t.label.startsWith('search')).map((t) => t.ms);
  addResultRow(
    path.join(root, 'bench/RESULTS.md'),
    'Clients list (ms, median per call: page + total; GET /api/Client service)',
    [
      'date',
      'machine',
      'database',
      'clients',
      'page 1',
      'page 200',
      'by name',
      'group + name',
      'search name',
      'search 2 words',
      'search phone',
      'slowest search',
    ],
    [
      out.date.slice(0, 16).replace('T', ' '),
      `${out.machine.nproc} cores, node ${out.machine.node}, load ${out.machine.loadAvg1m}`,
      r.kind,
      r.clients,
      pick('page 1 (by number)'),
      pick('page 200 of 25'),
      pick('sort by name, page 1'),
      pick('group filter, sort by name'),
      pick('search last name'),
      pick('search two words'),
      pick('search phone 050-...'),
      Math.max(...searches),
    ],
  );
}
console.log('wrote bench/results/clients.json and bench/RESULTS.md');
