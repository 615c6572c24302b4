import { describe, expect, it } from 'vitest';
import { createTestApp, TEST_DB } from '../../../test/harness.js';
import { runMoneyLife, type LifeSettings } from '../../../test/money-life/run.js';

/**
 * The money life test (docs/money.md "The money life test: invariants"): one
 * club run for 24 simulated months through the HTTP API and the daily jobs,
 * checked after every day against an independent ledger written in the test
 * (apps/server/test/money-life/). On PGlite by default, on PostgreSQL with
 * TEST_DB=postgres.
 *
 * - CI: one fixed seed (`MONEY_LIFE_FIXED_SEED`), no shrinking: the whole
 *   life (730 days) on PostgreSQL, its first 92 days on PGlite (the same
 *   checks after every day; docs/money.md "The money life test: invariants"
 *   says why one database lives the whole life).
 * - `npm run test:money-life`: `MONEY_LIFE_SEEDS` random seeds (20), each
 *   printed before it runs; a failure prints the seed, the path and the
 *   shrunk plan (`MONEY_LIFE_SHRINK=0` turns shrinking off; it stops after
 *   `MONEY_LIFE_SHRINK_MINUTES`, 30, per seed with the smallest plan so far).
 * - Replay: `MONEY_LIFE_SEED=<seed> [MONEY_LIFE_PATH=<path>] npm run test:money-life`.
 * - `MONEY_LIFE_DAYS` sets the life's length (a shorter one while debugging;
 *   `MONEY_LIFE_DAYS=730` lives the whole life on PGlite too).
 */
export const MONEY_LIFE_FIXED_SEED = 20_261_128;

const env = process.env;
const long = env.MONEY_LIFE_SEEDS != null || env.MONEY_LIFE_SEED != null;
/** The whole life: 1 November 2024 – 31 October 2026. */
export const MONEY_LIFE_FULL_DAYS = 730;
/** PGlite's life in CI: November–January (a year end, the VAT change, six MASAV files and their returns). */
export const MONEY_LIFE_PGLITE_DAYS = 92;
const days = Number(
  env.MONEY_LIFE_DAYS ?? (TEST_DB === 'postgres' || long ? MONEY_LIFE_FULL_DAYS : MONEY_LIFE_PGLITE_DAYS),
);
const seeds: number[] = env.MONEY_LIFE_SEED
  ? [Number(env.MONEY_LIFE_SEED)]
  : env.MONEY_LIFE_SEEDS
    ? Array.from({ length: Number(env.MONEY_LIFE_SEEDS) || 20 }, () => (Math.random() * 2 ** 31) | 0)
    : [MONEY_LIFE_FIXED_SEED];

describe(`money over the life of a club: ${days} days (${TEST_DB})`, () => {
  for (const seed of seeds) {
    it(
      `seed ${seed}`,
      async () => {
        const settings: LifeSettings = {
          seed,
          days,
          path: env.MONEY_LIFE_PATH,
          shrink: long && env.MONEY_LIFE_SHRINK !== '0',
          shrinkMinutes: Number(env.MONEY_LIFE_SHRINK_MINUTES ?? 30),
          log: (line) => console.log(line),
        };
        console.log(
          `money life: seed ${seed}, ${days} days on ${TEST_DB} (replay: MONEY_LIFE_SEED=${seed} npm run test:money-life)`,
        );
        const out = await runMoneyLife(createTestApp, settings);
        console.log(`money life: seed ${seed} passed: ${JSON.stringify(out)}`);
        expect(out.days).toBe(days);
      },
      long ? 6 * 3_600_000 : 20 * 60_000,
    );
  }
});
