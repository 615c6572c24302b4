import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/db/query.js';
import { withClock } from '../../src/lib/clock.js';
import { SANDBOX_CARDS, clearingProvider } from '../../src/integrations/clearing/sandbox.js';
import { dailyMoneyJobs } from '../../src/modules/subscriptions/auto-renew.scheduler.js';
import { runClubMoneyJobs } from '../../src/modules/subscriptions/subscriptions.service.js';
import { signedInAdmin, validPersonalId, type Api, type TestContext } from '../harness.js';
import { makeProduct } from '../factories.js';
import { multipartFile } from '../masav-bank.js';
import { parseMasavDebitFile } from '../masav-parser.js';
import { readMovein, type ReadMovement } from '../movein-reader.js';
import { addDays, at, dayDiff, subscriptionEndOf, type EndType } from './calendar.js';
import { KNOWN, type KnownFinding } from './known.js';
import {
  cashRound,
  expectedRenewal,
  Item,
  Ledger,
  M,
  vatIn,
  vatRateBp,
  type Bounded,
  type MClient,
  type MSale,
  type RenewRule,
} from './model.js';
import { describeAction, type Action, type DayPlan, type Plan, type StoredMethod } from './plan.js';

/**
 * The money life simulator (docs/money.md "The money life test:
 * invariants"): one club run day by day through the real HTTP API (every
 * request under the simulated clock, lib/clock.ts `withClock`) and the real
 * batch jobs (the daily money job at 06:00, MASAV files on the 3rd and the
 * 18th with the bank's return three days later), while {@link Ledger}
 * records what was done; after every day the invariants are checked against
 * the ledger. A broken invariant throws {@link Violation}; a difference that
 * is a known finding ({@link KNOWN}) is tolerated and counted.
 */

export class Violation extends Error {
  constructor(
    readonly day: string,
    readonly invariant: string,
    readonly detail: string,
  ) {
    super(`day ${day}: ${invariant}: ${detail}`);
  }
}

const ACCOUNTS = {
  cashAccount: '1000',
  creditAccount: '1100',
  incomeAccount: '4000',
  vatAccount: '2200',
  masavAccount: '1300',
  bankAccount: '1500',
  branch: '1',
};

/** The club's groups: one per end type (seed 001 §4), each with its monthly price (the schedule row's price). */
const GROUPS: { endType: EndType; monthly: number }[] = [
  { endType: 2, monthly: 18_000 },
  { endType: 1, monthly: 15_000 },
  { endType: 4, monthly: 22_000 },
  { endType: 3, monthly: 19_990 },
];
const PRODUCT_PRICES = [1000, 1490, 2350, 333];
/** MASAV debit files on these days of the month; the bank's return is read three days later. */
const MASAV_DAYS = [3, 18];

export interface SimOptions {
  /** First simulated day (club local date). */
  start: string;
  days: number;
  /** Heavy checks (MOVEIN, every balance, MASAV states, credit numbers) every this many days and on month ends. */
  heavyEvery: number;
  log?: (line: string) => void;
}

interface ApiReply {
  statusCode: number;
  body: string;
  rawPayload: Buffer;
  json(): any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** Lives run in this process (each has its own client ids and keys; see `setup`). */
let lives = 0;

export class MoneyLife {
  readonly ledger = new Ledger();
  /** Known findings met (name → count). */
  readonly knownSeen = new Map<KnownFinding, number>();
  /** What happened, one line each (printed on failure). */
  readonly journal: string[] = [];
  private api!: Api;
  private clubId = 0;
  private groups: { id: number; endType: EndType; monthly: number }[] = [];
  private products: { id: number; price: number }[] = [];
  private rule!: RenewRule;
  private day = '';
  private minute = 0;
  private seq = 0;
  private lastLogId = 0;
  private touched = new Set<number>();
  private returns: { day: string; fileId: number; sent: Buffer; clients: number[] }[] = [];
  private clientSeq = 0;
  private stats = { requests: 0, sales: 0, refunds: 0, renewals: 0, renewFailures: 0, masavFiles: 0, rejected: 0 };

  constructor(
    private readonly ctx: TestContext,
    private readonly plan: Plan,
    private readonly o: SimOptions,
  ) {}

  // ------------------------------------------------------------------ plumbing

  private now(): Date {
    return at(this.day, this.minute);
  }

  private note(line: string) {
    this.journal.push(
      `${this.day} ${String(Math.floor(this.minute / 60)).padStart(2, '0')}:${String(this.minute % 60).padStart(2, '0')} ${line}`,
    );
    if (this.journal.length > 400) this.journal.splice(0, this.journal.length - 300);
  }

  private async req(method: string, url: string, body?: unknown, headers?: Record<string, string>): Promise<ApiReply> {
    this.stats.requests++;
    return (await withClock(this.now(), () => this.api.request(method, url, body, headers))) as unknown as ApiReply;
  }

  private async ok(method: string, url: string, body?: unknown): Promise<ApiReply> {
    const r = await this.req(method, url, body);
    if (r.statusCode !== 200) this.fail('api', `${method} ${url} answered ${r.statusCode}: ${r.body.slice(0, 400)}`);
    return r;
  }

  private fail(invariant: string, detail: string): never {
    throw new Violation(this.day, invariant, detail);
  }

  /** A known finding met: counted when its switch says it is known broken, else a failure. */
  private known(name: KnownFinding, invariant: string, detail: string) {
    if (!KNOWN[name]) this.fail(invariant, detail);
    const n = (this.knownSeen.get(name) ?? 0) + 1;
    this.knownSeen.set(name, n);
    if (n <= 3) this.note(`known ${name}: ${detail}`);
  }

  private readonly life = ++lives;

  private key(kind: string) {
    return `life${this.life}-${kind}-${++this.seq}`;
  }

  private rows<T extends Record<string, unknown>>(q: ReturnType<typeof sql>) {
    return queryRows<T>(this.ctx.database.db, q);
  }

  private clientList(): MClient[] {
    return [...this.ledger.clients.values()];
  }

  private pickClient(who: number): MClient | null {
    const list = this.clientList();
    return list.length ? list[who % list.length] : null;
  }

  // ------------------------------------------------------------------ setup

  async setup(): Promise<void> {
    this.day = this.o.start;
    this.minute = 4 * 60;
    const { club, api } = await signedInAdmin(this.ctx, {
      settings: {
        autoRenewDaysBefore: this.plan.daysBefore,
        autoRenewDaysAfter: this.plan.daysAfter,
        companyNumber: validPersonalId(51_400_000),
        addressCity: 'ירושלים',
        addressStreet: 'יפו',
        addressHouseNumber: '1',
        invoiceEmail: 'books@club.example',
      },
    });
    this.api = api;
    this.clubId = club.id;
    // The sandbox clearing provider keeps its books for the whole process, by idempotency key,
    // and a renewal's key names the client (`autorenew:<client>:<end>`): each life of this process
    // numbers its clients from its own million, so no life meets another's charges.
    await this.ctx.database.db.execute(
      sql`select setval(pg_get_serial_sequence('clients', 'id'), ${this.life * 1_000_000})`,
    );
    await this.ok('PATCH', `/api/Club/UpdateHasavshevetDetails/${club.id}`, ACCOUNTS);
    await this.ok('PUT', '/api/MasavFile/Settings', {
      institutionCode: '12345678',
      sendingInstitution: '54321',
      institutionName: 'Club',
    });
    await this.setRule(this.plan.rule);
    for (const [i, g] of GROUPS.entries()) {
      const r = await this.ok('POST', '/api/Group', {
        name: `Group ${i} (end type ${g.endType})`,
        subscriptionEndType: g.endType,
        schedule: [
          {
            days: [0, 1, 2, 3, 4, 5, 6],
            fromTime: 0,
            toTime: 1440,
            entranceState: 1,
            price: g.monthly,
            displayName: 'Month',
          },
        ],
      });
      this.groups.push({ id: r.json().id, ...g });
    }
    for (const price of PRODUCT_PRICES) {
      const p = await makeProduct(this.ctx, club.id, { price });
      this.products.push({ id: p.id, price });
    }
    // The opening clients join before the first day's 06:00 jobs (invoice numbers in date order).
    this.minute = 5 * 60;
    for (const a of this.plan.opening) {
      this.minute += 3;
      await this.act(a);
    }
  }

  private async setRule(r: Plan['rule']) {
    this.rule = { method: r.method, lastDayOfMonth: r.lastDay, lastDayTreatment: r.treatment };
    await this.ok('PATCH', '/api/AutoRenew/Settings', this.rule);
  }

  // ------------------------------------------------------------------ the days

  async run(onDay?: (k: number) => Promise<void>): Promise<void> {
    await this.setup();
    for (let k = 0; k < this.o.days; k++) {
      this.day = addDays(this.o.start, k);
      await this.runDay(this.plan.days[k] ?? { actions: [], bank: 0 });
      await this.check(k);
      await onDay?.(k);
    }
  }

  /** Counters for the run's summary. */
  summary() {
    return {
      ...this.stats,
      clients: this.ledger.clients.size,
      sales: this.ledger.sales.size,
      known: Object.fromEntries(this.knownSeen),
    };
  }

  private async runDay(d: DayPlan): Promise<void> {
    this.touched.clear();
    // 06:00 the daily money job: automatic renewal and the safer-payments reconciliation.
    this.minute = 6 * 60;
    await withClock(this.now(), () => dailyMoneyJobs(this.ctx.database, this.now()));
    await this.observeRenewals();
    // 06:05 the manager presses "Run renewal now" (or a second instance runs it): nothing new.
    this.minute = 6 * 60 + 5;
    await this.renewNow();
    const dom = Number(this.day.slice(8));
    this.minute = 7 * 60;
    if (MASAV_DAYS.includes(dom)) await this.masavFile();
    this.minute = 8 * 60;
    for (const r of this.returns.filter((x) => x.day === this.day)) await this.masavReturn(r, d.bank);
    this.returns = this.returns.filter((x) => x.day !== this.day);
    this.minute = 9 * 60;
    for (const a of d.actions) {
      this.minute += 17;
      await this.act(a);
    }
  }

  // ------------------------------------------------------------------ actions

  private async act(a: Action): Promise<void> {
    this.note(describeAction(a));
    switch (a.t) {
      case 'newClient':
        return this.newClient(a.group, a.method, a.pay, a.months);
      case 'buySub': {
        const c = this.pickClient(a.who);
        if (c) await this.buySubscription(c, a.pay, a.months);
        return;
      }
      case 'load': {
        const c = this.pickClient(a.who);
        if (c) await this.load(c, a.shekels * 100, a.pay);
        return;
      }
      case 'product': {
        const c = this.pickClient(a.who);
        if (c) await this.product(c, this.products[a.product % this.products.length], a.qty, a.pay);
        return;
      }
      case 'free': {
        const c = this.pickClient(a.who);
        if (c) await this.free(c);
        return;
      }
      case 'refund':
        return this.refund(a.pick, a.partial, a.percent);
      case 'debt': {
        const c = this.pickClient(a.who);
        if (!c) return;
        const r = await this.ok('POST', '/api/Debts', {
          clientId: c.id,
          amount: a.agorot,
          description: 'Towel not returned',
        });
        this.ledger.debts.set(r.json().id, {
          id: r.json().id,
          clientId: c.id,
          amount: a.agorot,
          paid: 0,
          origin: 'manual',
          file: null,
          rejected: false,
        });
        return;
      }
      case 'payDebt':
        return this.payDebt(a.pick, a.pay, a.partial);
      case 'changeMethod': {
        const c = this.pickClient(a.who);
        if (c) await this.setMethod(c, a.method);
        return;
      }
      case 'renewalRule':
        return this.setRule(a);
      case 'rerunRenewal':
        return this.renewNow();
    }
  }

  /**
   * The club's renewal run again ("Run renewal now", StartChargeClub, another instance): a renewal
   * is idempotent per client and period, so it may renew only what became due since.
   */
  private async renewNow() {
    await withClock(this.now(), () =>
      runClubMoneyJobs(this.ctx.database, clearingProvider(), this.clubId, { at: this.now() }),
    );
    await this.observeRenewals();
  }

  private async newClient(group: number, method: StoredMethod, pay: 0 | 1 | 2, months: 1 | 3) {
    const g = this.groups[group % this.groups.length];
    const n = ++this.clientSeq;
    const r = await this.ok('POST', '/api/Client', {
      firstName: `Client${n}`,
      lastName: 'Life',
      groupId: g.id,
      personalId: validPersonalId(70_000 + n),
    });
    const c: MClient = {
      id: r.json().id,
      number: r.json().number,
      group: g.id,
      endType: g.endType,
      monthly: g.monthly,
      method: null,
      subStart: null,
      subEnd: null,
      balance: 0,
      attempted: new Set(),
      lastLinePerMonth: g.monthly,
      changedAt: this.now(),
    };
    this.ledger.clients.set(c.id, c);
    await this.setMethod(c, method);
    await this.buySubscription(c, pay, months);
  }

  private async setMethod(c: MClient, method: StoredMethod) {
    c.changedAt = this.now();
    if (c.method) {
      await this.ok('DELETE', `/api/CreditCard/${c.method.id}`);
      c.method = null;
    }
    if (method === 0) return;
    const body =
      method === 3
        ? {
            kind: 'masav',
            clientId: c.id,
            bankCode: '12',
            branch: '571',
            account: '041116',
            ownerId: validPersonalId(80_000 + c.id),
            ownerName: `Owner ${c.number}`,
          }
        : {
            kind: 'card',
            clientId: c.id,
            card: { number: method === 2 ? SANDBOX_CARDS.decline : SANDBOX_CARDS.approve, expiry: '12/39', cvv: '123' },
          };
    const r = await this.ok('POST', '/api/CreditCard', body);
    c.method = { id: r.json().id, kind: method === 3 ? 'masav' : 'card', declines: method === 2 };
  }

  /**
   * A purchase at the desk. Returns the sale, or null when a typed card was declined (the
   * client then pays cash: a second purchase with a new key).
   */
  private async purchase(
    c: MClient,
    item: Record<string, unknown> & { itemType: number; unitPrice: number; quantity?: number },
    pay: 'cash' | 'card' | 'masav' | 'beats' | 'split' | 'free',
    what: string,
    extra: Partial<MSale> = {},
  ): Promise<MSale | null> {
    const total = item.unitPrice * (item.quantity ?? 1);
    const declines = c.method?.kind === 'card' && c.method.declines;
    const payments: Record<string, unknown>[] =
      pay === 'cash'
        ? [{ method: M.Cash, amount: cashRound(total), cashGiven: Math.ceil(cashRound(total) / 5000) * 5000 || 0 }]
        : pay === 'card'
          ? [
              {
                method: M.Card,
                amount: total,
                card: { number: declines ? SANDBOX_CARDS.decline : SANDBOX_CARDS.approve, expiry: '12/39', cvv: '123' },
              },
            ]
          : pay === 'masav'
            ? [{ method: M.Masav, amount: total }]
            : pay === 'beats'
              ? [{ method: M.Beats, amount: total }]
              : pay === 'free'
                ? [{ method: M.Free, amount: total }]
                : [
                    {
                      method: M.Card,
                      amount: Math.floor(total / 2),
                      card: { number: SANDBOX_CARDS.approve, expiry: '12/39', cvv: '123' },
                    },
                    { method: M.Cash, amount: cashRound(total - Math.floor(total / 2)) },
                  ];
    const r = await this.req('POST', '/api/Client/AdminPurchase', {
      clientId: c.id,
      purchaseItems: [item],
      payments,
      idempotencyKey: this.key('buy'),
    });
    if (declines && pay === 'card') {
      if (r.statusCode === 200) this.fail('cardDecline', `a declined card paid ${what}: ${r.body.slice(0, 300)}`);
      this.note(`card declined (${r.json().code}); pays cash`);
      return this.purchase(c, item, 'cash', what, extra);
    }
    if (r.statusCode !== 200)
      this.fail('purchase', `${what} for client ${c.id} answered ${r.statusCode}: ${r.body.slice(0, 400)}`);
    const p = r.json();
    const sentPayments = payments.map((x) => ({ method: x.method as number, amount: x.amount as number }));
    const rateBp = vatRateBp(this.now());
    const vat = vatIn(Ledger.taxedBase(sentPayments, total), rateBp);
    if (p.total !== total || p.vat !== vat || p.vatRateBp !== rateBp)
      this.fail(
        'salePrice',
        `${what} of client ${c.id}: total ${p.total} VAT ${p.vat} at ${p.vatRateBp} bp; expected ${total}, VAT ${vat} at ${rateBp} bp`,
      );
    this.touched.add(c.id);
    this.stats.sales++;
    return this.ledger.sale({
      purchaseId: p.id,
      clientId: c.id,
      day: this.day,
      at: this.now(),
      what,
      itemType: item.itemType,
      total,
      vat,
      rateBp,
      payments: sentPayments,
      invoice: p.invoiceNumber,
      ...extra,
    });
  }

  private async buySubscription(c: MClient, pay: 0 | 1 | 2, months: 1 | 3) {
    const how = pay === 2 && c.method?.kind === 'masav' ? 'masav' : pay === 1 ? 'card' : 'cash';
    const price = c.monthly * months;
    const start = c.subEnd && c.subEnd >= this.day ? addDays(c.subEnd, 1) : this.day;
    const end = subscriptionEndOf(start, months, c.endType);
    const s = await this.purchase(
      c,
      {
        itemType: Item.Subscription,
        unitPrice: price,
        subscription: { period: months === 1 ? 'month' : 'threeMonths' },
      },
      how,
      `subscription ×${months}`,
      { sub: { start, end, renewal: false } },
    );
    if (!s) return;
    const got = await this.ok('GET', `/api/Purchase/${s.purchaseId}`);
    const d = got.json().items[0].details as { start?: string; end?: string };
    if (d.start !== start || d.end !== end)
      this.fail(
        'subscriptionDates',
        `client ${c.id} (end type ${c.endType}) bought ${months} month(s) on ${this.day}: ${d.start}–${d.end}, expected ${start}–${end}`,
      );
    this.extend(c, s);
    c.lastLinePerMonth = Math.round(price / months);
    if (how === 'masav') await this.masavDebtOf(s);
  }

  /** The client's subscription after a sale of `s.sub`; a period overlapping one already sold is a double charge. */
  private extend(c: MClient, s: MSale) {
    const sub = s.sub!;
    if (c.subEnd && sub.start <= c.subEnd && c.subEnd < '2100')
      this.fail(
        'chargedTwice',
        `client ${c.id}: ${s.what} ${sub.start}–${sub.end} overlaps the subscription sold up to ${c.subEnd}`,
      );
    c.subStart = sub.start;
    c.subEnd = sub.end;
    c.changedAt = this.now();
  }

  /** The MASAV debt the purchase engine registered for a MASAV sale. */
  private async masavDebtOf(s: MSale) {
    const [d] = await this.rows<{ id: number; amount: number; source: string }>(
      sql`select id, amount, source from debts where club_id = ${this.clubId} and purchase_id = ${s.purchaseId}`,
    );
    if (!d || d.amount !== s.total)
      this.fail('masavDebt', `MASAV sale ${s.purchaseId} of ${s.total} has debt ${JSON.stringify(d ?? null)}`);
    s.masav = { debtId: d.id, state: 'open' };
    this.ledger.debts.set(d.id, {
      id: d.id,
      clientId: s.clientId,
      amount: d.amount,
      paid: 0,
      origin: 'masavSale',
      saleId: s.purchaseId,
      file: null,
      rejected: false,
    });
  }

  private async load(c: MClient, amount: number, pay: 0 | 1 | 2) {
    if (pay === 2) {
      // addCredit: a cash load from the client card's balance button.
      const r = await this.ok('POST', `/api/addCredit/${c.id}`, {
        amount,
        method: 0,
        idempotencyKey: this.key('credit'),
      });
      const p = r.json().purchase ?? r.json();
      const rateBp = vatRateBp(this.now());
      const vat = vatIn(amount, rateBp);
      if (p.total !== amount || p.vat !== vat) this.fail('salePrice', `addCredit ${amount}: ${r.body.slice(0, 300)}`);
      this.ledger.sale({
        purchaseId: p.id,
        clientId: c.id,
        day: this.day,
        at: this.now(),
        what: 'addCredit',
        itemType: Item.Load,
        total: amount,
        vat,
        rateBp,
        payments: [{ method: M.Cash, amount }],
        invoice: p.invoiceNumber,
      });
      this.touched.add(c.id);
      c.balance += amount;
      return;
    }
    const s = await this.purchase(c, { itemType: Item.Load, unitPrice: amount }, pay === 1 ? 'card' : 'cash', 'load');
    if (s) c.balance += amount;
  }

  private async product(c: MClient, p: { id: number; price: number }, qty: number, pay: 0 | 1 | 2 | 3) {
    const total = p.price * qty;
    const how = pay === 2 ? (c.balance >= total ? 'beats' : 'cash') : pay === 1 ? 'card' : pay === 3 ? 'split' : 'cash';
    const s = await this.purchase(
      c,
      { itemType: Item.Product, itemId: p.id, unitPrice: p.price, quantity: qty },
      how,
      `product ×${qty}`,
    );
    if (s && how === 'beats') c.balance -= total;
  }

  /** A towel given for nothing: a ₪0 line paid by Free (the explicit choice, docs/money.md "The price rule"). */
  private async free(c: MClient) {
    const s = await this.purchase(c, { itemType: 3, name: 'Towel', unitPrice: 0 }, 'free', 'free towel');
    if (s && s.invoice != null)
      this.known(
        'freeZeroInvoice',
        'noDocumentWithoutMoney',
        `a ₪0 Free purchase ${s.purchaseId} took invoice number ${s.invoice}`,
      );
  }

  private async payDebt(pick: number, pay: 0 | 1, partial: boolean) {
    const open = [...this.ledger.debts.values()].filter((d) => d.amount > d.paid && d.file == null);
    if (!open.length) return;
    const d = open[pick % open.length];
    const c = this.ledger.clients.get(d.clientId)!;
    const left = d.amount - d.paid;
    const amount = partial && d.origin !== 'masavSale' && left > 200 ? Math.floor(left / 2) : left;
    const masavSale = d.origin === 'masavSale' ? this.ledger.sales.get(d.saleId!)! : null;
    const s = await this.purchase(
      c,
      { itemType: Item.PayDebt, itemId: d.id, unitPrice: amount },
      pay === 1 ? 'card' : 'cash',
      `debt ${d.id} (${d.origin})`,
      masavSale ? { settlesMasavSale: masavSale.purchaseId, debtId: d.id } : { debtId: d.id },
    );
    if (!s) return;
    d.paid += amount;
    if (masavSale) masavSale.masav = { ...masavSale.masav!, state: 'settledAtDesk', settledBy: s.purchaseId };
  }

  private async refund(pick: number, partial: boolean, percent: number) {
    const list = [...this.ledger.sales.values()].filter(
      (s) =>
        s.total > s.refunded &&
        s.settlesMasavSale == null &&
        (!s.masav || s.masav.state === 'collected') &&
        (s.itemType !== Item.Load || this.ledger.clients.get(s.clientId)!.balance >= s.total - s.refunded),
    );
    if (!list.length) return;
    const s = list[pick % list.length];
    const c = this.ledger.clients.get(s.clientId)!;
    const left = s.total - s.refunded;
    const onePayment = s.payments.length === 1;
    const amount = partial && onePayment && left > 1 ? Math.max(1, Math.floor((left * percent) / 100)) : left;
    const complete = amount === left;
    const vatLeft = s.vat - s.refundedVat;
    const vat = complete ? vatLeft : Math.round((vatLeft * amount) / left);
    const r = await this.req('POST', `/api/Purchase/Refund/${s.purchaseId}`, {
      reason: 'Life test',
      idempotencyKey: this.key('refund'),
      ...(complete ? {} : { amount }),
    });
    if (r.statusCode !== 200)
      this.fail('refund', `refund of ${amount} of ${s.what} ${s.purchaseId}: ${r.statusCode} ${r.body.slice(0, 300)}`);
    const got = r.json().refund as { total: number; vat: number; payments: { method: number; amount: number }[] };
    if (got.total !== amount || got.vat !== vat)
      this.fail(
        'refundVat',
        `refund of ${s.what} ${s.purchaseId}: total ${got.total} VAT ${got.vat}, expected ${amount} VAT ${vat}`,
      );
    // Where the money goes (docs/money.md "Refunds"): a single payment takes the refund; the
    // refund that completes the purchase gives back what is left of each payment (cash rounding too).
    const returned = (m: number) =>
      s.refunds.reduce((a, x) => a + x.payments.filter((y) => y.method === m).reduce((b, y) => b + y.amount, 0), 0);
    const back = complete
      ? s.payments.map((p) => ({ method: p.method, amount: p.amount - returned(p.method) }))
      : [{ method: s.payments[0].method, amount }];
    const gotBack = got.payments.map((p) => ({ method: p.method, amount: p.amount }));
    if (JSON.stringify(gotBack) !== JSON.stringify(back.filter((b) => b.amount > 0 || gotBack.length === back.length)))
      this.fail(
        'refundPayments',
        `refund of ${s.what} ${s.purchaseId}: money back ${JSON.stringify(gotBack)}, expected ${JSON.stringify(back)}`,
      );
    this.note(
      `refund ${amount} (VAT ${vat}) of ${s.what} ${s.purchaseId} paid by ${JSON.stringify(s.payments)}${s.masav ? ` (MASAV ${s.masav.state})` : ''}`,
    );
    s.refunded += amount;
    s.refundedVat += vat;
    s.refunds.push({ day: this.day, total: amount, vat, payments: back });
    this.stats.refunds++;
    this.touched.add(c.id);
    if (s.itemType === Item.Load) c.balance -= amount;
    for (const b of back) if (b.method === M.Beats) c.balance += b.amount;
    if (s.debtId != null) this.ledger.debts.get(s.debtId)!.paid -= amount;
    if (s.sub && complete && c.subEnd === s.sub.end) {
      c.subEnd = addDays(s.sub.start, -1);
      c.changedAt = this.now();
      if (c.subStart === s.sub.start) c.subStart = null;
    }
  }

  // ------------------------------------------------------------------ automatic renewal

  /** Reads the renewal attempts logged since the last look and checks each against the rule. */
  private async observeRenewals() {
    const logs = await this.rows<{
      id: number;
      client_id: number;
      success: boolean;
      error: string | null;
      amount: number;
      purchase_id: number | null;
      debt_id: number | null;
      start_date: string | null;
      end_date: string | null;
      for_end: string | null;
    }>(
      sql`select id::int, client_id, success, error, amount, purchase_id::int as purchase_id, debt_id,
            start_date::text, end_date::text, for_end::text
          from auto_renew_logs where club_id = ${this.clubId} and id > ${this.lastLogId} order by id`,
    );
    for (const l of logs) {
      this.lastLogId = Math.max(this.lastLogId, l.id);
      this.note(
        `renewal log ${l.id}: client ${l.client_id} ${l.success ? 'renewed' : `failed ${l.error}`} ${l.amount} ${l.start_date}–${l.end_date} for the end ${l.for_end}`,
      );
      const c = this.ledger.clients.get(l.client_id);
      if (!c) this.fail('renewal', `a renewal log for unknown client ${l.client_id}`);
      const forEnd = l.for_end ?? '';
      if (c.attempted.has(forEnd) && l.success)
        this.fail('renewalOncePerEnd', `client ${c.id} renewed a second time for the end ${forEnd}`);
      c.attempted.add(forEnd);
      this.touched.add(c.id);
      if (!c.method) {
        if (l.success) this.fail('renewal', `client ${c.id} without a stored method was renewed`);
        continue;
      }
      if (c.subEnd !== forEnd)
        this.fail('renewal', `client ${c.id} renewed for the end ${forEnd}; the model's end is ${c.subEnd}`);
      const expected = expectedRenewal(this.day, forEnd, c.monthly, c.endType, this.rule);
      if (!l.success) {
        this.stats.renewFailures++;
        if (!c.method.declines)
          this.fail('renewal', `client ${c.id} (${c.method.kind}) renewal failed: ${l.error} (${JSON.stringify(l)})`);
        if (l.amount !== expected.price) this.renewalPriceKnown(c, forEnd, l.amount, expected.price);
        if (l.debt_id == null) this.fail('renewal', `failed renewal of client ${c.id} registered no debt`);
        this.ledger.debts.set(l.debt_id, {
          id: l.debt_id,
          clientId: c.id,
          amount: l.amount,
          paid: 0,
          origin: 'renewFail',
          file: null,
          rejected: false,
        });
        continue;
      }
      if (c.method.declines) this.fail('renewal', `client ${c.id}'s declining card renewed: ${JSON.stringify(l)}`);
      this.stats.renewals++;
      const p = (await this.ok('GET', `/api/Purchase/${l.purchase_id}`)).json();
      const d = p.items[0].details as { start: string; end: string };
      const perDay = `${c.id}|${this.day}`;
      const n = (this.ledger.renewalsOn.get(perDay) ?? 0) + 1;
      this.ledger.renewalsOn.set(perDay, n);
      if (n > 1)
        this.known(
          'renewalTwiceSameDay',
          'oneRenewalPerDay',
          `client ${c.id} renewed ${n} times on ${this.day} (${d.start}–${d.end} for ${p.total})`,
        );
      if (d.start !== expected.start || d.end !== expected.end)
        this.fail(
          'renewalDates',
          `client ${c.id} (end type ${c.endType}, method ${this.rule.method}, last day ${this.rule.lastDayOfMonth}) renewed ${d.start}–${d.end} from the end ${forEnd}; rule ${expected.start}–${expected.end}`,
        );
      if (p.total !== expected.price) this.renewalPriceKnown(c, forEnd, p.total, expected.price);
      c.lastLinePerMonth = p.total;
      const method = c.method.kind === 'masav' ? M.Masav : M.Token;
      const rateBp = vatRateBp(this.now());
      const vat = vatIn(p.total, rateBp);
      if (
        p.vat !== vat ||
        p.payments.length !== 1 ||
        p.payments[0].method !== method ||
        p.payments[0].amount !== p.total
      )
        this.fail(
          'salePrice',
          `renewal ${p.id}: VAT ${p.vat} (expected ${vat}), payments ${JSON.stringify(p.payments)}`,
        );
      const s = this.ledger.sale({
        purchaseId: p.id,
        clientId: c.id,
        day: this.day,
        at: this.now(),
        what: `renewal ${d.start}–${d.end}`,
        itemType: Item.Subscription,
        total: p.total,
        vat,
        rateBp,
        payments: [{ method, amount: p.total }],
        invoice: p.invoiceNumber,
        sub: { start: d.start, end: d.end, renewal: true },
      });
      this.extend(c, s);
      if (method === M.Masav) await this.masavDebtOf(s);
    }
  }

  /**
   * A renewal priced off the rule: tolerated only as the known finding (the rule applied to the
   * last subscription line's price instead of the client's monthly price), else a failure.
   */
  private renewalPriceKnown(c: MClient, end: string, price: number, rule: number) {
    const what = `client ${c.id} (end type ${c.endType}, method ${this.rule.method}) renewed the end ${end} for ${price}; rule ${rule} (monthly ${c.monthly})`;
    const asBroken = expectedRenewal(this.day, end, c.lastLinePerMonth, c.endType, this.rule).price;
    if (price === asBroken)
      this.known('renewalMonthlyPrice', 'renewalPrice', `${what}, from the last line's ${c.lastLinePerMonth}`);
    else
      this.fail(
        'renewalPrice',
        `${what}${KNOWN.renewalMonthlyPrice ? ` (nor ${asBroken} from the last line's ${c.lastLinePerMonth})` : ''}`,
      );
  }

  // ------------------------------------------------------------------ MASAV

  private async masavFile() {
    const masavClients = new Set(
      this.clientList()
        .filter((c) => c.method?.kind === 'masav')
        .map((c) => c.id),
    );
    const due = [...this.ledger.debts.values()].filter(
      (d) => d.file == null && d.amount > d.paid && masavClients.has(d.clientId),
    );
    const r = await this.req('POST', `/api/MasavFile?testMode=false&valueDate=${this.day}`);
    const expectTotal = due.reduce((a, d) => a + d.amount - d.paid, 0);
    if (!due.length) {
      if (r.statusCode === 200) this.fail('masavFile', `a MASAV file with nothing due: ${r.body.slice(0, 300)}`);
      return;
    }
    if (r.statusCode !== 200) this.fail('masavFile', `MASAV file answered ${r.statusCode}: ${r.body.slice(0, 300)}`);
    const file = r.json();
    const sent = (await this.ok('GET', `/api/MasavFile/Download/${file.id}`)).rawPayload;
    const parsed = parseMasavDebitFile(sent);
    if (parsed.total !== expectTotal)
      this.fail(
        'masavFile',
        `file ${file.id} debits ${parsed.total}; open debts of MASAV clients ${expectTotal} (${due.map((d) => `${d.id}:${d.amount - d.paid}`).join(' ')})`,
      );
    for (const d of due) d.file = file.id;
    this.stats.masavFiles++;
    this.returns.push({
      day: addDays(this.day, 3),
      fileId: file.id,
      sent,
      clients: parsed.records.map((x) => Number(x.reference)),
    });
    this.note(`MASAV file ${file.id}: ${parsed.count} debits, ${parsed.total}`);
  }

  /** The bank's return file: the debits chosen by `bank` are returned (reason 3), the rest collected. */
  private async masavReturn(ret: { fileId: number; sent: Buffer; clients: number[] }, bank: number) {
    let x = bank >>> 0;
    const rnd = () => {
      x = (Math.imul(x ^ (x >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
      return (x % 1000) / 10;
    };
    const rejected = ret.clients.map(() => rnd() < this.plan.rejectPercent);
    const file = bankReturnByIndex(ret.sent, rejected, '3');
    const up = multipartFile('return.msv', file);
    const r = await this.req('POST', '/api/MasavFile/Return', up.body, up.headers);
    if (r.statusCode !== 200)
      this.fail('masavReturn', `return of file ${ret.fileId}: ${r.statusCode} ${r.body.slice(0, 300)}`);
    const rejectedClients = new Set(ret.clients.filter((_, i) => rejected[i]));
    for (const d of this.ledger.debts.values()) {
      if (d.file !== ret.fileId) continue;
      this.touched.add(d.clientId);
      if (rejectedClients.has(d.clientId)) {
        // Returned: the debt leaves the file and stays open (the next file or the desk collects it).
        d.file = null;
        d.rejected = true;
        this.stats.rejected++;
        continue;
      }
      const amount = d.amount - d.paid;
      d.paid = d.amount;
      if (d.origin === 'masavSale') {
        const s = this.ledger.sales.get(d.saleId!)!;
        s.masav = { ...s.masav!, state: 'collected' };
      } else {
        this.ledger.collections.push({ debtId: d.id, clientId: d.clientId, amount, day: this.day, at: this.now() });
      }
    }
    this.note(`MASAV return of file ${ret.fileId}: ${rejectedClients.size} of ${ret.clients.length} returned`);
  }

  // ------------------------------------------------------------------ invariants

  private async check(k: number) {
    const last = k === this.o.days - 1;
    const monthEnd = addDays(this.day, 1).slice(8) === '01';
    const heavy = last || monthEnd || (k + 1) % this.o.heavyEvery === 0;
    await this.checkReport();
    await this.checkNumbers();
    await this.checkRenewalAttempts();
    const who = heavy ? this.clientList() : this.clientList().filter((c) => this.touched.has(c.id));
    for (const c of who) await this.checkBalance(c);
    if (heavy) {
      await this.checkMovein();
      await this.checkMasavStates();
    }
  }

  private within(b: Bounded, v: number) {
    return v >= b.lo && v <= b.hi;
  }

  /** Every sale's income and VAT counted once in the financial report (cumulative from the first day). */
  private async checkReport() {
    const r = await this.ok('POST', '/api/Report/GetFinancialReport', {
      period: 'range',
      from: this.o.start,
      to: this.day,
    });
    const t = r.json().totals as { total: number; vat: number; fee: number; byMethod: Record<string, number> };
    const e = this.ledger.expectedReport();
    // The receivable's refund finding is MOVEIN's only; the report counts that refund right.
    const k = this.knownDeltas().filter((d) => d.name !== 'masavRefundCreditsReceivable');
    const money = (t.total ?? 0) + (t.fee ?? 0);
    if (process.env.MONEY_LIFE_DEBUG)
      this.note(
        `report total ${money} vat ${t.vat} ${JSON.stringify(t.byMethod)}; model ${JSON.stringify(e.total)} ${JSON.stringify(e.vat)} ${JSON.stringify([...e.byMethod])}; known ${JSON.stringify(k)}`,
      );
    const where = `financial report ${this.o.start}…${this.day}`;
    this.figure(`report.total`, where, money, e.total, k, 'total');
    this.figure(`report.vat`, where, t.vat, e.vat, k, 'vat');
    for (const [m, exp] of e.byMethod)
      this.figure(`report.byMethod[${m}]`, where, t.byMethod?.[String(m)] ?? 0, exp, k, m === M.Masav ? 'masav' : null);
    for (const [m, v] of Object.entries(t.byMethod ?? {}))
      if (!e.byMethod.has(Number(m)) && v !== 0) this.fail('report.byMethod', `method ${m} has ${v}, the model none`);
  }

  /**
   * One figure against the model: exact (within its range), or — while known findings are still
   * broken ({@link KNOWN}) — exactly the model shifted by what those findings add or take away
   * (never a wider range, so any other difference still fails).
   */
  private figure(
    invariant: string,
    where: string,
    got: number,
    exp: Bounded,
    deltas: ReturnType<MoneyLife['knownDeltas']>,
    key: 'total' | 'vat' | 'masav' | 'income' | 'bank' | 'cash' | null,
  ) {
    if (this.within(exp, got)) return;
    const active = key ? deltas.filter((d) => KNOWN[d.name] && d[key] !== 0) : [];
    const shift = active.reduce((a, d) => a + d[key!], 0);
    if (active.length && this.within({ lo: exp.lo + shift, hi: exp.hi + shift }, got)) {
      for (const d of active)
        this.known(
          d.name,
          invariant,
          `${where}: ${got}, model ${exp.lo}…${exp.hi} ${d[key!] > 0 ? '+' : ''}${d[key!]}`,
        );
      return;
    }
    this.fail(
      invariant,
      `${where}: ${got}, model ${exp.lo}…${exp.hi}${active.length ? ` (with the known ${active.map((d) => d.name).join(', ')}: ${exp.lo + shift}…${exp.hi + shift})` : ''}`,
    );
  }

  /**
   * What each known finding adds to the report's and the accounts' figures while it is broken:
   * a MASAV sale returned and paid at the desk counts again (its total, VAT and MASAV money, and
   * it stays in the MASAV receivable); money a MASAV file collected for a debt without a purchase
   * is missing (no income, VAT, MASAV money nor bank movement).
   */
  private knownDeltas() {
    const twice = {
      name: 'masavPaidAtDeskCountedTwice' as KnownFinding,
      total: 0,
      vat: 0,
      masav: 0,
      income: 0,
      bank: 0,
      cash: 0,
    };
    for (const s of this.ledger.sales.values()) {
      if (s.masav?.state !== 'settledAtDesk') continue;
      twice.total += s.total - s.refunded;
      twice.vat += s.vat;
      twice.masav += s.total;
      twice.income += s.total - s.vat;
    }
    const lost = {
      name: 'masavCollectedDebtNoIncome' as KnownFinding,
      total: 0,
      vat: 0,
      masav: 0,
      income: 0,
      bank: 0,
      cash: 0,
    };
    for (const c of this.ledger.collections) {
      const v = vatIn(c.amount, vatRateBp(c.at));
      lost.total -= c.amount;
      lost.vat -= v;
      lost.masav -= c.amount;
      lost.income -= c.amount - v;
      lost.bank -= c.amount;
    }
    const back = {
      name: 'masavRefundCreditsReceivable' as KnownFinding,
      total: 0,
      vat: 0,
      masav: 0,
      income: 0,
      bank: 0,
      cash: 0,
    };
    for (const s of this.ledger.sales.values()) {
      if (s.masav?.state !== 'collected') continue;
      const x = s.refunds.reduce(
        (a, r) => a + r.payments.filter((p) => p.method === M.Masav).reduce((b, p) => b + p.amount, 0),
        0,
      );
      back.masav -= x;
      back.cash += x;
    }
    return [twice, lost, back];
  }

  /** Invoice numbers gap-free from 1 and in date order (a MASAV sale's number dated at its collection). */
  private async checkNumbers() {
    const rows = await this.rows<{ n: number; at: string; id: number; total: number; free: boolean }>(
      sql`select p.invoice_number as n, p.id::int as id, p.total,
            coalesce((select min(r.at) from masav_results r where r.club_id = p.club_id and r.purchase_id = p.id and r.collected), p.at)::text as at,
            not exists (select 1 from purchase_payments pp where pp.club_id = p.club_id and pp.purchase_id = p.id and pp.method <> ${M.Free}) as free
          from purchases p where p.club_id = ${this.clubId} and p.invoice_number is not null order by p.invoice_number`,
    );
    let prev = '';
    rows.forEach((r, i) => {
      if (r.n !== i + 1) this.fail('invoiceNumbers', `invoice number ${r.n} at position ${i + 1}: a gap or a repeat`);
      const t = new Date(r.at).toISOString();
      if (t < prev)
        this.fail(
          'invoiceDateOrder',
          `invoice ${r.n} (purchase ${r.id}) dated ${t}, before invoice ${r.n - 1} (${prev})`,
        );
      prev = t;
    });
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const s of this.ledger.sales.values()) {
      const row = byId.get(s.purchaseId);
      // Money received: a payment other than Free with an amount. A debt of 1–4 agorot paid in cash
      // receives ₪0 (cash is paid to 10 agorot) and so, like a Free sale, takes no number.
      const money = s.payments.some((p) => p.method !== M.Free && p.amount > 0);
      const waiting = s.masav && s.masav.state !== 'collected';
      if (money && !waiting && !row) {
        const stored = await this.rows(
          sql`select p.id, p.total, p.invoice_number, p.payment_status, p.paid_cash, p.paid_credit, p.paid_beats, p.paid_temp, p.paid_other,
                (select json_agg(json_build_object('method', pp.method, 'amount', pp.amount)) from purchase_payments pp
                  where pp.club_id = p.club_id and pp.purchase_id = p.id) as payments
              from purchases p where p.club_id = ${this.clubId} and p.id = ${s.purchaseId}`,
        );
        this.fail(
          'invoiceNumbers',
          `${s.what} ${s.purchaseId} received money and has no invoice number: model ${JSON.stringify(s.payments)}, stored ${JSON.stringify(stored)}`,
        );
      }
      if (waiting && row && s.masav!.state === 'open')
        this.fail('invoiceNumbers', `MASAV sale ${s.purchaseId} not collected has invoice number ${row.n}`);
    }
  }

  /** Credit documents: their own series, gap-free and in date order. */
  private async checkCredits() {
    const rows = await this.rows<{ kind: number; number: number; at: string }>(
      sql`select kind, number, issued_at::text as at from purchase_documents
          where club_id = ${this.clubId} and kind in (330, 410) order by kind, number`,
    );
    let prev = '';
    rows.forEach((r, i) => {
      if (r.number !== i + 1) this.fail('creditNumbers', `credit document ${r.number} at position ${i + 1}`);
      const t = new Date(r.at).toISOString();
      if (t < prev)
        this.fail('creditDateOrder', `credit document ${r.number} dated ${t}, before the previous (${prev})`);
      prev = t;
    });
    const refunds = [...this.ledger.sales.values()].reduce((a, s) => a + s.refunds.length, 0);
    if (rows.length !== refunds) this.fail('creditNumbers', `${rows.length} credit documents for ${refunds} refunds`);
  }

  /** A client's money balance equals the sum of its ledger rows and what the model loaded and spent. */
  private async checkBalance(c: MClient) {
    const b = (await this.ok('GET', `/api/getBalance/${c.id}`)).json() as {
      balance: number;
      ledger: { kind: string; delta: number }[];
      subscriptionEnd: string | null;
    };
    const sum = b.ledger.filter((l) => l.kind === 'money').reduce((a, l) => a + l.delta, 0);
    if (b.balance !== sum)
      this.fail('balanceLedger', `client ${c.id}: balance ${b.balance}, ledger rows sum to ${sum}`);
    if (b.balance !== c.balance)
      this.fail('balanceModel', `client ${c.id}: balance ${b.balance}, the model ${c.balance}`);
    const end = b.subscriptionEnd ? String(b.subscriptionEnd).slice(0, 10) : null;
    if (end !== c.subEnd)
      this.fail('subscriptionEnd', `client ${c.id}: subscription ends ${end}, the model ${c.subEnd}`);
  }

  /**
   * Every client with a stored method whose subscription end left the renewal window was
   * attempted for that end (a renewal or a failure with its debt); without a method, the attempt
   * is logged too (docs/money.md "Automatic renewal").
   */
  private async checkRenewalAttempts() {
    for (const c of this.clientList()) {
      if (!c.subEnd || c.attempted.has(c.subEnd)) continue;
      if (dayDiff(c.subEnd, this.day) !== this.plan.daysAfter) continue;
      // Due only if a run of the window (06:00 and 06:05 each day) came after the end and the
      // method were last set: a month bought at the desk on the month's last day ends that day,
      // after its only run.
      if (c.changedAt > at(this.day, 6 * 60 + 5)) continue;
      if (c.method)
        this.fail('renewalAttempt', `client ${c.id} (${c.method.kind}) due for the end ${c.subEnd} was not attempted`);
      else {
        c.attempted.add(c.subEnd);
        this.known(
          'noMethodNoRenewalLog',
          'renewalAttempt',
          `client ${c.id} without a method, end ${c.subEnd}: no log`,
        );
      }
    }
  }

  /** Every MASAV sale collected, rejected and settled, or open with its debt. */
  private async checkMasavStates() {
    const rows = await this.rows<{
      id: number;
      status: number;
      invoice: number | null;
      amount: number;
      paid: number;
      file: number | null;
    }>(
      sql`select p.id::int as id, p.payment_status as status, p.invoice_number as invoice, d.amount, d.paid, d.masav_file_id as file
          from purchases p join debts d on d.club_id = p.club_id and d.purchase_id = p.id
          where p.club_id = ${this.clubId}`,
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const s of this.ledger.sales.values()) {
      if (!s.masav) continue;
      const r = byId.get(s.purchaseId);
      if (!r) this.fail('masavState', `MASAV sale ${s.purchaseId} has no debt`);
      const st = s.masav.state;
      if (
        st === 'collected' &&
        !(r.status === (s.refunded === s.total ? 3 : 1) && r.invoice != null && r.paid === r.amount)
      )
        this.fail('masavState', `collected MASAV sale ${s.purchaseId}: ${JSON.stringify(r)}`);
      if (st === 'open' && !(r.status === 2 && r.invoice == null && r.paid === 0))
        this.fail('masavState', `open MASAV sale ${s.purchaseId}: ${JSON.stringify(r)}`);
      if (st === 'settledAtDesk') {
        if (r.paid !== r.amount)
          this.fail('masavState', `MASAV sale ${s.purchaseId} paid at the desk: debt ${JSON.stringify(r)}`);
        if (r.status === 2)
          this.known(
            'masavPaidAtDeskStaysPending',
            'masavState',
            `MASAV sale ${s.purchaseId} paid at the desk stays Pending`,
          );
      }
    }
    const debts = new Map(
      (
        await this.rows<{ id: number; amount: number; paid: number; file: number | null }>(
          sql`select id, amount, paid, masav_file_id as file from debts where club_id = ${this.clubId} and not deleted`,
        )
      ).map((d) => [d.id, d]),
    );
    for (const d of this.ledger.debts.values()) {
      const row = debts.get(d.id);
      if (!row || row.amount !== d.amount || row.paid !== d.paid || (row.file ?? null) !== d.file)
        this.fail(
          'debts',
          `debt ${d.id} (${d.origin}): ${JSON.stringify(row)}, the model ${JSON.stringify({ amount: d.amount, paid: d.paid, file: d.file })}`,
        );
    }
    if (debts.size !== this.ledger.debts.size)
      this.fail('debts', `${debts.size} debts, the model ${this.ledger.debts.size}`);
    await this.checkCredits();
  }

  /** MOVEIN.DAT from the first day: every record balances, and the accounts hold what the model says. */
  private async checkMovein() {
    const dat = await this.req('POST', '/api/Report/WriteMoveinDat', { from: this.o.start, to: this.day });
    if (dat.statusCode === 422 && !this.ledger.sales.size) return;
    if (dat.statusCode !== 200)
      this.fail('movein', `WriteMoveinDat answered ${dat.statusCode}: ${dat.body.slice(0, 300)}`);
    const prm = (await this.ok('GET', '/api/Report/MoveinPrm')).rawPayload;
    let moves: ReadMovement[];
    try {
      moves = readMovein(dat.rawPayload, prm);
    } catch (err) {
      this.fail('moveinBalanced', String(err));
    }
    const net = new Map<string, number>();
    for (const m of moves) {
      const d = m.debits.reduce((a, x) => a + x.amount, 0);
      const c = m.credits.reduce((a, x) => a + x.amount, 0);
      if (d !== c) this.fail('moveinBalanced', `movement ${m.ref1} "${m.details}": debit ${d}, credit ${c}`);
      for (const x of m.debits) net.set(x.account, (net.get(x.account) ?? 0) + x.amount);
      for (const x of m.credits) net.set(x.account, (net.get(x.account) ?? 0) - x.amount);
      if (/null/.test(m.details) || !(Number(m.ref1) > 0))
        this.known('moveinUncollectedMasavReference', 'moveinReference', `movement "${m.details}" reference ${m.ref1}`);
    }
    if (process.env.MONEY_LIFE_DEBUG)
      for (const m of moves)
        if ([...m.debits, ...m.credits].some((x) => x.account === ACCOUNTS.masavAccount))
          this.note(
            `movein ${m.refDate} ${m.ref1} ${m.details} D${JSON.stringify(m.debits)} C${JSON.stringify(m.credits)}`,
          );
    const e = this.ledger.expectedAccounts();
    const k = this.knownDeltas();
    const got = {
      income: -(net.get(ACCOUNTS.incomeAccount) ?? 0),
      vat: -(net.get(ACCOUNTS.vatAccount) ?? 0),
      cash: net.get(ACCOUNTS.cashAccount) ?? 0,
      card: net.get(ACCOUNTS.creditAccount) ?? 0,
      masav: net.get(ACCOUNTS.masavAccount) ?? 0,
      bank: net.get(ACCOUNTS.bankAccount) ?? 0,
    };
    const keyOf = { income: 'income', vat: 'vat', cash: 'cash', card: null, masav: 'masav', bank: 'bank' } as const;
    // The receivable: a MASAV sale paid twice stays in it; a collected debt without a sale never entered it.
    const recv = k.map((d) => ({ ...d, masav: d.name === 'masavCollectedDebtNoIncome' ? 0 : d.masav }));
    for (const a of Object.keys(got) as (keyof typeof got)[])
      this.figure(
        `movein.${a}`,
        `MOVEIN ${this.o.start}…${this.day} account ${a}`,
        got[a],
        e[a],
        a === 'masav' ? recv : k,
        keyOf[a],
      );
  }
}

/**
 * The bank's return file for a sent MASAV debit file (DOMAIN-FACTS "MASAV"; as test/masav-bank.ts
 * `bankReturnFile`, but the returned debits chosen by their position in the file, so two clients
 * with the same amount are told apart): the header as sent, the returned movement records with
 * the reason code in positions 103–105, their total (37–51) and count (59–65), and the 9s record.
 */
export function bankReturnByIndex(sent: Buffer, returned: boolean[], reason: string): Buffer {
  const lines = sent.toString('latin1').replace(/\r\n$/, '').split('\r\n');
  const moves = lines.filter((l) => l[0] === '1');
  const picked = moves.filter((_, i) => returned[i]);
  const out = picked.map((l) => l.slice(0, 102) + reason.padStart(3, '0') + l.slice(105));
  const total = picked.reduce((a, l) => a + Number(l.slice(61, 74)), 0);
  const t = lines.find((l) => l[0] === '5')!;
  const five =
    t.slice(0, 36) +
    String(total).padStart(15, '0') +
    t.slice(51, 58) +
    String(out.length).padStart(7, '0') +
    t.slice(65);
  return Buffer.from([lines[0], ...out, five, '9'.repeat(128)].join('\r\n') + '\r\n', 'latin1');
}
