import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { EntranceState, EntranceStatus, Reason, type MemberBookingSlot, type MemberGateCode } from '@venue/domain';
import { Api, createTestApp, signedInAdmin, type TestContext } from '../../../test/harness.js';
import * as factory from '../../../test/factories.js';
import { startMemberSession } from '../../lib/member-sessions.js';
import { bookingGateCodes, entranceLogs } from '../../db/schema.js';
import { TerminalClient } from '../../../../terminal/src/client.js';

/**
 * The member app's one-time gate code (docs/appointments.md "The one-time code") presented at a
 * simulated terminal over the real terminal protocol: admitted in her booking's window by the
 * booking-required rule and then spent; a wrong, a used and an out-of-window code each refused with
 * its own reason; the code stored only as a keyed hash.
 */

let ctx: TestContext;
let base: string;
let staff: Awaited<ReturnType<typeof signedInAdmin>>;
let clubId: number;
let groupId: number;
let gate: TerminalClient;
let idle: TerminalClient;
const SECRET = 'booking-code-secret';
let seq = 0;

async function terminal(approved: boolean) {
  const serial = `BC-${clubId}-${seq++}`;
  await factory.makeTerminal(ctx, clubId, { serial, secret: SECRET, approved });
  const tc = new TerminalClient({ url: base, serial, secret: SECRET, timeoutMs: 5000, heartbeat: false });
  await tc.connect();
  return tc;
}

beforeAll(async () => {
  ctx = await createTestApp();
  base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  staff = await signedInAdmin(ctx);
  clubId = staff.club.id;
  groupId = (
    await factory.makeGroupWithSchedule(ctx, clubId, { name: 'Members' }, [{ entranceState: EntranceState.Opened }])
  ).id;
  await staff.api.post('/api/Booking/Resource', { name: 'Pool', kind: 'pool', serviceMinutes: 10, bufferMinutes: 5 });
  // Her group is admitted only around a booking.
  const set = await staff.api.request('PUT', '/api/Booking/Settings', { requiredGroupIds: [groupId] });
  expect(set.statusCode).toBe(200);
  gate = await terminal(true);
  idle = await terminal(false);
});
afterAll(async () => {
  await gate?.close().catch(() => undefined);
  await idle?.close().catch(() => undefined);
  await ctx?.close();
});

async function member() {
  const phone = `+97253${String(1_000_000 + seq++).padStart(7, '0')}`;
  const c = await factory.makeClient(ctx, clubId, { groupId, phone, ...factory.SUBSCRIBED });
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

/** Books the first free pool slot starting after `afterMinutes` from now; returns the booking id. */
async function book(api: Api, afterMinutes: number): Promise<number> {
  const days = (await staff.api.get(`/api/Booking/Slots?groupId=${groupId}&days=2`)).json().days as {
    date: string;
  }[];
  for (const d of days) {
    const slots: MemberBookingSlot[] = (await api.get(`/api/Member/Booking/Slots?date=${d.date}&kind=pool`)).json();
    const s = slots.find((x) => Date.parse(x.startsAt) > Date.now() + afterMinutes * 60_000);
    if (!s) continue;
    const res = await api.post('/api/Member/Booking', {
      resourceId: s.resourceId,
      startsAt: s.startsAt,
      idempotencyKey: `bc-${seq++}`,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().id;
  }
  throw new Error('no free slot');
}

const code = (value: string) => ({ kind: 'code' as const, value });

describe('one-time gate code', () => {
  it('admits her once in her window by the booking-required rule, then refuses it as used', async () => {
    const a = await member();
    const id = await book(a.api, 0); // the next pool slot: within 15 minutes, inside the 20-minute window
    const res = await a.api.post(`/api/Member/Booking/${id}/GateCode`);
    expect(res.statusCode, res.body).toBe(200);
    const g: MemberGateCode = res.json();
    expect(g.code).toMatch(/^\*\d{6}$/);
    // Stored as a keyed hash only.
    const [row] = await ctx.database.db.select().from(bookingGateCodes).where(eq(bookingGateCodes.bookingId, id));
    expect(row.codeHash).not.toContain(g.code.slice(1));
    expect(row.spentAt).toBeNull();

    // A refusal by another rule (a terminal not approved) does not spend it.
    expect(await idle.present(code(g.code))).toMatchObject({ status: EntranceStatus.TerminalNotApproved });
    const ok = await gate.present(code(g.code));
    expect(ok).toMatchObject({ status: EntranceStatus.Approved, reason: Reason.EntryBySubscription });
    expect(ok.clientName).toContain(a.c.firstName);
    const again = await gate.present(code(g.code));
    expect(again).toMatchObject({
      status: EntranceStatus.ClosedToGroup,
      reason: Reason.BookingCodeUsed,
      message: 'BookingCodeUsed',
      gateOpenSeconds: 0,
    });
    const logs = await ctx.database.db.select().from(entranceLogs).where(eq(entranceLogs.clientId, a.c.id));
    expect(logs.map((l) => [l.status, l.identificationKind])).toEqual(
      expect.arrayContaining([
        [EntranceStatus.Approved, 'code'],
        [EntranceStatus.ClosedToGroup, 'code'],
      ]),
    );
  });

  it('refuses a wrong code, a code outside its window and a cancelled booking’s code, each with its reason', async () => {
    const a = await member();
    const wrong = await gate.present(code('*000000'));
    expect(wrong).toMatchObject({ status: EntranceStatus.CustomerNotFound, reason: Reason.BookingCodeUnknown });

    // Three hours ahead: the code exists but is not valid yet.
    const later = await book(a.api, 180);
    const g: MemberGateCode = (await a.api.post(`/api/Member/Booking/${later}/GateCode`)).json();
    expect(Date.parse(g.validFrom)).toBeGreaterThan(Date.now());
    const early = await gate.present(code(g.code));
    expect(early).toMatchObject({ status: EntranceStatus.ClosedToGroup, reason: Reason.BookingCodeExpired });

    // A new code replaces the earlier one: the old one is unknown now.
    const g2: MemberGateCode = (await a.api.post(`/api/Member/Booking/${later}/GateCode`)).json();
    if (g2.code !== g.code) {
      expect(await gate.present(code(g.code))).toMatchObject({ reason: Reason.BookingCodeUnknown });
    }

    // A booking in the window, cancelled: its code admits no one.
    const b = await member();
    const soon = await book(b.api, 0);
    const g3: MemberGateCode = (await b.api.post(`/api/Member/Booking/${soon}/GateCode`)).json();
    expect((await staff.api.post(`/api/Booking/${soon}/Cancel`)).statusCode).toBe(200);
    expect(await gate.present(code(g3.code))).toMatchObject({ reason: Reason.BookingCodeExpired });
    // Her card too: no booking now.
    expect(await gate.present({ kind: 'card', value: b.c.cardSerial })).toMatchObject({ reason: Reason.NoBooking });
    // And a cancelled booking gets no new code.
    expect((await b.api.post(`/api/Member/Booking/${soon}/GateCode`)).statusCode).toBe(409);
  });
});
