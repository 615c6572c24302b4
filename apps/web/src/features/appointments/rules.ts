import type { Booking } from '@venue/domain';
import type { TimelineStatus } from './useAppointments';

/**
 * The console's small booking rules, pure (docs/appointments.md "The console"): the attendant's
 * steps, the refund the cancel dialog announces, times of day.
 */

/** The attendant's steps in order: each booking moves one step forward with one touch. */
export const STEPS: readonly TimelineStatus[] = ['booked', 'checkedIn', 'preparing', 'immersed', 'done'];

/** The next step after `status`, or null at the end (done), for a no-show and for an offer. */
export function nextStep(status: string): TimelineStatus | null {
  const i = STEPS.indexOf(status as TimelineStatus);
  return i >= 0 && i < STEPS.length - 1 ? STEPS[i + 1] : null;
}

/** The step before `status` (a no-show goes back to booked), for a touch made by mistake; null for booked and offers. */
export function previousStep(status: string): TimelineStatus | null {
  if (status === 'noShow') return 'booked';
  const i = STEPS.indexOf(status as TimelineStatus);
  return i > 0 ? STEPS[i - 1] : null;
}

/**
 * Whether cancelling at `now` (ms) refunds the fee (agorot): refunded whole when the cancellation is
 * at least `cutoffMinutes` before the start, kept after it (docs/appointments.md "Booking, moving,
 * cancelling"; the server decides, this only announces it).
 */
export function refundsNow(b: Pick<Booking, 'fee' | 'startsAt'>, cutoffMinutes: number, now = Date.now()): boolean {
  return b.fee > 0 && Date.parse(b.startsAt) - now >= cutoffMinutes * 60_000;
}

/** `minute` after local midnight (above 1440 after midnight) as HH:MM. */
export function hhmm(minute: number): string {
  const m = ((minute % 1440) + 1440) % 1440;
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}
