// The child of bench/gate-promotion.bench.mjs: offers BENCH_RATE (2000) presentations/s for
// BENCH_SECONDS (10), open loop, in this one process (no sockets), after 2 s of warm-up, on a fresh
// PostgreSQL database (BENCH_DATABASE_URL's server) with 1,000 clubs of 20 clients and 5 terminals.
// BENCH_REPLAY says what each presentation runs:
// - 'gate': the product's decision, `processEntrance` (read, decide, write the log row, publish);
// - 'gate-read': only the gate's batched read (modules/gate/gate-batch.ts);
// - 'pg-pool': no product code at all: node-postgres's Pool (8 connections) runs a named
//   statement returning one row of 40 text columns and a timestamp.
// Prints `WINDOW <start ms> <end ms>` (performance.now(), the clock of --trace-gc-nvp's lines) on
// stderr and one JSON line {done, p50, p99} on stdout after the collector's own lines.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { default: pg } = await import('pg');
const RATE = Number(process.env.BENCH_RATE ?? 2000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const MODE = process.env.BENCH_REPLAY ?? 'gate';
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const CLUBS = 1000;
const CLIENTS = 20;
const PER_CLUB = 5;

const name = `venue_bench_replay_${process.pid}`;
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`CREATE DATABASE ${name}`);
const url = new URL(adminUrl);
url.pathname = `/${name}`;

let one;
// Undoes what the workload opened (its pool, or the app and its database handle).
let close = async () => {};
try {
  if (MODE === 'pg-pool') {
    const pool = new pg.Pool({ connectionString: url.toString(), max: 8 });
    pool.on('error', () => {}); // the database is dropped at the end
    const cols = Array.from({ length: 40 }, (_, k) => `($1::int + ${k})::text as c${k}`).join(', ');
    const text = `select ${cols}, now() as at`;
    one = (i) => pool.query({ name: 'replay', text, values: [i] });
    close = () => pool.end();
  } else {
    const { openDatabase } = await import(path.join(root, 'apps/server/src/db/index.ts'));
    const { buildApp } = await import(path.join(root, 'apps/server/src/app.ts'));
    const { loadConfig } = await import(path.join(root, 'apps/server/src/config.ts'));
    const { processEntrance } = await import(path.join(root, 'apps/server/src/modules/gate/entrance.service.ts'));
    const { gateStatements, readItemFor } = await import(path.join(root, 'apps/server/src/modules/gate/gate-batch.ts'));
    const { sql } = await import('drizzle-orm');
    const database = await openDatabase({ databaseUrl: url.toString(), poolSize: 10 });
    const { db } = database;
    await db.execute(sql`insert into clubs (external_club_id, name, licenses_amount)
      select 96000 + i, 'replay ' || i, 100000 from generate_series(1, ${CLUBS}) i`);
    await db.execute(sql`insert into groups (club_id, name, entrance_state) select id, 'Members', 2 from clubs`);
    await db.execute(sql`insert into schedules (club_id, group_id, sort_order, days, from_time, to_time, entrance_state)
      select club_id, id, 0, '{0,1,2,3,4,5,6}', 0, 1440, 2 from groups`);
    await db.execute(sql`insert into clients (club_id, number, first_name, last_name, group_id, card_serial,
        subscription_start, subscription_end, license_expiry)
      select g.club_id, i, 'Client', i::text, g.id, (500000 + i)::text, '2020-01-01', '2125-01-01', '2125-01-01'
      from groups g cross join generate_series(1, ${CLIENTS}) i`);
    await db.execute(sql`insert into terminals (club_id, serial, name, secret_hash, approved)
      select c.id, 'R' || c.id || '-' || k, 'Gate', 'x', true from clubs c cross join generate_series(1, ${PER_CLUB}) k`);
    await db.execute(sql`analyze`);
    const res = await db.execute(sql`select id, club_id from terminals order by id`);
    const terminals = res.rows ?? res;
    const app = await buildApp({ config: { ...loadConfig({}), logLevel: 'silent' }, database });
    let seq = 0;
    one = (i) => {
      const t = terminals[i % terminals.length];
      // A club's terminals present different cards in a round (bench/many-terminals.bench.mjs).
      const round = Math.floor(i / terminals.length);
      const identification = { kind: 'card', value: String(500001 + ((round * PER_CLUB + (i % PER_CLUB)) % CLIENTS)) };
      const at = new Date();
      return MODE === 'gate-read'
        ? gateStatements(db).read(readItemFor(t.club_id, t.id, identification, at, null))
        : processEntrance(db, app.deps.bus, {
            clubId: t.club_id,
            terminalId: t.id,
            identification,
            at,
            eventId: `r${seq++}`,
          });
    };
    close = async () => {
      await app.close();
      await database.close();
    };
  }

  let done = 0;
  let lat = [];
  async function run(seconds) {
    const start = performance.now();
    let i = 0;
    const d0 = done;
    while (performance.now() - start < seconds * 1000) {
      const due = Math.floor(((performance.now() - start) / 1000) * RATE);
      while (i < due) {
        const t0 = performance.now();
        void one(i++).then(() => {
          done++;
          lat.push(performance.now() - t0);
        });
      }
      await new Promise((r) => setTimeout(r, 5));
    }
    while (done - d0 < i) await new Promise((r) => setTimeout(r, 5));
  }
  await run(2);
  lat = [];
  const w0 = performance.now();
  await run(SECONDS);
  console.error(`WINDOW ${Math.round(w0)} ${Math.round(performance.now())}`);
  lat.sort((a, b) => a - b);
  const at = (p) => Math.round(lat[Math.floor(p * (lat.length - 1))] * 100) / 100;
  console.log(JSON.stringify({ done: lat.length, p50: at(0.5), p99: at(0.99) }));
} finally {
  await close();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
}
process.exit(0);
