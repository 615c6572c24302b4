import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { EntranceState, EntranceStatus } from '@venue/domain';
import * as factory from '../../../test/factories.js';
import { createTestApp, signedInAdmin, makeClub, type TestContext } from '../../../test/harness.js';
import { queryRow } from '../../db/query.js';
import { areaPresence, balanceLedger, clients, entranceLogs } from '../../db/schema.js';
import { clubToday } from '../club/club.service.js';
import { TerminalClient } from '../../../../terminal/src/client.js';
import { visitorJob, visitorWindowMinutes, VISITOR_MIN_WINDOW_MINUTES } from './retention.js';

/**
 * Visitor mode (issue 39, docs/privacy.md "Visitor mode") over the real terminal protocol: an
 * entrance is decided as always, counted in the daily counts, and its per-person row is gone after
 * the decision window; the rapid re-entry rule and the day's quota still refuse from what is left,
 * and an entrance paid from the balance keeps its money record.
 */

let ctx: TestContext;
let base: string;
let admin: Awaited<ReturnType<typeof signedInAdmin>>;
let gate: TerminalClient;
let groupId: number;
let payersId: number;
const SECRET = 'visitor-secret';
const PRICE = 1000;
const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000);

/** The daily counts of a club's entrances on a local day (activity_daily and its pending deltas). */
async function dailyCount(clubId: number, day: string): Promise<number> {
  const r = await queryRow<{ n: number }>(
    ctx.database.db,
    sql`select coalesce(sum(n), 0)::int as n from (
          select n from activity_daily where club_id = ${clubId} and kind = 1 and day = ${day}::date
          union all
          select n from activity_daily_delta where club_id = ${clubId} and kind = 1 and day = ${day}::date) x`,
  );
  return r!.n;
}

const rowsOf = async (clientId: number) =>
  ctx.database.db.select().from(entranceLogs).where(eq(entranceLogs.clientId, clientId));

beforeAll(async () => {
  ctx = await createTestApp();
  base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  admin = await signedInAdmin(ctx, { settings: { visitorMode: true } });
  // The business day starts 12 hours from the current hour, so the entrances of the last minutes
  // share one business day whenever the test runs.
  const hour = Number(
    new Intl.DateTimeFormat('en-GB', { hour: '2-digit', hour12: false, timeZone: 'Asia/Jerusalem' }).format(new Date()),
  );
  const g = await factory.makeGroupWithSchedule(
    ctx,
    admin.club.id,
    { name: 'Visitors', entranceState: EntranceState.Opened, maxEntriesPerDay: 2, newDayStartHour: (hour + 12) % 24 },
    [{ price: PRICE, entranceState: EntranceState.Opened }],
  );
  groupId = g.id;
  // Those who pay per entrance from their balance (the business day from midnight).
  payersId = (
    await factory.makeGroupWithSchedule(ctx, admin.club.id, { name: 'Payers', entranceState: EntranceState.Opened }, [
      { price: PRICE, entranceState: EntranceState.Opened },
    ])
  ).id;
  const serial = `VM-${admin.club.id}`;
  await factory.makeTerminal(ctx, admin.club.id, { serial, secret: SECRET });
  gate = new TerminalClient({ url: base, serial, secret: SECRET, timeoutMs: 20_000, heartbeat: false });
  await gate.connect();
});

afterAll(async () => {
  await gate?.close().catch(() => undefined);
  await ctx?.close();
});

describe('visitor mode', () => {
  it('is a club setting the manager turns on and off; a wrong value changes nothing', async () => {
    const { club, api } = await signedInAdmin(ctx);
    expect((await api.get('/api/Privacy/Retention')).json()).toMatchObject({
      visitorMode: false,
      visitorWindowHours: 0,
    });
    const bad = await api.patch(`/api/Club/${club.id}`, { visitorMode: 'yes' });
    expect(bad.statusCode).toBe(400);
    const on = await api.patch(`/api/Club/${club.id}`, { visitorMode: true });
    expect(on.statusCode).toBe(200);
    expect(on.json().visitorMode).toBe(true);
    expect((await api.get('/api/Privacy/Retention')).json()).toMatchObject({
      visitorMode: true,
      visitorWindowHours: 25,
    });
  });

  it('the decision window is at least 25 hours, longer for a longer delay between entries', async () => {
    const s = { entrancesLimitMinutes: 0, isQuickExitEnabled: false, quickExitMaxMinutes: 0 };
    expect(await visitorWindowMinutes(ctx.database.db, admin.club.id, s)).toBe(VISITOR_MIN_WINDOW_MINUTES);
    const other = await makeClub(ctx);
    await factory.makeGroup(ctx, other.id, { delayBetweenEntriesMinutes: 3 * 24 * 60 });
    expect(await visitorWindowMinutes(ctx.database.db, other.id, s)).toBe(3 * 24 * 60);
    expect(await visitorWindowMinutes(ctx.database.db, other.id, { ...s, entrancesLimitMinutes: 5000 })).toBe(5000);
  });

  it('admits and counts; after the window no per-person row remains, the count and the money stay', async () => {
    const payer = await factory.makeClient(ctx, admin.club.id, {
      groupId: payersId,
      ...factory.NO_SUBSCRIPTION,
      balance: 3 * PRICE,
    });
    const at = hoursAgo(30);
    const day = clubToday(admin.club.location, at);
    const countBefore = await dailyCount(admin.club.id, day);
    const paid = await gate.present({ kind: 'card', value: payer.cardSerial }, { at });
    expect(paid.status).toBe(EntranceStatus.Approved);
    expect(await rowsOf(payer.id)).toHaveLength(1);
    expect(await dailyCount(admin.club.id, day)).toBe(countBefore + 1);
    // A stay in an area that ended before the window goes; one still open (inside now) stays.
    await ctx.database.db.insert(areaPresence).values([
      {
        clubId: admin.club.id,
        areaId: 1,
        clientId: payer.id,
        enteredAt: at,
        leftAt: new Date(at.getTime() + 3600_000),
      },
      { clubId: admin.club.id, areaId: 2, clientId: payer.id, enteredAt: at },
    ]);
    // Another club not in visitor mode keeps its entrance of the same time.
    const other = await makeClub(ctx);
    await factory.makeEntrances(ctx, other.id, [{ at }]);

    const runs = await visitorJob(ctx.database);

    expect(await rowsOf(payer.id)).toEqual([]);
    const stays = await ctx.database.db.select().from(areaPresence).where(eq(areaPresence.clientId, payer.id));
    expect(stays.map((s) => s.areaId)).toEqual([2]);
    expect(await dailyCount(admin.club.id, day)).toBe(countBefore + 1);
    // One run of the club, its first day in detail today (the day before lost part of its rows).
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({
      entranceDetailFrom: clubToday(admin.club.location, new Date()),
      removed: { entrance_logs: 1, area_presence: 1 },
    });
    const [otherRow] = await ctx.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(entranceLogs)
      .where(eq(entranceLogs.clubId, other.id));
    expect(otherRow!.n).toBe(1);
    // Money: the balance was taken and its ledger row is kept (a money record), naming no entrance left.
    const [c] = await ctx.database.db.select().from(clients).where(eq(clients.id, payer.id));
    expect(c!.balance).toBe(2 * PRICE);
    const ledger = await ctx.database.db
      .select()
      .from(balanceLedger)
      .where(and(eq(balanceLedger.clientId, payer.id), eq(balanceLedger.source, 'entrance')));
    expect(ledger.map((l) => l.delta)).toEqual([-PRICE]);
    // The entrances report counts that day from the daily counts and says visitor mode is on.
    const report = await admin.api.post('/api/Report/GetEnteracesReport', { period: 'range', from: day, to: day });
    expect(report.statusCode).toBe(200);
    expect(report.json().totals.count).toBe(countBefore + 1);
    expect(report.json().items).toEqual([]);
    const status = await admin.api.get('/api/Privacy/Retention');
    expect(status.json()).toMatchObject({ visitorMode: true, visitorWindowHours: 25 });
  });

  it('rapid re-entry and the day quota still refuse from the window, after the job ran', async () => {
    const a = await factory.makeClient(ctx, admin.club.id, { groupId, ...factory.SUBSCRIBED });
    const card = { kind: 'card' as const, value: a.cardSerial! };
    const t0 = new Date(Date.now() - 3 * 60_000);
    expect((await gate.present(card, { at: t0 })).status).toBe(EntranceStatus.Approved);
    // One second later: the rapid re-entry rule (2 seconds).
    expect((await gate.present(card, { at: new Date(t0.getTime() + 1000) })).status).toBe(EntranceStatus.RapidReEntry);
    expect((await gate.present(card, { at: new Date(Date.now() - 60_000) })).status).toBe(EntranceStatus.Approved);
    await visitorJob(ctx.database);
    // Two approved today (the group's quota): the third is refused, from the rows of the window.
    expect((await gate.present(card)).status).toBe(EntranceStatus.EntryQuotaUsed);
    expect((await rowsOf(a.id)).length).toBe(4);

    const b = await factory.makeClient(ctx, admin.club.id, { groupId, ...factory.SUBSCRIBED });
    const now = new Date(Date.now() - 1000);
    expect((await gate.present({ kind: 'card', value: b.cardSerial! }, { at: now })).status).toBe(
      EntranceStatus.Approved,
    );
    await visitorJob(ctx.database);
    const again = await gate.present({ kind: 'card', value: b.cardSerial! }, { at: new Date(now.getTime() + 500) });
    expect(again.status).toBe(EntranceStatus.RapidReEntry);
  });
});
