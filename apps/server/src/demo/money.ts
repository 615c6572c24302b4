import { and, eq, gte, lt, sql } from 'drizzle-orm';
import {
  addDays,
  allPermissions,
  EntranceStatus,
  isoDate,
  PaymentMethod,
  PurchaseItemType,
  UserLevel,
  UserRole,
  type LocalDate,
  type PaymentInput,
  type Purchase,
} from '@venue/domain';
import type { Db } from '../db/index.js';
import { clients, debts, entranceLogs, products } from '../db/schema.js';
import type { Actor } from '../lib/actor.js';
import { AppError } from '../lib/errors.js';
import { clockNow, withClock } from '../lib/clock.js';
import { createPurchase } from '../modules/purchases/purchase.service.js';
import { kioskPurchase } from '../modules/gate/kiosk.service.js';
import { processExit } from '../modules/gate/quick-exit.service.js';
import { reconcileCharges } from '../integrations/clearing/charges.js';
import { SANDBOX_CARDS } from '../integrations/clearing/sandbox.js';
import type { ClearingProvider } from '../integrations/clearing/provider.js';
import { createDebt } from '../modules/debts/debts.service.js';
import {
  createMasavFile,
  downloadMasavFile,
  readMasavReturn,
  saveMasavSettings,
} from '../modules/masav/masav.service.js';
import { createPaymentMethod } from '../modules/payment-methods/payment-methods.service.js';
import { runAutoRenew } from '../modules/subscriptions/subscriptions.service.js';
import {
  cashBegin,
  cashComplete,
  cashInsert,
  cashPayoutDone,
  loadCash,
  resetCashLevels,
} from '../modules/terminals/cash.service.js';
import { bankReturnFile } from './bank.js';
import type { BatchEntranceEngine } from './batch-engine.js';
import type { DemoClient } from './club-data.js';
import type { Rng } from './random.js';

/**
 * A year of money for the demo club (DESIGN §9; issue "Demo club"), produced
 * by the real money services under a back-dated clock (lib/clock.ts
 * `withClock`): nothing here inserts a purchase, a ledger row, a debt or a
 * cash row itself.
 *
 * - Money loads of clients who pay per entrance: `createPurchase` (a
 *   ChargingMoney item) paid in cash at the desk (handed over rounded up, the
 *   change given back), by card (sandbox clearing provider), or at the main
 *   terminal through a cash session (`cashBegin` → `cashInsert` per bill →
 *   `cashComplete` → `cashPayoutDone`: change from the terminal's float, the
 *   part over the club's limit kept as excess).
 * - Subscriptions sold at the desk by card or MASAV; some subscribers keep
 *   the card or the bank authorization (`createPaymentMethod`) and are renewed
 *   every month by `runAutoRenew` (one with a card that declines: failed
 *   renewals become debts).
 * - MASAV: a debit file each month (`createMasavFile`), the bank's return
 *   file two days later (`readMasavReturn`, demo/bank.ts) with a few debits
 *   returned: those become open debts, the rest are collected and get their
 *   tax invoice-receipts on the collection day.
 * - Kiosk product sales at the terminals (`kioskPurchase`), now and then with
 *   a card whose answer is lost (uncertain charges that the weekly
 *   `reconcileCharges` settles: the safer-payments report).
 * - Debts at the desk (`createDebt`: a towel not returned, a bounced cheque),
 *   most paid later with a PayDebt purchase, some left open.
 * - Quick exits at DEMO-3 (`processExit`) a few minutes after a paid entrance.
 * - The cash box emptied each month (`resetCashLevels`) and the float loaded
 *   (`loadCash`).
 *
 * Every money event of a day is run in time order, never earlier than the
 * one before, so the club's invoice numbers follow the purchase dates with
 * no gap (documents module). Randomness comes from the demo's seeded Rng.
 */

/** Counts of what the money simulation produced, for logs and tests. */
export interface MoneyStats {
  purchases: number;
  loads: number;
  subscriptions: number;
  kiosk: number;
  cashSessions: number;
  quickExits: number;
  renewals: number;
  masavFiles: number;
  debts: number;
  /** Business refusals by code (declined cards, …): expected, counted. */
  refusals: Record<string, number>;
  /** Milliseconds spent per kind of event (for the load's log and the benchmark). */
  ms: Record<string, number>;
}

/** What {@link MoneySim.snapshot} saves: counters, planned sales, MASAV returns still to read. */
export interface MoneySnapshot {
  stats: MoneyStats;
  lastAt: number;
  seq: number;
  cashCount: number;
  kioskCount: number;
  renewers: number[];
  subscriptionDay: [number, number[]][];
  pending: { at: string; fileId: number; returned: number[] }[];
}

/** The money simulation's state while the history runs. */
export class MoneySim {
  readonly stats: MoneyStats = {
    purchases: 0,
    loads: 0,
    subscriptions: 0,
    kiosk: 0,
    cashSessions: 0,
    quickExits: 0,
    renewals: 0,
    masavFiles: 0,
    debts: 0,
    refusals: {},
    ms: {},
  };
  /** The last money moment (ms): every money event is at or after it (invoice numbers in date order). */
  private lastAt = 0;
  private seq = 0;
  private cashCount = 0;
  private kioskCount = 0;
  private productIds: { id: number; price: number }[] = [];
  /** Clients who subscribed with a stored method and are renewed automatically. */
  readonly renewers = new Set<number>();
  /** Clients of each day who bought a subscription at the desk (by day index). */
  private subscriptionDay = new Map<number, DemoClient[]>();

  constructor(
    readonly o: {
      clubId: number;
      actor: Actor;
      provider: ClearingProvider;
      terminals: Record<string, number>;
      clients: DemoClient[];
      start: LocalDate;
      days: number;
      now: Date;
      rng: Rng;
      fast: BatchEntranceEngine | null;
    },
  ) {}

  /**
   * Reads the products; then either restores a {@link snapshot} (a resumed history) or plans the
   * year's subscription sales (call once before the first day).
   */
  async prepare(db: Db, resume?: MoneySnapshot): Promise<void> {
    const { rng, clients: cs, days } = this.o;
    const rows = await db
      .select({ id: products.id, price: products.price, active: products.active })
      .from(products)
      .where(eq(products.clubId, this.o.clubId));
    this.productIds = rows.filter((p) => p.active).map((p) => ({ id: p.id, price: p.price }));
    if (resume) {
      const byId = new Map(cs.map((c) => [c.id, c]));
      Object.assign(this.stats, resume.stats);
      this.lastAt = resume.lastAt;
      this.seq = resume.seq;
      this.cashCount = resume.cashCount;
      this.kioskCount = resume.kioskCount;
      for (const id of resume.renewers) this.renewers.add(id);
      for (const [day, ids] of resume.subscriptionDay)
        this.subscriptionDay.set(
          day,
          ids.flatMap((id) => byId.get(id) ?? []),
        );
      this.pending = resume.pending.map((p) => ({ ...p, at: new Date(p.at) }));
      return;
    }
    const today = isoDate(addDays(this.o.start, days));
    for (const c of cs) {
      if (!c.active || c.kind === 'staff' || c.subscriptionEnd == null || c.subscriptionEnd < today) continue;
      const renews = c.kind !== 'women' && rng.chance(0.06);
      if (!renews && !rng.chance(0.08)) continue;
      // Renewers buy a month early in the year; the others their subscription some day of the year.
      const day = renews ? rng.int(0, Math.min(days, 30)) : rng.int(0, days);
      const list = this.subscriptionDay.get(day) ?? [];
      list.push(c);
      this.subscriptionDay.set(day, list);
      if (renews) this.renewers.add(c.id);
    }
  }

  /** The state to resume from after day `k` was committed (history.ts); only the days after `k` are kept. */
  snapshot(k: number): MoneySnapshot {
    return {
      stats: this.stats,
      lastAt: this.lastAt,
      seq: this.seq,
      cashCount: this.cashCount,
      kioskCount: this.kioskCount,
      renewers: [...this.renewers],
      subscriptionDay: [...this.subscriptionDay]
        .filter(([day]) => day > k)
        .map(([day, cs]) => [day, cs.map((c) => c.id)] as [number, number[]]),
      pending: this.pending.map((p) => ({ ...p, at: p.at.toISOString() })),
    };
  }

  /** Sets up the club's money settings (MASAV institution) and the terminals' float on the first day. */
  async setup(db: Db, at: Date): Promise<void> {
    await withClock(at, async () => {
      await saveMasavSettings(db, this.o.actor, {
        institutionCode: '12345678',
        sendingInstitution: '12345',
        institutionName: 'טהרת ישראל',
      });
      await this.fillFloat(db);
    });
  }

  private async fillFloat(db: Db): Promise<void> {
    await loadCash(db, this.o.actor, this.o.terminals['DEMO-1'], {
      coins: { 100: 40, 200: 30, 500: 30, 1000: 30 },
      bills: { 2000: 20, 5000: 6 },
    });
  }

  /** The next money moment: `at`, but never before the previous one (plus a second). */
  private moment(at: Date): Date {
    const t = Math.max(at.getTime(), this.lastAt + 1000);
    this.lastAt = t;
    return new Date(t);
  }

  private key(kind: string): string {
    return `demo:${kind}:${++this.seq}`;
  }

  /**
   * Runs one money step under the simulated clock inside a savepoint. A business refusal
   * (AppError: a declined card, a lost answer) is counted, not thrown; the step's writes roll back
   * unless `keepOnRefusal` (a lost card answer keeps its uncertain charge row).
   */
  private async step<T>(db: Db, at: Date, fn: (db: Db) => Promise<T>, keepOnRefusal = false): Promise<T | null> {
    const when = this.moment(at);
    try {
      return await withClock(when, () =>
        db.transaction(async (sp) => {
          try {
            return await fn(sp as unknown as Db);
          } catch (err) {
            if (keepOnRefusal && err instanceof AppError) {
              this.refused(refusalOf(err));
              return null;
            }
            throw err;
          }
        }),
      );
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      this.refused(refusalOf(err));
      return null;
    }
  }

  /** Runs `fn`, adding its time to `stats.ms[name]`. */
  async timed<T>(name: string, fn: () => Promise<T>): Promise<T> {
    const t0 = performance.now();
    try {
      return await fn();
    } finally {
      this.stats.ms[name] = Math.round((this.stats.ms[name] ?? 0) + performance.now() - t0);
    }
  }

  private refused(code: string) {
    this.stats.refusals[code] = (this.stats.refusals[code] ?? 0) + 1;
  }

  private card(): NonNullable<PaymentInput['card']> {
    const number = this.o.rng.chance(0.3) ? SANDBOX_CARDS.approveMastercard : SANDBOX_CARDS.approve;
    return { number, expiry: '12/30', cvv: '123', ownerId: '', ownerName: '' };
  }

  /**
   * A money load of `amount` agorot before a visit at `at`: cash at the desk (57%), card (33%) or a
   * cash session at the main terminal (10%: the costliest path, eight service calls). Mirrors the load in the batch engine.
   * The first load of a history is always a cash session, so that even a short history shows the cash
   * reports (with 10% alone, a 75-day club of 15 loads had none one day in five).
   */
  async load(db: Db, c: DemoClient, amount: number, at: Date): Promise<void> {
    const { rng } = this.o;
    const roll = rng.next();
    let loaded = 0;
    if (roll < 0.1 || this.cashCount === 0) {
      loaded = await this.cashSessionLoad(db, c, amount, at);
    } else {
      const payments: PaymentInput[] =
        roll < 0.67
          ? [
              {
                method: PaymentMethod.Cash,
                amount,
                cashGiven: Math.ceil(amount / 5000) * 5000 + (rng.chance(0.3) ? 5000 : 0),
                keepExcess: false,
              },
            ]
          : [{ method: PaymentMethod.CreditCard, amount, card: this.card(), keepExcess: false }];
      const p = await this.step(db, at, (sp) =>
        createPurchase(sp, this.o.provider, {
          clubId: this.o.clubId,
          clientId: c.id,
          items: [{ itemType: PurchaseItemType.ChargingMoney, name: '', quantity: 1, unitPrice: amount }],
          payments,
          isAdminUser: true,
          source: 'console',
          userId: this.o.actor.userId,
          idempotencyKey: this.key('load'),
        }),
      );
      if (p) loaded = loadedBy(p);
    }
    if (loaded > 0) {
      this.o.fast?.credit(c.id, loaded);
      c.balance += loaded;
      this.stats.loads++;
      this.stats.purchases++;
    }
  }

  /** A load at DEMO-1 in bills through a cash session; returns the amount credited. */
  private async cashSessionLoad(db: Db, c: DemoClient, amount: number, at: Date): Promise<number> {
    const { rng } = this.o;
    const link = { clubId: this.o.clubId, terminalId: this.o.terminals['DEMO-1'] };
    const sessionId = this.key('cash');
    // Bills of 100, 50, 20 (what the acceptor takes) covering the amount; sometimes one more (change, or
    // excess above the club's ₪20 limit).
    const bills: number[] = [];
    let left = amount;
    for (const b of [10000, 5000, 2000]) {
      while (left >= b) {
        bills.push(b);
        left -= b;
      }
    }
    if (left > 0) bills.push(2000);
    // Every third session one bill too many: change from the float, above ₪20 partly kept as excess.
    if (++this.cashCount % 3 === 1) bills.push(this.cashCount % 2 ? 5000 : 10000);
    else if (rng.chance(0.3)) bills.push(2000);
    let t = at.getTime();
    const tick = () => new Date((t += rng.int(2, 6) * 1000));
    const out = await this.step(db, at, async (sp) => {
      let s = await cashBegin(sp, link, {
        sessionId,
        identification: { kind: 'card', value: c.card },
        amountDue: amount,
      });
      let n = 0;
      for (const b of bills) {
        s = await withClock(tick(), () =>
          cashInsert(sp, link, { sessionId, eventId: `${sessionId}:${++n}`, kind: 'bill', denomination: b }),
        );
      }
      s = await withClock(tick(), () => cashComplete(sp, link, { sessionId }));
      if (s.state === 'startPayout') {
        // The terminal reports the change it paid out: the plan, now and then a coin short (a payout error).
        const coins = { ...(s.change?.coins ?? {}) };
        const short = Object.keys(coins)[0];
        if (short && rng.chance(0.1)) coins[short] -= 1;
        const bills = s.change?.bills ?? {};
        s = await withClock(tick(), () => cashPayoutDone(sp, link, { sessionId, coins, bills }));
      }
      return s;
    });
    this.lastAt = Math.max(this.lastAt, t);
    if (!out) return 0;
    this.stats.cashSessions++;
    // The change the terminal could not pay is loaded onto the balance too (a payout-error purchase).
    return out.credited + out.unpaid;
  }

  /** The day's desk, kiosk and back-office money events, as (minute of the day, action). */
  plan(k: number, date: LocalDate, wd: number): { min: number; run: (db: Db, at: Date) => Promise<void> }[] {
    const { rng } = this.o;
    const out: { min: number; run: (db: Db, at: Date) => Promise<void> }[] = [];
    const add = (name: string, min: number, run: (db: Db, at: Date) => Promise<void>) =>
      out.push({ min, run: (db, at) => this.timed(name, () => run(db, at)) });
    if (k === 0) add('setup', 7 * 60, (db, at) => this.setup(db, at));
    for (const c of this.subscriptionDay.get(k) ?? []) {
      add('subscribe', 9 * 60 + rng.int(0, 600), (db, at) => this.subscribe(db, c, at));
    }
    if (wd !== 6) {
      // Automatic renewal runs every morning (seed 001 §4).
      add('renew', 6 * 60, (db, at) => this.renew(db, at));
      const sales = rng.chance(0.55) ? rng.int(1, wd === 5 ? 2 : 1) : 0;
      for (let i = 0; i < sales; i++) add('kiosk', 10 * 60 + rng.int(0, 720), (db, at) => this.kiosk(db, at));
      if (rng.chance(0.2)) add('desk', 11 * 60 + rng.int(0, 480), (db, at) => this.desk(db, at));
    }
    if (date.day === 1) add('emptyCashBox', 8 * 60, (db, at) => this.emptyCashBox(db, at));
    if (date.day === 20 && wd !== 6) add('masavFile', 9 * 60, (db, at) => this.masavFile(db, at, date));
    if (wd === 0) add('reconcile', 8 * 60 + 30, (db, at) => this.reconcile(db, at));
    return out;
  }

  /** A subscription sold at the desk: card, MASAV or cash; renewers keep the card or the bank authorization. */
  private async subscribe(db: Db, c: DemoClient, at: Date): Promise<void> {
    const { rng } = this.o;
    const renews = this.renewers.has(c.id);
    const annual = c.kind === 'annual';
    const price = annual ? (renews ? 12000 : 120000) : c.kind === 'women' ? 90000 : renews ? 9000 : 90000;
    const today = isoDate(localDateOf(at));
    const masav = rng.chance(renews ? 0.35 : 0.12);
    const stored = renews || masav;
    const badCard = renews && !masav && rng.chance(0.08);
    const p = await this.step(db, at, async (sp) => {
      if (stored) {
        const [row] = await sp.select().from(clients).where(eq(clients.id, c.id));
        await createPaymentMethod(
          sp,
          this.o.provider,
          this.o.actor,
          masav
            ? {
                kind: 'masav',
                clientId: c.id,
                bankCode: '12',
                branch: '571',
                account: '041116',
                ownerId: row.personalId,
                ownerName: `${row.firstName} ${row.lastName}`.trim().slice(0, 60),
                authExpiry: null,
                chargeLimit: 0,
              }
            : {
                kind: 'card',
                clientId: c.id,
                card: { ...this.card(), number: badCard ? SANDBOX_CARDS.insufficientFunds : SANDBOX_CARDS.approve },
              },
        );
      }
      const payments: PaymentInput[] = masav
        ? [{ method: PaymentMethod.Masav, amount: price, keepExcess: false }]
        : badCard || rng.chance(0.15)
          ? [{ method: PaymentMethod.Cash, amount: price, cashGiven: price, keepExcess: false }]
          : stored
            ? [{ method: PaymentMethod.CreditCardToken, amount: price, keepExcess: false }]
            : [{ method: PaymentMethod.CreditCard, amount: price, card: this.card(), keepExcess: false }];
      return createPurchase(sp, this.o.provider, {
        clubId: this.o.clubId,
        clientId: c.id,
        items: [
          {
            itemType: PurchaseItemType.NewSubscription,
            name: '',
            quantity: 1,
            unitPrice: price,
            // A renewer's month from today; the others keep the dates the club already has.
            subscription: renews
              ? { period: 'month', usageType: 'subscription', unlimited: false, kala: false, start: today }
              : {
                  period: 'year',
                  usageType: 'subscription',
                  unlimited: false,
                  kala: false,
                  start: today < c.subscriptionEnd! ? today : c.subscriptionEnd!,
                  end: c.subscriptionEnd!,
                },
          },
        ],
        payments,
        isAdminUser: true,
        source: 'console',
        userId: this.o.actor.userId,
        actor: this.o.actor,
        idempotencyKey: this.key('subscription'),
      });
    });
    if (!p) {
      this.renewers.delete(c.id);
      return;
    }
    this.stats.subscriptions++;
    this.stats.purchases++;
    await this.syncSubscriptions(db, [c.id]);
  }

  /** Tells the batch engine the subscription dates the services wrote for these clients. */
  private async syncSubscriptions(db: Db, ids: number[]): Promise<void> {
    if (!this.o.fast || !ids.length) return;
    const rows = await db
      .select({ id: clients.id, start: clients.subscriptionStart, end: clients.subscriptionEnd })
      .from(clients)
      .where(and(eq(clients.clubId, this.o.clubId), sql`${clients.id} = any(${`{${ids.join(',')}}`}::int[])`));
    for (const r of rows) this.o.fast.setSubscription(r.id, r.start, r.end);
    for (const c of this.o.clients) {
      const r = rows.find((x) => x.id === c.id);
      if (r) c.subscriptionEnd = r.end;
    }
  }

  /** The morning's automatic renewal (set-based `runAutoRenew`). */
  private async renew(db: Db, at: Date): Promise<void> {
    if (!this.renewers.size) return;
    const r = await this.step(db, at, (sp) =>
      runAutoRenew(sp, this.o.provider, this.o.clubId, { at: clockNow(), userId: null }),
    );
    if (!r || r.considered === 0) return;
    this.stats.renewals += r.renewed + r.failed;
    this.stats.purchases += r.renewed;
    await this.syncSubscriptions(db, [...this.renewers]);
  }

  /** A kiosk sale at a terminal: a product or two, by card; now and then the card's answer is lost. */
  private async kiosk(db: Db, at: Date): Promise<void> {
    const { rng } = this.o;
    if (!this.productIds.length) return;
    const p = rng.pick(this.productIds);
    // One sale in 25 (the 5th, 30th, …) with the card whose answer is lost.
    const lost = ++this.kioskCount % 25 === 5;
    const serial = rng.pick(['DEMO-1', 'DEMO-2', 'DEMO-3']);
    const buyer = rng.chance(0.6) ? rng.pick(this.o.clients) : null;
    const r = await this.step(
      db,
      at,
      (sp) =>
        kioskPurchase(
          sp,
          null,
          this.o.provider,
          { clubId: this.o.clubId, terminalId: this.o.terminals[serial] },
          {
            type: 'purchase',
            eventId: this.key('kiosk'),
            ...(buyer && buyer.active ? { identification: { kind: 'card', value: buyer.card } } : {}),
            items: [{ itemType: PurchaseItemType.Product, itemId: p.id, name: '', quantity: rng.chance(0.2) ? 2 : 1 }],
            payments: [
              {
                method: PaymentMethod.CreditCard,
                card: { ...this.card(), number: lost ? SANDBOX_CARDS.unknownOutcome : this.card().number },
              },
            ],
          },
        ),
      true,
    );
    if (r?.ok) {
      this.stats.kiosk++;
      this.stats.purchases++;
    } else if (r) this.refused(r.error ?? 'kiosk');
  }

  /** The desk: a debt registered (a towel not returned), or an open debt paid in cash. */
  private async desk(db: Db, at: Date): Promise<void> {
    const { rng } = this.o;
    const open = await db
      .select({ id: debts.id, clientId: debts.clientId, left: sql<number>`${debts.amount} - ${debts.paid}` })
      .from(debts)
      .where(
        and(
          eq(debts.clubId, this.o.clubId),
          eq(debts.deleted, false),
          sql`${debts.paid} < ${debts.amount}`,
          sql`${debts.masavFileId} is null`,
          // Paid a month or more later: the latest debts are still open.
          lt(debts.createdAt, new Date(at.getTime() - 30 * 86_400_000)),
        ),
      )
      .orderBy(debts.id)
      .limit(20);
    if (open.length && rng.chance(0.6)) {
      const d = rng.pick(open);
      const left = Number(d.left);
      const p = await this.step(db, at, (sp) =>
        createPurchase(sp, this.o.provider, {
          clubId: this.o.clubId,
          clientId: d.clientId,
          items: [{ itemType: PurchaseItemType.PayDebt, itemId: d.id, name: '', quantity: 1, unitPrice: left }],
          payments: [
            { method: PaymentMethod.Cash, amount: left, cashGiven: Math.ceil(left / 1000) * 1000, keepExcess: false },
          ],
          isAdminUser: true,
          source: 'console',
          userId: this.o.actor.userId,
          actor: this.o.actor,
          idempotencyKey: this.key('debt'),
        }),
      );
      if (p) this.stats.purchases++;
      return;
    }
    const c = rng.pick(this.o.clients.filter((x) => x.active && x.kind !== 'staff'));
    const what = rng.pick([
      { amount: 3000, description: 'מגבת שלא הוחזרה' },
      { amount: 6000, description: 'כניסה ששולמה בצ׳ק שחזר' },
      { amount: 1500, description: 'ערכת טבילה' },
    ]);
    const r = await this.step(db, at, (sp) => createDebt(sp, this.o.actor, { clientId: c.id, ...what }));
    if (r) this.stats.debts++;
  }

  /** The monthly MASAV debit file, and the bank's return file two days later with a few debits returned. */
  private async masavFile(db: Db, at: Date, date: LocalDate): Promise<void> {
    const { rng } = this.o;
    const file = await this.step(db, at, (sp) =>
      createMasavFile(sp, this.o.actor, { testMode: false, valueDate: isoDate(addDays(date, 2)) }),
    );
    if (!file) return;
    this.stats.masavFiles++;
    const returned: number[] = [];
    for (let i = 0; i < file.count; i++) if (rng.chance(0.08)) returned.push(i);
    // The return is read on the value date (when still inside the history): collections and receipts that day.
    const back = new Date(at.getTime() + 2 * 86_400_000);
    if (back > this.o.now) return;
    this.pending.push({ at: back, fileId: file.id, returned });
  }

  /** MASAV returns waiting for their value date. */
  private pending: { at: Date; fileId: number; returned: number[] }[] = [];

  /** Reads the MASAV returns due by `at` (called before each day's events). */
  async returnsDue(db: Db, at: Date): Promise<void> {
    const due = this.pending.filter((p) => p.at <= at);
    this.pending = this.pending.filter((p) => p.at > at);
    for (const p of due) {
      await this.step(db, p.at, async (sp) => {
        const f = await downloadMasavFile(sp, this.o.clubId, p.fileId);
        return readMasavReturn(sp, this.o.actor, bankReturnFile(Buffer.from(f.content as Uint8Array), p.returned));
      });
    }
  }

  /** Empties the main terminal's cash box (the cash management report) and tops up its float. */
  private async emptyCashBox(db: Db, at: Date): Promise<void> {
    await this.step(db, at, async (sp) => {
      await resetCashLevels(sp, this.o.actor, this.o.terminals['DEMO-1']);
      await this.fillFloat(sp);
    });
  }

  /** The weekly safer-payments reconciliation of uncertain card charges. */
  private async reconcile(db: Db, at: Date): Promise<void> {
    await this.step(db, at, (sp) => reconcileCharges(sp, this.o.provider, this.o.clubId));
  }

  /**
   * Quick exits of a stretch of days already written (the batch engine flushed): some clients
   * who entered at DEMO-3 by money or subscription leave a few minutes later.
   */
  async quickExits(db: Db, from: Date, to: Date): Promise<void> {
    const { rng } = this.o;
    const t = this.o.terminals['DEMO-3'];
    const rows = await db
      .select({ at: entranceLogs.at, clientId: entranceLogs.clientId, payer: entranceLogs.payerClientId })
      .from(entranceLogs)
      .where(
        and(
          eq(entranceLogs.clubId, this.o.clubId),
          eq(entranceLogs.terminalId, t),
          eq(entranceLogs.status, EntranceStatus.Approved),
          gte(entranceLogs.at, from),
          lt(entranceLogs.at, to),
        ),
      )
      .orderBy(entranceLogs.at, entranceLogs.id);
    const cardOf = new Map(this.o.clients.map((c) => [c.id, c.card]));
    for (const r of rows) {
      if (r.clientId == null || !rng.chance(0.008)) continue;
      const card = cardOf.get(r.clientId);
      if (!card) continue;
      const at = new Date(r.at.getTime() + rng.int(3, 40) * 60_000 + rng.int(0, 59) * 1000);
      if (at > this.o.now) continue;
      const out = await withClock(at, () =>
        db.transaction((sp) =>
          processExit(sp as unknown as Db, {
            clubId: this.o.clubId,
            terminalId: t,
            identification: { kind: 'card', value: card },
            at,
            eventId: this.key('exit'),
          }),
        ),
      );
      this.stats.quickExits++;
      if (out.rewardAmount > 0) this.o.fast?.credit(r.payer ?? r.clientId, out.rewardAmount);
    }
  }
}

/** A refusal's code, with the first validation message or payment reason (for the load's log). */
function refusalOf(err: AppError): string {
  const d = err.details as { message?: string; reason?: string }[] | { reason?: string } | undefined;
  const why = Array.isArray(d) ? d[0]?.message : d?.reason;
  return why ? `${err.code}:${why}` : err.code;
}

/** Money a load put on the client's balance (the load and the group's bonus), agorot. */
function loadedBy(p: Purchase): number {
  return Math.max(0, (p.balanceAfter ?? 0) - (p.balanceBefore ?? 0) + (p.paidBeats ?? 0));
}

/** The Jerusalem local date of an instant (the demo club's zone). */
function localDateOf(at: Date): LocalDate {
  const s = at.toLocaleDateString('en-CA', { timeZone: 'Asia/Jerusalem' });
  const [year, month, day] = s.split('-').map(Number);
  return { year, month, day };
}

/** The demo admin as a staff actor of the club (audit rows name them). */
export function demoActor(clubId: number, userId: number, externalClubId: number): Actor {
  return {
    userId,
    username: 'admin',
    level: UserLevel.Regular,
    role: UserRole.MANAGER,
    isAdmin: true,
    permissions: allPermissions(true),
    clubId,
    externalClubId,
    ip: '127.0.0.1',
  };
}
