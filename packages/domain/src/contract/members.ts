import { z } from 'zod';
import { OkResponse } from '../schemas/common.js';
import {
  HostedPaymentCallback,
  MemberCheckoutParams,
  MemberCheckoutRequest,
  MemberCheckoutStarted,
  MemberCheckoutState,
  MemberChooseClub,
  MemberClub,
  MemberCodeRequest,
  MemberCodeSent,
  MemberContactPatch,
  MemberNotificationChoicesPatch,
  MemberDocument,
  MemberEntrance,
  MemberMe,
  MemberMoney,
  MemberPerson,
  MemberSignInRequest,
  MemberSignInResponse,
  MemberSubscription,
} from '../schemas/members.js';
import { NotificationChoices } from '../schemas/notifications.js';
import {
  MemberBooking,
  MemberBookingCancelResult,
  MemberBookingCreate,
  MemberBookingRoom,
  MemberBookings,
  MemberBookingSlot,
  MemberBookingSlotsQuery,
  MemberGateCode,
  MemberWaitlistCreate,
  MemberWaitlistEntry,
} from '../schemas/member-booking.js';
import { EmptyBody, IdParams, routes } from './route.js';

/** A member route of a chosen club: a member token only (docs/members.md "Session kind"). */
const member = { member: true } as const;
/** A member route that needs no chosen club yet (the club list, choosing one, sign-out). */
const memberAnyClub = { member: true, anyClub: true } as const;

/**
 * The member app's routes (issue 37; docs/members.md). `{id}` is the member's
 * own client id or a child's linked to her; any other id is 404.
 */
export const members = routes(['members'], {
  /** Sends a one-time code to the phone or e-mail on file; the same answer whether or not it is on file. 429 while limited. */
  requestCode: {
    method: 'POST',
    path: '/api/Member/RequestCode',
    body: MemberCodeRequest,
    response: MemberCodeSent,
    access: { public: true },
    security: [],
  },
  /** Signs in with the code: a member token; 401 on a wrong or spent code, 429 with retry-after while delayed. */
  signIn: {
    method: 'POST',
    path: '/api/Member/SignIn',
    body: MemberSignInRequest,
    response: MemberSignInResponse,
    access: { public: true },
    security: [],
  },
  clubs: { method: 'GET', path: '/api/Member/Clubs', response: z.array(MemberClub), access: memberAnyClub },
  /** Chooses (or changes) the club the session acts in; 404 for a club where the contact is not on file. */
  chooseClub: {
    method: 'POST',
    path: '/api/Member/Club',
    body: MemberChooseClub,
    response: MemberClub,
    access: memberAnyClub,
  },
  logout: { method: 'POST', path: '/api/Member/Logout', response: OkResponse, access: memberAnyClub },
  me: { method: 'GET', path: '/api/Member/Me', response: MemberMe, access: member },
  subscription: {
    method: 'GET',
    path: '/api/Member/Subscription/:id',
    params: IdParams,
    response: MemberSubscription,
    access: member,
  },
  money: { method: 'GET', path: '/api/Member/Money/:id', params: IdParams, response: MemberMoney, access: member },
  entrances: {
    method: 'GET',
    path: '/api/Member/Entrances/:id',
    params: IdParams,
    response: z.array(MemberEntrance),
    access: member,
  },
  documents: {
    method: 'GET',
    path: '/api/Member/Documents/:id',
    params: IdParams,
    response: z.array(MemberDocument),
    access: member,
  },
  /** The tax document's PDF (the same PDF the console prints); `{id}` is the document's id. */
  documentPdf: { method: 'GET', path: '/api/Member/Document/:id/Pdf', params: IdParams, access: member },
  updateContact: {
    method: 'PATCH',
    path: '/api/Member/Contact',
    body: MemberContactPatch,
    response: MemberPerson,
    access: member,
  },
  /** Her notification choices (docs/notifications.md "Opting out"): channels and notice kinds. */
  notificationChoices: {
    method: 'GET',
    path: '/api/Member/NotificationChoices',
    response: NotificationChoices,
    access: member,
  },
  /** Changes her notification choices; audited with the member session. */
  setNotificationChoices: {
    method: 'PATCH',
    path: '/api/Member/NotificationChoices',
    body: MemberNotificationChoicesPatch,
    response: NotificationChoices,
    access: member,
  },
  /** Starts a payment on the clearing provider's hosted page (docs/members.md "Paying"). */
  checkout: {
    method: 'POST',
    path: '/api/Member/Checkout',
    body: MemberCheckoutRequest,
    response: MemberCheckoutStarted,
    access: member,
  },
  checkoutState: {
    method: 'GET',
    path: '/api/Member/Checkout/:code',
    params: MemberCheckoutParams,
    response: MemberCheckoutState,
    access: member,
  },
  /** The provider's signed server-to-server callback: no session; a wrong signature is 401. */
  paymentCallback: {
    method: 'POST',
    path: '/api/Member/PaymentCallback',
    body: HostedPaymentCallback,
    response: OkResponse,
    access: { public: true, antiForgery: false },
    security: [],
    hide: true,
  },
  /** Booking (issue 38, docs/members.md "Booking"): the room kinds open to her group. */
  bookingRooms: {
    method: 'GET',
    path: '/api/Member/Booking/Rooms',
    response: z.array(MemberBookingRoom),
    access: member,
  },
  /** The free slots of a date and room kind for her group (only free ones). */
  bookingSlots: {
    method: 'GET',
    path: '/api/Member/Booking/Slots',
    query: MemberBookingSlotsQuery,
    response: z.array(MemberBookingSlot),
    access: member,
  },
  /** Her upcoming bookings, offers and waitlist places (only her own). */
  bookings: { method: 'GET', path: '/api/Member/Booking', response: MemberBookings, access: member },
  /** Books a free slot; a fee is paid from her money balance through the purchase path. */
  book: {
    method: 'POST',
    path: '/api/Member/Booking',
    body: MemberBookingCreate,
    response: MemberBooking,
    access: member,
  },
  /** Cancels her booking up to the club's cutoff (the fee refunded); 404 for anyone else's. */
  cancelBooking: {
    method: 'POST',
    path: '/api/Member/Booking/:id/Cancel',
    params: IdParams,
    body: EmptyBody,
    response: MemberBookingCancelResult,
    access: member,
  },
  /** Takes a slot offered to her from the waitlist. */
  acceptOffer: {
    method: 'POST',
    path: '/api/Member/Booking/:id/Accept',
    params: IdParams,
    body: EmptyBody,
    response: MemberBooking,
    access: member,
  },
  /** A one-time code for the gate, valid only in the booking's gate window (shown once, stored hashed). */
  gateCode: {
    method: 'POST',
    path: '/api/Member/Booking/:id/GateCode',
    params: IdParams,
    body: EmptyBody,
    response: MemberGateCode,
    access: member,
  },
  /** Puts her on the waitlist of a date and room kind. */
  joinWaitlist: {
    method: 'POST',
    path: '/api/Member/Booking/Waitlist',
    body: MemberWaitlistCreate,
    response: MemberWaitlistEntry,
    access: member,
  },
});
