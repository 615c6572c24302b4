import { and, asc, eq, gt, gte, inArray, lt, ne, sql } from 'drizzle-orm';
import {
  addDays,
  BookingSettings,
  computeSlots,
  computeWeekPreview,
  isoDate,
  isLate,
  isSlotStart,
  localParts,
  localToInstant,
  parseIsoDate,
  planReminders,
  PurchaseItemType,
  type Booking,
  type BookingCreate,
  type BookingEvening,
  type BookingMove,
  type BookingResource,
  type BookingResourceInput,
  type BookingSlots,
  type BookingSlotsQuery,
  type BookingStatus,
  type ClubLocation,
  type LocalDate,
  type PaymentInput,
  type WaitlistEntry,
} from '@venue/domain';
import type { Db, Tx } from '../../db/index.js';
import {
  bookingResources,
  bookings,
  bookingSettings,
  bookingWaitlist,
  clients,
  clubs,
  groups,
  schedules,
  scheduleToGroup,
} from '../../db/schema.js';
import type { Actor } from '../../lib/actor.js';
import { clockNow } from '../../lib/clock.js';
import { AppError, notFound } from '../../lib/errors.js';
import { scoped } from '../../lib/scoped.js';
import { pgError, validationError } from '../../lib/validation.js';
import type { ClearingProvider } from '../../integrations/clearing/provider.js';
import { clubLocation } from '../club/club.service.js';
import { presentScheduleRow } from '../groups/groups.service.js';
import { createPurchase } from '../purchases/purchase.service.js';
import { refundPurchase, type RefundActor } from '../documents/refund.service.js';
import { invalidateBookingGate } from './booking-gate.js';
import { queueBookingMessage } from './booking-messages.js';

/**
 * Immersion appointments (issue 38, docs/appointments.md): rooms, the club's rules, slots from the
 * group's real opening windows, booking, moving, cancelling and the waitlist. No double booking: every
 * write that makes a booking hold a room takes the room's transaction lock, checks for an overlap and
 * inserts; the partial unique index bookings_live_slot stops what the lock would not (a second
 * server on another database connection takes the same lock).
 */

/** Advisory-lock namespace of a room's bookings ("BOOK"); the second key is the room id. */
const ROOM_LOCK = 0x424f4f4b;

/** States that hold a room. */
const LIVE = sql`${bookings.status} <> 'cancelled'`;

type ResourceRow = typeof bookingResources.$inferSelect;
type BookingRow = typeof bookings.$inferSelect;

/** The club's booking rules, the defaults where nothing is saved. */
export async function readBookingSettings(db: Db | Tx, clubId: number): Promise<BookingSettings> {
  const [row] = await db.select().from(bookingSettings).where(eq(bookingSettings.clubId, clubId));
  return BookingSettings.parse(row?.settings ?? {});
}

/** Saves the club's booking rules (the gate reads them anew at once). */
export async function saveBookingSettings(db: Db, clubId: number, s: BookingSettings): Promise<BookingSettings> {
  await db
    .insert(bookingSettings)
    .values({ clubId, settings: s })
    .onConflictDoUpdate({ target: bookingSettings.clubId, set: { settings: s, updatedAt: clockNow() } });
  invalidateBookingGate(db, clubId);
  return s;
}

function presentResource(r: ResourceRow): BookingResource {
  return {
    id: r.id,
    name: r.name,
    kind: r.kind as BookingResource['kind'],
    serviceMinutes: r.serviceMinutes,
    bufferMinutes: r.bufferMinutes,
    groupIds: r.groupIds,
    fee: r.fee,
    active: r.active,
  };
}

/** The club's rooms (not removed), by name. */
export async function listResources(db: Db | Tx, clubId: number): Promise<BookingResource[]> {
  const rows = await db
    .select()
    .from(bookingResources)
    .where(and(eq(bookingResources.clubId, clubId), eq(bookingResources.deleted, false)))
    .orderBy(asc(bookingResources.name), asc(bookingResources.id));
  return rows.map(presentResource);
}

async function resourceRow(db: Db | Tx, clubId: number, id: number): Promise<ResourceRow> {
  const [r] = await db
    .select()
    .from(bookingResources)
    .where(and(eq(bookingResources.clubId, clubId), eq(bookingResources.id, id), eq(bookingResources.deleted, false)));
  if (!r) throw notFound('resource');
  return r;
}

/** Every group id must be a live group of the club, else VALIDATION_ERROR at groupIds.<i>. */
async function checkGroups(db: Db | Tx, clubId: number, ids: readonly number[], path: string): Promise<void> {
  if (ids.length === 0) return;
  const found = await db
    .select({ id: groups.id })
    .from(groups)
    .where(scoped(db, clubId).live(groups, inArray(groups.id, [...ids])));
  const known = new Set(found.map((g) => g.id));
  const bad = ids.findIndex((g) => !known.has(g));
  if (bad >= 0) throw validationError([{ path: `${path}.${bad}`, message: 'invalidId' }]);
}

/**
 * A new room. @throws VALIDATION_ERROR (a group id not of the club)
 */
export async function createResource(db: Db, clubId: number, input: BookingResourceInput): Promise<BookingResource> {
  await checkGroups(db, clubId, input.groupIds, 'groupIds');
  const [r] = await db
    .insert(bookingResources)
    .values({ clubId, ...input })
    .returning();
  return presentResource(r);
}

/** Changes a room. @throws NOT_FOUND, VALIDATION_ERROR */
export async function updateResource(
  db: Db,
  clubId: number,
  id: number,
  input: BookingResourceInput,
): Promise<BookingResource> {
  await resourceRow(db, clubId, id);
  await checkGroups(db, clubId, input.groupIds, 'groupIds');
  const [r] = await db
    .update(bookingResources)
    .set(input)
    .where(and(eq(bookingResources.clubId, clubId), eq(bookingResources.id, id)))
    .returning();
  invalidateBookingGate(db, clubId);
  return presentResource(r);
}

/** Removes a room from booking (its bookings stay). @throws NOT_FOUND */
export async function deleteResource(db: Db, clubId: number, id: number): Promise<{ ok: true }> {
  await resourceRow(db, clubId, id);
  await db
    .update(bookingResources)
    .set({ deleted: true, active: false })
    .where(and(eq(bookingResources.clubId, clubId), eq(bookingResources.id, id)));
  return { ok: true };
}

/** The club's location (zmanim, time zone). */
export async function clubLoc(db: Db | Tx, clubId: number): Promise<ClubLocation> {
  const [club] = await db.select({ location: clubs.location }).from(clubs).where(eq(clubs.id, clubId));
  if (!club) throw notFound('club');
  return clubLocation(club);
}

/** The club-local date of an instant. */
export function localDateOf(at: Date, timeZone: string): LocalDate {
  const p = localParts(at, timeZone);
  return { year: p.year, month: p.month, day: p.day };
}

/**
 * The group's opening windows for `days` days from `from`: its own rows and its linked general
 * rows through the domain's computeWeekPreview (the same rule as the group's week preview and the gate).
 */
async function groupDays(
  db: Db | Tx,
  clubId: number,
  groupId: number,
  from: LocalDate,
  days: number,
  loc: ClubLocation,
) {
  const s = scoped(db, clubId);
  const group = await s.one(groups, groupId, 'group', { live: true });
  const own = await db
    .select()
    .from(schedules)
    .where(s.where(schedules, eq(schedules.groupId, groupId)));
  const linked = await db
    .select({ s: schedules })
    .from(scheduleToGroup)
    .innerJoin(schedules, eq(schedules.id, scheduleToGroup.scheduleId))
    .where(s.where(scheduleToGroup, eq(scheduleToGroup.groupId, groupId)));
  const rows = [
    ...own.map((r) => ({ ...presentScheduleRow(r), general: false })),
    ...linked.map((l) => ({ ...presentScheduleRow(l.s), general: true })),
  ];
  const opts = { from, loc, rows, newDayStartHour: group.newDayStartHour, days, locale: 'he' as const };
  // The preview is a pure function of its input: computed once per distinct input (hebcal's zmanim
  // and holidays cost milliseconds, and a booking burst asks for the same evening many times).
  const key = JSON.stringify(opts);
  let out = previewMemo.get(key);
  if (!out) {
    out = computeWeekPreview(opts);
    if (previewMemo.size >= 500) previewMemo.delete(previewMemo.keys().next().value!);
    previewMemo.set(key, out);
  }
  return out;
}

/** computeWeekPreview answers by input (JSON), oldest dropped first beyond 500. */
const previewMemo = new Map<string, ReturnType<typeof computeWeekPreview>>();

/** Whether a room may be booked by members of a group. */
const allows = (r: { groupIds: number[] }, groupId: number | null) =>
  r.groupIds.length === 0 || (groupId != null && r.groupIds.includes(groupId));

/** Live bookings of rooms overlapping [from, to). */
async function busyBetween(db: Db | Tx, clubId: number, from: Date, to: Date) {
  return db
    .select({ resourceId: bookings.resourceId, startsAt: bookings.startsAt, blockedUntil: bookings.blockedUntil })
    .from(bookings)
    .where(and(eq(bookings.clubId, clubId), LIVE, lt(bookings.startsAt, to), gt(bookings.blockedUntil, from)));
}

/**
 * The bookable slots of `q.days` days (at most 7) from `q.from` (default: today at the club) for a
 * group (default: the first group a room names, else the club's first live group), per room the
 * group may book, with `free` marking the slots no live booking holds and not yet begun.
 */
export async function listSlots(db: Db, clubId: number, q: BookingSlotsQuery, now = clockNow()): Promise<BookingSlots> {
  await expireOffers(db, clubId, now);
  const loc = await clubLoc(db, clubId);
  const from = q.from ? parseIsoDate(q.from) : localDateOf(now, loc.timeZone);
  const rooms = (await listResources(db, clubId)).filter((r) => r.active && (!q.kind || r.kind === q.kind));
  let groupId = q.groupId ?? rooms.find((r) => r.groupIds.length > 0)?.groupIds[0] ?? null;
  if (groupId == null) {
    const [g] = await db
      .select({ id: groups.id })
      .from(groups)
      .where(scoped(db, clubId).live(groups))
      .orderBy(asc(groups.id))
      .limit(1);
    groupId = g?.id ?? null;
  }
  if (groupId == null) return { groupId: null, resources: [], days: [] };
  const days = Math.min(q.days, 7);
  const preview = await groupDays(db, clubId, groupId, from, days, loc);
  const open = rooms.filter((r) => allows(r, groupId));
  const start = new Date(Date.UTC(from.year, from.month - 1, from.day) - 86_400_000);
  const busy = await busyBetween(db, clubId, start, new Date(start.getTime() + (days + 3) * 86_400_000));
  const computed = computeSlots({ days: preview, resources: open, busy, timeZone: loc.timeZone, now });
  return {
    groupId,
    resources: open,
    days: computed.map((d) => ({
      ...d,
      slots: d.slots.map((s) => ({
        ...s,
        kind: s.kind as BookingResource['kind'],
        startsAt: s.startsAt.toISOString(),
        endsAt: s.endsAt.toISOString(),
      })),
    })),
  };
}

/** A client of the club, with what booking reads. @throws NOT_FOUND */
async function clientOf(db: Db | Tx, clubId: number, clientId: number) {
  const [c] = await db
    .select({ id: clients.id, groupId: clients.groupId, firstName: clients.firstName, lastName: clients.lastName })
    .from(clients)
    .where(scoped(db, clubId).live(clients, eq(clients.id, clientId)));
  if (!c) throw notFound('client');
  return c;
}

/**
 * Checks that `startsAt` is a slot of the room on the group's opening windows: not begun, within the
 * club's days ahead, the room open to the group. Returns the slot's end and the end of its buffer.
 * @throws BOOKING_NOT_ALLOWED (the group may not book the room), SLOT_NOT_BOOKABLE
 */
async function checkSlot(
  db: Db | Tx,
  clubId: number,
  room: ResourceRow,
  groupId: number | null,
  startsAt: Date,
  now: Date,
): Promise<{ endsAt: Date; blockedUntil: Date; loc: ClubLocation }> {
  if (!room.active) throw new AppError('SLOT_NOT_BOOKABLE', 'room not active');
  if (!allows(room, groupId) || groupId == null) throw new AppError('BOOKING_NOT_ALLOWED', 'group may not book');
  const settings = await readBookingSettings(db, clubId);
  if (startsAt.getTime() <= now.getTime() || startsAt.getTime() > now.getTime() + settings.daysAhead * 86_400_000) {
    throw new AppError('SLOT_NOT_BOOKABLE', 'not in the booking range');
  }
  const loc = await clubLoc(db, clubId);
  // A window after midnight belongs to the day before: read that day too.
  const day = addDays(localDateOf(startsAt, loc.timeZone), -1);
  const preview = await groupDays(db, clubId, groupId, day, 2, loc);
  const computed = computeSlots({ days: preview, resources: [room], busy: [], timeZone: loc.timeZone });
  const slot = isSlotStart(computed, room.id, startsAt);
  if (!slot) throw new AppError('SLOT_NOT_BOOKABLE', 'not a slot of the room');
  return { endsAt: slot.endsAt, blockedUntil: new Date(slot.endsAt.getTime() + room.bufferMinutes * 60_000), loc };
}

/**
 * Makes a booking hold its room, inside the caller's transaction: the room's lock, then no live
 * booking may overlap [startsAt, blockedUntil). @throws SLOT_TAKEN
 */
async function holdRoom(
  tx: Tx,
  clubId: number,
  resourceId: number,
  startsAt: Date,
  blockedUntil: Date,
  exceptId: number | null,
): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${ROOM_LOCK}::int, ${resourceId}::int)`);
  const [clash] = await tx
    .select({ id: bookings.id })
    .from(bookings)
    .where(
      and(
        eq(bookings.clubId, clubId),
        eq(bookings.resourceId, resourceId),
        LIVE,
        lt(bookings.startsAt, blockedUntil),
        gt(bookings.blockedUntil, startsAt),
        exceptId == null ? undefined : ne(bookings.id, exceptId),
      ),
    )
    .limit(1);
  if (clash) throw new AppError('SLOT_TAKEN', 'slot taken');
}

/** Runs a write that may meet the live-slot index: its violation is SLOT_TAKEN, never a 500. */
async function slotWrite<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (pgError(err).constraint === 'bookings_live_slot') throw new AppError('SLOT_TAKEN', 'slot taken');
    throw err;
  }
}

/** Reminder times of a booking (domain planReminders: day before, hour before, never on Shabbat or yom tov). */
function reminderColumns(startsAt: Date, now: Date, loc: ClubLocation) {
  const plan = planReminders(startsAt, now, loc);
  return {
    remindDayAt: plan.find((p) => p.kind === 'day')?.at ?? null,
    remindHourAt: plan.find((p) => p.kind === 'hour')?.at ?? null,
  };
}

/** Whom a staff user may see by name: full names with roleViewBookingNames, else first names. */
export interface BookingViewer {
  fullNames: boolean;
}

async function presentBookings(
  db: Db | Tx,
  clubId: number,
  rows: BookingRow[],
  viewer: BookingViewer,
  now: Date,
): Promise<Booking[]> {
  if (rows.length === 0) return [];
  const rooms = new Map(
    (
      await db
        .select()
        .from(bookingResources)
        .where(
          and(
            eq(bookingResources.clubId, clubId),
            inArray(bookingResources.id, [...new Set(rows.map((r) => r.resourceId))]),
          ),
        )
    ).map((r) => [r.id, r]),
  );
  const people = new Map(
    (
      await db
        .select({ id: clients.id, firstName: clients.firstName, lastName: clients.lastName })
        .from(clients)
        .where(and(eq(clients.clubId, clubId), inArray(clients.id, [...new Set(rows.map((r) => r.clientId))])))
    ).map((c) => [c.id, c]),
  );
  return rows.map((b) => {
    const room = rooms.get(b.resourceId)!;
    const c = people.get(b.clientId);
    const name = c ? (viewer.fullNames ? `${c.firstName} ${c.lastName}`.trim() : c.firstName) : '';
    return {
      id: b.id,
      resourceId: b.resourceId,
      resourceName: room.name,
      kind: room.kind as Booking['kind'],
      clientId: b.clientId,
      clientName: name,
      startsAt: b.startsAt.toISOString(),
      endsAt: b.endsAt.toISOString(),
      status: b.status as BookingStatus,
      source: b.source as Booking['source'],
      fee: b.fee,
      purchaseId: b.purchaseId,
      late: isLate(b, now),
      offerExpiresAt: b.offerExpiresAt?.toISOString() ?? null,
    };
  });
}

/** The viewer of a staff actor. */
export const viewerOf = (actor: Pick<Actor, 'permissions'>): BookingViewer => ({
  fullNames: actor.permissions.roleViewBookingNames === true,
});

async function bookingRow(db: Db | Tx, clubId: number, id: number): Promise<BookingRow> {
  const [b] = await db
    .select()
    .from(bookings)
    .where(and(eq(bookings.clubId, clubId), eq(bookings.id, id)));
  if (!b) throw notFound('booking');
  return b;
}

/** One booking as the viewer sees it. @throws NOT_FOUND */
export async function getBooking(db: Db | Tx, clubId: number, id: number, viewer: BookingViewer): Promise<Booking> {
  const b = await bookingRow(db, clubId, id);
  return (await presentBookings(db, clubId, [b], viewer, clockNow()))[0];
}

/** Who books: staff at the console, or the member herself. */
export interface BookingAuthor {
  source: 'staff' | 'member';
  userId: number | null;
  actor?: Actor;
}

/**
 * Books a client into a slot (docs/appointments.md "Booking"). The slot must be one of the room's
 * slots on the client's group's opening windows; the room's fee (when above 0) is a purchase through
 * createPurchase — the console's path, idempotent by key — and the booking is written in that
 * purchase's transaction, so a taken slot rolls the purchase back (a card charge is refunded). A
 * repeated idempotency key answers the first booking.
 * @throws NOT_FOUND (room, client), BOOKING_NOT_ALLOWED, SLOT_NOT_BOOKABLE, SLOT_TAKEN,
 *   VALIDATION_ERROR payments/required (a fee room without payments), and every createPurchase refusal
 */
export async function createBooking(
  db: Db,
  provider: ClearingProvider,
  clubId: number,
  input: BookingCreate,
  author: BookingAuthor,
  viewer: BookingViewer,
  now = clockNow(),
): Promise<Booking> {
  const key = `${author.source}:${input.idempotencyKey}`;
  const [seen] = await db
    .select()
    .from(bookings)
    .where(and(eq(bookings.clubId, clubId), eq(bookings.idempotencyKey, key)));
  if (seen) return (await presentBookings(db, clubId, [seen], viewer, now))[0];
  const room = await resourceRow(db, clubId, input.resourceId);
  const client = await clientOf(db, clubId, input.clientId);
  const startsAt = new Date(input.startsAt);
  const slot = await checkSlot(db, clubId, room, client.groupId, startsAt, now);
  const values = {
    clubId,
    resourceId: room.id,
    clientId: client.id,
    startsAt,
    endsAt: slot.endsAt,
    blockedUntil: slot.blockedUntil,
    status: 'booked',
    source: author.source,
    fee: room.fee,
    idempotencyKey: key,
    ...reminderColumns(startsAt, now, slot.loc),
  };
  const write = async (tx: Tx, purchaseId: number | null) => {
    await holdRoom(tx, clubId, room.id, startsAt, slot.blockedUntil, null);
    const [row] = await tx
      .insert(bookings)
      .values({ ...values, purchaseId })
      .returning();
    return row;
  };
  let row: BookingRow;
  try {
    row = await slotWrite(async () => {
      if (room.fee === 0) return db.transaction((tx) => write(tx, null));
      let made: BookingRow | undefined;
      await payFee(db, provider, clubId, client.id, room, input.payments, key, author, async (tx, purchaseId) => {
        made = await write(tx, purchaseId);
      });
      return made ?? (await bookingByKey(db, clubId, key));
    });
  } catch (err) {
    // Two requests with one key: the loser answers the winner's booking.
    if (pgError(err).constraint === 'bookings_idem') row = await bookingByKey(db, clubId, key);
    else throw err;
  }
  invalidateBookingGate(db, clubId);
  return (await presentBookings(db, clubId, [row], viewer, now))[0];
}

async function bookingByKey(db: Db | Tx, clubId: number, key: string): Promise<BookingRow> {
  const [b] = await db
    .select()
    .from(bookings)
    .where(and(eq(bookings.clubId, clubId), eq(bookings.idempotencyKey, key)));
  if (!b) throw new AppError('SLOT_TAKEN', 'slot taken');
  return b;
}

/** The fee of a room as one purchase line (room kind only: no booking details on tax documents). */
async function payFee(
  db: Db,
  provider: ClearingProvider,
  clubId: number,
  clientId: number,
  room: ResourceRow,
  payments: PaymentInput[] | undefined,
  key: string,
  author: BookingAuthor,
  inTransaction: (tx: Tx, purchaseId: number) => Promise<void>,
): Promise<number> {
  if (!payments || payments.length === 0) throw validationError([{ path: 'payments', message: 'required' }]);
  const p = await createPurchase(db, provider, {
    clubId,
    clientId,
    items: [
      {
        itemType: PurchaseItemType.Product,
        name: FEE_LINE[room.kind] ?? FEE_LINE.pool,
        quantity: 1,
        unitPrice: room.fee,
      },
    ],
    payments,
    // The member pays her own fee as any member purchase (her balance; no staff prices, no Free).
    isAdminUser: author.source !== 'member',
    source: author.source === 'member' ? 'member' : 'console',
    userId: author.userId,
    idempotencyKey: `booking:${key}`.slice(0, 100),
    actor: author.actor,
    inTransaction: (tx, purchase) => inTransaction(tx, purchase.id),
  });
  return p.id;
}

/** The purchase line's name of a booking fee, by room kind (Hebrew: the club's documents are Hebrew). */
const FEE_LINE: Record<string, string> = {
  prepBath: 'תור - חדר הכנה (אמבטיה)',
  prepShower: 'תור - חדר הכנה (מקלחת)',
  pool: 'תור - טבילה',
};

/**
 * Moves a live booking to another slot of the same or another room (staff). The fee stays with the
 * booking; reminders are planned anew. @throws NOT_FOUND, BOOKING_CLOSED (not booked/offered),
 * BOOKING_NOT_ALLOWED, SLOT_NOT_BOOKABLE, SLOT_TAKEN
 */
export async function moveBooking(
  db: Db,
  clubId: number,
  id: number,
  input: BookingMove,
  viewer: BookingViewer,
  now = clockNow(),
): Promise<Booking> {
  const b = await bookingRow(db, clubId, id);
  if (b.status !== 'booked' && b.status !== 'offered') throw new AppError('BOOKING_CLOSED', 'booking closed');
  const room = await resourceRow(db, clubId, input.resourceId ?? b.resourceId);
  const client = await clientOf(db, clubId, b.clientId);
  const startsAt = new Date(input.startsAt);
  const slot = await checkSlot(db, clubId, room, client.groupId, startsAt, now);
  const row = await slotWrite(() =>
    db.transaction(async (tx) => {
      await holdRoom(tx, clubId, room.id, startsAt, slot.blockedUntil, b.id);
      const [r] = await tx
        .update(bookings)
        .set({
          resourceId: room.id,
          startsAt,
          endsAt: slot.endsAt,
          blockedUntil: slot.blockedUntil,
          ...reminderColumns(startsAt, now, slot.loc),
        })
        .where(and(eq(bookings.clubId, clubId), eq(bookings.id, id), inArray(bookings.status, ['booked', 'offered'])))
        .returning();
      if (!r) throw new AppError('BOOKING_CLOSED', 'booking closed');
      return r;
    }),
  );
  invalidateBookingGate(db, clubId);
  await offerFreedSlot(db, clubId, b, now);
  return (await presentBookings(db, clubId, [row], viewer, now))[0];
}

/**
 * Cancels a booking (docs/appointments.md "Cancelling"). Staff may cancel any live booking before
 * the visit; a member only up to the club's cutoff. The fee is refunded whole when the cancellation
 * is at least `cancelCutoffMinutes` before the start (through refundPurchase, idempotent per
 * booking), kept otherwise. The freed slot is offered to the waitlist.
 * @throws NOT_FOUND, BOOKING_CLOSED (cancelled, already visited; a member past the cutoff)
 */
export async function cancelBooking(
  db: Db,
  provider: ClearingProvider,
  clubId: number,
  id: number,
  by: { source: 'staff' | 'member'; actor: RefundActor; clientId?: number },
  viewer: BookingViewer,
  now = clockNow(),
): Promise<{ booking: Booking; refunded: number }> {
  const b = await bookingRow(db, clubId, id);
  if (by.clientId != null && b.clientId !== by.clientId) throw notFound('booking');
  if (b.status !== 'booked' && b.status !== 'offered') throw new AppError('BOOKING_CLOSED', 'booking closed');
  const settings = await readBookingSettings(db, clubId);
  const beforeCutoff = b.startsAt.getTime() - now.getTime() >= settings.cancelCutoffMinutes * 60_000;
  if (by.source === 'member' && !beforeCutoff) throw new AppError('BOOKING_CLOSED', 'past the cutoff');
  const [row] = await db
    .update(bookings)
    .set({ status: 'cancelled', cancelledAt: now, remindDayAt: null, remindHourAt: null })
    .where(and(eq(bookings.clubId, clubId), eq(bookings.id, id), inArray(bookings.status, ['booked', 'offered'])))
    .returning();
  if (!row) throw new AppError('BOOKING_CLOSED', 'booking closed');
  if (b.waitlistId != null) {
    await db
      .update(bookingWaitlist)
      .set({ status: 'removed' })
      .where(and(eq(bookingWaitlist.clubId, clubId), eq(bookingWaitlist.id, b.waitlistId)));
  }
  invalidateBookingGate(db, clubId);
  let refunded = 0;
  if (b.purchaseId != null && beforeCutoff) {
    const r = await refundPurchase(db, provider, by.actor, b.purchaseId, {
      reason: '',
      idempotencyKey: `booking-cancel:${clubId}:${id}`,
    });
    refunded = r.refund.total;
  }
  await offerFreedSlot(db, clubId, b, now);
  return { booking: (await presentBookings(db, clubId, [row], viewer, now))[0], refunded };
}

/**
 * Offers a freed slot to the first member waiting for its room kind on its date (docs/appointments.md
 * "The waitlist"): a booking in state `offered` holds the slot for her until `offerHoldMinutes` pass
 * (or the slot begins), and a message tells her the time and room kind. Nothing when the slot has
 * begun, no one waits, or the slot was taken meanwhile. Returns the offered booking's id or null.
 */
export async function offerFreedSlot(
  db: Db,
  clubId: number,
  freed: Pick<BookingRow, 'resourceId' | 'startsAt' | 'endsAt' | 'blockedUntil'>,
  now = clockNow(),
): Promise<number | null> {
  if (freed.startsAt.getTime() <= now.getTime()) return null;
  const room = await resourceRow(db, clubId, freed.resourceId).catch(() => null);
  if (!room || !room.active) return null;
  const loc = await clubLoc(db, clubId);
  const settings = await readBookingSettings(db, clubId);
  const date = isoDate(localDateOf(freed.startsAt, loc.timeZone));
  for (;;) {
    const [next] = await db
      .select()
      .from(bookingWaitlist)
      .where(
        and(
          eq(bookingWaitlist.clubId, clubId),
          eq(bookingWaitlist.date, date),
          eq(bookingWaitlist.kind, room.kind),
          eq(bookingWaitlist.status, 'waiting'),
        ),
      )
      .orderBy(asc(bookingWaitlist.id))
      .limit(1);
    if (!next) return null;
    const client = await clientOf(db, clubId, next.clientId).catch(() => null);
    if (!client || !allows(room, client.groupId)) {
      await db
        .update(bookingWaitlist)
        .set({ status: 'removed' })
        .where(and(eq(bookingWaitlist.clubId, clubId), eq(bookingWaitlist.id, next.id)));
      continue;
    }
    const expires = new Date(Math.min(now.getTime() + settings.offerHoldMinutes * 60_000, freed.startsAt.getTime()));
    try {
      const id = await db.transaction(async (tx) => {
        const [w] = await tx
          .update(bookingWaitlist)
          .set({ status: 'offered' })
          .where(
            and(
              eq(bookingWaitlist.clubId, clubId),
              eq(bookingWaitlist.id, next.id),
              eq(bookingWaitlist.status, 'waiting'),
            ),
          )
          .returning();
        if (!w) return -1;
        await holdRoom(tx, clubId, room.id, freed.startsAt, freed.blockedUntil, null);
        const [b] = await tx
          .insert(bookings)
          .values({
            clubId,
            resourceId: room.id,
            clientId: client.id,
            startsAt: freed.startsAt,
            endsAt: freed.endsAt,
            blockedUntil: freed.blockedUntil,
            status: 'offered',
            source: 'waitlist',
            fee: room.fee,
            offerExpiresAt: expires,
            waitlistId: next.id,
          })
          .returning({ id: bookings.id });
        await tx
          .update(bookingWaitlist)
          .set({ bookingId: b.id })
          .where(and(eq(bookingWaitlist.clubId, clubId), eq(bookingWaitlist.id, next.id)));
        await queueBookingMessage(tx, {
          clubId,
          clientId: client.id,
          kind: 'booking-offer',
          startsAt: freed.startsAt,
          roomKind: room.kind,
          loc,
        });
        return b.id;
      });
      if (id === -1) continue;
      return id;
    } catch (err) {
      if (err instanceof AppError && err.code === 'SLOT_TAKEN') return null;
      if (pgError(err).constraint === 'bookings_live_slot') return null;
      throw err;
    }
  }
}

/**
 * Ends the offers whose hold has passed at `now`: each becomes cancelled, its waitlist entry
 * `expired`, and the slot goes to the next in line. Called before slots, the evening and the
 * waitlist are read, and by the reminders job. Returns how many offers ended.
 */
export async function expireOffers(db: Db, clubId: number, now = clockNow()): Promise<number> {
  const ended = await db
    .update(bookings)
    .set({ status: 'cancelled', cancelledAt: now })
    .where(and(eq(bookings.clubId, clubId), eq(bookings.status, 'offered'), lt(bookings.offerExpiresAt, now)))
    .returning();
  for (const b of ended) {
    if (b.waitlistId != null) {
      await db
        .update(bookingWaitlist)
        .set({ status: 'expired' })
        .where(and(eq(bookingWaitlist.clubId, clubId), eq(bookingWaitlist.id, b.waitlistId)));
    }
    await offerFreedSlot(db, clubId, b, now);
  }
  return ended.length;
}

/**
 * Takes an offered slot: the booking becomes `booked` (its fee, when the room has one, paid through
 * the purchase path in the same transaction). @throws NOT_FOUND, BOOKING_CLOSED (not an offer, or its
 * hold passed), VALIDATION_ERROR payments/required
 */
export async function acceptOffer(
  db: Db,
  provider: ClearingProvider,
  clubId: number,
  id: number,
  body: { payments?: PaymentInput[]; clientId?: number } | undefined,
  author: BookingAuthor,
  viewer: BookingViewer,
  now = clockNow(),
): Promise<Booking> {
  await expireOffers(db, clubId, now);
  const b = await bookingRow(db, clubId, id);
  if (body?.clientId != null && body.clientId !== b.clientId) throw notFound('booking');
  if (b.status !== 'offered') throw new AppError('BOOKING_CLOSED', 'not an offer');
  const loc = await clubLoc(db, clubId);
  const take = async (tx: Tx, purchaseId: number | null) => {
    const [r] = await tx
      .update(bookings)
      .set({ status: 'booked', offerExpiresAt: null, purchaseId, ...reminderColumns(b.startsAt, now, loc) })
      .where(and(eq(bookings.clubId, clubId), eq(bookings.id, id), eq(bookings.status, 'offered')))
      .returning();
    if (!r) throw new AppError('BOOKING_CLOSED', 'not an offer');
    if (b.waitlistId != null) {
      await tx
        .update(bookingWaitlist)
        .set({ status: 'booked' })
        .where(and(eq(bookingWaitlist.clubId, clubId), eq(bookingWaitlist.id, b.waitlistId)));
    }
  };
  if (b.fee > 0) {
    const room = await resourceRow(db, clubId, b.resourceId);
    await payFee(db, provider, clubId, b.clientId, room, body?.payments, `offer:${id}`, author, take);
  } else {
    await db.transaction((tx) => take(tx, null));
  }
  invalidateBookingGate(db, clubId);
  return getBooking(db, clubId, id, viewer);
}

/**
 * The attendant's step on the timeline: checked in (its time recorded), in preparation, immersed,
 * done, no-show, or back to booked. @throws NOT_FOUND, BOOKING_CLOSED (cancelled or an offer)
 */
export async function setBookingStatus(
  db: Db,
  clubId: number,
  id: number,
  status: BookingStatus,
  viewer: BookingViewer,
  now = clockNow(),
): Promise<Booking> {
  const b = await bookingRow(db, clubId, id);
  if (b.status === 'cancelled' || b.status === 'offered') throw new AppError('BOOKING_CLOSED', 'booking closed');
  const [row] = await db
    .update(bookings)
    .set({
      status,
      checkedInAt: status === 'checkedIn' ? (b.checkedInAt ?? now) : status === 'booked' ? null : b.checkedInAt,
      ...(status === 'booked' ? {} : { remindDayAt: null, remindHourAt: null }),
    })
    .where(and(eq(bookings.clubId, clubId), eq(bookings.id, id)))
    .returning();
  invalidateBookingGate(db, clubId);
  return (await presentBookings(db, clubId, [row], viewer, now))[0];
}

/** The club-local business evening of a date: from its local noon to the next day's local noon. */
function eveningRange(date: LocalDate, timeZone: string) {
  return {
    start: localToInstant(date, 12 * 3600, timeZone),
    end: localToInstant(addDays(date, 1), 12 * 3600, timeZone),
  };
}

/**
 * The attendant's evening (docs/appointments.md "The evening"): each active room with its live
 * bookings starting between the date's local noon and the next day's noon, in time order; offers
 * included, cancellations left out; late visitors marked.
 */
export async function evening(
  db: Db,
  clubId: number,
  date: string | undefined,
  viewer: BookingViewer,
  now = clockNow(),
): Promise<BookingEvening> {
  await expireOffers(db, clubId, now);
  const loc = await clubLoc(db, clubId);
  const day = date ? parseIsoDate(date) : localDateOf(now, loc.timeZone);
  const { start, end } = eveningRange(day, loc.timeZone);
  const rows = await db
    .select()
    .from(bookings)
    .where(and(eq(bookings.clubId, clubId), LIVE, gte(bookings.startsAt, start), lt(bookings.startsAt, end)))
    .orderBy(asc(bookings.startsAt), asc(bookings.id));
  const shown = await presentBookings(db, clubId, rows, viewer, now);
  const rooms = await listResources(db, clubId);
  return {
    date: isoDate(day),
    now: now.toISOString(),
    rooms: rooms
      .filter((r) => r.active || shown.some((b) => b.resourceId === r.id))
      .map((r) => ({ resource: r, bookings: shown.filter((b) => b.resourceId === r.id) })),
  };
}

/** The waitlist of a date (default today), in order. */
export async function listWaitlist(
  db: Db,
  clubId: number,
  date: string | undefined,
  viewer: BookingViewer,
  now = clockNow(),
): Promise<WaitlistEntry[]> {
  await expireOffers(db, clubId, now);
  const loc = await clubLoc(db, clubId);
  const d = date ?? isoDate(localDateOf(now, loc.timeZone));
  const rows = await db
    .select({ w: bookingWaitlist, firstName: clients.firstName, lastName: clients.lastName })
    .from(bookingWaitlist)
    .innerJoin(clients, and(eq(clients.clubId, bookingWaitlist.clubId), eq(clients.id, bookingWaitlist.clientId)))
    .where(and(eq(bookingWaitlist.clubId, clubId), eq(bookingWaitlist.date, d)))
    .orderBy(asc(bookingWaitlist.id));
  return rows.map(({ w, firstName, lastName }) =>
    presentWaitlist(w, viewer.fullNames ? `${firstName} ${lastName}`.trim() : firstName),
  );
}

function presentWaitlist(w: typeof bookingWaitlist.$inferSelect, clientName: string): WaitlistEntry {
  return {
    id: w.id,
    clientId: w.clientId,
    clientName,
    date: w.date,
    kind: w.kind as WaitlistEntry['kind'],
    status: w.status as WaitlistEntry['status'],
    bookingId: w.bookingId,
    createdAt: w.createdAt.toISOString(),
  };
}

/**
 * Puts a client on the waitlist of a date and room kind; when a slot of that kind is already free
 * that day it is offered at once. @throws NOT_FOUND (client), VALIDATION_ERROR date/past
 */
export async function addToWaitlist(
  db: Db,
  clubId: number,
  input: { clientId: number; date: string; kind: string },
  viewer: BookingViewer,
  now = clockNow(),
): Promise<WaitlistEntry> {
  const client = await clientOf(db, clubId, input.clientId);
  const loc = await clubLoc(db, clubId);
  if (input.date < isoDate(localDateOf(now, loc.timeZone))) {
    throw validationError([{ path: 'date', message: 'invalidDate' }]);
  }
  const [w] = await db
    .insert(bookingWaitlist)
    .values({ clubId, clientId: client.id, date: input.date, kind: input.kind })
    .returning();
  return presentWaitlist(w, viewer.fullNames ? `${client.firstName} ${client.lastName}`.trim() : client.firstName);
}

/** Takes a waiting client off the waitlist (an offer she holds is cancelled and passed on). @throws NOT_FOUND */
export async function removeFromWaitlist(db: Db, clubId: number, id: number, now = clockNow()): Promise<{ ok: true }> {
  const [w] = await db
    .update(bookingWaitlist)
    .set({ status: 'removed' })
    .where(and(eq(bookingWaitlist.clubId, clubId), eq(bookingWaitlist.id, id)))
    .returning();
  if (!w) throw notFound('waitlist');
  if (w.bookingId != null) {
    const [b] = await db
      .update(bookings)
      .set({ status: 'cancelled', cancelledAt: now })
      .where(and(eq(bookings.clubId, clubId), eq(bookings.id, w.bookingId), eq(bookings.status, 'offered')))
      .returning();
    if (b) await offerFreedSlot(db, clubId, b, now);
  }
  return { ok: true };
}

/** Bookable minutes of one room kind in one local hour (the room-use report). */
export interface BookableMinutes {
  kind: string;
  /** Local hour 0–23 in which the slots start. */
  hour: number;
  /** Service minutes of every slot starting in that hour, summed over the days and rooms. */
  minutes: number;
}

/**
 * The bookable minutes of the club's rooms over `days` local days from `from` (docs/appointments.md
 * "Reports", room use): every active room's slots on those days — computeSlots on the real opening
 * windows of the group whose members may book it (its first group; a room open to every group: the
 * club's first live group, as the slot list) — each slot's service minutes counted in the local
 * hour it starts. Rooms removed or inactive now are not counted (their past bookings still are).
 */
export async function bookableMinutes(
  db: Db | Tx,
  clubId: number,
  from: LocalDate,
  days: number,
): Promise<BookableMinutes[]> {
  const rooms = (await listResources(db, clubId)).filter((r) => r.active);
  if (rooms.length === 0 || days <= 0) return [];
  const loc = await clubLoc(db, clubId);
  const [first] = await db
    .select({ id: groups.id })
    .from(groups)
    .where(scoped(db, clubId).live(groups))
    .orderBy(asc(groups.id))
    .limit(1);
  const byGroup = new Map<number, BookingResource[]>();
  for (const r of rooms) {
    const g = r.groupIds[0] ?? first?.id;
    if (g == null) continue;
    byGroup.set(g, [...(byGroup.get(g) ?? []), r]);
  }
  const out = new Map<string, BookableMinutes>();
  for (const [groupId, list] of byGroup) {
    const preview = await groupDays(db, clubId, groupId, from, days, loc).catch(() => null);
    if (!preview) continue;
    for (const d of computeSlots({ days: preview, resources: list, busy: [], timeZone: loc.timeZone })) {
      for (const s of d.slots) {
        const hour = Math.floor(s.minute / 60) % 24;
        const k = `${s.kind}|${hour}`;
        const cur = out.get(k) ?? { kind: s.kind, hour, minutes: 0 };
        cur.minutes += Math.round((s.endsAt.getTime() - s.startsAt.getTime()) / 60_000);
        out.set(k, cur);
      }
    }
  }
  return [...out.values()];
}
