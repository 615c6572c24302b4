import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * One report per vitest project of a run (scripts/test.sh runs the unit tests,
 * the server on PGlite and the server on PostgreSQL in one invocation): writes
 * `<dir>/1-unit.vitest.json`, `2-server-pglite.vitest.json` and
 * `3-server-postgres.vitest.json` with the counts scripts/test-summary.mjs
 * reads (the Jest-compatible names of vitest's own JSON report) and each
 * file's time, longest first, to see where a run's time goes.
 *   --reporter=./scripts/vitest-projects-reporter.ts   (dir: VITEST_PROJECTS_REPORT_DIR)
 */
export default class ProjectsReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const dir = process.env.VITEST_PROJECTS_REPORT_DIR;
    if (!dir) return;
    mkdirSync(dir, { recursive: true });
    const byProject = new Map<string, TestModule[]>();
    for (const m of modules) byProject.set(m.project.name, [...(byProject.get(m.project.name) ?? []), m]);
    for (const [name, list] of byProject) {
      const counts = { passed: 0, failed: 0, skipped: 0 };
      const files = list.map((m) => {
        const tests = [...m.children.allTests()];
        for (const t of tests) {
          const s = t.result().state;
          if (s === 'passed') counts.passed++;
          else if (s === 'failed') counts.failed++;
          else counts.skipped++;
        }
        // A file that failed to load has no test: it counts as one failure.
        if (m.state() === 'failed' && !tests.some((t) => t.result().state === 'failed')) counts.failed++;
        const d = m.diagnostic();
        return {
          file: path.relative(process.cwd(), m.moduleId),
          tests: tests.length,
          ms: Math.round(d.duration + d.collectDuration + d.setupDuration + d.prepareDuration),
        };
      });
      files.sort((a, b) => b.ms - a.ms);
      const project = list[0].project;
      const db = project.config.env?.TEST_DB ?? process.env.TEST_DB;
      const label = name === 'unit' ? '1-unit' : db === 'postgres' ? '3-server-postgres' : '2-server-pglite';
      writeFileSync(
        path.join(dir, `${label}.vitest.json`),
        JSON.stringify(
          {
            project: name,
            numPassedTests: counts.passed,
            numFailedTests: counts.failed,
            numPendingTests: counts.skipped,
            numTodoTests: 0,
            files,
          },
          null,
          1,
        ),
      );
    }
  }
}
