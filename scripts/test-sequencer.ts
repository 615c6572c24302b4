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
  // 730 simulated days: 4–6 minutes on PGlite, 2 on PostgreSQL (docs/money.md "The money life test").
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

function rank(spec: TestSpecification): number {
  const i = SLOW_FIRST.findIndex((re) => re.test(spec.moduleId));
  return i === -1 ? SLOW_FIRST.length : i;
}

export class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    // Stable: within a project, the known slow files first, the rest in vitest's own order.
    const order = new Map(sorted.map((s, i) => [s, i]));
    return [...sorted].sort((a, b) => {
      if (a.project.name !== b.project.name) return order.get(a)! - order.get(b)!;
      return rank(a) - rank(b) || order.get(a)! - order.get(b)!;
    });
  }
}
