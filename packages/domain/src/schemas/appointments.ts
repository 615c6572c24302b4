import { z } from 'zod';
import { keyOr } from '../zod-keys.js';
import { id, idParam, isoDate, text } from '../parts.js';
import { amount, idempotencyKey } from './helpers.js';
import { PaymentInput } from './purchases.js';

/**
 * Immersion appointments (issue 38, docs/appointments.md): bookable rooms, the
 * club's booking settings, slots, bookings and the waitlist. Times are ISO
 * instants; minutes of a day count from the club's local midnight; money in agorot.
 */

/** Kinds of bookable room: a preparation room with a bath, one with a shower, an immersion pool (bor). */
export const BOOKING_RESOURCE_KINDS = ['prepBath', 'prepShower', 'pool'] as const;
export type BookingResourceKind = (typeof BOOKING_RESOURCE_KINDS)[number];

/**
 * States of a booking: offered (a freed slot held for a waitlisted member until she takes it or the
 * hold ends), booked, checkedIn, preparing, immersed, done, noShow, cancelled. Every state but
 * cancelled holds the room.
 */
export const BOOKING_STATUSES = [
  'offered',
  'booked',
  'checkedIn',
  'preparing',
  'immersed',
  'done',
  'noShow',
  'cancelled',
] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

/** The states the attendant moves a booking through on the evening's timeline. */
export const TIMELINE_STATUSES = ['booked', 'checkedIn', 'preparing', 'immersed', 'done', 'noShow'] as const;

/** POST/PUT /api/Booking/Resource body: a room and who may book it. */
export const BookingResourceInput = z.strictObject({
  name: text(60).trim().min(1, { message: 'required' }),
  kind: z.enum(BOOKING_RESOURCE_KINDS),
  /** Length of one service, minutes (e.g. preparation 45, immersion 10). */
  serviceMinutes: z.number().int().min(5, { message: 'outOfRange' }).max(240, { message: 'outOfRange' }),
  /** Cleaning time after each service, minutes. */
  bufferMinutes: z.number().int().min(0).max(120, { message: 'outOfRange' }).default(0),
  /** Groups whose members may book it; empty = every group. */
  groupIds: z.array(id).max(200).default([]),
  /** Fee per booking in agorot, charged through the purchase path; 0 = included in the subscription. */
  fee: amount.default(0),
  active: z.boolean().default(true),
});
export type BookingResourceInput = z.infer<typeof BookingResourceInput>;

export const BookingResource = z.object({
  id: z.number(),
  name: z.string(),
  kind: z.enum(BOOKING_RESOURCE_KINDS),
  serviceMinutes: z.number(),
  bufferMinutes: z.number(),
  groupIds: z.array(z.number()),
  fee: z.number(),
  active: z.boolean(),
});
export type BookingResource = z.infer<typeof BookingResource>;

/** The club's booking rules (PUT /api/Booking/Settings). */
export const BookingSettings = z.strictObject({
  /** Groups whose members the gate admits only around a booking. */
  requiredGroupIds: z.array(id).max(200).default([]),
  /** The gate's window: from this many minutes before the booking's start… */
  gateBeforeMinutes: z.number().int().min(0).max(240, { message: 'outOfRange' }).default(20),
  /** …to this many minutes after it. */
  gateAfterMinutes: z.number().int().min(0).max(240, { message: 'outOfRange' }).default(45),
  /** A member may cancel (with a refund of the fee) up to this many minutes before the start. */
  cancelCutoffMinutes: z.number().int().min(0).max(10_080, { message: 'outOfRange' }).default(120),
  /** How long a freed slot is held for the waitlisted member it is offered to, minutes. */
  offerHoldMinutes: z.number().int().min(5).max(1440, { message: 'outOfRange' }).default(60),
  /** Bookings are kept this many days after the visit, then only counts remain. */
  retentionDays: z.number().int().min(1).max(3650, { message: 'outOfRange' }).default(30),
  /** How far ahead a booking may be made, days. */
  daysAhead: z.number().int().min(1).max(60, { message: 'outOfRange' }).default(14),
});
export type BookingSettings = z.infer<typeof BookingSettings>;

/** GET /api/Booking/Slots query. */
export const BookingSlotsQuery = z.object({
  from: isoDate.optional(),
  days: z.coerce.number().int().min(1).max(14, { message: 'outOfRange' }).default(7),
  /** The group whose opening windows make the slots; default: the first group that may book. */
  groupId: idParam.optional(),
  kind: z.enum(BOOKING_RESOURCE_KINDS).optional(),
});
export type BookingSlotsQuery = z.infer<typeof BookingSlotsQuery>;

export const BookingSlot = z.object({
  resourceId: z.number(),
  kind: z.enum(BOOKING_RESOURCE_KINDS),
  startsAt: z.string(),
  endsAt: z.string(),
  /** Minutes after the day's local midnight (above 1440 = after midnight). */
  minute: z.number(),
  free: z.boolean(),
});
export const BookingSlotDay = z.object({
  date: z.string(),
  weekday: z.number(),
  erevChag: z.boolean(),
  holidays: z.array(z.string()),
  nightfall: z.number().nullable(),
  slots: z.array(BookingSlot),
});
export const BookingSlots = z.object({
  groupId: z.number().nullable(),
  resources: z.array(BookingResource),
  days: z.array(BookingSlotDay),
});
export type BookingSlots = z.infer<typeof BookingSlots>;

/** An ISO instant (e.g. 2031-03-07T17:45:00.000Z). */
export const isoInstant = z.iso.datetime({ offset: true, ...keyOr('invalidDate') });

/** POST /api/Booking body: staff book a client (a phone booking or a walk-in). */
export const BookingCreate = z.strictObject({
  resourceId: id,
  startsAt: isoInstant,
  clientId: id,
  /** How the fee is paid when the room has one (cash, card, the balance…); none for an included room. */
  payments: z.array(PaymentInput).max(5).optional(),
  idempotencyKey,
});
export type BookingCreate = z.infer<typeof BookingCreate>;

/** POST /api/Booking/{id}/Move body. */
export const BookingMove = z.strictObject({
  resourceId: id.optional(),
  startsAt: isoInstant,
});
export type BookingMove = z.infer<typeof BookingMove>;

/** POST /api/Booking/{id}/Status body: the attendant's step on the timeline. */
export const BookingStatusPatch = z.strictObject({ status: z.enum(TIMELINE_STATUSES) });

/** GET /api/Booking query: the bookings of a club-local date (default today). */
export const BookingListQuery = z.object({ date: isoDate.optional() });

export const Booking = z.object({
  id: z.number(),
  resourceId: z.number(),
  resourceName: z.string(),
  kind: z.enum(BOOKING_RESOURCE_KINDS),
  clientId: z.number(),
  /** First name only, unless the user may see full names (roleViewBookingNames). */
  clientName: z.string(),
  startsAt: z.string(),
  endsAt: z.string(),
  status: z.enum(BOOKING_STATUSES),
  source: z.enum(['staff', 'member', 'waitlist']),
  fee: z.number(),
  purchaseId: z.number().nullable(),
  /** Not checked in five minutes after the start. */
  late: z.boolean(),
  offerExpiresAt: z.string().nullable(),
});
export type Booking = z.infer<typeof Booking>;

/** The answer to a cancellation: the booking and what of its fee was refunded (agorot). */
export const BookingCancelResult = z.object({ booking: Booking, refunded: z.number() });

/** The attendant's evening: each room with its bookings of the date. */
export const BookingEvening = z.object({
  date: z.string(),
  now: z.string(),
  rooms: z.array(z.object({ resource: BookingResource, bookings: z.array(Booking) })),
});
export type BookingEvening = z.infer<typeof BookingEvening>;

/** POST /api/Booking/Waitlist body: a client waits for a room kind on a date. */
export const WaitlistCreate = z.strictObject({
  clientId: id,
  date: isoDate,
  kind: z.enum(BOOKING_RESOURCE_KINDS),
});
export const WaitlistEntry = z.object({
  id: z.number(),
  clientId: z.number(),
  clientName: z.string(),
  date: z.string(),
  kind: z.enum(BOOKING_RESOURCE_KINDS),
  status: z.enum(['waiting', 'offered', 'booked', 'expired', 'removed']),
  bookingId: z.number().nullable(),
  createdAt: z.string(),
});
export type WaitlistEntry = z.infer<typeof WaitlistEntry>;
