#!/usr/bin/env node
// The gate while the console reads uploaded sheets (docs/security.md "Spreadsheet input"): the
// worst files a staff member can send to the import preview — the largest file the limits let
// through (a 5 MB CSV of 20,000 rows × 24 columns, read in full), a 7 KB CSV of 5,000 columns,
// an xlsx declaring A1:T400000 and a deflate bomb — sent one after another in BENCH_UPLOADERS
// loops, while open-loop gate traffic runs at BENCH_GATE_RATE decisions/s. Alternating windows of
// BENCH_GATE_SECONDS, quiet then under the uploads, BENCH_ROUNDS times; p50/p99 of each kind of
// window (median over the rounds) and their ratios, measured together in one run.
// One server process (bench/lib/gate-server.mjs) on a fresh PostgreSQL database (BENCH_DATABASE_URL).
// Run: `node --import tsx bench/gate-under-sheet.bench.mjs` (BENCH_RECORD=0: no RESULTS.md row).
// Writes bench/results/gate-under-sheet.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { addResultRow } from './lib/results-md.mjs';
import { signIn } from './lib/http-session.mjs';
import { startGateServer } from './lib/gate-server-process.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { runTraffic } = await import(path.join(root, 'apps/terminal/src/traffic.ts'));
const { xlsxOf } = await import(path.join(root, 'apps/server/test/upload.ts'));
const TERMINALS = Number(process.env.BENCH_TERMINALS ?? 50);
const SECONDS = Number(process.env.BENCH_GATE_SECONDS ?? 8);
const RATE = Number(process.env.BENCH_GATE_RATE ?? 500);
const HISTORY = Number(process.env.BENCH_HISTORY_ROWS ?? 10_000);
const UPLOADERS = Number(process.env.BENCH_UPLOADERS ?? 2);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const startServer = (env) => startGateServer({ ...env, BENCH_TERMINALS: String(TERMINALS), BENCH_INSERT_SECONDS: '1' });

/** The worst files a staff member can send (each refused or read within the limits). */
async function worstFiles() {
  const cols = Array.from({ length: 24 }, (_, i) => `c${i}`);
  const big = Buffer.from(
    `First name,Last name,${cols.join(',')}\n${`Dana,Levi,${cols.map(() => 'xxxxxxxx').join(',')}\n`.repeat(20_000)}`,
  ).subarray(0, 5 * 1024 * 1024 - 4096);
  const commas = Buffer.from(`First name${','.repeat(5_000)}${'\n'.repeat(2_000)}`);
  const small = unzipSync(await xlsxOf(['First name', 'Last name'], [['Dana', 'Levi']]));
  const sheet = 'xl/worksheets/sheet1.xml';
  small[sheet] = strToU8(strFromU8(small[sheet]).replace(/<dimension [^>]*\/>/, '<dimension ref="A1:T400000"/>'));
  const declared = Buffer.from(zipSync(small));
  const bombFiles = unzipSync(await xlsxOf(['First name'], [['Dana']]));
  bombFiles['xl/media/pad.bin'] = new Uint8Array(150 * 1024 * 1024);
  const bomb = Buffer.from(zipSync(bombFiles, { level: 1 }));
  return [
    ['largest.csv', big],
    ['commas.csv', commas],
    ['declared.xlsx', declared],
    ['bomb.xlsx', bomb],
  ];
}

/** Sends the files to the import preview in `UPLOADERS` loops until `stop()`. */
function uploadLoad(base, headers, files) {
  let running = true;
  const done = { uploads: 0, refused: 0, errors: 0 };
  const loop = async (start) => {
    for (let i = start; running; i++) {
      const [name, buf] = files[i % files.length];
      try {
        const form = new FormData();
        form.append('file', new Blob([buf]), name);
        const h = { ...headers };
        delete h['content-type'];
        const res = await fetch(`${base}/api/Client/ImportClients?preview=true`, {
          method: 'POST',
          headers: h,
          body: form,
        });
        await res.arrayBuffer();
        if (res.status >= 500) throw new Error(`upload ${res.status}`);
        if (res.ok) done.uploads++;
        else done.refused++;
      } catch {
        done.errors++;
      }
    }
  };
  const loops = Array.from({ length: UPLOADERS }, (_, k) => loop(k));
  return {
    done,
    stop: async () => {
      running = false;
      await Promise.all(loops);
    },
  };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const { default: pg } = await import('pg');
const name = `venue_bench_gate_sheet_${process.pid}`;
const adminDb = new pg.Client({ connectionString: adminUrl });
await adminDb.connect();
await adminDb.query(`CREATE DATABASE ${name}`);
const url = new URL(adminUrl);
url.pathname = `/${name}`;
let result;
try {
  const server = startServer({ BENCH_GATE_DB: url.toString(), BENCH_HISTORY_ROWS: String(HISTORY) });
  const ready = await server.next();
  const base = `http://127.0.0.1:${ready.port}`;
  console.log(`server on port ${ready.port}, ${HISTORY} entrances of history`);
  const headers = await signIn(base, ready.admin);
  const files = await worstFiles();
  const traffic = () =>
    runTraffic({
      url: `ws://127.0.0.1:${ready.port}`,
      terminals: ready.terminals,
      identifications: ready.cards.map((value) => ({ kind: 'card', value })),
      rate: RATE / TERMINALS,
      warmupSeconds: 1,
      durationSeconds: SECONDS,
    });
  const quiet = [];
  const loaded = [];
  const load = { uploads: 0, refused: 0, errors: 0 };
  for (let round = 0; round < ROUNDS; round++) {
    const q = await traffic();
    quiet.push(q);
    const l = uploadLoad(base, headers, files);
    await new Promise((r) => setTimeout(r, 1000)); // the uploads under way
    const u = await traffic();
    await l.stop();
    loaded.push(u);
    for (const k of Object.keys(load)) load[k] += l.done[k];
    console.log(
      `round ${round + 1}: quiet p50/p99 ${q.latencyMs.p50}/${q.latencyMs.p99} ms, under uploads ${u.latencyMs.p50}/${u.latencyMs.p99} ms (${l.done.uploads} read, ${l.done.refused} refused, ${l.done.errors} errors)`,
    );
  }
  server.send('stop');
  await new Promise((r) => server.child.once('exit', r));
  const p = (runs, k) => median(runs.map((r) => r.latencyMs[k]));
  const ratio = (a, b) => Math.round((a / Math.max(0.1, b)) * 100) / 100;
  result = {
    terminals: TERMINALS,
    offeredPerSecond: RATE,
    secondsPerWindow: SECONDS,
    rounds: ROUNDS,
    historyRows: HISTORY,
    uploaders: UPLOADERS,
    quiet: {
      p50: p(quiet, 'p50'),
      p99: p(quiet, 'p99'),
      decisionsPerSecond: median(quiet.map((r) => r.decisionsPerSecond)),
    },
    underLoad: {
      p50: p(loaded, 'p50'),
      p99: p(loaded, 'p99'),
      decisionsPerSecond: median(loaded.map((r) => r.decisionsPerSecond)),
      errors: loaded.reduce((s, r) => s + r.errors, 0),
      offline: loaded.reduce((s, r) => s + r.offline, 0),
    },
    load,
  };
  result.p50Ratio = ratio(result.underLoad.p50, result.quiet.p50);
  result.p99Ratio = ratio(result.underLoad.p99, result.quiet.p99);
  console.log(JSON.stringify(result));
} finally {
  await adminDb.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await adminDb.end();
}

const machine = `${os.cpus().length} cores, node ${process.version}, load ${os.loadavg()[0].toFixed(1)}`;
const date = new Date().toISOString().slice(0, 16).replace('T', ' ');
const command = 'node --import tsx bench/gate-under-sheet.bench.mjs';
mkdirSync(path.join(root, 'bench/results'), { recursive: true });
const trial = process.env.BENCH_RECORD === '0';
writeFileSync(
  path.join(root, `bench/results/${trial ? 'gate-under-sheet-trial' : 'gate-under-sheet'}.json`),
  `${JSON.stringify({ date, machine, command, result }, null, 2)}\n`,
);
if (!trial) {
  addResultRow(
    path.join(root, 'bench/RESULTS.md'),
    `Gate latency while the worst sheets are read (${command})`,
    [
      'date',
      'machine',
      'offered/s',
      'upload loops',
      'quiet p50/p99 ms',
      'under uploads p50/p99 ms',
      'p50 ratio',
      'p99 ratio',
      'sheets read / refused / errors',
      'gate errors/offline',
    ],
    [
      date,
      machine,
      RATE,
      UPLOADERS,
      `${result.quiet.p50}/${result.quiet.p99}`,
      `${result.underLoad.p50}/${result.underLoad.p99}`,
      result.p50Ratio,
      result.p99Ratio,
      `${result.load.uploads} / ${result.load.refused} / ${result.load.errors}`,
      `${result.underLoad.errors}/${result.underLoad.offline}`,
    ],
  );
}
