import fc from 'fast-check';

/**
 * The money life test's commands: a plan of simulated days, each a list of
 * desk actions (fast-check values, so a failing plan shrinks to fewer and
 * simpler actions) and a number the bank uses to choose which MASAV debits it
 * returns. Actions name clients, debts and purchases by index (`who`,
 * `pick`), taken modulo what exists when the action runs, so every shrunk
 * plan is still a valid plan.
 */

/** How a client pays at the desk: 0 cash, 1 card typed, 2 MASAV (clients with an authorization; else cash). */
export type DeskPay = 0 | 1 | 2;
/** A client's stored method: 0 none, 1 card, 2 a card that declines, 3 MASAV authorization. */
export type StoredMethod = 0 | 1 | 2 | 3;

export type Action =
  | { t: 'newClient'; group: number; method: StoredMethod; pay: DeskPay; months: 1 | 3 }
  | { t: 'buySub'; who: number; pay: DeskPay; months: 1 | 3 }
  | { t: 'load'; who: number; shekels: number; pay: 0 | 1 | 2 }
  | { t: 'product'; who: number; product: number; qty: number; pay: 0 | 1 | 2 | 3 }
  | { t: 'free'; who: number }
  | { t: 'refund'; pick: number; partial: boolean; percent: number }
  | { t: 'debt'; who: number; agorot: number }
  | { t: 'payDebt'; pick: number; pay: 0 | 1; partial: boolean }
  | { t: 'changeMethod'; who: number; method: StoredMethod }
  | { t: 'renewalRule'; method: 1 | 2 | 3; lastDay: number | null; treatment: 'nextMonth' | 'remainderAndNext' }
  | { t: 'rerunRenewal' };

export interface DayPlan {
  actions: Action[];
  /** Chooses the debits the bank returns when a return file is read this day. */
  bank: number;
}

export interface Plan {
  /** Days before / after the end that renewal may run (club settings autoRenewDaysBefore/After). */
  daysBefore: number;
  daysAfter: number;
  rule: { method: 1 | 2 | 3; lastDay: number | null; treatment: 'nextMonth' | 'remainderAndNext' };
  /** Share of MASAV debits the bank returns, in percent. */
  rejectPercent: number;
  opening: Action[];
  days: DayPlan[];
}

const who = fc.nat({ max: 1000 });
const months = fc.constantFrom<1 | 3>(1, 1, 1, 3);
const stored = fc.constantFrom<StoredMethod>(0, 1, 1, 2, 3, 3);
const deskPay = fc.constantFrom<DeskPay>(0, 1, 2);

const newClient = fc.record({
  t: fc.constant('newClient' as const),
  group: fc.nat({ max: 3 }),
  method: stored,
  pay: deskPay,
  months,
});

const renewalRule = fc.record({
  method: fc.constantFrom<1 | 2 | 3>(1, 2, 3),
  lastDay: fc.option(fc.integer({ min: 20, max: 28 }), { freq: 3 }),
  treatment: fc.constantFrom<'nextMonth' | 'remainderAndNext'>('nextMonth', 'remainderAndNext'),
});

const action: fc.Arbitrary<Action> = fc.oneof(
  { weight: 2, arbitrary: newClient },
  { weight: 3, arbitrary: fc.record({ t: fc.constant('buySub' as const), who, pay: deskPay, months }) },
  {
    weight: 5,
    arbitrary: fc.record({
      t: fc.constant('load' as const),
      who,
      shekels: fc.integer({ min: 1, max: 40 }).map((n) => n * 10),
      pay: fc.constantFrom<0 | 1 | 2>(0, 1, 2),
    }),
  },
  {
    weight: 5,
    arbitrary: fc.record({
      t: fc.constant('product' as const),
      who,
      product: fc.nat({ max: 3 }),
      qty: fc.integer({ min: 1, max: 3 }),
      pay: fc.constantFrom<0 | 1 | 2 | 3>(0, 1, 2, 3),
    }),
  },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('free' as const), who }) },
  {
    weight: 3,
    arbitrary: fc.record({
      t: fc.constant('refund' as const),
      pick: who,
      partial: fc.boolean(),
      percent: fc.integer({ min: 1, max: 99 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ t: fc.constant('debt' as const), who, agorot: fc.integer({ min: 100, max: 20_000 }) }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      t: fc.constant('payDebt' as const),
      pick: who,
      pay: fc.constantFrom<0 | 1>(0, 1),
      partial: fc.boolean(),
    }),
  },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('changeMethod' as const), who, method: stored }) },
  {
    weight: 1,
    arbitrary: renewalRule.map((r) => ({ t: 'renewalRule' as const, ...r })),
  },
  { weight: 1, arbitrary: fc.constant({ t: 'rerunRenewal' as const }) },
);

/** A day: most days quiet, some with a few actions. */
const day: fc.Arbitrary<DayPlan> = fc.record({
  actions: fc.oneof(
    { weight: 2, arbitrary: fc.constant([] as Action[]) },
    { weight: 3, arbitrary: fc.array(action, { minLength: 1, maxLength: 3 }) },
  ),
  bank: fc.nat(),
});

/** The plan of a club's life of `days` days. */
export function planArb(days: number): fc.Arbitrary<Plan> {
  return fc.record({
    daysBefore: fc.integer({ min: 0, max: 4 }),
    daysAfter: fc.integer({ min: 0, max: 3 }),
    rule: renewalRule,
    rejectPercent: fc.integer({ min: 5, max: 40 }),
    opening: fc.array(newClient, { minLength: 6, maxLength: 9 }),
    days: fc.array(day, { minLength: days, maxLength: days }),
  });
}

/** One line per action, for the failure report. */
export function describeAction(a: Action): string {
  return JSON.stringify(a);
}
