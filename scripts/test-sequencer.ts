import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The longest test files start first, so that the two workers finish
 * together instead of one waiting for a long file picked up last. vitest
 * orders by the durations it cached on an earlier run; a fresh clone (CI)
 * has none and would order by file size, which puts the small route-fuzz
 * shards (minutes each) at the end. Measured on this 2-core machine
 * (PGlite, 2026-11-28), slowest first.
 */
const SLOW_FIRST = [
  // 730 simulated days on PostgreSQL (2 minutes), 92 on PGlite (docs/money.md "The money life test").
  /money-life\.test\.ts$/,
  /route-fuzz-\d\.test\.ts$/,
  /gate-cli\.test\.ts$/,
  /account\/account\.test\.ts$/,
  /terminal-cli\.test\.ts$/,
  /kiosk-cli\.test\.ts$/,
  /route-table\.test\.ts$/,
  /demo\/demo\.test\.ts$/,
  /demo\/demo-money\.test\.ts$/,
];

/**
 * Projects one after another (a worker keeps its imports only while the next
 * file is of its own project: a switch costs a new worker). PostgreSQL's
 * files first: its money life test (the whole 730-day life) is the longest
 * file of the run; the short unit files last, to end the run evenly.
 */
const PROJECT_ORDER = ['server-pg', 'server', 'unit'];

function projectRank(spec: TestSpecification): number {
  const i = PROJECT_ORDER.indexOf(spec.project.name);
  return i === -1 ? PROJECT_ORDER.length : i;
}

function rank(spec: TestSpecification): number {
  const i = SLOW_FIRST.findIndex((re) => re.test(spec.moduleId));
  return i === -1 ? SLOW_FIRST.length : i;
}

export class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    // Stable: project by project, within one the known slow files first, the rest in vitest's own order.
    const order = new Map(sorted.map((s, i) => [s, i]));
    return [...sorted].sort(
      (a, b) => projectRank(a) - projectRank(b) || rank(a) - rank(b) || order.get(a)! - order.get(b)!,
    );
  }
}
