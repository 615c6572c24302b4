import { z } from 'zod';
import {
  Booking,
  BookingCancelResult,
  BookingCreate,
  BookingEvening,
  BookingListQuery,
  BookingMove,
  BookingResource,
  BookingResourceInput,
  BookingSettings,
  BookingSlots,
  BookingSlotsQuery,
  BookingStatusPatch,
  WaitlistCreate,
  WaitlistEntry,
} from '../schemas/appointments.js';
import { EmptyBody, IdParams, routes } from './route.js';

/** Every booking route needs the booking permission (docs/appointments.md "Privacy"). */
const manage = { permission: 'roleManageBookings' } as const;

/** Immersion appointments by staff (issue 38, docs/appointments.md). */
export const appointments = routes(['appointments'], {
  /** The club's bookable rooms. */
  resources: { method: 'GET', path: '/api/Booking/Resource', response: z.array(BookingResource), access: manage },
  /** A new bookable room. */
  createResource: {
    method: 'POST',
    path: '/api/Booking/Resource',
    body: BookingResourceInput,
    response: BookingResource,
    access: manage,
  },
  /** Changes a room (its slots follow; existing bookings stay). */
  updateResource: {
    method: 'PUT',
    path: '/api/Booking/Resource/:id',
    params: IdParams,
    body: BookingResourceInput,
    response: BookingResource,
    access: manage,
  },
  /** Removes a room from booking (its bookings stay in history). */
  deleteResource: {
    method: 'DELETE',
    path: '/api/Booking/Resource/:id',
    params: IdParams,
    response: z.object({ ok: z.literal(true) }),
    access: manage,
  },
  /** The club's booking rules. */
  settings: { method: 'GET', path: '/api/Booking/Settings', response: BookingSettings, access: manage },
  /** Saves the club's booking rules. */
  saveSettings: {
    method: 'PUT',
    path: '/api/Booking/Settings',
    body: BookingSettings,
    response: BookingSettings,
    access: manage,
  },
  /** Bookable slots of the week from the group's real opening windows. */
  slots: {
    method: 'GET',
    path: '/api/Booking/Slots',
    query: BookingSlotsQuery,
    response: BookingSlots,
    access: manage,
  },
  /** The attendant's evening: each room's bookings of a date. */
  evening: {
    method: 'GET',
    path: '/api/Booking/Evening',
    query: BookingListQuery,
    response: BookingEvening,
    access: manage,
  },
  /** Books a client into a slot (phone or walk-in); the fee goes through the purchase path. */
  create: { method: 'POST', path: '/api/Booking', body: BookingCreate, response: Booking, access: manage },
  /** Moves a booking to another slot (same or another room). */
  move: {
    method: 'POST',
    path: '/api/Booking/:id/Move',
    params: IdParams,
    body: BookingMove,
    response: Booking,
    access: manage,
  },
  /** Cancels a booking; the fee is refunded before the club's cutoff; the slot goes to the waitlist. */
  cancel: {
    method: 'POST',
    path: '/api/Booking/:id/Cancel',
    params: IdParams,
    body: EmptyBody,
    response: BookingCancelResult,
    access: manage,
  },
  /** The attendant's step: checked in, in preparation, immersed, done, no-show. */
  setStatus: {
    method: 'POST',
    path: '/api/Booking/:id/Status',
    params: IdParams,
    body: BookingStatusPatch,
    response: Booking,
    access: manage,
  },
  /** Takes a slot offered from the waitlist (for the member, by staff). */
  accept: {
    method: 'POST',
    path: '/api/Booking/:id/Accept',
    params: IdParams,
    body: EmptyBody,
    response: Booking,
    access: manage,
  },
  /** The waitlist of a date. */
  waitlist: {
    method: 'GET',
    path: '/api/Booking/Waitlist',
    query: BookingListQuery,
    response: z.array(WaitlistEntry),
    access: manage,
  },
  /** Puts a client on the waitlist of a date and room kind. */
  addWaitlist: {
    method: 'POST',
    path: '/api/Booking/Waitlist',
    body: WaitlistCreate,
    response: WaitlistEntry,
    access: manage,
  },
  /** Takes a client off the waitlist. */
  removeWaitlist: {
    method: 'DELETE',
    path: '/api/Booking/Waitlist/:id',
    params: IdParams,
    response: z.object({ ok: z.literal(true) }),
    access: manage,
  },
});
