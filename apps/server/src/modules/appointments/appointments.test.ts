import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { EntranceState, EntranceStatus, HalachicTime, Reason, type Booking, type BookingSlots } from '@venue/domain';
import { Api, createTestApp, makeUser, signedInAdmin, TEST_PASSWORD, type TestContext } from '../../../test/harness.js';
import * as factory from '../../../test/factories.js';
import { bookingCounts, bookings, notificationOutbox, purchases } from '../../db/schema.js';
import { processEntrance } from '../gate/entrance.service.js';
import { sendDueReminders } from './booking-messages.js';
import { applyBookingRetention } from './appointments.jobs.js';
import { withClock } from '../../lib/clock.js';

/**
 * Immersion appointments over the real API on a real database (docs/appointments.md): rooms,
 * slots from the group's real windows, booking (fee through the purchase path), moving,
 * cancelling with a refund, the waitlist's offer, the timeline, the gate's window, reminders,
 * privacy and retention.
 */

let ctx: TestContext;
let admin: Awaited<ReturnType<typeof signedInAdmin>>;
let clubId: number;
let groupId: number;
let roomId: number;
let feeRoomId: number;

beforeAll(async () => {
  ctx = await createTestApp();
  admin = await signedInAdmin(ctx);
  clubId = admin.club.id;
  // Open all day, every day: slots run around the clock, so the tests never wait for evening.
  const g = await factory.makeGroupWithSchedule(ctx, clubId, { name: 'Members' }, [
    { entranceState: EntranceState.Opened },
  ]);
  groupId = g.id;
  const room = await admin.api.post('/api/Booking/Resource', {
    name: 'Room 1',
    kind: 'prepBath',
    serviceMinutes: 45,
    bufferMinutes: 15,
    groupIds: [groupId],
  });
  expect(room.statusCode).toBe(200);
  roomId = room.json().id;
  const fee = await admin.api.post('/api/Booking/Resource', {
    name: 'Pool',
    kind: 'pool',
    serviceMinutes: 10,
    bufferMinutes: 5,
    fee: 2500,
  });
  feeRoomId = fee.json().id;
});
afterAll(async () => ctx?.close());

async function slots(q = ''): Promise<BookingSlots> {
  const res = await admin.api.get(`/api/Booking/Slots?groupId=${groupId}${q}`);
  expect(res.statusCode).toBe(200);
  return res.json();
}

/** Free slots of a room at least `aheadMinutes` from now. */
async function freeSlots(resourceId: number, aheadMinutes = 180) {
  const s = await slots();
  return s.days
    .flatMap((d) => d.slots)
    .filter(
      (x) => x.resourceId === resourceId && x.free && Date.parse(x.startsAt) > Date.now() + aheadMinutes * 60_000,
    );
}

let seq = 0;
const key = () => `t-${Date.now()}-${seq++}`;

async function member(over: Record<string, unknown> = {}) {
  return factory.makeClient(ctx, clubId, {
    groupId,
    firstName: 'Miriam',
    lastName: `Levi${seq++}`,
    email: `m${seq}@example.org`,
    ...factory.SUBSCRIBED,
    ...over,
  });
}

describe('rooms and slots', () => {
  it('refuses a bad room with field errors and another club’s group', async () => {
    const bad = await admin.api.post('/api/Booking/Resource', { name: '', kind: 'sauna', serviceMinutes: 1 });
    expect(bad.statusCode).toBe(400);
    const paths = bad.json().details.map((d: { path: string }) => d.path);
    expect(paths).toEqual(expect.arrayContaining(['name', 'kind', 'serviceMinutes']));
    const other = await signedInAdmin(ctx);
    const og = await factory.makeGroup(ctx, other.club.id);
    const cross = await admin.api.post('/api/Booking/Resource', {
      name: 'X',
      kind: 'pool',
      serviceMinutes: 10,
      groupIds: [og.id],
    });
    expect(cross.statusCode).toBe(400);
    expect(cross.json().details[0].path).toBe('groupIds.0');
    expect((await other.api.get(`/api/Booking/Resource`)).json()).toEqual([]);
    expect(
      await other.api
        .request('PUT', `/api/Booking/Resource/${roomId}`, { name: 'Y', kind: 'pool', serviceMinutes: 10 })
        .then((r) => r.statusCode),
    ).toBe(404);
  });

  it('lays slots every service + buffer minutes from the window’s opening', async () => {
    const s = await slots('&days=2');
    const room = s.days[1].slots.filter((x) => x.resourceId === roomId);
    expect(room[0].minute).toBe(0);
    expect(room[1].minute).toBe(60);
    expect(room.length).toBe(24);
    const pool = s.days[1].slots.filter((x) => x.resourceId === feeRoomId);
    expect(pool[1].minute).toBe(15);
  });

  it('starts the evening’s slots at nightfall when the schedule opens at nightfall', async () => {
    const g = await factory.makeGroupWithSchedule(ctx, clubId, { name: 'Evening' }, [
      { entranceState: EntranceState.Opened, fromTime: null, fromHalachic: HalachicTime.Nightfall, toTime: 1380 },
    ]);
    const res = await admin.api.get(`/api/Booking/Slots?groupId=${g.id}&days=3`);
    const body: BookingSlots = res.json();
    for (const d of body.days) {
      const first = d.slots.filter((x) => x.resourceId === feeRoomId)[0];
      expect(first.minute).toBe(d.nightfall);
      // The room of another group is not offered to this one.
      expect(d.slots.some((x) => x.resourceId === roomId)).toBe(false);
    }
  });
});

describe('booking', () => {
  it('books, refuses the same slot twice, a non-slot time and another group', async () => {
    const [s] = await freeSlots(roomId);
    const a = await member();
    const b = await member();
    const res = await admin.api.post('/api/Booking', {
      resourceId: roomId,
      startsAt: s.startsAt,
      clientId: a.id,
      idempotencyKey: key(),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'booked', clientName: 'Miriam Levi' + a.lastName.slice(4), fee: 0 });
    const again = await admin.api.post('/api/Booking', {
      resourceId: roomId,
      startsAt: s.startsAt,
      clientId: b.id,
      idempotencyKey: key(),
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('SLOT_TAKEN');
    const odd = new Date(Date.parse(s.startsAt) + 7 * 60_000).toISOString();
    const off = await admin.api.post('/api/Booking', {
      resourceId: roomId,
      startsAt: odd,
      clientId: b.id,
      idempotencyKey: key(),
    });
    expect(off.json().code).toBe('SLOT_NOT_BOOKABLE');
    const stranger = await factory.makeClient(ctx, clubId, { groupId: (await factory.makeGroup(ctx, clubId)).id });
    const [s2] = await freeSlots(roomId);
    const no = await admin.api.post('/api/Booking', {
      resourceId: roomId,
      startsAt: s2.startsAt,
      clientId: stranger.id,
      idempotencyKey: key(),
    });
    expect(no.json().code).toBe('BOOKING_NOT_ALLOWED');
    // The slot shows as taken.
    expect((await freeSlots(roomId)).some((x) => x.startsAt === s.startsAt)).toBe(false);
  });

  it('charges the fee through the purchase path once per key and refunds it on a timely cancel', async () => {
    const [s] = await freeSlots(feeRoomId);
    const a = await member();
    const noPay = await admin.api.post('/api/Booking', {
      resourceId: feeRoomId,
      startsAt: s.startsAt,
      clientId: a.id,
      idempotencyKey: key(),
    });
    expect(noPay.statusCode).toBe(400);
    expect(noPay.json().details[0].path).toBe('payments');
    const k = key();
    const body = {
      resourceId: feeRoomId,
      startsAt: s.startsAt,
      clientId: a.id,
      payments: [{ method: 0, amount: 2500, cashGiven: 2500 }],
      idempotencyKey: k,
    };
    const first = await admin.api.post('/api/Booking', body);
    expect(first.statusCode).toBe(200);
    const second = await admin.api.post('/api/Booking', body);
    expect(second.json().id).toBe(first.json().id);
    const bought = await ctx.database.db.select().from(purchases).where(eq(purchases.clientId, a.id));
    expect(bought).toHaveLength(1);
    expect(bought[0].total).toBe(2500);
    const cancel = await admin.api.post(`/api/Booking/${first.json().id}/Cancel`);
    expect(cancel.statusCode).toBe(200);
    expect(cancel.json()).toMatchObject({ refunded: 2500, booking: { status: 'cancelled' } });
    // The slot is free again.
    expect((await freeSlots(feeRoomId)).some((x) => x.startsAt === s.startsAt)).toBe(true);
  });

  it('moves a booking and frees its old slot', async () => {
    const [s1, s2] = await freeSlots(roomId);
    const a = await member();
    const b: Booking = (
      await admin.api.post('/api/Booking', {
        resourceId: roomId,
        startsAt: s1.startsAt,
        clientId: a.id,
        idempotencyKey: key(),
      })
    ).json();
    const moved = await admin.api.post(`/api/Booking/${b.id}/Move`, { startsAt: s2.startsAt });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().startsAt).toBe(s2.startsAt);
    const free = await freeSlots(roomId);
    expect(free.some((x) => x.startsAt === s1.startsAt)).toBe(true);
    expect(free.some((x) => x.startsAt === s2.startsAt)).toBe(false);
  });

  it('offers a cancelled slot to the first waitlisted member, with a message of time and room kind only', async () => {
    const [s] = await freeSlots(roomId);
    const a = await member();
    const w = await member({ firstName: 'Rivka' });
    const date = (await slots()).days.find((d) => d.slots.some((x) => x.startsAt === s.startsAt))!.date;
    const b: Booking = (
      await admin.api.post('/api/Booking', {
        resourceId: roomId,
        startsAt: s.startsAt,
        clientId: a.id,
        idempotencyKey: key(),
      })
    ).json();
    const wl = await admin.api.post('/api/Booking/Waitlist', { clientId: w.id, date, kind: 'prepBath' });
    expect(wl.statusCode).toBe(200);
    await admin.api.post(`/api/Booking/${b.id}/Cancel`);
    const list = (await admin.api.get(`/api/Booking/Waitlist?date=${date}`)).json();
    const entry = list.find((e: { clientId: number }) => e.clientId === w.id);
    expect(entry.status).toBe('offered');
    const msgs = await ctx.database.db
      .select()
      .from(notificationOutbox)
      .where(and(eq(notificationOutbox.clientId, w.id), eq(notificationOutbox.kind, 'booking-offer')));
    expect(msgs).toHaveLength(1);
    expect(msgs[0].text).not.toContain('Rivka');
    expect(msgs[0].text).toContain('חדר הכנה');
    const took = await admin.api.post(`/api/Booking/${entry.bookingId}/Accept`);
    expect(took.statusCode).toBe(200);
    expect(took.json()).toMatchObject({ status: 'booked', clientId: w.id, startsAt: s.startsAt, source: 'waitlist' });
  });
});

describe('the evening and privacy', () => {
  it('moves a booking along the timeline; first names only without the names permission; 403 without the booking permission', async () => {
    const [s] = await freeSlots(roomId);
    const a = await member({ firstName: 'Sarah', lastName: 'Cohen' });
    const b: Booking = (
      await admin.api.post('/api/Booking', {
        resourceId: roomId,
        startsAt: s.startsAt,
        clientId: a.id,
        idempotencyKey: key(),
      })
    ).json();
    const step = await admin.api.post(`/api/Booking/${b.id}/Status`, { status: 'checkedIn' });
    expect(step.json().status).toBe('checkedIn');
    const attendant = await makeUser(ctx, clubId, { permissions: { roleManageBookings: true } });
    const api = new Api(ctx.app);
    await api.login(attendant.username, TEST_PASSWORD, admin.club.externalClubId);
    // The evening runs from local noon to the next noon: its date is the local date 12 hours before the start.
    const day = new Date(Date.parse(s.startsAt) - 12 * 3_600_000).toLocaleDateString('en-CA', {
      timeZone: 'Asia/Jerusalem',
    });
    const ev = (await api.get(`/api/Booking/Evening?date=${day}`)).json();
    const mine = ev.rooms.flatMap((r: { bookings: Booking[] }) => r.bookings).find((x: Booking) => x.id === b.id);
    expect(mine.clientName).toBe('Sarah');
    expect(mine.status).toBe('checkedIn');
    const full = (await admin.api.get(`/api/Booking/Evening?date=${day}`)).json();
    expect(
      full.rooms.flatMap((r: { bookings: Booking[] }) => r.bookings).find((x: Booking) => x.id === b.id).clientName,
    ).toBe('Sarah Cohen');
    const nobody = await makeUser(ctx, clubId, { permissions: { roleViewClientsList: true } });
    const api2 = new Api(ctx.app);
    await api2.login(nobody.username, TEST_PASSWORD, admin.club.externalClubId);
    expect((await api2.get(`/api/Booking/Evening`)).statusCode).toBe(403);
    expect((await api2.get(`/api/Booking/Slots`)).statusCode).toBe(403);
  });
});

describe('at the gate', () => {
  it('admits a booking-required member in her window, refuses her an hour early and refuses a member without a booking', async () => {
    const settings = await admin.api.request('PUT', '/api/Booking/Settings', {
      requiredGroupIds: [groupId],
      gateBeforeMinutes: 20,
      gateAfterMinutes: 45,
    });
    expect(settings.statusCode).toBe(200);
    const t = await factory.makeTerminal(ctx, clubId, { serial: `APPT-${clubId}`, secret: 's' });
    const [s] = await freeSlots(roomId);
    const a = await member();
    const none = await member();
    await admin.api.post('/api/Booking', {
      resourceId: roomId,
      startsAt: s.startsAt,
      clientId: a.id,
      idempotencyKey: key(),
    });
    const at = (ms: number) => new Date(Date.parse(s.startsAt) + ms);
    const present = (card: string, when: Date) =>
      processEntrance(ctx.database.db, null, {
        clubId,
        terminalId: t.id,
        identification: { kind: 'card', value: card },
        at: when,
      });
    const early = await present(a.cardSerial, at(-60 * 60_000));
    expect({ status: early.status, reason: early.reason }).toEqual({
      status: EntranceStatus.ClosedToGroup,
      reason: Reason.OutsideBookingWindow,
    });
    const other = await present(none.cardSerial, at(-5 * 60_000));
    expect(other.reason).toBe(Reason.NoBooking);
    const booked = async () =>
      (await ctx.database.db.select().from(bookings).where(eq(bookings.clientId, a.id))).map((b) => ({
        status: b.status,
        checkedInAt: b.checkedInAt?.toISOString() ?? null,
      }));
    expect(await booked()).toEqual([{ status: 'booked', checkedInAt: null }]);
    const inWindow = await present(a.cardSerial, at(-10 * 60_000));
    expect(inWindow.status).toBe(EntranceStatus.Approved);
    // Her card at the gate checks her booking in: the attendant's evening moves without a touch.
    expect(await booked()).toEqual([{ status: 'checkedIn', checkedInAt: at(-10 * 60_000).toISOString() }]);
    await admin.api.request('PUT', '/api/Booking/Settings', { requiredGroupIds: [] });
    const free = await present(none.cardSerial, at(-4 * 60_000));
    expect(free.status).toBe(EntranceStatus.Approved);
  });

  it('checks in members admitted at the same moment (one batch), once each; after the attendant’s undo, again', async () => {
    await admin.api.request('PUT', '/api/Booking/Settings', { requiredGroupIds: [groupId], gateBeforeMinutes: 120 });
    const [t1, t2] = await Promise.all(
      ['A', 'B'].map((x) => factory.makeTerminal(ctx, clubId, { serial: `APPT2-${x}-${clubId}`, secret: 's' })),
    );
    const [s1, s2] = await freeSlots(roomId, 240);
    const a = await member();
    const b = await member();
    const made = [];
    for (const [c, s] of [
      [a, s1],
      [b, s2],
    ] as const) {
      const r = await admin.api.post('/api/Booking', {
        resourceId: roomId,
        startsAt: s!.startsAt,
        clientId: c.id,
        idempotencyKey: key(),
      });
      expect(r.statusCode).toBe(200);
      made.push(r.json() as Booking);
    }
    const when = new Date(Date.parse(s1!.startsAt) - 5 * 60_000);
    const present = (terminalId: number, card: string, at: Date) =>
      processEntrance(ctx.database.db, null, { clubId, terminalId, identification: { kind: 'card', value: card }, at });
    // Both presented in one turn of the event loop: their check-ins go to the database as one statement.
    const both = await Promise.all([present(t1.id, a.cardSerial, when), present(t2.id, b.cardSerial, when)]);
    expect(both.map((d) => d.status)).toEqual([EntranceStatus.Approved, EntranceStatus.Approved]);
    const statusOf = async (id: number) =>
      (await ctx.database.db.select().from(bookings).where(eq(bookings.id, id)))[0]!;
    expect((await statusOf(made[0]!.id)).status).toBe('checkedIn');
    expect((await statusOf(made[1]!.id)).status).toBe('checkedIn');
    // A second admission of hers later in the window changes nothing (no booking of hers is `booked`).
    const later = new Date(when.getTime() + 60_000);
    expect((await present(t1.id, a.cardSerial, later)).status).toBe(EntranceStatus.Approved);
    expect((await statusOf(made[0]!.id)).checkedInAt?.toISOString()).toBe(when.toISOString());
    // The attendant undoes her check-in: her next admission checks her in again.
    const undo = await admin.api.post(`/api/Booking/${made[0]!.id}/Status`, { status: 'booked' });
    expect(undo.statusCode).toBe(200);
    const again = new Date(when.getTime() + 2 * 60_000);
    expect((await present(t1.id, a.cardSerial, again)).status).toBe(EntranceStatus.Approved);
    const row = await statusOf(made[0]!.id);
    expect({ status: row.status, at: row.checkedInAt?.toISOString() }).toEqual({
      status: 'checkedIn',
      at: again.toISOString(),
    });
    await admin.api.request('PUT', '/api/Booking/Settings', { requiredGroupIds: [] });
  });
});

describe('reminders and retention', () => {
  it('queues the day-before and hour-before reminders when due, once', async () => {
    const slotsAhead = await freeSlots(roomId, 26 * 60);
    const s = slotsAhead[0];
    const a = await member();
    const b: Booking = (
      await admin.api.post('/api/Booking', {
        resourceId: roomId,
        startsAt: s.startsAt,
        clientId: a.id,
        idempotencyKey: key(),
      })
    ).json();
    const [row] = await ctx.database.db.select().from(bookings).where(eq(bookings.id, b.id));
    expect(row.remindDayAt).not.toBeNull();
    expect(row.remindHourAt).not.toBeNull();
    const dayAt = row.remindDayAt!;
    await sendDueReminders(ctx.database, new Date(dayAt.getTime() + 1000));
    await sendDueReminders(ctx.database, new Date(dayAt.getTime() + 2000));
    const hourAt = row.remindHourAt!;
    await sendDueReminders(ctx.database, new Date(hourAt.getTime() + 1000));
    const msgs = await ctx.database.db.select().from(notificationOutbox).where(eq(notificationOutbox.clientId, a.id));
    expect(msgs.map((m) => m.kind).sort()).toEqual(['booking-reminder-day', 'booking-reminder-hour']);
    expect(msgs[0].text).not.toContain(a.firstName);
  });

  it('keeps only counts after the retention period', async () => {
    const [s] = await freeSlots(roomId);
    const a = await member();
    await admin.api.post('/api/Booking', {
      resourceId: roomId,
      startsAt: s.startsAt,
      clientId: a.id,
      idempotencyKey: key(),
    });
    const later = new Date(Date.parse(s.startsAt) + 31 * 86_400_000);
    const removed = await withClock(later, () => applyBookingRetention(ctx.database.db, clubId, later));
    expect(removed).toBeGreaterThan(0);
    expect(await ctx.database.db.select().from(bookings).where(eq(bookings.clientId, a.id))).toEqual([]);
    const counts = await ctx.database.db.select().from(bookingCounts).where(eq(bookingCounts.clubId, clubId));
    expect(counts.reduce((n, c) => n + c.bookings, 0)).toBeGreaterThan(0);
  });
});
