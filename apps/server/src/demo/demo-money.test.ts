import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORTS, type ReportResult } from '@venue/domain';
import { Api, createTestApp, openTestDatabase, type TestContext } from '../../test/harness.js';
import { queryRows } from '../db/query.js';
import type { Db } from '../db/index.js';
import { sql } from 'drizzle-orm';
import { dailyMoneyJobs } from '../modules/subscriptions/auto-renew.scheduler.js';
import {
  DEMO_EXTERNAL_CLUB_ID,
  DEMO_PASSWORD,
  DEMO_USERNAME,
  ensureDemoClub,
  loadDemoBase,
  runDemoHistory,
  type DemoLoad,
} from './seed.js';

/** What the demo's money wrote, by content (no ids, no wall-clock times): to compare two loads. */
async function moneySummary(db: Db) {
  const one = async (q: ReturnType<typeof sql>) => (await queryRows<Record<string, unknown>>(db, q))[0];
  return {
    purchases: await one(
      sql`select count(*)::int as n, coalesce(sum(total), 0)::int as total, max(invoice_number)::int as last,
                 count(distinct invoice_number)::int as numbered from purchases`,
    ),
    purchaseRows: await queryRows(
      db,
      sql`select p.at::text as at, p.total, p.invoice_number, p.source, p.idempotency_key, c.number as client,
                 p.balance_before, p.balance_after, p.paid_cash, p.paid_credit, p.paid_other
            from purchases p left join clients c on c.id = p.client_id order by p.at, p.invoice_number`,
    ),
    documents: await one(sql`select count(*)::int as n from purchase_documents`),
    ledger: await queryRows(
      db,
      sql`select source, kind, count(*)::int as n, sum(delta)::int as sum from balance_ledger group by 1, 2 order by 1, 2`,
    ),
    entrances: await queryRows(
      db,
      sql`select status, count(*)::int as n, sum(amount)::int as amount from entrance_logs group by 1 order by 1`,
    ),
    debts: await one(sql`select count(*)::int as n, sum(amount)::int as amount, sum(paid)::int as paid from debts`),
    cash: await one(sql`select count(*)::int as n, sum(inserted)::int as inserted from cash_sessions`),
    quickExits: await one(sql`select count(*)::int as n from quick_exits`),
    charges: await one(sql`select count(*)::int as n, sum(amount)::int as amount from charges`),
    masav: await one(sql`select count(*)::int as n from masav_files`),
    balances: await queryRows(db, sql`select number, balance, bonus_entries from clients order by number`),
  };
}

/**
 * The demo club's money (issue "Demo club"; docs/demo-club.md "Money"): a
 * smaller club over 75 days (two MASAV files, monthly cash-box resets,
 * renewals) loaded through the real services must fill every money report
 * and the dashboard's income, keep the invoice numbers gap-free and in date
 * order, and keep every balance equal to its ledger.
 */
describe('demo club money (real engines, back-dated clock)', () => {
  let ctx: TestContext;
  let dataDir: string;
  let api: Api;
  let load: DemoLoad;
  /** What a user and the daily jobs met while the history was written (docs/demo-club.md "While the history is written"). */
  let during: { status: unknown; purchase: { statusCode: number; body: unknown }; dailyJobs: boolean };
  const now = new Date();
  beforeAll(async () => {
    ctx = await createTestApp();
    dataDir = mkdtempSync(path.join(tmpdir(), 'venue-demo-money-'));
    // As on a first start: the club first, the year in the background while a user works.
    await loadDemoBase(ctx.database.db, { clients: 160, days: 75, dataDir, now });
    api = new Api(ctx.app);
    expect((await api.login(DEMO_USERNAME, DEMO_PASSWORD, DEMO_EXTERNAL_CLUB_ID)).statusCode).toBe(200);
    const [client] = await queryRows<{ id: number }>(ctx.database.db, sql`select id from clients order by id limit 1`);
    let firstBatch!: () => void;
    const written = new Promise<void>((resolve) => (firstBatch = resolve));
    const history = runDemoHistory(ctx.database.db, { log: (m) => m.includes('demo history: ') && firstBatch() });
    await written;
    const purchase = await api.post('/api/Client/AdminPurchase', {
      clientId: client.id,
      purchaseItems: [{ itemType: 3, name: 'Towel', quantity: 1, unitPrice: 1000 }],
      payments: [{ method: 0, amount: 1000 }],
      idempotencyKey: `during-history-${Date.now()}`,
    });
    during = {
      status: (await api.get('/api/Dashboard/GetHistoryStatus')).json(),
      purchase: { statusCode: purchase.statusCode, body: purchase.json() },
      dailyJobs: await dailyMoneyJobs(ctx.database, new Date()),
    };
    const done = await history;
    if (!done) throw new Error('the demo history did not run');
    load = done;
  }, 600_000);
  afterAll(async () => {
    await ctx.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Jerusalem' }).format(new Date());
  const from = () =>
    new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Jerusalem' }).format(new Date(Date.now() - 80 * 86_400_000));

  const MONEY_REPORTS = [
    'payments',
    'purchases',
    'debts',
    'financial',
    'cashTransactions',
    'cashManagement',
    'autoRenewal',
    'quickExits',
    'products',
    'productSummary',
    'productMatrix',
    'excessStatus',
    'cashStatus',
    'saferPayments',
  ] as const;

  it.each(MONEY_REPORTS)('%s: rows and a non-zero money total over the history', async (id) => {
    const res = await api.post(`/api/Report/${REPORTS[id].call}`, { period: 'range', from: from(), to: today() });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as ReportResult;
    expect(body.total, id).toBeGreaterThan(0);
    expect(body.items.length, id).toBeGreaterThan(0);
    const numbers = Object.values(body.totals).flatMap((v) => (typeof v === 'number' ? [v] : Object.values(v)));
    expect(
      numbers.some((n) => n > 0),
      `${id} totals ${JSON.stringify(body.totals)}`,
    ).toBe(true);
  });

  it('made the money through the services: loads, subscriptions, kiosk, cash, MASAV, renewals, debts, quick exits', () => {
    const m = load.history.money;
    expect(m.loads).toBeGreaterThan(0);
    expect(m.subscriptions).toBeGreaterThan(0);
    expect(m.kiosk).toBeGreaterThan(0);
    expect(m.cashSessions).toBeGreaterThan(0);
    expect(m.masavFiles).toBeGreaterThan(0);
    expect(m.renewals).toBeGreaterThan(0);
    expect(m.debts).toBeGreaterThan(0);
    expect(m.quickExits).toBeGreaterThan(0);
  });

  it('shows income on the dashboard and debts both paid and open', async () => {
    const income = (await api.post('/api/Dashboard/GetMonthlyIncome', {})).json() as { value: number };
    if (Number(today().slice(8)) >= 3) expect(income.value).toBeGreaterThan(0);
    const [d] = await queryRows<{ paid: number; open: number }>(
      ctx.database.db,
      sql`select count(*) filter (where paid >= amount)::int as paid, count(*) filter (where paid < amount)::int as open
          from debts where deleted = false`,
    );
    expect(d.paid).toBeGreaterThan(0);
    expect(d.open).toBeGreaterThan(0);
  });

  it('while the history is written: the dashboard says so, money that takes a number waits, the daily jobs wait', async () => {
    expect(during.status).toMatchObject({ writing: true, days: 76 });
    expect((during.status as { day: number }).day).toBeGreaterThan(0);
    expect(during.purchase.statusCode).toBe(409);
    expect(during.purchase.body).toMatchObject({ code: 'HISTORY_BEING_WRITTEN' });
    expect(during.dailyJobs).toBe(false);
    // Written: the flag is down and money works again.
    expect((await api.get('/api/Dashboard/GetHistoryStatus')).json()).toEqual({
      writing: false,
      day: null,
      days: null,
    });
  });

  it('every numbered series of the demo club is gap-free and in date order', async () => {
    const series = await queryRows<{ series: string; n: number; at: string }>(
      ctx.database.db,
      sql`select 'invoice' as series, p.invoice_number::int as n,
                 coalesce((select min(d.issued_at) from purchase_documents d
                            where d.purchase_id = p.id and d.number = p.invoice_number), p.at)::text as at
            from purchases p where p.invoice_number is not null
          union all
          select 'document ' || d.kind, d.number, d.issued_at::text
            from purchase_documents d where d.kind not in (320, 400)
          union all
          select 'masav file', f.serial, f.value_date::text from masav_files f where not f.test_mode
          order by 1, 2`,
    );
    const names = [...new Set(series.map((r) => r.series))];
    expect(names).toContain('invoice');
    for (const name of names) {
      const rows = series.filter((r) => r.series === name);
      rows.forEach((r, i) => expect(Number(r.n), `${name} ${r.n}`).toBe(Number(rows[0].n) + i));
      for (let i = 1; i < rows.length; i++)
        expect(new Date(rows[i].at) >= new Date(rows[i - 1].at), `${name} ${rows[i].n} at ${rows[i].at}`).toBe(true);
    }
    // A sale document carries its purchase's number: the invoice series above is theirs too.
    const [off] = await queryRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from purchase_documents d join purchases p on p.id = d.purchase_id
           where d.kind in (320, 400) and d.number <> p.invoice_number`,
    );
    expect(Number(off.n)).toBe(0);
  });

  it('keeps invoice numbers gap-free and in date order (a MASAV purchase is numbered when collected)', async () => {
    const rows = await queryRows<{ n: number; at: string }>(
      ctx.database.db,
      sql`select p.invoice_number::int as n,
                 coalesce((select min(d.issued_at) from purchase_documents d
                            where d.club_id = p.club_id and d.purchase_id = p.id and d.number = p.invoice_number), p.at)::text as at
            from purchases p where p.invoice_number is not null order by p.invoice_number`,
    );
    expect(rows.length).toBeGreaterThan(50);
    rows.forEach((r, i) => expect(Number(r.n)).toBe(i + 1));
    for (let i = 1; i < rows.length; i++) {
      expect(new Date(rows[i].at) >= new Date(rows[i - 1].at), `invoice ${rows[i].n} at ${rows[i].at}`).toBe(true);
    }
    const [masav] = await queryRows<{ n: number }>(
      ctx.database.db,
      sql`select count(*)::int as n from purchase_documents d join purchases p on p.id = d.purchase_id
          where p.paid_other > 0 or exists (select 1 from masav_results r where r.purchase_id = p.id and r.collected)`,
    );
    expect(Number(masav.n)).toBeGreaterThan(0);
  });

  it('keeps every client balance equal to the sum of its ledger rows', async () => {
    const off = await queryRows<{ id: number }>(
      ctx.database.db,
      sql`select c.id from clients c
           where c.balance <> coalesce((select sum(l.delta) from balance_ledger l
                                         where l.client_id = c.id and l.kind = 'money'), 0)`,
    );
    expect(off).toEqual([]);
  });

  it('does not load twice: a second run and a second start change nothing', async () => {
    const db = ctx.database.db;
    const before = await moneySummary(db);
    expect(before.purchases.n).toBeGreaterThan(50);
    expect(await runDemoHistory(db, {})).toBeNull();
    expect(await ensureDemoClub(db, { clients: 160, days: 75, dataDir, history: 'wait' })).toBe(true);
    expect(await moneySummary(db)).toEqual(before);
  });

  it('a history stopped between batches goes on at the next start; two runners at once write it once; both end as one run without a stop', async () => {
    const d = await openTestDatabase();
    try {
      await loadDemoBase(d.db, { clients: 160, days: 75, dataDir, now });
      const stop = new AbortController();
      const stopped = await runDemoHistory(d.db, {
        signal: stop.signal,
        log: (m) => {
          if (m.includes('demo history: 28/')) stop.abort();
        },
      });
      expect(stopped).toBeNull();
      const [half] = await queryRows<{ n: number }>(d.db, sql`select count(*)::int as n from entrance_logs`);
      expect(half.n).toBeGreaterThan(0);
      expect(half.n).toBeLessThan(load.history.entrances);
      // The next start finds the saved state and finishes the year.
      expect(await ensureDemoClub(d.db, { clients: 160, days: 75, dataDir, history: 'wait' })).toBe(true);
      const resumed = await moneySummary(d.db);
      // The same club loaded without a stop, on the same kind of database (no app around it).
      const whole = await openTestDatabase();
      try {
        // Two runners at once (two servers starting on one database): one writes, the other stops.
        await loadDemoBase(whole.db, { clients: 160, days: 75, dataDir, now });
        const runs = await Promise.all([runDemoHistory(whole.db, {}), runDemoHistory(whole.db, {})]);
        expect(runs.filter((r) => r == null).length).toBe(1);
        expect(resumed).toEqual(await moneySummary(whole.db));
      } finally {
        await whole.dropAll();
      }
    } finally {
      await d.dropAll();
    }
  }, 600_000);
});
