// Sums the JSON reports of one `npm test` (scripts/test.sh): vitest's (unit
// and API on PGlite, API on PostgreSQL) and Playwright's (browser journeys).
// Prints one line per run, the wall time of each phase, and the closing line
// "N passed, N failed, N skipped" that CI reads; exits 1 when a report counts
// a failure or no passed test, or when no report passed at all, so a run that
// ran nothing cannot pass unnoticed. A phase that wrote no report (it crashed)
// already fails scripts/test.sh by its own exit code.
//   node scripts/test-summary.mjs <dir>   (dir holds *.vitest.json, *.playwright.json, phases.tsv)
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const dir = process.argv[2];
const totals = { passed: 0, failed: 0, skipped: 0 };
let ok = true;

/** Counts of a vitest JSON report (Jest-compatible shape). */
function vitestCounts(r) {
  return {
    passed: r.numPassedTests,
    failed: r.numFailedTests,
    skipped: r.numPendingTests + (r.numTodoTests ?? 0),
  };
}

/** Counts of a Playwright JSON report. */
function playwrightCounts(r) {
  const s = r.stats;
  return { passed: s.expected + s.flaky, failed: s.unexpected, skipped: s.skipped };
}

console.log('\n== summary');
for (const file of readdirSync(dir).sort()) {
  const kind = file.endsWith('.vitest.json')
    ? vitestCounts
    : file.endsWith('.playwright.json')
      ? playwrightCounts
      : null;
  if (!kind) continue;
  const counts = kind(JSON.parse(readFileSync(path.join(dir, file), 'utf8')));
  console.log(
    `${file.replace(/\.json$/, '').padEnd(28)} ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`,
  );
  for (const k of Object.keys(totals)) totals[k] += counts[k];
  if (counts.failed > 0 || counts.passed === 0) ok = false;
}
const phases = path.join(dir, 'phases.tsv');
if (existsSync(phases)) {
  for (const line of readFileSync(phases, 'utf8').trim().split('\n')) {
    const [name, seconds] = line.split('\t');
    console.log(`${name.padEnd(28)} ${seconds} s`);
  }
}
if (totals.passed === 0) ok = false;
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(ok ? 0 : 1);
