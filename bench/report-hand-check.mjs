#!/usr/bin/env node
// Checks that the hand-tuned SQL of bench/lib/report-hand-sql.mjs computes
// what the report framework computes: for every report in HAND_MORE, the row
// count, every total and breakdown, and the first page (50 rows, default sort:
// the order of the rows and their figures), for this month and this year.
// PostgreSQL only: a fresh database (dropped after) with two clubs of varied
// generated data in every table the reports read (lines of several types and
// products per purchase, refunds, deleted products, terminals with the same
// name, open and paid debts, collected and uncollected excess, every safer
// payment state...); BENCH_CHECK_DB=<name> checks the big club (external id
// 92001) of a kept bench/report-framework.bench.mjs database instead.
// Run: `node --import tsx bench/report-hand-check.mjs`; exits 1 on a difference.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { openDatabase } = await import(path.join(root, 'apps/server/src/db/index.ts'));
const { runReport } = await import(path.join(root, 'apps/server/src/modules/reports/framework.ts'));
const defs = await import(path.join(root, 'apps/server/src/modules/reports/definitions.ts'));
const { resolveReportRange } = await import(path.join(root, 'apps/server/src/modules/reports/report-range.ts'));
const { ReportQuery } = await import(path.join(root, 'packages/domain/src/reports.ts'));
const { sql } = await import('drizzle-orm');
const { HAND_MORE } = await import('./lib/report-hand-sql.mjs');
const { default: pg } = await import('pg');

const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const kept = process.env.BENCH_CHECK_DB;
const name = kept ?? `venue_bench_handcheck_${process.pid}`;
if (!kept) {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
}
const url = new URL(adminUrl);
url.pathname = `/${name}`;
const database = await openDatabase({ databaseUrl: url.toString() });
const { db } = database;
const q1 = async (s) => (await db.execute(s)).rows;

/** A club with some of everything, over the last 400 days (the lines and payments of a purchase vary with its id). */
async function fill(ext) {
  const [{ id: c }] = await q1(sql`insert into clubs (external_club_id, name) values (${ext}, 'check') returning id`);
  await db.execute(sql`insert into users (club_id, username, password_hash, name)
      select ${c}::int, 'u' || ${c}::int || '_' || n, 'x', case when n = 3 then '' else 'user ' || n end from generate_series(1, 3) n`);
  const users = (await q1(sql`select id from users where club_id = ${c} order by id`)).map((r) => r.id);
  await db.execute(sql`insert into terminals (club_id, serial, name, secret_hash, deleted)
      select ${c}::int, 's' || ${c}::int || '_' || n, case when n = 3 then 'T1' else 'T' || n end, 'x', n = 4
      from generate_series(1, 4) n`);
  const terms = (await q1(sql`select id from terminals where club_id = ${c} order by id`)).map((r) => r.id);
  await db.execute(sql`insert into clients (club_id, number, first_name, last_name)
      select ${c}::int, n, 'first' || n, case when n % 7 = 0 then '' else 'last' || (n % 9) end from generate_series(1, 60) n`);
  const cl = (await q1(sql`select min(id) a, max(id) b from clients where club_id = ${c}`))[0];
  await db.execute(sql`insert into products (club_id, name, price, active, deleted)
      select ${c}::int, 'product ' || (n % 4), 100 * n, n % 3 <> 0, n in (5, 6) from generate_series(1, 6) n`);
  const prods = (await q1(sql`select id from products where club_id = ${c} order by id`)).map((r) => r.id);
  const t = sql`(array[null, ${terms[0]}::int, ${terms[1]}::int, ${terms[2]}::int])[1 + i % 4]`;
  const u = sql`(array[null, ${users[0]}::int, ${users[1]}::int, ${users[2]}::int])[1 + i % 4]`;
  const client = sql`case when i % 11 = 0 then null else ${cl.a}::int + i % 60 end`;
  const at = (n) => sql`now() - ((i * 7919) % (${n}::int * 400))::float8 / ${n}::float8 * interval '1 day'`;
  await db.execute(sql`insert into purchases (club_id, client_id, at, invoice_number, total, amount_before_vat, vat, vat_rate_bp,
        payment_status, paid_cash, source, idempotency_key, terminal_id, user_id)
      select ${c}::int, ${client}, ${at(3000)}, i, 1180, 1000, 180, 1800, case when i % 13 = 0 then 3 else 1 end, 1180,
             'console', 'k' || i, ${t}, ${u}
      from generate_series(1, 3000) i`);
  // Lines: a product (an existing one, a gone id or none), a second product on every third purchase, a license on every fifth.
  const prod = sql`(array[${prods[0]}::int, ${prods[1]}::int, ${prods[2]}::int, ${prods[3]}::int, ${prods[4]}::int, ${prods[5]}::int, 999999, null])[1 + p.id % 8]`;
  await db.execute(sql`insert into purchase_items (club_id, purchase_id, item_type, item_id, name, quantity, unit_price, price_with_vat, amount_before_vat, expiry)
      select p.club_id, p.id, 10, ${prod}, case when p.id % 5 = 0 then '' else 'line ' || (p.id % 3) end, 1 + p.id % 3, 500,
             500 * (1 + p.id % 3), 424 * (1 + p.id % 3), null::date from purchases p where p.club_id = ${c}
      union all
      select p.club_id, p.id, 10, ${prods[2]}::int, 'second', 2, 300, 600, 508, null from purchases p where p.club_id = ${c} and p.id % 3 = 0
      union all
      select p.club_id, p.id, 6, null, 'license', 1 + p.id % 2, 2000, 2000 * (1 + p.id % 2), 1695 * (1 + p.id % 2),
             (p.at + interval '1 year')::date from purchases p where p.club_id = ${c} and p.id % 5 = 0
      union all
      select p.club_id, p.id, 1, null, 'entry', 1, 180, 180, 153, null from purchases p where p.club_id = ${c} and p.id % 2 = 0`);
  await db.execute(sql`insert into cash_sessions (club_id, terminal_id, session_id, client_id, state, amount_due, inserted, credited,
        change_due, unpaid, excess, error, started_at, updated_at)
      select ${c}::int, (array[${terms[0]}::int, ${terms[1]}::int, ${terms[2]}::int])[1 + i % 3], 'cs' || i, ${client}, 'done',
             1000, 1000 + i % 7 * 100, 1000, i % 7 * 100, case when i % 9 = 0 then 100 else 0 end,
             case when i % 4 = 0 then 50 * (i % 5) else 0 end, case when i % 9 = 0 then 'no change' end, ${at(600)},
             ${at(600)} + interval '1 minute'
      from generate_series(1, 600) i`);
  await db.execute(sql`insert into cash_resets (club_id, terminal_id, user_id, cash_box, cash_box_total, excess_amount, excess_count, at)
      select ${c}::int, (array[${terms[0]}::int, ${terms[1]}::int, ${terms[2]}::int])[1 + i % 3], ${u}, '{}', 1000 * i, 10 * i, i % 3,
             ${at(60)}
      from generate_series(1, 60) i`);
  await db.execute(sql`insert into terminal_cash (terminal_id, club_id, coins, bills, cash_box, excess_amount, excess_count, last_reset_at)
      values (${terms[0]}, ${c}, '{"100": 3, "500": 2}', '{"2000": 4}', '{"5000": 1, "1000": 2}', 300, 2, now()),
             (${terms[1]}, ${c}, '{"10": 7}', '{}', '{}', 0, 0, null)`);
  await db.execute(sql`insert into debts (club_id, client_id, amount, paid, description, deleted, user_id, created_at)
      select ${c}::int, ${cl.a}::int + i % 60, 1000, case when i % 3 = 0 then 1000 when i % 3 = 1 then 400 else 1200 end,
             case when i % 2 = 0 then 'debt ' || i else '' end, i % 10 = 0, ${u}, ${at(300)}
      from generate_series(1, 300) i`);
  await db.execute(sql`insert into auto_renew_logs (club_id, client_id, success, error, amount, at)
      select ${c}::int, ${cl.a}::int + i % 60, i % 4 <> 0, case when i % 4 = 0 then 'declined' end, 100 * i, ${at(300)}
      from generate_series(1, 300) i`);
  await db.execute(sql`insert into quick_exits (club_id, client_id, entrance_id, terminal_id, type, entrance_at, exit_at, duration_minutes, reward_amount)
      select ${c}::int, ${cl.a}::int + i % 60, ${c}::int * 100000 + i, ${terms[0]}::int, 1 + i % 3, ${at(300)} - interval '10 minutes', ${at(300)},
             i % 17, case when i % 3 = 0 then 200 else 0 end
      from generate_series(1, 300) i`);
  await db.execute(sql`insert into audit_log (club_id, user_id, action, entity, entity_id, ip, at)
      select ${c}::int, ${u}, 'update', (array['client', 'product', 'purchase'])[1 + i % 3], i::text, '10.0.0.1', ${at(400)}
      from generate_series(1, 400) i`);
  await db.execute(sql`insert into charges (club_id, client_id, idempotency_key, provider, amount, status, brand, last_four,
        created_at, reconciled_at, reconcile_result)
      select ${c}::int, ${client}, 'ch' || i, 'test', 100 * i, (array['uncertain', 'pending', 'paid', 'failed'])[1 + i % 4],
             case when i % 2 = 0 then 'visa' else '' end, '1234', ${at(300)},
             case when i % 3 = 0 then now() end,
             case when i % 3 = 0 then (array['charged-refunded', 'charged-refund-failed', 'not-charged'])[1 + i % 9 / 3] end
      from generate_series(1, 300) i`);
  await db.execute(sql`insert into license_orders (club_id, code, quantity, amount, status, created_at)
      select ${c}::int, 'o' || ${c}::int || '_' || i, i % 4, 5000 * (i % 4), case when i % 3 = 0 then 'pending' else 'paid' end, ${at(60)}
      from generate_series(1, 60) i`);
  await db.execute(sql`insert into license_requests (club_id, quantity, price, amount, transfer_date, reference, bank_code, bank_enc,
        file_name, file_type, file, status, user_id, created_at)
      select ${c}::int, 1 + i % 5, 5000, 5000 * (1 + i % 5), current_date, 'ref' || i, case when i % 2 = 0 then '12' else '' end,
             'x', 'f', 'application/pdf', '\\x00', 1 + i % 5, ${u}, ${at(60)}
      from generate_series(1, 60) i`);
  return c;
}
const norm = (v) => {
  if (v == null) return null;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number' || (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v))) return Number(v);
  if (typeof v === 'string' && /^\d{4}-\d\d-\d\dT/.test(v)) return new Date(v).toISOString();
  if (v instanceof Date) return v.toISOString();
  if (typeof v === 'object')
    return Object.fromEntries(
      Object.entries(v)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([k, x]) => [k, norm(x)]),
    );
  return String(v);
};
// Columns the framework turns into text in the caller's language (compared on the figures only).
const POSTED = new Set(['items', 'bank', 'terminalName']);

let failures = 0;
let checks = 0;
try {
  const clubs = kept
    ? [(await q1(sql`select id from clubs where external_club_id = 92001`))[0].id]
    : [await fill(95001), await fill(95002)];
  if (!kept) await db.execute(sql`vacuum analyze`);
  for (const clubId of clubs) {
    for (const period of ['month', 'year']) {
      for (const def of defs.REPORT_DEFINITIONS) {
        const hand = HAND_MORE[def.meta.id];
        if (!hand) continue;
        const q = ReportQuery.parse({ period });
        const r = await resolveReportRange(db, clubId, q);
        const fw = await runReport(db, def, clubId, q);
        const stmts = hand(clubId, r, q);
        let h;
        for (const s of stmts) h = (await q1(s))[0];
        const diffs = [];
        const ht = norm(h.totals ?? {});
        if (Number(ht.__total) !== fw.total) diffs.push(`row count ${fw.total} vs ${ht.__total}`);
        for (const [k, v] of Object.entries(fw.totals)) {
          if (JSON.stringify(norm(v)) !== JSON.stringify(ht[k]))
            diffs.push(`total ${k}: ${JSON.stringify(v)} vs ${JSON.stringify(ht[k])}`);
        }
        const page = h.page ?? [];
        if (page.length !== fw.items.length) diffs.push(`page ${fw.items.length} rows vs ${page.length}`);
        fw.items.forEach((row, n) => {
          for (const [k, v] of Object.entries(row)) {
            if (POSTED.has(k) && !(k === 'terminalName' && v != null && page[n]?.[k] != null)) continue;
            const a = JSON.stringify(norm(v));
            const b = JSON.stringify(norm(page[n]?.[k]));
            if (a !== b) diffs.push(`row ${n} ${k}: ${a} vs ${b}`);
          }
        });
        checks++;
        const label = `${def.meta.id} ${period} club ${clubId}: ${fw.total} rows`;
        if (diffs.length) {
          failures++;
          console.log(`DIFF ${label}\n  ${diffs.slice(0, 8).join('\n  ')}`);
        } else console.log(`same ${label}`);
      }
    }
  }
} finally {
  await database.close();
  if (!kept) {
    const a2 = new pg.Client({ connectionString: adminUrl });
    await a2.connect();
    await a2.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await a2.end();
  }
}
console.log(`${checks - failures} of ${checks} same`);
process.exit(failures ? 1 : 0);
