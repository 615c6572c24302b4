import { isErevChag, type ClubLocation } from './calendar.js';
import { EntranceState } from './enums.js';
import { localToInstant, parseIsoDate } from './local-date.js';
import type { PreviewDay } from './schemas/groups.js';
import { restPeriodAt } from './notice-window.js';

/**
 * Immersion appointments (issue 38, docs/appointments.md): the pure rules —
 * bookable slots from a group's real opening windows, the gate's window
 * around a booking, and when reminders go out around Shabbat and yom tov.
 * No I/O: the server reads rows and calls these.
 */

/** A bookable room as the slot rule reads it. */
export interface SlotResource {
  id: number;
  kind: string;
  /** Length of one service (preparation, immersion), minutes. */
  serviceMinutes: number;
  /** Cleaning time after each service before the next may start, minutes. */
  bufferMinutes: number;
}

/** A time a room is taken: a live booking from its start to the end of its cleaning buffer. */
export interface BusyInterval {
  resourceId: number;
  startsAt: Date;
  /** The booking's end plus the room's buffer. */
  blockedUntil: Date;
}

/** One slot of one room. `minute` counts from the day's local midnight (above 1440 = after midnight). */
export interface ComputedSlot {
  resourceId: number;
  kind: string;
  startsAt: Date;
  endsAt: Date;
  minute: number;
  free: boolean;
}

/** One day of slots with the calendar facts the preview shows. */
export interface ComputedSlotDay {
  date: string;
  weekday: number;
  erevChag: boolean;
  holidays: string[];
  nightfall: number | null;
  slots: ComputedSlot[];
}

/** Entrance states in which the club is open for a booked visit (everything but Closed). */
export function isBookableState(state: number): boolean {
  return state !== EntranceState.Closed;
}

/**
 * The slots of each day of a group's week preview (domain computeWeekPreview: the group's real
 * windows at the club's location — nightfall, Friday and holiday-eve rows, holidays, closed days):
 * adjacent open windows are merged; in each, every room's slots start at the window's opening and
 * follow each other every service + buffer minutes while the service ends by the window's close.
 * A slot is free when no busy interval of its room overlaps [start, start + service + buffer) and
 * it starts after `now` (when given). Days keep their order; slots are sorted by start, then room.
 */
export function computeSlots(opts: {
  days: readonly PreviewDay[];
  resources: readonly SlotResource[];
  busy: readonly BusyInterval[];
  timeZone: string;
  now?: Date;
}): ComputedSlotDay[] {
  const busyBy = new Map<number, BusyInterval[]>();
  for (const b of opts.busy) {
    const list = busyBy.get(b.resourceId) ?? [];
    list.push(b);
    busyBy.set(b.resourceId, list);
  }
  return opts.days.map((day) => {
    const date = parseIsoDate(day.date);
    const open: { from: number; to: number }[] = [];
    for (const w of day.windows) {
      if (!isBookableState(w.entranceState)) continue;
      const last = open[open.length - 1];
      if (last && last.to === w.from) last.to = w.to;
      else open.push({ from: w.from, to: w.to });
    }
    const slots: ComputedSlot[] = [];
    for (const r of opts.resources) {
      const step = r.serviceMinutes + r.bufferMinutes;
      if (r.serviceMinutes <= 0 || step <= 0) continue;
      for (const w of open) {
        for (let m = w.from; m + r.serviceMinutes <= w.to; m += step) {
          const startsAt = localToInstant(date, m * 60, opts.timeZone);
          const endsAt = new Date(startsAt.getTime() + r.serviceMinutes * 60_000);
          const blockedUntil = endsAt.getTime() + r.bufferMinutes * 60_000;
          const taken = (busyBy.get(r.id) ?? []).some(
            (b) => b.startsAt.getTime() < blockedUntil && b.blockedUntil.getTime() > startsAt.getTime(),
          );
          const past = opts.now != null && startsAt.getTime() <= opts.now.getTime();
          slots.push({ resourceId: r.id, kind: r.kind, startsAt, endsAt, minute: m, free: !taken && !past });
        }
      }
    }
    slots.sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime() || a.resourceId - b.resourceId);
    return {
      date: day.date,
      weekday: day.weekday,
      erevChag: day.erevChag,
      holidays: day.holidays,
      nightfall: day.nightfall,
      slots,
    };
  });
}

/** Whether a slot start is one of the computed slots of a room (a booking must start on one). */
export function isSlotStart(days: readonly ComputedSlotDay[], resourceId: number, startsAt: Date): ComputedSlot | null {
  for (const d of days) {
    for (const s of d.slots) {
      if (s.resourceId === resourceId && s.startsAt.getTime() === startsAt.getTime()) return s;
    }
  }
  return null;
}

/** The gate's verdict on a member of a booking-required group (docs/appointments.md "At the gate"). */
export type BookingGateVerdict = 'inWindow' | 'outsideWindow' | 'noBooking';

/**
 * Whether `now` falls in the gate window of one of the member's live bookings: from `beforeMinutes`
 * before its start to `afterMinutes` after it. `outsideWindow` when she has a booking within the
 * day around `now` (12 hours either side) but not now; `noBooking` otherwise. Starts in ms.
 */
export function bookingGateVerdict(
  starts: readonly number[],
  now: number,
  window: { beforeMinutes: number; afterMinutes: number },
): BookingGateVerdict {
  let near = false;
  for (const s of starts) {
    if (now >= s - window.beforeMinutes * 60_000 && now <= s + window.afterMinutes * 60_000) return 'inWindow';
    if (Math.abs(now - s) <= 12 * 3_600_000) near = true;
  }
  return near ? 'outsideWindow' : 'noBooking';
}

/** Minutes before candle lighting a reminder moved out of a rest period goes. */
export const REMINDER_BEFORE_CANDLES_MINUTES = 60;

/** One reminder of a booking: the day before or the hour before. */
export interface ReminderPlan {
  kind: 'day' | 'hour';
  at: Date;
}

/**
 * When a booking's reminders go out (docs/appointments.md "Reminders"): 24 hours and 60 minutes
 * before its start. A reminder that would fall between candle lighting and havdalah goes
 * REMINDER_BEFORE_CANDLES_MINUTES before that candle lighting instead (a Friday-night booking is
 * reminded on Friday afternoon). A reminder whose time has passed at `now` goes at `now` when the
 * booking is still more than 10 minutes away and `now` is not in a rest period; otherwise it is
 * left out. Two reminders within 30 minutes of each other become one (the later kind is dropped).
 */
export function planReminders(startsAt: Date, now: Date, loc: ClubLocation): ReminderPlan[] {
  const out: ReminderPlan[] = [];
  for (const [kind, minutes] of [
    ['day', 24 * 60],
    ['hour', 60],
  ] as const) {
    let at = new Date(startsAt.getTime() - minutes * 60_000);
    const rest = restPeriodAt(at, loc);
    if (rest) at = new Date(rest.from.getTime() - REMINDER_BEFORE_CANDLES_MINUTES * 60_000);
    if (at.getTime() < now.getTime()) {
      if (startsAt.getTime() - now.getTime() <= 10 * 60_000 || restPeriodAt(now, loc)) continue;
      at = now;
    }
    const prev = out[out.length - 1];
    if (prev && Math.abs(prev.at.getTime() - at.getTime()) < 30 * 60_000) continue;
    out.push({ kind, at });
  }
  return out;
}

/** Whether a day of the club is the eve of a yom tov (re-exported for the slot screen's marks). */
export const erevChagOn = (date: string, il: boolean): boolean => isErevChag(parseIsoDate(date), il);

/**
 * Whether a booked visitor is late: not checked in (status still `booked`) `graceMinutes` after
 * her start. The attendant's timeline highlights her.
 */
export function isLate(b: { status: string; startsAt: Date }, now: Date, graceMinutes = 5): boolean {
  return b.status === 'booked' && now.getTime() > b.startsAt.getTime() + graceMinutes * 60_000;
}

/** The instant of a club-local date and minute (minutes may pass 1440). */
export function slotInstant(date: string, minute: number, timeZone: string): Date {
  return localToInstant(parseIsoDate(date), minute * 60, timeZone);
}
