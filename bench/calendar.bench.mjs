#!/usr/bin/env node
// The calendar (issue 14): (1) a year of events with every option for one club
// (GET /api/Calendar/Events' computation: readCalendarOptions + calendarEvents,
// Hebrew year, candle lighting, parsha, Omer, molad, Mevarchim, Yom Kippur
// Katan, all four daily learning schedules, Hebrew dates, Hebrew rendering) at
// Antwerp; (2) the gate's location-dependent decision step (resolveScheduleRow
// with rows opening at nightfall and closing at sunset + 60, as
// modules/gate/entrance.service.ts calls it) over the same 20 000 instants of 2026 for
// a Jerusalem and an Antwerp club in the same run, and their ratio. Pure
// computation (no database): the location reaches the decision in its one read
// statement either way (docs/calendar.md "Cost").
// Run with tsx: `node --import tsx bench/calendar.bench.mjs`.
// Writes bench/results/calendar.json and a row in bench/RESULTS.md.
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { addResultRow } from './lib/results-md.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const d = await import(path.join(root, 'packages/domain/src/index.ts'));
const ANTWERP = d.cityLocation(d.builtInCity('Antwerp'));
const YEARS = Number(process.env.BENCH_CALENDAR_RUNS ?? 10);
const INSTANTS = Number(process.env.BENCH_CALENDAR_INSTANTS ?? 20_000);

const everyOption = {
  year: '5786',
  isHebrewYear: true,
  candlelighting: true,
  sedrot: true,
  omer: true,
  molad: true,
  shabbatMevarchim: true,
  yomKippurKatan: true,
  dafYomi: true,
  mishnaYomi: true,
  nachYomi: true,
  yerushalmi: '2',
  addHebrewDates: true,
  addHebrewDatesForEvents: true,
  hour12: false,
  useElevation: true,
  havdalahMins: '50',
  fastEndDeg: '7.083',
  locale: 'he',
};
const today = { year: 2026, month: 1, day: 1 };

function yearOfEvents() {
  return d.calendarEvents(d.readCalendarOptions(everyOption, ANTWERP, today)).events.length;
}
yearOfEvents(); // warm-up (hebcal's caches, the learning schedules' tables)
const yearMs = [];
let events = 0;
for (let i = 0; i < YEARS; i++) {
  const t = performance.now();
  events = yearOfEvents();
  yearMs.push(performance.now() - t);
}
yearMs.sort((a, b) => a - b);
const median = (xs) => xs[Math.floor(xs.length / 2)];

const rows = [
  {
    id: 1,
    sortOrder: 0,
    days: [0, 1, 2, 3, 4, 6],
    fromTime: null,
    toTime: null,
    fromHalachic: d.HalachicTime.Nightfall,
    fromOffset: 0,
    toHalachic: d.HalachicTime.Sunset,
    toOffset: 300,
    fromDate: null,
    toDate: null,
    terminalId: null,
    entranceState: 2,
  },
  {
    id: 2,
    sortOrder: 1,
    days: [5, 7],
    fromTime: null,
    toTime: null,
    fromHalachic: d.HalachicTime.CandleLighting,
    fromOffset: -120,
    toHalachic: d.HalachicTime.CandleLighting,
    toOffset: 0,
    fromDate: null,
    toDate: null,
    terminalId: null,
    entranceState: 2,
  },
];
const start = Date.UTC(2026, 0, 1);
const instants = Array.from(
  { length: INSTANTS },
  (_, i) => new Date(start + Math.floor((i * 365 * 86_400_000) / INSTANTS)),
);
function decide(loc) {
  let open = 0;
  for (const at of instants) {
    const p = d.localParts(at, loc.timeZone);
    const row = d.resolveScheduleRow(
      rows,
      1,
      { date: { year: p.year, month: p.month, day: p.day }, minutes: p.hour * 60 + p.minute },
      loc,
    );
    if (row) open++;
  }
  return open;
}
const gate = {};
for (const [, loc] of [
  ['Jerusalem', d.JERUSALEM],
  ['Antwerp', ANTWERP],
])
  decide(loc); // warm-up
for (const pass of [0, 1]) {
  for (const [name, loc] of pass
    ? [
        ['Antwerp', ANTWERP],
        ['Jerusalem', d.JERUSALEM],
      ]
    : [
        ['Jerusalem', d.JERUSALEM],
        ['Antwerp', ANTWERP],
      ]) {
    const t = performance.now();
    decide(loc);
    const us = ((performance.now() - t) * 1000) / INSTANTS;
    gate[name] = Math.min(gate[name] ?? Infinity, us);
  }
}
const ratio = +(gate.Antwerp / gate.Jerusalem).toFixed(2);

const out = {
  date: new Date().toISOString(),
  machine: { nproc: os.cpus().length, node: process.versions.node, loadAvg1m: +os.loadavg()[0].toFixed(1) },
  yearOfEvents: { runs: YEARS, events, medianMs: +median(yearMs).toFixed(1), minMs: +yearMs[0].toFixed(1) },
  gateStep: { instants: INSTANTS, jerusalemUs: +gate.Jerusalem.toFixed(2), antwerpUs: +gate.Antwerp.toFixed(2), ratio },
};
console.log(JSON.stringify(out, null, 2));
mkdirSync(path.join(root, 'bench/results'), { recursive: true });
writeFileSync(path.join(root, 'bench/results/calendar.json'), `${JSON.stringify(out, null, 2)}\n`);
addResultRow(
  path.join(root, 'bench/RESULTS.md'),
  'Calendar: a year of events with every option, and the gate step by location (node --import tsx bench/calendar.bench.mjs)',
  [
    'date',
    'machine',
    'events in Hebrew year 5786 (Antwerp)',
    'median ms',
    'min ms',
    'gate step µs Jerusalem',
    'gate step µs Antwerp',
    'Antwerp / Jerusalem',
  ],
  [
    out.date.slice(0, 16).replace('T', ' '),
    `${out.machine.nproc} cores, node ${out.machine.node}, load ${out.machine.loadAvg1m}`,
    events,
    out.yearOfEvents.medianMs,
    out.yearOfEvents.minMs,
    out.gateStep.jerusalemUs,
    out.gateStep.antwerpUs,
    ratio,
  ],
);
console.log('wrote bench/results/calendar.json and bench/RESULTS.md');
