import { and, asc, eq, gt, inArray, ne } from 'drizzle-orm';
import {
  addDays,
  isoDate,
  parseIsoDate,
  PAYMENT_METHOD_BEATS,
  type BookingSettings,
  type MemberBooking,
  type MemberBookingCreate,
  type MemberBookingRoom,
  type MemberBookings,
  type MemberBookingSlot,
  type MemberGateCode,
  type MemberWaitlistEntry,
  type PaymentInput,
} from '@venue/domain';
import type { Db } from '../../db/index.js';
import { bookingResources, bookings, bookingWaitlist } from '../../db/schema.js';
import { clockNow } from '../../lib/clock.js';
import { AppError } from '../../lib/errors.js';
import { validationError } from '../../lib/validation.js';
import type { ClearingProvider } from '../../integrations/clearing/provider.js';
import {
  acceptOffer,
  addToWaitlist,
  cancelBooking,
  clubLoc,
  createBooking,
  expireOffers,
  listResources,
  listSlots,
  localDateOf,
  readBookingSettings,
} from '../appointments/appointments.service.js';
import { issueGateCode } from '../appointments/booking-codes.js';
import { ownClient, type BoundMember } from './members.service.js';

/*
 * The member's booking (issue 38; docs/members.md "Booking", docs/appointments.md): the member app's
 * side of the appointments service — the same slots, the same booking write (createBooking, its fee
 * through createPurchase), the same cancellation and waitlist; never a second booking path. She acts
 * for herself only (her own client of the session) and sees only her own bookings: any other id is
 * 404, as another club's is for staff. Names are never shown (she knows her own).
 */

/** Members see no names: the appointments service's viewer with first names only (never shown). */
const VIEWER = { fullNames: false };

/** A member acting: no staff user; the audit rows of a refund carry her address. */
const MEMBER_AUTHOR = { source: 'member' as const, userId: null };
const refundActorOf = (m: BoundMember) => ({ clubId: m.clubId, userId: null, ip: m.ip });

/** The fee as one payment from her money balance (PAYMENT_METHOD_BEATS), or none for an included room. */
const feePayment = (fee: number): PaymentInput[] | undefined =>
  fee > 0 ? [{ method: PAYMENT_METHOD_BEATS, amount: fee, keepExcess: false }] : undefined;

/** Her group (null: she is in none, so nothing is bookable). */
async function herGroup(db: Db, m: BoundMember): Promise<number | null> {
  const { c } = await ownClient(db, m, m.clientId);
  return c.groupId;
}

/**
 * The room kinds she may book (GET /api/Member/Booking/Rooms): the active rooms open to her group
 * (a room naming no group is open to every group), one entry per kind with its lowest fee (agorot)
 * and its shortest service (minutes).
 */
export async function memberBookingRooms(db: Db, m: BoundMember): Promise<MemberBookingRoom[]> {
  const groupId = await herGroup(db, m);
  if (groupId == null) return [];
  const rooms = (await listResources(db, m.clubId)).filter(
    (r) => r.active && (r.groupIds.length === 0 || r.groupIds.includes(groupId)),
  );
  const byKind = new Map<string, MemberBookingRoom>();
  for (const r of rooms) {
    const had = byKind.get(r.kind);
    byKind.set(r.kind, {
      kind: r.kind,
      fee: had ? Math.min(had.fee, r.fee) : r.fee,
      serviceMinutes: had ? Math.min(had.serviceMinutes, r.serviceMinutes) : r.serviceMinutes,
    });
  }
  const order = ['prepBath', 'prepShower', 'pool'];
  return [...byKind.values()].sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind));
}

/**
 * The free slots of a club-local date and room kind for her group (GET /api/Member/Booking/Slots):
 * the appointments service's slots (her group's real opening windows, docs/appointments.md "Slots")
 * with only the free ones, within the club's days ahead, one per start time — the first free room of
 * the kind then — with that room's fee.
 */
export async function memberBookingSlots(
  db: Db,
  m: BoundMember,
  q: { date: string; kind: MemberBookingSlot['kind'] },
  now = clockNow(),
): Promise<MemberBookingSlot[]> {
  const groupId = await herGroup(db, m);
  if (groupId == null) return [];
  const settings = await readBookingSettings(db, m.clubId);
  const s = await listSlots(db, m.clubId, { from: q.date, days: 1, groupId, kind: q.kind }, now);
  const fee = new Map(s.resources.map((r) => [r.id, r.fee]));
  const last = now.getTime() + settings.daysAhead * 86_400_000;
  const seen = new Set<string>();
  const out: MemberBookingSlot[] = [];
  for (const d of s.days) {
    if (d.date !== q.date) continue;
    for (const slot of d.slots) {
      if (!slot.free || Date.parse(slot.startsAt) > last || seen.has(slot.startsAt)) continue;
      seen.add(slot.startsAt);
      out.push({
        resourceId: slot.resourceId,
        kind: slot.kind,
        startsAt: slot.startsAt,
        endsAt: slot.endsAt,
        fee: fee.get(slot.resourceId) ?? 0,
      });
    }
  }
  return out.sort((a, b) => a.startsAt.localeCompare(b.startsAt));
}

/** Her booking as she sees it: kind, times, state, fee, until when she may cancel, the gate's window. */
function present(b: typeof bookings.$inferSelect, kind: string, s: BookingSettings, now: Date): MemberBooking {
  const cutoff = b.startsAt.getTime() - s.cancelCutoffMinutes * 60_000;
  const open = b.status === 'booked' || b.status === 'offered';
  return {
    id: b.id,
    kind: kind as MemberBooking['kind'],
    startsAt: b.startsAt.toISOString(),
    endsAt: b.endsAt.toISOString(),
    status: b.status as MemberBooking['status'],
    fee: b.fee,
    offerExpiresAt: b.offerExpiresAt?.toISOString() ?? null,
    cancelUntil: open && cutoff > now.getTime() ? new Date(cutoff).toISOString() : null,
    gateFrom: new Date(b.startsAt.getTime() - s.gateBeforeMinutes * 60_000).toISOString(),
    gateUntil: new Date(b.startsAt.getTime() + s.gateAfterMinutes * 60_000).toISOString(),
  };
}

async function presentOne(db: Db, m: BoundMember, id: number, now: Date): Promise<MemberBooking> {
  const [row] = await db
    .select({ b: bookings, kind: bookingResources.kind })
    .from(bookings)
    .innerJoin(
      bookingResources,
      and(eq(bookingResources.clubId, bookings.clubId), eq(bookingResources.id, bookings.resourceId)),
    )
    .where(and(eq(bookings.clubId, m.clubId), eq(bookings.id, id), eq(bookings.clientId, m.clientId)));
  if (!row) throw new AppError('NOT_FOUND', 'booking not found');
  return present(row.b, row.kind, await readBookingSettings(db, m.clubId), now);
}

/**
 * Her bookings (GET /api/Member/Booking): her own live bookings and offers whose gate window has not
 * ended, by time; her waitlist places from today; the club's cutoff and days ahead.
 */
export async function memberBookings(db: Db, m: BoundMember, now = clockNow()): Promise<MemberBookings> {
  await expireOffers(db, m.clubId, now);
  const s = await readBookingSettings(db, m.clubId);
  const rows = await db
    .select({ b: bookings, kind: bookingResources.kind })
    .from(bookings)
    .innerJoin(
      bookingResources,
      and(eq(bookingResources.clubId, bookings.clubId), eq(bookingResources.id, bookings.resourceId)),
    )
    .where(
      and(
        eq(bookings.clubId, m.clubId),
        eq(bookings.clientId, m.clientId),
        ne(bookings.status, 'cancelled'),
        gt(bookings.startsAt, new Date(now.getTime() - s.gateAfterMinutes * 60_000)),
      ),
    )
    .orderBy(asc(bookings.startsAt), asc(bookings.id));
  const loc = await clubLoc(db, m.clubId);
  const today = isoDate(localDateOf(now, loc.timeZone));
  const waits = await db
    .select()
    .from(bookingWaitlist)
    .where(
      and(
        eq(bookingWaitlist.clubId, m.clubId),
        eq(bookingWaitlist.clientId, m.clientId),
        inArray(bookingWaitlist.status, ['waiting', 'offered']),
      ),
    )
    .orderBy(asc(bookingWaitlist.date), asc(bookingWaitlist.id));
  return {
    bookings: rows.map((r) => present(r.b, r.kind, s, now)),
    waitlist: waits
      .filter((w) => w.date >= today)
      .map((w) => ({
        id: w.id,
        date: w.date,
        kind: w.kind as MemberWaitlistEntry['kind'],
        status: w.status as MemberWaitlistEntry['status'],
      })),
    cancelCutoffMinutes: s.cancelCutoffMinutes,
    daysAhead: s.daysAhead,
    timeZone: loc.timeZone,
    today,
    lastDate: isoDate(addDays(localDateOf(now, loc.timeZone), s.daysAhead)),
  };
}

/**
 * Books a free slot for herself (POST /api/Member/Booking) through the appointments service's
 * createBooking — the staff booking's own write: the room's lock, the live-slot index, the fee as a
 * purchase through createPurchase (here paid from her money balance, source `member`), idempotent on
 * her key. @throws NOT_FOUND, BOOKING_NOT_ALLOWED, SLOT_NOT_BOOKABLE, SLOT_TAKEN, NOT_ENOUGH_BALANCE
 */
export async function memberBook(
  db: Db,
  provider: ClearingProvider,
  m: BoundMember,
  body: MemberBookingCreate,
  now = clockNow(),
): Promise<MemberBooking> {
  const room = (await listResources(db, m.clubId)).find((r) => r.id === body.resourceId);
  const b = await createBooking(
    db,
    provider,
    m.clubId,
    {
      resourceId: body.resourceId,
      startsAt: body.startsAt,
      clientId: m.clientId,
      payments: feePayment(room?.fee ?? 0),
      // Her key, per session client: two members' keys never meet.
      idempotencyKey: `${m.clientId}:${body.idempotencyKey}`.slice(0, 100),
    },
    MEMBER_AUTHOR,
    VIEWER,
    now,
  );
  return presentOne(db, m, b.id, now);
}

/**
 * Cancels her booking (POST /api/Member/Booking/{id}/Cancel): the appointments service's cancelBooking
 * as a member — only up to the club's cutoff (BOOKING_CLOSED after it), the fee refunded whole to
 * what paid it (her balance), the freed slot offered to the waitlist. 404 for anyone else's booking.
 */
export async function memberCancel(
  db: Db,
  provider: ClearingProvider,
  m: BoundMember,
  id: number,
  now = clockNow(),
): Promise<{ booking: MemberBooking; refunded: number }> {
  await presentOne(db, m, id, now);
  const r = await cancelBooking(
    db,
    provider,
    m.clubId,
    id,
    { source: 'member', actor: refundActorOf(m), clientId: m.clientId },
    VIEWER,
    now,
  );
  return { booking: await presentOne(db, m, r.booking.id, now), refunded: r.refunded };
}

/**
 * Takes a slot offered to her from the waitlist (POST /api/Member/Booking/{id}/Accept): the service's
 * acceptOffer, a fee paid from her balance. @throws NOT_FOUND (not hers), BOOKING_CLOSED (hold passed)
 */
export async function memberAccept(
  db: Db,
  provider: ClearingProvider,
  m: BoundMember,
  id: number,
  now = clockNow(),
): Promise<MemberBooking> {
  const mine = await presentOne(db, m, id, now);
  await acceptOffer(
    db,
    provider,
    m.clubId,
    id,
    { clientId: m.clientId, payments: feePayment(mine.fee) },
    MEMBER_AUTHOR,
    VIEWER,
    now,
  );
  return presentOne(db, m, id, now);
}

/**
 * Puts her on the waitlist of a date and a room kind she may book (POST /api/Member/Booking/Waitlist).
 * @throws BOOKING_NOT_ALLOWED (no room of the kind open to her group), VALIDATION_ERROR date (past or
 *   beyond the club's days ahead)
 */
export async function memberJoinWaitlist(
  db: Db,
  m: BoundMember,
  body: { date: string; kind: MemberWaitlistEntry['kind'] },
  now = clockNow(),
): Promise<MemberWaitlistEntry> {
  const kinds = await memberBookingRooms(db, m);
  if (!kinds.some((k) => k.kind === body.kind)) throw new AppError('BOOKING_NOT_ALLOWED', 'group may not book');
  const s = await readBookingSettings(db, m.clubId);
  const loc = await clubLoc(db, m.clubId);
  const last = isoDate(addDays(localDateOf(now, loc.timeZone), s.daysAhead));
  if (isoDate(parseIsoDate(body.date)) > last) throw validationError([{ path: 'date', message: 'invalidDate' }]);
  const w = await addToWaitlist(db, m.clubId, { clientId: m.clientId, ...body }, VIEWER, now);
  return { id: w.id, date: w.date, kind: w.kind, status: w.status };
}

/** A one-time gate code for her booking (POST /api/Member/Booking/{id}/GateCode): booking-codes.ts. */
export async function memberGateCode(db: Db, m: BoundMember, id: number, now = clockNow()): Promise<MemberGateCode> {
  return issueGateCode(db, m.clubId, m.clientId, id, now);
}
