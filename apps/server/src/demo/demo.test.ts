import { mkdtempSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq, sql } from 'drizzle-orm';
import {
  dealerIdentityGaps,
  isValidIsraeliId,
  normalizePhone,
  type BookingSlots,
  type EntranceReport,
} from '@venue/domain';
import { Api, createTestApp, openTestDatabase, type TestContext } from '../../test/harness.js';
import {
  balanceLedger,
  bookingCounts,
  bookings,
  bookingWaitlist,
  clients,
  clubs,
  entranceLogs,
  groups,
  schedules,
  terminals,
} from '../db/schema.js';
import { verifyPassword } from '../lib/password.js';
import { clubSettings } from '../modules/club/club.service.js';
import { DEMO_EXTERNAL_CLUB_ID, DEMO_PASSWORD, DEMO_USERNAME, ensureDemoClub, loadDemoClub } from './seed.js';
import { readTerminalSecrets } from './terminal-secrets.js';
import type { Db } from '../db/index.js';

describe('demo club (DESIGN §9)', () => {
  let ctx: TestContext;
  let dataDir: string;
  let api: Api;
  beforeAll(async () => {
    ctx = await createTestApp();
    dataDir = mkdtempSync(path.join(tmpdir(), 'venue-demo-'));
    const loaded = await ensureDemoClub(ctx.database.db, { clients: 50, days: 7, dataDir });
    expect(loaded).toBe(true);
    api = new Api(ctx.app);
    const res = await api.login(DEMO_USERNAME, DEMO_PASSWORD, DEMO_EXTERNAL_CLUB_ID);
    expect(res.statusCode).toBe(200);
  });
  afterAll(async () => {
    await ctx.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('creates club 1001 in Jerusalem with groups, schedules, approved terminals and valid clients', async () => {
    const { db } = ctx.database;
    const [club] = await db.select().from(clubs).where(eq(clubs.externalClubId, DEMO_EXTERNAL_CLUB_ID));
    expect(club.name).toMatch(/[א-ת]/);
    expect((club.location as { timeZone: string }).timeZone).toBe('Asia/Jerusalem');
    const gs = await db.select().from(groups).where(eq(groups.clubId, club.id));
    expect(gs.map((g) => g.name)).toEqual(expect.arrayContaining(['נשים', 'גברים', 'מנויי שנה']));
    const rows = await db.select().from(schedules).where(eq(schedules.clubId, club.id));
    const women = gs.find((g) => g.name === 'נשים')!;
    // Women's evenings start at nightfall (halachic type 7).
    expect(rows.filter((r) => r.groupId === women.id).every((r) => r.fromHalachic === 7)).toBe(true);
    const ts = await db.select().from(terminals).where(eq(terminals.clubId, club.id)).orderBy(asc(terminals.serial));
    expect(ts.map((t) => [t.serial, t.approved])).toEqual([
      ['DEMO-1', true],
      ['DEMO-2', true],
      ['DEMO-3', true],
    ]);
    // DEMO-1 enrols, DEMO-3 is the quick exit of a club with quick exit configured (docs/terminal-protocol.md).
    expect(ts.map((t) => t.settings)).toEqual([{ allowEnrollment: true }, {}, { quickExit: true }]);
    expect(club.settings).toMatchObject({ isQuickExitEnabled: true, quickExitMaxMinutes: 30 });
    // The dealer's identity its tax documents print: a check-digit-valid test number and an address.
    expect(dealerIdentityGaps(clubSettings(club))).toEqual([]);
    const cs = await db.select().from(clients).where(eq(clients.clubId, club.id)).orderBy(asc(clients.number));
    expect(cs).toHaveLength(50);
    expect(cs[0].cardSerial).toBe('100001');
    expect(cs[16].enrollPassword).toBe('9017');
    for (const c of cs) {
      expect(isValidIsraeliId(c.personalId), c.personalId).toBe(true);
      expect(c.phone).toMatch(/^\+9725\d{8}$/);
      expect(normalizePhone(c.phone)).toBe(c.phone);
    }
    expect(new Set(cs.map((c) => c.personalId)).size).toBe(50);
    expect(cs.some((c) => /[א-ת]/.test(c.firstName))).toBe(true);
  });

  it('writes the terminal secrets file, matching the stored hashes', async () => {
    const secrets = readTerminalSecrets(dataDir)!;
    expect(Object.keys(secrets).sort()).toEqual(['DEMO-1', 'DEMO-2', 'DEMO-3']);
    const [t] = await ctx.database.db.select().from(terminals).where(eq(terminals.serial, 'DEMO-2'));
    expect(await verifyPassword(secrets['DEMO-2'], t.secretHash)).toBe(true);
  });

  it('fills the entrance report and the dashboard with non-zero figures', async () => {
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Jerusalem' }).format(new Date());
    const from = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Jerusalem' }).format(
      new Date(Date.now() - 8 * 86_400_000),
    );
    const report = (
      await api.post('/api/Report/GetEnteracesReport', { period: 'range', from, to: today })
    ).json() as EntranceReport;
    expect(report.total).toBeGreaterThan(0);
    expect(report.totals.approved).toBeGreaterThan(0);
    expect(report.items[0].clientName ?? report.items[0].terminalName).toBeTruthy();
    const active = (await api.post('/api/Dashboard/GetActiveClientsCount', {})).json();
    expect(active.value).toBeGreaterThan(0);
    const monthly = (await api.post('/api/Dashboard/GetMonthlyEntranceCount', {})).json();
    const month = (await api.post('/api/Report/GetEnteracesReport', { period: 'month' })).json() as EntranceReport;
    expect(monthly.value).toBe(month.totals.approved);
    if (Number(today.slice(8)) >= 3) expect(monthly.value).toBeGreaterThan(0);
    const byStatus = (await api.post('/api/Dashboard/GetChartEntranceByStatus', {})).json() as { value: number }[];
    expect(byStatus.reduce((a, p) => a + p.value, 0)).toBe(month.total);
  });

  it('keeps every client balance equal to the sum of its ledger rows', async () => {
    const { db } = ctx.database;
    const res = await db
      .select({
        id: clients.id,
        balance: clients.balance,
        ledger: sql<number>`coalesce(sum(${balanceLedger.delta}), 0)::int`,
      })
      .from(clients)
      .leftJoin(balanceLedger, eq(balanceLedger.clientId, clients.id))
      .groupBy(clients.id, clients.balance);
    expect(res.length).toBe(50);
    expect(res.filter((r) => Number(r.ledger) !== r.balance)).toEqual([]);
    expect(res.some((r) => r.balance > 0)).toBe(true);
    expect(res.every((r) => r.balance >= 0)).toBe(true);
  });

  it("has rooms and bookings at the women's real slots: past outcomes, tonight and the week ahead, counts past retention", async () => {
    const { db } = ctx.database;
    const [club] = await db.select().from(clubs).where(eq(clubs.externalClubId, DEMO_EXTERNAL_CLUB_ID));
    const rooms = (await api.get('/api/Booking/Resource')).json() as { id: number; kind: string }[];
    expect(rooms.map((r) => r.kind).sort()).toEqual(['pool', 'prepBath', 'prepBath', 'prepShower', 'prepShower']);
    const women = (await db.select().from(groups).where(eq(groups.clubId, club.id))).find((g) => g.name === 'נשים')!;
    const live = await db.select().from(bookings).where(eq(bookings.clubId, club.id));
    const now = Date.now();
    const ahead = live.filter((b) => b.startsAt.getTime() > now);
    expect(ahead.length).toBeGreaterThan(10);
    expect(ahead.every((b) => b.status === 'booked')).toBe(true);
    expect(new Set(live.filter((b) => b.startsAt.getTime() < now).map((b) => b.status))).toEqual(
      new Set(['done', 'noShow', 'cancelled']),
    );
    // Every booking of the coming week starts on a slot of the women's real windows (nightfall).
    const week = (await api.get(`/api/Booking/Slots?groupId=${women.id}&days=7`)).json() as BookingSlots;
    const starts = new Set(week.days.flatMap((d) => d.slots.map((x) => `${x.resourceId}@${x.startsAt}`)));
    for (const b of ahead.filter((x) => x.startsAt.getTime() < now + 6 * 86_400_000))
      expect(starts.has(`${b.resourceId}@${b.startsAt.toISOString()}`), b.startsAt.toISOString()).toBe(true);
    expect(live.every((b) => b.endsAt.getTime() > now - 31 * 86_400_000)).toBe(true);
    const counts = await db.select().from(bookingCounts).where(eq(bookingCounts.clubId, club.id));
    expect(counts.reduce((n, c) => n + c.bookings, 0)).toBeGreaterThan(0);
    const waiting = await db.select().from(bookingWaitlist).where(eq(bookingWaitlist.clubId, club.id));
    expect(waiting.some((w) => w.status === 'waiting' && w.kind === 'prepBath')).toBe(true);
    const report = await api.post('/api/Report/GetBookingsReport', { period: 'month' });
    expect(report.statusCode).toBe(200);
    expect(report.json().totals.booked).toBeGreaterThan(0);
  });

  it('does nothing on a second start, and re-issues terminal secrets when the file is lost', async () => {
    const { db } = ctx.database;
    const before = await db.select({ n: sql<number>`count(*)::int` }).from(entranceLogs);
    const old = readTerminalSecrets(dataDir)!;
    expect(await ensureDemoClub(db, { clients: 50, days: 7, dataDir })).toBe(true);
    expect(readTerminalSecrets(dataDir)).toEqual(old);
    unlinkSync(path.join(dataDir, 'terminal-secrets.json'));
    expect(await ensureDemoClub(db, { clients: 50, days: 7, dataDir })).toBe(true);
    const fresh = readTerminalSecrets(dataDir)!;
    expect(fresh['DEMO-1']).not.toBe(old['DEMO-1']);
    const [t] = await db.select().from(terminals).where(eq(terminals.serial, 'DEMO-1'));
    expect(await verifyPassword(fresh['DEMO-1'], t.secretHash)).toBe(true);
    const after = await db.select({ n: sql<number>`count(*)::int` }).from(entranceLogs);
    expect(after[0].n).toBe(before[0].n);
  });
});

describe('demo history: the batched engine decides exactly as processEntrance', () => {
  it('gives the same log rows and balances for the same presentations', async () => {
    const now = new Date('2025-09-22T19:00:00Z'); // erev Rosh Hashana 5786 in Jerusalem: a busy day
    const dataDir = mkdtempSync(path.join(tmpdir(), 'venue-demo-eq-'));
    const snapshot = async (db: Db) => {
      const logs = await db
        .select({
          at: entranceLogs.at,
          number: clients.number,
          terminal: terminals.serial,
          status: entranceLogs.status,
          reason: entranceLogs.reason,
          amount: entranceLogs.amount,
          paymentType: entranceLogs.paymentType,
          group: entranceLogs.groupId,
        })
        .from(entranceLogs)
        .leftJoin(clients, eq(clients.id, entranceLogs.clientId))
        .leftJoin(terminals, eq(terminals.id, entranceLogs.terminalId))
        .orderBy(asc(entranceLogs.at), asc(entranceLogs.id));
      const balances = await db
        .select({ number: clients.number, balance: clients.balance })
        .from(clients)
        .orderBy(asc(clients.number));
      const ledger = await db
        .select({
          source: balanceLedger.source,
          n: sql<number>`count(*)::int`,
          sum: sql<number>`sum(${balanceLedger.delta})::int`,
        })
        .from(balanceLedger)
        .groupBy(balanceLedger.source)
        .orderBy(balanceLedger.source);
      return {
        logs: logs.map((l) => ({ ...l, at: new Date(l.at).toISOString(), group: l.group != null })),
        balances,
        ledger,
      };
    };
    const results = [];
    for (const engine of ['exact', 'batched'] as const) {
      const d = await openTestDatabase();
      try {
        await loadDemoClub(d.db, { clients: 150, days: 12, dataDir, now, engine });
        results.push(await snapshot(d.db));
      } finally {
        await d.dropAll();
      }
    }
    rmSync(dataDir, { recursive: true, force: true });
    const [exact, batched] = results;
    expect(exact.logs.length).toBeGreaterThan(150);
    // The history exercises approvals and the usual refusals.
    const statuses = new Set(exact.logs.map((l) => l.status));
    for (const s of [1, 4, 8]) expect(statuses.has(s), `status ${s}`).toBe(true);
    expect(batched.logs).toEqual(exact.logs);
    expect(batched.balances).toEqual(exact.balances);
    expect(batched.ledger).toEqual(exact.ledger);
    // Two loads, each with its money through the real services (demo/money.ts): longer than the default limit on a busy machine.
  }, 240_000);
});
