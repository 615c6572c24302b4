import { defineConfig } from 'vitest/config';
import { SlowFirstSequencer } from './scripts/test-sequencer.ts';

/**
 * Projects of one invocation:
 * - `unit`: the domain, the simulator and the console's pure code;
 * - `server`: the server's unit and API tests, on a database migrated once
 *   per run (apps/server/test/global-setup.ts): PGlite, or PostgreSQL with
 *   `TEST_DB=postgres` (`TEST_DATABASE_URL`);
 * - `server-pg`, only with `TEST_DB=all` (scripts/test.sh): the same server
 *   files on PostgreSQL, in the same run as the PGlite ones, so that one
 *   pool of workers keeps both cores busy to the end (no phase waits on its
 *   own longest file while a core stays idle).
 * All run files one after another in a worker without a new module graph
 * per file (`isolate: false`): the app and its dependencies are imported
 * once per worker instead of once per file (the fixed cost was 73–82 % of
 * an API file's time). Server state is kept per database handle or per
 * event bus (WeakMaps), never per process, so files do not see each other.
 */
const both = process.env.TEST_DB === 'all';
const server = (name: string, db: 'pglite' | 'postgres' | undefined) => ({
  extends: true as const,
  test: {
    name,
    include: ['apps/server/src/**/*.test.ts'],
    isolate: false,
    globalSetup: ['apps/server/test/global-setup.ts'],
    // Read by test/harness.ts and test/global-setup.ts; unset, the caller's TEST_DB decides.
    ...(db ? { env: { TEST_DB: db } } : {}),
  },
});

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // VITEST_WORKERS, default three on this 2-core machine: with two the cores stayed half idle
    // (files wait on PostgreSQL and timers); three took the CI's run from 1,048 to 666 s with the cores
    // 88 % busy and nothing failed (docs/testing.md "Workers"). The sheet threads' limit counts their
    // own CPU time, not the time they wait for a core at nice 19 (lib/sheet-isolated.ts), so a busy
    // machine does not make them fail.
    maxWorkers: Number(process.env.VITEST_WORKERS ?? 3),
    sequence: { sequencer: SlowFirstSequencer },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: [
            'packages/*/src/**/*.test.ts',
            'apps/terminal/src/**/*.test.ts',
            'apps/web/src/**/*.test.ts',
            'scripts/**/*.test.ts',
          ],
          isolate: false,
        },
      },
      both ? server('server', 'pglite') : server('server', undefined),
      ...(both ? [server('server-pg', 'postgres')] : []),
    ],
  },
});
