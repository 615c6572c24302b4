import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { EntranceState, EntranceStatus, Reason, type Identification } from '@venue/domain';
import { Api, createTestApp, makeUser, signedInAdmin, TEST_PASSWORD, type TestContext } from '../../../test/harness.js';
import * as factory from '../../../test/factories.js';
import { areaPresence, auditLog } from '../../db/schema.js';
import { TerminalClient } from '../../../../terminal/src/client.js';
import { exitGate } from '../../../../terminal/src/gate.js';

/**
 * Live occupancy (issue 36, docs/gate-safety.md "Occupancy") over the real terminal protocol:
 * occupancy rises with entrances and falls with exits (an exit reader, an attendant's check-out),
 * the gate refuses at an area's capacity, a stay past the maximum closes itself flagged,
 * anti-passback refuses (hard) or flags (soft) a second entry without an exit and forgets it after
 * its timed reset, and the card-sharing report finds a card at two places too close in time.
 */

let ctx: TestContext;
let base: string;
const SECRET = 'occupancy-secret';
const open: TerminalClient[] = [];
let seq = 1;
const card = (value: string): Identification => ({ kind: 'card', value });
const ago = (ms: number) => new Date(Date.now() - ms);

beforeAll(async () => {
  ctx = await createTestApp();
  base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  for (const tc of open) await tc.close().catch(() => undefined);
  await ctx?.close();
});

/** A club with an always-open group, `n` connected terminals and members by card. */
async function club(n: number) {
  const admin = await signedInAdmin(ctx);
  const clubId = admin.club.id;
  const g = await factory.makeGroupWithSchedule(ctx, clubId, { name: 'Members', entranceState: EntranceState.Opened });
  const terminals: { id: number; tc: TerminalClient }[] = [];
  for (let i = 0; i < n; i++) {
    const serial = `OC-${clubId}-${seq++}`;
    const t = await factory.makeTerminal(ctx, clubId, { serial, secret: SECRET, name: `T${i + 1}` });
    const tc = new TerminalClient({ url: base, serial, secret: SECRET, timeoutMs: 20_000, heartbeat: false });
    open.push(tc);
    await tc.connect();
    terminals.push({ id: t.id, tc });
  }
  const member = (name: string) =>
    factory.makeClient(ctx, clubId, {
      groupId: g.id,
      firstName: name,
      lastName: 'Member',
      cardSerial: `${name}-${clubId}`,
      ...factory.SUBSCRIBED,
    });
  const area = async (body: object) => {
    const res = await admin.api.post('/api/Occupancy/Areas', body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { id: number };
  };
  const now = async () => (await admin.api.get('/api/Occupancy/Now')).json();
  return { ...admin, clubId, terminals, member, area, now };
}

describe('live occupancy', () => {
  it('rises with entrances, falls with an exit reader and a check-out; the gate refuses at capacity', async () => {
    const c = await club(2);
    const [gate, exit] = c.terminals;
    const pool = await c.area({ name: 'Pool', capacity: 2, terminalIds: [gate!.id] });
    const [a, b, d] = [await c.member('Ada'), await c.member('Bea'), await c.member('Dov')];
    expect(await c.now()).toMatchObject({ total: 0, areas: [{ id: pool.id, inside: 0, full: false }] });

    expect((await gate!.tc.present(card(a.cardSerial))).status).toBe(EntranceStatus.Approved);
    expect((await gate!.tc.present(card(b.cardSerial))).status).toBe(EntranceStatus.Approved);
    expect(await c.now()).toMatchObject({ total: 2, areas: [{ inside: 2, full: true }] });
    const full = await gate!.tc.present(card(d.cardSerial));
    expect(full).toMatchObject({ status: EntranceStatus.AreaFull, reason: Reason.AreaFull, gateOpenSeconds: 0 });

    // Ada leaves through the exit reader (a terminal in no area): one place frees up.
    await exitGate(exit!.tc, card(a.cardSerial));
    expect((await c.now()).total).toBe(1);
    expect((await gate!.tc.present(card(d.cardSerial))).status).toBe(EntranceStatus.Approved);

    // The attendant's list: names for the admin, none for a user who may not see clients.
    const inside = (await c.api.get('/api/Occupancy/Inside')).json();
    expect(inside.names).toBe(true);
    expect(inside.items.map((i: { name: string }) => i.name).sort()).toEqual(['Bea Member', 'Dov Member']);
    const clerk = await makeUser(ctx, c.clubId, { permissions: { roleViewDashboard: true } });
    const clerkApi = new Api(ctx.app);
    await clerkApi.login(clerk.username, TEST_PASSWORD, c.club.externalClubId);
    const anonymous = (await clerkApi.get('/api/Occupancy/Inside')).json();
    expect(anonymous).toMatchObject({ names: false });
    expect(anonymous.items).toHaveLength(2);
    expect(anonymous.items.every((i: { name: null; clientId: null }) => i.name === null && i.clientId === null)).toBe(
      true,
    );
    expect((await clerkApi.post(`/api/Occupancy/CheckOut/${b.id}`)).statusCode).toBe(403);

    // Check-out by the attendant (audited); a second one finds nobody inside: 404.
    const after = await c.api.post(`/api/Occupancy/CheckOut/${b.id}`);
    expect(after.statusCode).toBe(200);
    expect(after.json().items).toHaveLength(1);
    expect((await c.api.post(`/api/Occupancy/CheckOut/${b.id}`)).statusCode).toBe(404);
    const [audit] = await ctx.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.clubId, c.clubId), eq(auditLog.action, 'checkOut')));
    expect(audit).toMatchObject({ entity: 'client', entityId: String(b.id) });
    const stays = await ctx.database.db.select().from(areaPresence).where(eq(areaPresence.clubId, c.clubId));
    expect(stays.map((s) => s.leftHow).sort()).toEqual(['checkout', 'exit', null]);

    // The day's curve ends at the number inside now.
    const view = await c.now();
    expect(view.curve.at(-1).inside).toBe(1);
    // Another club's area: 404.
    const other = await club(0);
    expect((await other.api.patch(`/api/Occupancy/Areas/${pool.id}`, { capacity: 9 })).statusCode).toBe(404);
  });

  it('a stay past the area’s maximum closes itself, flagged, and frees its place', async () => {
    const c = await club(1);
    const [gate] = c.terminals;
    await c.area({ name: 'Mikveh', capacity: 1, maxStayMinutes: 30, terminalIds: [gate!.id] });
    const [a, b] = [await c.member('Sara'), await c.member('Rivka')];
    expect((await gate!.tc.present(card(a.cardSerial), { at: ago(40 * 60_000) })).status).toBe(1);
    const view = await c.now();
    expect(view).toMatchObject({ total: 0, autoClosedToday: 1 });
    expect((await gate!.tc.present(card(b.cardSerial))).status).toBe(EntranceStatus.Approved);
    const [stay] = await ctx.database.db
      .select()
      .from(areaPresence)
      .where(and(eq(areaPresence.clubId, c.clubId), eq(areaPresence.clientId, a.id)));
    expect(stay).toMatchObject({ leftHow: 'auto', flagged: true });
    expect(stay!.leftAt!.getTime() - stay!.enteredAt.getTime()).toBe(30 * 60_000);
  });
});

describe('anti-passback', () => {
  it('hard: a second entry without an exit is refused (16), admitted after the exit or the timed reset', async () => {
    const c = await club(2);
    const [gate, exit] = c.terminals;
    await c.area({ name: 'Hall', antiPassback: 2, antiPassbackResetMinutes: 60, terminalIds: [gate!.id] });
    const m = await c.member('Noa');
    expect((await gate!.tc.present(card(m.cardSerial), { at: ago(10_000) })).status).toBe(1);
    const again = await gate!.tc.present(card(m.cardSerial));
    expect(again).toMatchObject({ status: EntranceStatus.AntiPassback, reason: Reason.AntiPassback });
    await exitGate(exit!.tc, card(m.cardSerial));
    expect((await gate!.tc.present(card(m.cardSerial))).status).toBe(EntranceStatus.Approved);

    // The timed reset: an entry 61 minutes ago is forgotten.
    const late = await c.member('Tal');
    expect((await gate!.tc.present(card(late.cardSerial), { at: ago(61 * 60_000) })).status).toBe(1);
    expect((await gate!.tc.present(card(late.cardSerial))).status).toBe(EntranceStatus.Approved);
  });

  it('soft: admitted and flagged; the card-sharing report counts it, and a card at two places too close', async () => {
    const c = await club(2);
    const [a, b] = c.terminals;
    await c.area({ name: 'Pool', antiPassback: 1, terminalIds: [a!.id] });
    await c.area({ name: 'Gym', terminalIds: [b!.id] });
    const m = await c.member('Lea');
    expect((await a!.tc.present(card(m.cardSerial), { at: ago(20_000) })).status).toBe(1);
    expect((await a!.tc.present(card(m.cardSerial), { at: ago(10_000) })).status).toBe(EntranceStatus.Approved);
    // Ten seconds later at another terminal: the same card at two places.
    expect((await b!.tc.present(card(m.cardSerial))).status).toBe(EntranceStatus.Approved);
    const stays = await ctx.database.db.select().from(areaPresence).where(eq(areaPresence.clientId, m.id));
    expect(stays.filter((s) => s.passback)).toHaveLength(1);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Jerusalem' }).format(new Date());
    const res = await c.api.get(`/api/Occupancy/CardSharing?from=${today}&to=${today}&seconds=60&surplus=3`);
    expect(res.statusCode, res.body).toBe(200);
    const rows = res.json().items as { kind: string; clientId: number; count: number; passbacks: number }[];
    expect(rows.find((r) => r.kind === 'twoPlaces')).toMatchObject({ clientId: m.id, passbacks: 1 });
    expect(rows.find((r) => r.kind === 'surplus')).toMatchObject({ clientId: m.id, count: 3 });
  });
});
