import { AsyncLocalStorage } from 'node:async_hooks';
import { AppError } from './errors.js';

/**
 * A club whose back-dated history this process is writing (the demo club's
 * year, docs/demo-club.md "First start" and "While the history is written").
 *
 * The history numbers its purchases and documents at their simulated dates,
 * a year back. A number taken meanwhile by anything else — a cashier's
 * purchase, a kiosk sale, a refund, a MASAV return read by hand, the daily
 * renewal — would be dated today and followed by the history's older ones,
 * so a series would no longer be in date order (Income Tax bookkeeping
 * instructions: consecutive numbers per series; docs/money.md "Which Israeli
 * rules apply"). So while a club's history is written, money that takes a
 * number in that club is refused with HISTORY_BEING_WRITTEN (409, translated)
 * unless it is the history's own (run inside {@link runAsHistory}); the
 * daily money jobs wait (auto-renew.scheduler.ts); and the dashboard reads
 * {@link historyWriting} to say that the history is still being written.
 *
 * Held in this process: the server that writes the history is the one that
 * knows it. A second server on the same PostgreSQL database does not (it
 * finds the history claimed and stops); that set-up is not the first start
 * of a demo.
 */

/** Progress of a history being written: days written so far of all days. */
export interface HistoryProgress {
  day: number;
  days: number;
}

const writing = new Map<number, HistoryProgress>();
const own = new AsyncLocalStorage<true>();

/** The progress of the club's history being written, or null when none is. */
export function historyWriting(clubId: number): HistoryProgress | null {
  return writing.get(clubId) ?? null;
}

/** Whether any club's history is being written by this process. */
export function anyHistoryWriting(): boolean {
  return writing.size > 0;
}

/** Records the club's history as being written (with its progress), or as done (`null`). */
export function setHistoryWriting(clubId: number, progress: HistoryProgress | null): void {
  if (progress) writing.set(clubId, progress);
  else writing.delete(clubId);
}

/** Runs `fn` as the history's own work: {@link assertNumbersOpen} lets it through. */
export function runAsHistory<T>(fn: () => Promise<T>): Promise<T> {
  return own.run(true, fn);
}

/**
 * Refuses work that would take a number of the club's invoice or document
 * series while its history is being written (outside the history itself).
 * @throws AppError HISTORY_BEING_WRITTEN {day, days}
 */
export function assertNumbersOpen(clubId: number): void {
  const p = writing.get(clubId);
  if (!p || own.getStore()) return;
  throw new AppError(
    'HISTORY_BEING_WRITTEN',
    'The club’s history is still being written; purchases and refunds open when it is done',
    { day: p.day, days: p.days },
  );
}
