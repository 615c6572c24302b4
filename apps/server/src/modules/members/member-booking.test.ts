import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { EntranceState, type MemberBooking, type MemberBookings, type MemberBookingSlot } from '@venue/domain';
import { Api, createTestApp, signedInAdmin, type TestContext } from '../../../test/harness.js';
import * as factory from '../../../test/factories.js';
import { startMemberSession } from '../../lib/member-sessions.js';
import { bookings, clients, purchases } from '../../db/schema.js';

/**
 * The member's booking (issue 38; docs/members.md "Booking") over the real API on a real database:
 * the room kinds and free slots of her group only, booking through the appointments service (the
 * fee from her balance through the purchase path), only her own bookings visible (anyone else's id
 * 404), cancelling before the cutoff with a refund and not after it, the waitlist's offer taken.
 */

let ctx: TestContext;
let staff: Awaited<ReturnType<typeof signedInAdmin>>;
let clubId: number;
let groupId: number;
let roomId: number;
let tomorrow: string;
let seq = 0;
const key = () => `mb-${Date.now()}-${seq++}`;

beforeAll(async () => {
  ctx = await createTestApp();
  staff = await signedInAdmin(ctx);
  clubId = staff.club.id;
  // Open all day, every day: slots run around the clock.
  groupId = (
    await factory.makeGroupWithSchedule(ctx, clubId, { name: 'Members' }, [{ entranceState: EntranceState.Opened }])
  ).id;
  const other = await factory.makeGroupWithSchedule(ctx, clubId, { name: 'Others' }, [
    { entranceState: EntranceState.Opened },
  ]);
  const post = (body: object) => staff.api.post('/api/Booking/Resource', body).then((r) => r.json().id as number);
  roomId = await post({ name: 'Room 1', kind: 'prepBath', serviceMinutes: 45, bufferMinutes: 15, groupIds: [groupId] });
  await post({ name: 'Pool', kind: 'pool', serviceMinutes: 10, bufferMinutes: 5, fee: 2500 });
  await post({ name: 'Shower', kind: 'prepShower', serviceMinutes: 30, groupIds: [other.id] });
  const s = (await staff.api.get(`/api/Booking/Slots?groupId=${groupId}&days=2`)).json();
  tomorrow = s.days[1].date;
});
afterAll(async () => ctx?.close());

/** A member of the group with a member token of her own. */
async function member(over: Partial<typeof clients.$inferInsert> = {}) {
  const phone = `+97252${String(1_000_000 + seq++).padStart(7, '0')}`;
  const c = await factory.makeClient(ctx, clubId, {
    groupId,
    firstName: 'Miriam',
    phone,
    ...factory.SUBSCRIBED,
    ...over,
  });
  const ms = await startMemberSession(ctx.database.db, {
    contact: phone,
    clubId,
    clientId: c.id,
    ip: '',
    ttlSeconds: 3600,
  });
  const api = new Api(ctx.app);
  api.token = await ctx.app.jwt.sign({ sub: 0, tv: 0, ms });
  return { c, api };
}

async function freeSlots(api: Api, kind: string, date = tomorrow): Promise<MemberBookingSlot[]> {
  const res = await api.get(`/api/Member/Booking/Slots?date=${date}&kind=${kind}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

const balanceOf = async (id: number) =>
  (await ctx.database.db.select({ b: clients.balance }).from(clients).where(eq(clients.id, id)))[0].b;

describe('member booking', () => {
  it('offers only the room kinds and free slots her group may book', async () => {
    const a = await member();
    const rooms = (await a.api.get('/api/Member/Booking/Rooms')).json();
    expect(rooms).toEqual([
      { kind: 'prepBath', fee: 0, serviceMinutes: 45 },
      { kind: 'pool', fee: 2500, serviceMinutes: 10 },
    ]);
    const none = await member({ groupId: null });
    expect((await none.api.get('/api/Member/Booking/Rooms')).json()).toEqual([]);
    expect(await freeSlots(none.api, 'prepBath')).toEqual([]);
    expect(await freeSlots(a.api, 'prepShower')).toEqual([]);

    const before = await freeSlots(a.api, 'prepBath');
    expect(before.length).toBeGreaterThan(10);
    expect(before.every((s) => s.resourceId === roomId && s.fee === 0)).toBe(true);
    // A slot someone else holds is not shown at all (only free ones; no one's booking is visible).
    const other = await factory.makeClient(ctx, clubId, { groupId, ...factory.SUBSCRIBED });
    const taken = await staff.api.post('/api/Booking', {
      resourceId: roomId,
      startsAt: before[3].startsAt,
      clientId: other.id,
      idempotencyKey: key(),
    });
    expect(taken.statusCode, taken.body).toBe(200);
    const after = await freeSlots(a.api, 'prepBath');
    expect(after.map((s) => s.startsAt)).not.toContain(before[3].startsAt);
    expect(after).toHaveLength(before.length - 1);
    const bad = await a.api.get(`/api/Member/Booking/Slots?date=tomorrow&kind=sauna`);
    expect(bad.statusCode).toBe(400);
  });

  it('books with the fee from her balance through the purchase path, once per key; she sees only her own', async () => {
    const a = await member();
    const b = await member();
    const [s] = await freeSlots(a.api, 'pool');
    const body = { resourceId: s.resourceId, startsAt: s.startsAt, idempotencyKey: key() };
    const poor = await a.api.post('/api/Member/Booking', body);
    expect(poor.statusCode, poor.body).toBe(422);
    expect(poor.json().code).toBe('NOT_ENOUGH_BALANCE');
    expect(await ctx.database.db.select().from(bookings).where(eq(bookings.clientId, a.c.id))).toEqual([]);

    await factory.credit(ctx, a.c, 5000);
    const res = await a.api.post('/api/Member/Booking', body);
    expect(res.statusCode, res.body).toBe(200);
    const booked: MemberBooking = res.json();
    expect(booked).toMatchObject({ kind: 'pool', startsAt: s.startsAt, status: 'booked', fee: 2500 });
    expect(booked.cancelUntil).not.toBeNull();
    expect((await a.api.post('/api/Member/Booking', body)).json().id).toBe(booked.id);
    const bought = await ctx.database.db.select().from(purchases).where(eq(purchases.clientId, a.c.id));
    expect(bought).toHaveLength(1);
    expect(bought[0]).toMatchObject({ total: 2500, source: 'member' });
    expect(await balanceOf(a.c.id)).toBe(2500);
    // Written by the appointments service as the member's own booking.
    const [row] = await ctx.database.db.select().from(bookings).where(eq(bookings.id, booked.id));
    expect(row).toMatchObject({ source: 'member', clientId: a.c.id, purchaseId: bought[0].id });

    const mine: MemberBookings = (await a.api.get('/api/Member/Booking')).json();
    expect(mine.bookings.map((x) => x.id)).toEqual([booked.id]);
    expect(mine.cancelCutoffMinutes).toBe(120);
    expect(JSON.stringify(mine)).not.toMatch(/Miriam|Pool/);
    const theirs: MemberBookings = (await b.api.get('/api/Member/Booking')).json();
    expect(theirs.bookings).toEqual([]);
    // Another member's booking id is 404 on every route that takes one.
    expect((await b.api.post(`/api/Member/Booking/${booked.id}/Cancel`)).statusCode).toBe(404);
    expect((await b.api.post(`/api/Member/Booking/${booked.id}/Accept`)).statusCode).toBe(404);
    expect((await b.api.post(`/api/Member/Booking/${booked.id}/GateCode`)).statusCode).toBe(404);
    expect((await a.api.post(`/api/Member/Booking/999999/Cancel`)).statusCode).toBe(404);
    // A staff token is no member: 401.
    expect((await staff.api.get('/api/Member/Booking')).statusCode).toBe(401);
    // A slot that is not one: refused, nothing written.
    const odd = await a.api.post('/api/Member/Booking', {
      resourceId: roomId,
      startsAt: new Date(Date.parse(s.startsAt) + 7 * 60_000).toISOString(),
      idempotencyKey: key(),
    });
    expect(odd.statusCode).toBe(409);
    expect(odd.json().code).toBe('SLOT_NOT_BOOKABLE');
  });

  it('cancels before the cutoff with the fee refunded, and not after it', async () => {
    const a = await member();
    await factory.credit(ctx, a.c, 5000);
    const [s] = await freeSlots(a.api, 'pool');
    const b: MemberBooking = (
      await a.api.post('/api/Member/Booking', { resourceId: s.resourceId, startsAt: s.startsAt, idempotencyKey: key() })
    ).json();
    expect(await balanceOf(a.c.id)).toBe(2500);
    const c = await a.api.post(`/api/Member/Booking/${b.id}/Cancel`);
    expect(c.statusCode, c.body).toBe(200);
    expect(c.json()).toMatchObject({ refunded: 2500, booking: { id: b.id, status: 'cancelled' } });
    expect(await balanceOf(a.c.id)).toBe(5000);
    expect((await a.api.post(`/api/Member/Booking/${b.id}/Cancel`)).statusCode).toBe(409);

    // A slot within the club's 120-minute cutoff: hers to keep, not to cancel.
    const today = (await staff.api.get(`/api/Booking/Slots?groupId=${groupId}&days=1`)).json().days[0].date;
    const soon = (await freeSlots(a.api, 'pool', today)).find(
      (x) => Date.parse(x.startsAt) < Date.now() + 100 * 60_000,
    );
    expect(soon).toBeDefined();
    const late: MemberBooking = (
      await a.api.post('/api/Member/Booking', {
        resourceId: soon!.resourceId,
        startsAt: soon!.startsAt,
        idempotencyKey: key(),
      })
    ).json();
    expect(late.cancelUntil).toBeNull();
    const refused = await a.api.post(`/api/Member/Booking/${late.id}/Cancel`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('BOOKING_CLOSED');
    expect(await balanceOf(a.c.id)).toBe(2500);
    const still: MemberBookings = (await a.api.get('/api/Member/Booking')).json();
    expect(still.bookings.find((x) => x.id === late.id)?.status).toBe('booked');
  });

  it('puts her on the waitlist and lets her take the freed slot offered to her', async () => {
    const a = await member();
    const w = await member();
    const joined = await w.api.post('/api/Member/Booking/Waitlist', { date: tomorrow, kind: 'prepBath' });
    expect(joined.statusCode, joined.body).toBe(200);
    expect(joined.json()).toMatchObject({ date: tomorrow, kind: 'prepBath', status: 'waiting' });
    const notHers = await w.api.post('/api/Member/Booking/Waitlist', { date: tomorrow, kind: 'prepShower' });
    expect(notHers.statusCode).toBe(409);
    expect(notHers.json().code).toBe('BOOKING_NOT_ALLOWED');
    const far = await w.api.post('/api/Member/Booking/Waitlist', { date: '2099-01-01', kind: 'prepBath' });
    expect(far.statusCode).toBe(400);
    expect(far.json().details[0].path).toBe('date');

    const [s] = (await freeSlots(a.api, 'prepBath')).slice(-1);
    const b: MemberBooking = (
      await a.api.post('/api/Member/Booking', { resourceId: s.resourceId, startsAt: s.startsAt, idempotencyKey: key() })
    ).json();
    expect((await a.api.post(`/api/Member/Booking/${b.id}/Cancel`)).json().refunded).toBe(0);
    const list: MemberBookings = (await w.api.get('/api/Member/Booking')).json();
    const offer = list.bookings.find((x) => x.status === 'offered');
    expect(offer).toMatchObject({ startsAt: s.startsAt, kind: 'prepBath' });
    expect(offer!.offerExpiresAt).not.toBeNull();
    expect(list.waitlist).toEqual([expect.objectContaining({ date: tomorrow, status: 'offered' })]);
    // Only she may take it.
    expect((await a.api.post(`/api/Member/Booking/${offer!.id}/Accept`)).statusCode).toBe(404);
    const took = await w.api.post(`/api/Member/Booking/${offer!.id}/Accept`);
    expect(took.statusCode, took.body).toBe(200);
    expect(took.json()).toMatchObject({ id: offer!.id, status: 'booked' });
    expect((await w.api.post(`/api/Member/Booking/${offer!.id}/Accept`)).statusCode).toBe(409);
  });
});
