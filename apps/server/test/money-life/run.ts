import fc from 'fast-check';
import type { TestContext } from '../harness.js';
import { KNOWN, type KnownFinding } from './known.js';
import { planArb, describeAction, type Plan } from './plan.js';
import { MoneyLife, Violation } from './sim.js';
import { addDays } from './calendar.js';

/**
 * Runs the money life test for one seed (docs/money.md "The money life test:
 * invariants"): fast-check draws the plan from the seed, the simulator runs
 * it on a fresh app and database, and a broken invariant fails the property.
 * With `shrink` fast-check then replays smaller plans (each a new life up to
 * its failing day) and the report gives the seed, the path and the shrunk
 * plan's actions, replayable with MONEY_LIFE_SEED and MONEY_LIFE_PATH.
 */
export interface LifeSettings {
  seed: number;
  days: number;
  /** fast-check's counterexample path, to replay a shrunk plan. */
  path?: string;
  shrink: boolean;
  /** The time budget of a seed when shrinking (its first life included), minutes. */
  shrinkMinutes: number;
  /** First day; default 2024-11-01 (two year ends and the VAT change of 1 January 2025). */
  start?: string;
  log: (line: string) => void;
}

export interface LifeResult {
  days: number;
  seconds: number;
  summary: ReturnType<MoneyLife['summary']>;
  /** Known findings (KNOWN switches still true) this life met, and those it never met. */
  knownMet: Partial<Record<KnownFinding, number>>;
  knownNotMet: KnownFinding[];
}

/** The plan's actions by day, for a failure report (quiet days left out). */
export function describePlan(plan: Plan, start: string, upTo: number): string {
  const lines = [
    `settings: renewal window -${plan.daysBefore}/+${plan.daysAfter} days, rule ${JSON.stringify(plan.rule)}, bank returns ${plan.rejectPercent}%`,
    `opening: ${plan.opening.map(describeAction).join(' ')}`,
  ];
  plan.days.slice(0, upTo + 1).forEach((d, k) => {
    if (d.actions.length) lines.push(`day ${k} ${addDays(start, k)}: ${d.actions.map(describeAction).join(' ')}`);
  });
  return lines.join('\n');
}

export async function runMoneyLife(createApp: () => Promise<TestContext>, s: LifeSettings): Promise<LifeResult> {
  const start = s.start ?? '2024-11-01';
  let result: LifeResult | undefined;
  let runs = 0;
  // After the first failure, a shrunk plan that has not failed a month after that day counts as
  // passing: shrinking looks for a smaller plan failing at about the same point, without living
  // every candidate to its end.
  let failDay: number | null = null;
  const property = fc.asyncProperty(planArb(s.days), async (plan) => {
    runs++;
    const t0 = performance.now();
    const ctx = await createApp();
    const days = failDay == null ? s.days : Math.min(s.days, failDay + 31);
    const life = new MoneyLife(ctx, plan, { start, days, heavyEvery: 7 });
    try {
      await life.run(async (k) => {
        if (runs === 1 && (k + 1) % 30 === 0)
          s.log(`  day ${k + 1}/${s.days} (${addDays(start, k)}): ${((performance.now() - t0) / 1000).toFixed(0)} s`);
      });
    } catch (err) {
      if (err instanceof Violation) {
        const k = Math.round((Date.parse(err.day) - Date.parse(start)) / 86_400_000);
        failDay ??= k;
        throw new Error(
          `${err.message}\n--- the last events:\n${life.journal.slice(-40).join('\n')}\n--- the plan up to the failing day:\n${describePlan(plan, start, k)}`,
        );
      }
      throw new Error(`${String(err)}\n--- the last events:\n${life.journal.slice(-40).join('\n')}`, { cause: err });
    } finally {
      await ctx.close();
    }
    const met = life.summary().known;
    result = {
      days: s.days,
      seconds: Math.round((performance.now() - t0) / 1000),
      summary: life.summary(),
      knownMet: met,
      knownNotMet: (Object.keys(KNOWN) as KnownFinding[]).filter((k) => KNOWN[k] && !(k in met)),
    };
  });
  await fc.assert(property, {
    seed: s.seed,
    numRuns: 1,
    ...(s.path ? { path: s.path } : {}),
    endOnFailure: !s.shrink,
    // Shrinking replays lives (minutes each): within a time budget, then the smallest plan so far.
    ...(s.shrink ? { plugins: [fc.interruptAfterTimeLimit(s.shrinkMinutes * 60_000, { failOnInterrupt: true })] } : {}),
    reporter: (out) => {
      if (!out.failed) return;
      const err = out.errorInstance instanceof Error ? out.errorInstance.message : String(out.errorInstance);
      throw new Error(
        `money life failed: seed ${out.seed}${out.counterexamplePath ? `, path ${out.counterexamplePath}` : ''}, shrunk ${out.numShrinks} time(s)\n` +
          `replay: MONEY_LIFE_SEED=${out.seed}${out.counterexamplePath ? ` MONEY_LIFE_PATH=${out.counterexamplePath}` : ''} npm run test:money-life\n${err}`,
      );
    },
  });
  return result!;
}
