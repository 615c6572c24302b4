import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The server's clock for rows that record when something happened (charges,
 * cash sessions and their inserts, cash resets, debts, MASAV results, refunds, the
 * default moment of a purchase or a kiosk sale).
 *
 * Always the real time, except inside {@link withClock}: the demo club's
 * history (demo/money.ts) runs the real money services a year back, each
 * operation under the simulated moment, so their rows carry the simulated
 * time instead of the first start's. The override travels with the async
 * call chain (AsyncLocalStorage), never to other requests.
 */
const store = new AsyncLocalStorage<() => Date>();

/** The current moment: the simulated one inside {@link withClock}, otherwise `new Date()`. */
export function clockNow(): Date {
  const f = store.getStore();
  return f ? f() : new Date();
}

/**
 * Runs `fn` with {@link clockNow} answering `at` (a fixed moment, or a function for a clock that
 * moves, e.g. a few seconds per step of a cash session).
 */
export function withClock<T>(at: Date | (() => Date), fn: () => Promise<T>): Promise<T> {
  const f = typeof at === 'function' ? at : () => new Date(at.getTime());
  return store.run(f, fn);
}
