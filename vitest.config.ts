import { defineConfig } from 'vitest/config';
import { SlowFirstSequencer } from './scripts/test-sequencer.ts';

/**
 * Two projects, one invocation (`npx vitest run`; scripts/test.sh runs the
 * server project again with TEST_DB=postgres):
 * - `unit`: the domain, the simulator and the console's pure code;
 * - `server`: the server's unit and API tests, on a database migrated once
 *   per run (apps/server/test/global-setup.ts).
 * Both run files one after another in a worker without a new module graph
 * per file (`isolate: false`): the app and its dependencies are imported
 * once per worker instead of once per file (the fixed cost was 73–82 % of
 * an API file's time). Server state is kept per database handle or per
 * event bus (WeakMaps), never per process, so files do not see each other.
 */
export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
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
      {
        extends: true,
        test: {
          name: 'server',
          include: ['apps/server/src/**/*.test.ts'],
          isolate: false,
          globalSetup: ['apps/server/test/global-setup.ts'],
        },
      },
    ],
  },
});
