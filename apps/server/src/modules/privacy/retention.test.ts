import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { ClientStatus } from '@venue/domain';
import { createTestApp, signedInAdmin, makeClub, type TestContext } from '../../../test/harness.js';
import {
  makeAttendanceLog,
  makeBiometricTemplate,
  makeClient,
  makeEmployee,
  makeEntrances,
  makePurchase,
  makeQuickExit,
  makeTerminal,
} from '../../../test/factories.js';
import { queryRow, queryRows } from '../../db/query.js';
import {
  areaPresence,
  bookingResources,
  bookings,
  clientEntryGuard,
  dataAccessLog,
  entranceOverrides,
} from '../../db/schema.js';
import { retainClub, retentionJob } from './retention.js';

/**
 * The retention job (issue 39, docs/privacy.md "Retention"): with 30 days set, one run removes
 * exactly the rows due, table by table, and nothing of the money records; the reports over the
 * period past retention still count its entrances (daily counts) and its money is unchanged.
 */
describe('retention', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => ctx.close());

  // 2026-06-15 15:00 in Jerusalem: 30 days back is 2026-05-16, whose local midnight is 2026-05-15T21:00Z.
  const NOW = new Date('2026-06-15T12:00:00Z');
  const CUTOFF = new Date('2026-05-15T21:00:00Z');
  const TABLES = [
    'entrance_logs',
    'quick_exits',
    'entrance_overrides',
    'client_entry_guard',
    'attendance_logs',
    'biometric_templates',
    'data_access_log',
    'area_presence',
    'bookings',
    'booking_counts',
    'purchases',
    'purchase_items',
    'purchase_payments',
    'balance_ledger',
    'audit_log',
    'retention_runs',
  ] as const;

  async function counts(clubId: number): Promise<Record<string, number>> {
    const out: Record<string, number> = {};
    for (const t of TABLES) {
      const r = await queryRow<{ n: number }>(
        ctx.database.db,
        sql`select count(*)::int as n from ${sql.identifier(t)} where club_id = ${clubId}`,
      );
      out[t] = r!.n;
    }
    return out;
  }

  it('removes exactly the rows due at 30 days, keeps money and the daily counts', async () => {
    const settings = { retentionEntranceDays: 30, retentionAttendanceDays: 30, retentionBiometricDays: 30 };
    const { club, api } = await signedInAdmin(ctx, { settings });
    const other = await makeClub(ctx);
    const db = ctx.database.db;
    const terminal = await makeTerminal(ctx, club.id);
    const stays = await makeClient(ctx, club.id);
    const left = await makeClient(ctx, club.id, { status: ClientStatus.Inactive });
    const leftButCame = await makeClient(ctx, club.id, { status: ClientStatus.Inactive });
    const day = (iso: string) => new Date(iso);
    // Six entrances before the cutoff (the last a minute before it), four from it on.
    const old = await makeEntrances(
      ctx,
      club.id,
      ['2026-04-01T08:00:00Z', '2026-04-02T08:00:00Z', '2026-04-03T08:00:00Z', '2026-04-04T08:00:00Z'].map((at) => ({
        at: day(at),
        clientId: stays.id,
        terminalId: terminal.id,
        amount: 500,
      })),
    );
    const edge = await makeEntrances(ctx, club.id, [
      { at: day('2026-04-20T08:00:00Z'), clientId: left.id, terminalId: terminal.id },
      { at: new Date(CUTOFF.getTime() - 60_000), clientId: stays.id, terminalId: terminal.id },
      { at: CUTOFF, clientId: stays.id, terminalId: terminal.id },
    ]);
    const recent = await makeEntrances(ctx, club.id, [
      { at: day('2026-06-01T08:00:00Z'), clientId: stays.id, terminalId: terminal.id },
      { at: day('2026-06-10T08:00:00Z'), clientId: leftButCame.id, terminalId: terminal.id },
      { at: day('2026-06-15T08:00:00Z'), clientId: stays.id, terminalId: terminal.id },
    ]);
    // Another club's old entrance: its own rules (90 days by default) and its own run.
    await makeEntrances(ctx, other.id, [{ at: day('2026-04-01T08:00:00Z') }]);
    await makeQuickExit(ctx, club.id, {
      clientId: stays.id,
      terminalId: terminal.id,
      entranceId: old[0]!.id,
      entranceAt: old[0]!.at,
    });
    await makeQuickExit(ctx, club.id, {
      clientId: stays.id,
      terminalId: terminal.id,
      entranceId: recent[0]!.id,
      entranceAt: recent[0]!.at,
    });
    await db.insert(entranceOverrides).values([
      { clubId: club.id, entranceLogId: old[1]!.id, at: old[1]!.at, refusedStatus: 2, refusedReason: 3, reason: 'x' },
      {
        clubId: club.id,
        entranceLogId: recent[2]!.id,
        at: recent[2]!.at,
        refusedStatus: 2,
        refusedReason: 3,
        reason: 'y',
      },
    ]);
    await db.insert(clientEntryGuard).values([
      { clubId: club.id, clientId: left.id, at: edge[0]!.at },
      { clubId: club.id, clientId: stays.id, at: recent[2]!.at },
    ]);
    const employee = await makeEmployee(ctx, club.id);
    await makeAttendanceLog(ctx, employee, {
      entryAt: day('2026-03-01T06:00:00Z'),
      exitAt: day('2026-03-01T14:00:00Z'),
    });
    await makeAttendanceLog(ctx, employee, { entryAt: day('2026-05-14T06:00:00Z') });
    await makeAttendanceLog(ctx, employee, {
      entryAt: day('2026-06-14T06:00:00Z'),
      exitAt: day('2026-06-14T14:00:00Z'),
    });
    // Biometrics: of the one who left (gone), of an active client and of one who left but came lately (kept).
    await makeBiometricTemplate(ctx, left, { createdAt: day('2026-01-01T00:00:00Z') });
    await makeBiometricTemplate(ctx, stays, { createdAt: day('2026-01-01T00:00:00Z') });
    await makeBiometricTemplate(ctx, leftButCame, { createdAt: day('2026-01-01T00:00:00Z') });
    await db.insert(dataAccessLog).values([
      {
        clubId: club.id,
        kind: 'details',
        clientId: stays.id,
        route: 'GET /api/Client/:id',
        at: day('2024-01-01T00:00:00Z'),
      },
      {
        clubId: club.id,
        kind: 'details',
        clientId: stays.id,
        route: 'GET /api/Client/:id',
        at: day('2026-06-01T00:00:00Z'),
      },
    ]);
    // Stays in a gate area: one closed before the cutoff (gone), one closed after it and one
    // still open since before it (someone inside now: the occupancy's state) are kept.
    await db.insert(areaPresence).values([
      {
        clubId: club.id,
        areaId: 1,
        clientId: stays.id,
        terminalId: terminal.id,
        enteredAt: day('2026-04-01T08:00:00Z'),
        leftAt: day('2026-04-01T09:00:00Z'),
        leftHow: 'exit',
      },
      {
        clubId: club.id,
        areaId: 1,
        clientId: stays.id,
        terminalId: terminal.id,
        enteredAt: day('2026-06-01T08:00:00Z'),
        leftAt: day('2026-06-01T09:00:00Z'),
        leftHow: 'exit',
      },
      { clubId: club.id, areaId: 1, clientId: left.id, terminalId: terminal.id, enteredAt: edge[0]!.at },
    ]);
    // Bookings (the booking settings' 30 days by default): one that ended in April goes into the counts.
    const [room] = await db
      .insert(bookingResources)
      .values({ clubId: club.id, name: 'Room', kind: 'prepBath', serviceMinutes: 30 })
      .returning();
    const booking = (startsAt: string) => ({
      clubId: club.id,
      resourceId: room!.id,
      clientId: stays.id,
      startsAt: day(startsAt),
      endsAt: new Date(Date.parse(startsAt) + 30 * 60_000),
      blockedUntil: new Date(Date.parse(startsAt) + 30 * 60_000),
    });
    await db.insert(bookings).values([booking('2026-04-02T07:00:00Z'), booking('2026-06-10T07:00:00Z')]);
    // Money of the period past retention.
    await makePurchase(ctx, club.id, {
      clientId: stays.id,
      at: day('2026-04-02T09:00:00Z'),
      lines: [{ itemType: 10, unitPrice: 2500 }],
      payments: [[1, 2500]],
    });

    const april = { period: 'range', from: '2026-04-01', to: '2026-04-30' };
    const money = async () => {
      const f = await api.post('/api/Report/GetFinancialReport', april);
      const p = await api.post('/api/Report/GetPaymentsReport', april);
      expect(f.statusCode).toBe(200);
      expect(p.statusCode).toBe(200);
      return { financial: f.json().totals, payments: p.json().totals, paymentRows: p.json().total };
    };
    const entrances = async () => {
      const r = await api.post('/api/Report/GetEnteracesReport', april);
      expect(r.statusCode).toBe(200);
      return r.json();
    };
    const moneyBefore = await money();
    const entrancesBefore = await entrances();
    expect(entrancesBefore.totals.count).toBe(5);
    expect(entrancesBefore.items).toHaveLength(5);
    const before = await counts(club.id);
    const otherBefore = await counts(other.id);

    const run = await retainClub(db, null, club.id, NOW);

    const after = await counts(club.id);
    expect(run.entranceDetailFrom).toBe('2026-05-16');
    const removed = {
      entrance_logs: 6,
      quick_exits: 1,
      entrance_overrides: 1,
      client_entry_guard: 1,
      attendance_logs: 2,
      biometric_templates: 1,
      data_access_log: 1,
      area_presence: 1,
      bookings: 1,
    };
    expect(run.removed).toEqual(removed);
    for (const t of TABLES) {
      const gone = (removed as Record<string, number>)[t] ?? 0;
      // The run's own row, and the removed booking's count (one date, room kind and hour).
      const added = t === 'retention_runs' || t === 'booking_counts' ? 1 : 0;
      expect(after[t], t).toBe(before[t]! - gone + added);
    }
    expect(await counts(other.id)).toEqual(otherBefore);
    // What stays is what was due to stay.
    const left10 = await queryRows<{ id: number }>(
      db,
      sql`select id from entrance_logs where club_id = ${club.id} order by at`,
    );
    expect(left10.map((r) => Number(r.id))).toEqual([edge[2]!.id, ...recent.map((r) => r.id)]);

    // Money of the period: unchanged. Entrances of the period: counted from the daily counts, no rows.
    expect(await money()).toEqual(moneyBefore);
    const entrancesAfter = await entrances();
    expect(entrancesAfter.totals).toEqual(entrancesBefore.totals);
    expect(entrancesAfter.items).toHaveLength(0);
    // A rebuild of the summary (a time-zone change) keeps the days past retention.
    await db.execute(sql`select activity_daily_rebuild(${club.id})`);
    expect((await entrances()).totals).toEqual(entrancesBefore.totals);

    // A second run removes nothing more; the status shows the horizon and both runs.
    const again = await retainClub(db, null, club.id, NOW);
    expect(Object.values(again.removed).every((n) => n === 0)).toBe(true);
    const status = await api.get('/api/Privacy/Retention');
    expect(status.statusCode).toBe(200);
    expect(status.json()).toMatchObject({ entranceDays: 30, entranceDetailFrom: '2026-05-16' });
    expect(status.json().runs).toHaveLength(2);
  });

  it('runs once a day over every club under its claim', async () => {
    const day = new Date('2031-01-02T02:00:00Z');
    const first = await retentionJob(ctx.database, null, day);
    expect(first).not.toBeNull();
    expect(await retentionJob(ctx.database, null, day)).toBeNull();
  });
});
