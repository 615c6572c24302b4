import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql, type SQL } from 'drizzle-orm';
import { ReportQuery } from '@venue/domain';
import { createTestApp, TEST_DB, type TestContext } from '../../../test/harness.js';
import { localInstant } from '../../../test/time.js';
import * as factory from '../../../test/factories.js';
import { clubs, entranceLogs, purchases } from '../../db/schema.js';
import { gateStatements, type LogItem } from '../gate/gate-batch.js';
import { compactActivityDaily } from './activity-daily.js';
import { activitiesReport, entrancesReport, paymentsReport } from './definitions.js';
import { runReport, type ReportDefinition } from './framework.js';

/**
 * activity_daily (migrations 0013-0017) is written append-only by
 * statement-level triggers on entrance_logs and purchases into
 * activity_daily_delta, and merged into activity_daily by the compaction: after
 * every kind of write, the sum of its rows per key must equal the aggregate of
 * the rows themselves by the local day in the club's time zone (computed here
 * in the test's own SQL), and the reports that read it must answer what they
 * answer from the rows.
 */
describe('activity_daily summary kept by statement triggers', () => {
  let ctx: TestContext;
  let clubA: number;
  let clubB: number;
  let seq = 0;
  const TZ = 'Asia/Jerusalem';

  beforeAll(async () => {
    ctx = await createTestApp();
    const base = 870000 + Math.floor(Math.random() * 10000);
    const list = await ctx.database.db
      .insert(clubs)
      .values([
        { externalClubId: base, name: 'summary A' },
        {
          externalClubId: base + 1,
          name: 'summary B',
          location: { name: 'New York', latitude: 40.7, longitude: -74, timeZone: 'America/New_York' },
        },
      ])
      .returning();
    clubA = list[0].id;
    clubB = list[1].id;
  });
  afterAll(async () => {
    await ctx.close();
  });

  type Row = Record<string, unknown>;
  const query = async (q: SQL): Promise<Row[]> =>
    ((await ctx.database.db.execute(q)) as unknown as { rows: Row[] }).rows;

  /** The summary, summed per key (merged rows and delta rows alike). */
  const summary = () =>
    query(sql`select club_id, day::text as day, kind, terminal_id, group_id, status, payment_type,
        sum(n)::int as n, sum(amount)::bigint::text as amount
      from (select * from activity_daily union all select * from activity_daily_delta) s
      where club_id in (${clubA}, ${clubB})
      group by 1, 2, 3, 4, 5, 6, 7 having sum(n) <> 0 or sum(amount) <> 0
      order by 1, 2, 3, 4, 5, 6, 7`);
  /** The same figures from entrance_logs and purchases. */
  const raw = () =>
    query(sql`select * from (
        select e.club_id, (e.at at time zone coalesce(c.location->>'timeZone', 'Asia/Jerusalem'))::date::text as day,
               1 as kind, coalesce(e.terminal_id, 0) as terminal_id, coalesce(e.group_id, 0) as group_id, e.status::int as status,
               e.payment_type::int as payment_type, count(*)::int as n, sum(e.amount)::bigint::text as amount
          from entrance_logs e join clubs c on c.id = e.club_id where e.club_id in (${clubA}, ${clubB})
         group by 1, 2, 3, 4, 5, 6, 7
        union all
        select p.club_id, (p.at at time zone coalesce(c.location->>'timeZone', 'Asia/Jerusalem'))::date::text,
               2, coalesce(p.terminal_id, 0), 0, p.payment_status::int, 0, count(*)::int, sum(p.total)::bigint::text
          from purchases p join clubs c on c.id = p.club_id where p.club_id in (${clubA}, ${clubB})
         group by 1, 2, 3, 4, 5, 6, 7) x
      order by 1, 2, 3, 4, 5, 6, 7`);
  const expectConsistent = async (): Promise<Row[]> => {
    const kept = await summary();
    expect(kept).toEqual(await raw());
    return kept;
  };
  const deltaRows = async (): Promise<number> =>
    Number((await query(sql`select count(*)::int as n from activity_daily_delta`))[0].n);
  /** Compacted: no delta row left and one row per key and day. */
  const expectCompacted = async () => {
    await compactActivityDaily(ctx.database);
    expect(await deltaRows()).toBe(0);
    const [d] = await query(sql`select count(*)::int as rows,
        count(distinct (club_id, day, kind, terminal_id, group_id, status, payment_type))::int as keys from activity_daily`);
    expect(d.rows).toBe(d.keys);
  };

  /** An entrance_logs row (the gate's LogItem, or with no terminal, or an offline one). */
  type Entrance = Omit<LogItem, 'terminalId'> & { terminalId: number | null; offline?: boolean };
  const entrance = (o: Partial<Entrance> & { at: Date }): Entrance => ({
    clubId: clubA,
    terminalId: 1,
    clientId: null,
    groupId: null,
    status: 1,
    reason: 0,
    identificationKind: 'card',
    amount: 0,
    paymentType: 0,
    eventId: `ev${++seq}`,
    payerClientId: null,
    ...o,
  });
  /** The rows in one statement (the triggers are statement-level). */
  const insertRows = (items: Entrance[]) =>
    factory.makeEntrances(
      ctx,
      clubA,
      items.map((x) => ({ ...x, eventId: x.eventId ?? undefined })),
    );
  /** A purchase without lines (invoice number from its club's counter); `total` in agorot, VAT 18%. */
  const buy = async (o: {
    clubId?: number;
    at: Date;
    total: number;
    status?: number;
    terminalId?: number | null;
    pays?: [number, number][];
  }) => {
    const { purchase: p } = await factory.makePurchase(ctx, o.clubId ?? clubA, {
      lines: [],
      payments: o.pays,
      at: o.at,
      total: o.total,
      amountBeforeVat: Math.round(o.total / 1.18),
      vat: o.total - Math.round(o.total / 1.18),
      paymentStatus: o.status ?? 1,
      terminalId: o.terminalId ?? null,
    });
    return p.id;
  };

  it('follows single and multi-row inserts, resends, late uploads, edits and deletes, across local days', async () => {
    const { db } = ctx.database;
    // 23:30 in Jerusalem is 21:30 UTC: the local day is 1 March; in New York 23:30 is 04:30 UTC on 2 March.
    await insertRows([entrance({ at: localInstant(TZ, 2025, 3, 1, 23, 30), amount: 500, paymentType: 2 })]);
    await insertRows([
      entrance({ at: localInstant(TZ, 2025, 3, 2, 0, 10), groupId: 3, status: 4 }),
      entrance({ at: localInstant(TZ, 2025, 3, 2, 9), terminalId: 2, groupId: 3 }),
      entrance({ at: localInstant(TZ, 2025, 3, 2, 9, 5), terminalId: 2, groupId: 3, amount: 700, paymentType: 1 }),
      entrance({ at: localInstant(TZ, 2025, 3, 2, 10), terminalId: null, status: 2 }),
      entrance({ clubId: clubB, at: localInstant('America/New_York', 2025, 3, 1, 23, 30), terminalId: 9 }),
    ]);
    let rows = await expectConsistent();
    expect(rows.find((r) => r.club_id === clubA && r.payment_type === 2)).toMatchObject({
      day: '2025-03-01',
      n: 1,
      amount: '500',
    });
    expect(rows.find((r) => r.club_id === clubB)).toMatchObject({ day: '2025-03-01', terminal_id: 9 });
    expect(rows.find((r) => r.status === 2)).toMatchObject({ terminal_id: 0, group_id: 0 });

    // The gate's own statement: concurrent decisions batched into multi-row INSERTs, a resend ignored.
    const gate = gateStatements(db);
    const today = new Date();
    const batch = Array.from({ length: 300 }, (_, i) =>
      entrance({
        clubId: i % 7 === 0 ? clubB : clubA,
        at: new Date(today.getTime() - (i % 5) * 3_600_000),
        terminalId: 1 + (i % 3),
        groupId: i % 4 === 0 ? null : i % 4,
        status: i % 10 === 0 ? 5 : 1,
        amount: i % 6 === 0 ? 250 : 0,
        paymentType: i % 6 === 0 ? 1 : 0,
      }),
    );
    const ids = await Promise.all(batch.map((x) => gate.insert(x as LogItem)));
    expect(new Set(ids).size).toBe(300);
    await expect(gate.insert({ ...batch[0] } as LogItem)).rejects.toThrow(); // resend: the same event id
    await expectConsistent();
    expect(gate.stats().insert.items).toBeGreaterThan(gate.stats().insert.batches); // several rows per statement

    // An offline terminal's late upload into days long past.
    await insertRows([
      entrance({ at: localInstant(TZ, 2024, 12, 31, 23, 59), offline: true }),
      entrance({ at: localInstant(TZ, 2025, 1, 1, 0, 1), status: 3 }),
    ]);
    await expectConsistent();
    await expectCompacted();
    rows = await expectConsistent();
    expect(rows.some((r) => r.day === '2024-12-31')).toBe(true);

    // Edits (no code path updates entrance_logs, but the summary follows any write): status, day, club.
    await db.update(entranceLogs).set({ status: 9 }).where(eq(entranceLogs.status, 4));
    await expectConsistent();
    await db
      .update(entranceLogs)
      .set({ at: localInstant(TZ, 2025, 2, 20, 12), amount: 900 })
      .where(eq(entranceLogs.paymentType, 2));
    await expectConsistent();
    await db.update(entranceLogs).set({ clubId: clubB }).where(eq(entranceLogs.status, 2));
    await expectConsistent();
    await expectCompacted();
    await db.update(entranceLogs).set({ reason: 3 }); // not a summarized column: no delta row at all
    expect(await deltaRows()).toBe(0);
    await db.delete(entranceLogs).where(eq(entranceLogs.terminalId, 2));
    await expectConsistent();
    await expectCompacted();
    await expectConsistent();
  });

  it('follows purchases (refunds included, kind 2) and rebuilds a club on a change of its time zone', async () => {
    const { db } = ctx.database;
    const a = await buy({ at: localInstant(TZ, 2025, 4, 1, 23, 30), total: 1180, terminalId: 4 });
    await buy({ at: localInstant(TZ, 2025, 4, 1, 10), total: 500 });
    await buy({ at: localInstant(TZ, 2025, 4, 2, 10), total: 300, status: 3 });
    await buy({ clubId: clubB, at: localInstant('America/New_York', 2025, 4, 1, 22), total: 200 });
    await expectConsistent();
    await db.update(purchases).set({ paymentStatus: 3 }).where(eq(purchases.id, a)); // refund
    await expectConsistent();
    await db
      .update(purchases)
      .set({ at: localInstant(TZ, 2025, 4, 5, 12), total: 1300 })
      .where(eq(purchases.id, a));
    await expectConsistent();
    await db.delete(purchases).where(eq(purchases.id, a));
    await expectConsistent();

    const late = new Date('2025-05-01T21:30:00Z'); // 00:30 on 2 May in Jerusalem, 22:30 on 1 May in London
    await insertRows([entrance({ at: late, terminalId: 77 })]);
    expect((await summary()).find((r) => r.terminal_id === 77)?.day).toBe('2025-05-02');
    await db
      .update(clubs)
      .set({ location: { name: 'London', latitude: 51.5, longitude: -0.12, timeZone: 'Europe/London' } })
      .where(eq(clubs.id, clubA));
    const rows = await expectConsistent();
    expect(rows.find((r) => r.terminal_id === 77)?.day).toBe('2025-05-01');
    // Rebuilt rows are merged rows.
    const [d] = await query(sql`select count(*)::int as n from activity_daily_delta where club_id = ${clubA}`);
    expect(d.n).toBe(0);
    await db
      .update(clubs)
      .set({ location: { name: 'Jerusalem', latitude: 31.77, longitude: 35.21, timeZone: TZ } })
      .where(eq(clubs.id, clubA));
    await expectConsistent();
  });

  it('compaction under concurrent inserts loses and doubles nothing', async () => {
    const { db } = ctx.database;
    const gate = gateStatements(db);
    const now = Date.now();
    let stop = false;
    let compactions = 0;
    const compactor = (async () => {
      while (!stop) {
        await compactActivityDaily(ctx.database);
        compactions++;
        await new Promise((r) => setTimeout(r, 2));
      }
    })();
    // 8 writers, each 20 waves of 15 decisions at once (batched by the gate), over three days.
    await Promise.all(
      Array.from({ length: 8 }, async (_, w) => {
        for (let k = 0; k < 20; k++) {
          await Promise.all(
            Array.from({ length: 15 }, (_, i) =>
              gate.insert(
                entrance({
                  clubId: (w + i) % 3 === 0 ? clubB : clubA,
                  at: new Date(now - ((w + k + i) % 3) * 86_400_000),
                  terminalId: 1 + (i % 2),
                  status: i % 4 === 0 ? 6 : 1,
                  amount: i % 5 === 0 ? 100 : 0,
                }) as LogItem,
              ),
            ),
          );
        }
      }),
    );
    stop = true;
    await compactor;
    expect(compactions).toBeGreaterThan(1);
    await expectConsistent();
    await expectCompacted();
    await expectConsistent();
  });

  it.runIf(TEST_DB === 'postgres')(
    'a compaction while a writer holds uncommitted rows keeps them as deltas (PostgreSQL)',
    async () => {
      const { db } = ctx.database;
      await insertRows([entrance({ at: new Date(), terminalId: 5 })]); // committed: today has work to merge
      let release!: () => void;
      const hold = new Promise<void>((r) => (release = r));
      let inserted!: () => void;
      const didInsert = new Promise<void>((r) => (inserted = r));
      const writer = db.transaction(async (tx) => {
        await tx.insert(entranceLogs).values([
          { ...entrance({ at: new Date() }), eventId: `held${++seq}` },
          { ...entrance({ at: new Date(), status: 7 }), eventId: `held${++seq}` },
        ]);
        inserted();
        await hold;
      });
      await didInsert;
      await compactActivityDaily(ctx.database); // does not wait for the writer, and does not see its rows
      release();
      await writer;
      // Today was merged, the writer's rows stayed deltas beside it.
      const [d] = await query(sql`select (select count(*) from activity_daily_delta)::int as deltas,
          (select count(*) from activity_daily where terminal_id = 5)::int as merged`);
      expect(d).toEqual({ deltas: 2, merged: 1 });
      await expectConsistent();
      await expectCompacted();
      await expectConsistent();
    },
  );

  it('the entrances, activities and payments reports give from the summaries what they give from the rows', async () => {
    const { db } = ctx.database;
    const jan = localInstant(TZ, 2026, 1, 10, 12);
    await insertRows([
      entrance({ at: jan, terminalId: 1, groupId: 1, amount: 300 }),
      entrance({ at: jan, terminalId: 1, groupId: 2, status: 4 }),
      entrance({ at: localInstant(TZ, 2026, 1, 31, 23, 50), terminalId: 2, groupId: 1, status: 12 }),
      entrance({ at: localInstant(TZ, 2026, 2, 1, 0, 5), terminalId: 2 }), // February: outside January
      entrance({ at: localInstant(TZ, 2025, 12, 31, 23, 55), terminalId: 2 }), // December
      entrance({ at: jan, terminalId: 1, clientId: 5, amount: 100 }),
    ]);
    const pay = async (o: { at: Date; status?: number; terminalId?: number; pays: [number, number][] }) => {
      return buy({
        at: o.at,
        total: o.pays.reduce((s, [, v]) => s + v, 0),
        status: o.status,
        terminalId: o.terminalId,
        pays: o.pays,
      });
    };
    await pay({
      at: jan,
      pays: [
        [0, 1000],
        [1, 500],
      ],
      terminalId: 1,
    });
    await pay({ at: jan, status: 3, pays: [[1, 700]] }); // refunded: in the payments report, not in financial_daily
    await pay({ at: localInstant(TZ, 2026, 1, 20, 8), status: 2, pays: [[4, 250]], terminalId: 2 });
    await pay({ at: localInstant(TZ, 2026, 2, 1, 0, 1), pays: [[0, 90]] }); // February
    const rowsOnly = (d: ReportDefinition): ReportDefinition => ({ ...d, summary: undefined });
    const month = { period: 'month', anchor: '2026-01-15' } as const;
    const cases: [ReportDefinition, Record<string, unknown>[]][] = [
      [
        entrancesReport,
        [
          {},
          { terminalId: 1 },
          { groupId: 1 },
          { status: [1, 4] },
          { terminalId: 2, status: [12] },
          { period: 'year', anchor: '2025-06-01' },
          { period: 'range', from: '2025-12-31', to: '2026-02-01' },
        ],
      ],
      [activitiesReport, [{}, { terminalId: 1 }, { terminalId: 2 }, { period: 'day', anchor: '2026-01-10' }]],
      [
        paymentsReport,
        [
          {},
          { paymentMethod: [1] },
          { terminalId: 1 },
          { terminalId: 2, paymentMethod: [4, 0] },
          { period: 'year', anchor: '2026-03-01' },
        ],
      ],
    ];
    let checked = 0;
    for (const [def, filters] of cases) {
      for (const f of filters) {
        const q = ReportQuery.parse({ ...month, ...f });
        const fromSummary = await runReport(db, def, clubA, q);
        const fromRows = await runReport(db, rowsOnly(def), clubA, q);
        expect({ def: def.meta.id, f, total: fromSummary.total, totals: fromSummary.totals }).toEqual({
          def: def.meta.id,
          f,
          total: fromRows.total,
          totals: fromRows.totals,
        });
        expect(fromSummary.items).toEqual(fromRows.items);
        if (fromRows.total > 0) checked++;
      }
    }
    expect(checked).toBeGreaterThan(10);
    // The activities page cuts each half to its first rows in time order: every page as without the cut
    // (entrances and purchases at the same instant included).
    const uncut: ReportDefinition = {
      ...activitiesReport,
      from: (c) => activitiesReport.from({ ...c, firstRows: undefined }),
    };
    let pages = 0;
    for (const order of ['desc', 'asc'] as const)
      for (const f of [{}, { terminalId: 1 }, { sort: 'amount' }])
        for (let page = 1; page <= 4; page++) {
          const q = ReportQuery.parse({ ...month, ...f, order, page, pageSize: 2 });
          const cut = await runReport(db, activitiesReport, clubA, q);
          expect(cut.items).toEqual((await runReport(db, uncut, clubA, q)).items);
          pages += cut.items.length > 0 ? 1 : 0;
        }
    expect(pages).toBeGreaterThan(12);
    // The January figures themselves.
    const e = await runReport(db, entrancesReport, clubA, ReportQuery.parse({ ...month, terminalId: 1 }));
    expect(e.totals).toMatchObject({ count: 3, approved: 2, failed: 1, amount: 400, byStatus: { 1: 2, 4: 1 } });
    const p = await runReport(db, paymentsReport, clubA, ReportQuery.parse(month));
    // The pending purchase (250) is money not received yet: not a payment (docs/money.md "MASAV: rejected, then paid another way").
    expect(p.totals).toMatchObject({ count: 3, amount: 2200, byMethod: { 0: 1000, 1: 1200 } });
    // A named client: read from the rows (the summary has no client).
    const c = await runReport(db, entrancesReport, clubA, ReportQuery.parse({ ...month, clientId: 5 }));
    expect(c.totals).toMatchObject({ count: 1, amount: 100 });
  });
});
