import { z } from 'zod';
import { id, isoDate } from '../parts.js';
import { idempotencyKey } from './helpers.js';
import { BOOKING_RESOURCE_KINDS, BOOKING_STATUSES, isoInstant } from './appointments.js';

/**
 * The member app's booking (issue 38; docs/members.md "Booking", docs/appointments.md "The member's
 * booking"). A member sees only her own bookings, never a room's other bookings or anyone's name.
 * Times are ISO instants; money in agorot.
 */

/** A room kind she may book: the rooms of that kind open to her group (GET /api/Member/Booking/Rooms). */
export const MemberBookingRoom = z.object({
  kind: z.enum(BOOKING_RESOURCE_KINDS),
  /** The lowest fee of the kind's rooms, agorot (0: included in her subscription). */
  fee: z.number(),
  serviceMinutes: z.number(),
});
export type MemberBookingRoom = z.infer<typeof MemberBookingRoom>;

/** GET /api/Member/Booking/Slots query: one club-local date and one room kind. */
export const MemberBookingSlotsQuery = z.object({
  date: isoDate,
  kind: z.enum(BOOKING_RESOURCE_KINDS),
});

/** A free slot: one per start time (the first free room of the kind at that time). */
export const MemberBookingSlot = z.object({
  resourceId: z.number(),
  kind: z.enum(BOOKING_RESOURCE_KINDS),
  startsAt: z.string(),
  endsAt: z.string(),
  fee: z.number(),
});
export type MemberBookingSlot = z.infer<typeof MemberBookingSlot>;

/** POST /api/Member/Booking body: a free slot; a fee is paid from her money balance. */
export const MemberBookingCreate = z.strictObject({
  resourceId: id,
  startsAt: isoInstant,
  idempotencyKey,
});
export type MemberBookingCreate = z.infer<typeof MemberBookingCreate>;

/** One of her bookings as she sees it: no room name, no other person. */
export const MemberBooking = z.object({
  id: z.number(),
  kind: z.enum(BOOKING_RESOURCE_KINDS),
  startsAt: z.string(),
  endsAt: z.string(),
  status: z.enum(BOOKING_STATUSES),
  fee: z.number(),
  /** An offered slot (from the waitlist) is hers only until then. */
  offerExpiresAt: z.string().nullable(),
  /** Until this instant she may cancel it (with the fee refunded); null: no longer. */
  cancelUntil: z.string().nullable(),
  /** The gate's window around it: a one-time code works only from…to. */
  gateFrom: z.string(),
  gateUntil: z.string(),
});
export type MemberBooking = z.infer<typeof MemberBooking>;

export const MemberWaitlistEntry = z.object({
  id: z.number(),
  date: z.string(),
  kind: z.enum(BOOKING_RESOURCE_KINDS),
  status: z.enum(['waiting', 'offered', 'booked', 'expired', 'removed']),
});
export type MemberWaitlistEntry = z.infer<typeof MemberWaitlistEntry>;

/** GET /api/Member/Booking: her upcoming bookings and offers, and her waitlist places. */
export const MemberBookings = z.object({
  bookings: z.array(MemberBooking),
  waitlist: z.array(MemberWaitlistEntry),
  cancelCutoffMinutes: z.number(),
  daysAhead: z.number(),
  /** The club's time zone (IANA): times are shown as the club's clock. */
  timeZone: z.string(),
  /** The club-local date today and the last date she may book (YYYY-MM-DD). */
  today: z.string(),
  lastDate: z.string(),
});
export type MemberBookings = z.infer<typeof MemberBookings>;

/** POST /api/Member/Booking/Waitlist body. */
export const MemberWaitlistCreate = z.strictObject({
  date: isoDate,
  kind: z.enum(BOOKING_RESOURCE_KINDS),
});

export const MemberBookingCancelResult = z.object({ booking: MemberBooking, refunded: z.number() });

/**
 * POST /api/Member/Booking/{id}/GateCode: a one-time code for the gate (docs/appointments.md "The
 * one-time code"). Shown once: only its hash is stored; asking again replaces it.
 */
export const MemberGateCode = z.object({
  /** `*` and six digits: typed on the terminal's keypad or read from the QR. */
  code: z.string(),
  validFrom: z.string(),
  validUntil: z.string(),
});
export type MemberGateCode = z.infer<typeof MemberGateCode>;
