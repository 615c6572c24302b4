import { addDays, dayDiff, monthEnd, monthLength, monthStart, type EndType } from './calendar.js';

/**
 * The money life test's independent ledger (docs/money.md "The money life
 * test: invariants"): what the simulation did, recorded as it happened, and
 * the money rules the test expects, written here from the documented rules —
 * never by calling the product's services or the domain's money functions.
 * Money in agorot.
 */

/** Payment methods as the API numbers them (seed 000 §3; 7 = the money balance). */
export const M = { Cash: 0, Card: 1, Token: 2, Masav: 5, Free: 6, Beats: 7 } as const;
/** Purchase item types (seed 000 §3). */
export const Item = { Subscription: 1, Load: 2, PayDebt: 5, Product: 10 } as const;

/** Methods that bring money the accounts see (cash, cards, MASAV); balances and Free bring none. */
export const MONEY_METHODS: readonly number[] = [M.Cash, M.Card, M.Token, M.Masav];
/** Methods that are not taxed at the sale: the money balance (taxed at the load) and Free (docs/money.md "VAT"). */
const UNTAXED: readonly number[] = [M.Beats, M.Free];

/**
 * Israeli VAT in basis points at an instant (DOMAIN-FACTS; docs/money.md "The price rule"):
 * 17% until 31 December 2024, 18% from 1 January 2025 00:00 Israel time (22:00 UTC the day before).
 */
export function vatRateBp(t: Date): number {
  return t.getTime() >= Date.parse('2024-12-31T22:00:00Z') ? 1800 : 1700;
}

/** The VAT inside a VAT-inclusive amount: the amount less its net rounded to the agora. */
export function vatIn(amount: number, rateBp: number): number {
  return amount - Math.round((amount * 10_000) / (10_000 + rateBp));
}

/** Cash is paid to 10 agorot: 1–4 down, 5–9 up (DOMAIN-FACTS). */
export function cashRound(amount: number): number {
  const r = amount % 10;
  return r >= 5 ? amount - r + 10 : amount - r;
}

/** Automatic renewal methods (seed 001 §4): from next month, remainder prorated, remainder and next month. */
export type RenewMethod = 1 | 2 | 3;
export interface RenewRule {
  method: RenewMethod;
  lastDayOfMonth: number | null;
  lastDayTreatment: 'nextMonth' | 'remainderAndNext';
}

/**
 * The renewal the rule asks for (docs/money.md "Automatic renewal", seed 001 §4): the renewal
 * starts the day after the current end, or today when that has passed; on or after the club's
 * last day of the month the treatment replaces the method. From next month: the whole month
 * after the start's month (that month when the start is its first day) at the monthly price;
 * remainder: to the end of the start's month at monthly × days left ÷ days in the month
 * (rounded to the agora); remainder and next: that plus the whole next month. Months are
 * Hebrew or Gregorian by the group's end type.
 */
export function expectedRenewal(
  today: string,
  currentEnd: string,
  monthly: number,
  endType: EndType,
  rule: RenewRule,
): { start: string; end: string; price: number } {
  const start = currentEnd >= today ? addDays(currentEnd, 1) : today;
  let method = rule.method;
  if (rule.lastDayOfMonth != null && Number(start.slice(8)) >= rule.lastDayOfMonth)
    method = rule.lastDayTreatment === 'remainderAndNext' ? 3 : 1;
  const thisEnd = monthEnd(start, endType);
  const nextEnd = monthEnd(addDays(thisEnd, 1), endType);
  const daysLeft = dayDiff(start, thisEnd) + 1;
  const prorated = Math.round((monthly * daysLeft) / monthLength(start, endType));
  if (method === 1) {
    return start === monthStart(start, endType)
      ? { start, end: thisEnd, price: monthly }
      : { start: addDays(thisEnd, 1), end: nextEnd, price: monthly };
  }
  if (method === 2) return { start, end: thisEnd, price: prorated };
  return { start, end: nextEnd, price: prorated + monthly };
}

// ------------------------------------------------------------------ the ledger

export interface MClient {
  id: number;
  number: number;
  group: number;
  endType: EndType;
  /** The client's monthly price: the price of a month of its group (what it pays at the desk). */
  monthly: number;
  method: { id: number; kind: 'card' | 'masav'; declines: boolean } | null;
  subStart: string | null;
  subEnd: string | null;
  /** Money balance (beats) the model expects. */
  balance: number;
  /** Subscription ends that had a renewal attempt (a log row), seen by the test. */
  attempted: Set<string>;
  /**
   * What the product reads back as the monthly price while the known finding
   * `renewalMonthlyPrice` stands: the last subscription line's price per month (a renewal's
   * line is what that period cost).
   */
  lastLinePerMonth: number;
  /** When the end or the stored method last changed (a renewal is due only at a run after it). */
  changedAt: Date;
}

export interface MRefund {
  day: string;
  total: number;
  vat: number;
  /** Money given back per method. */
  payments: { method: number; amount: number }[];
}

export type MasavState = 'open' | 'collected' | 'settledAtDesk';

export interface MSale {
  purchaseId: number;
  clientId: number;
  day: string;
  at: Date;
  what: string;
  itemType: number;
  total: number;
  vat: number;
  rateBp: number;
  payments: { method: number; amount: number }[];
  refunded: number;
  refundedVat: number;
  refunds: MRefund[];
  /** A sale paid by MASAV: its debt and where it stands. */
  masav?: { debtId: number; state: MasavState; settledBy?: number };
  /** A desk payment of the debt of a MASAV sale (the pair counts once). */
  settlesMasavSale?: number;
  /** The debt a PayDebt sale paid (a refund reopens it). */
  debtId?: number;
  sub?: { start: string; end: string; renewal: boolean };
  /** The invoice number the product gave (null while a MASAV payment is not collected). */
  invoice: number | null;
}

export interface MDebt {
  id: number;
  clientId: number;
  amount: number;
  paid: number;
  origin: 'masavSale' | 'renewFail' | 'manual';
  saleId?: number;
  /** The MASAV file it is in (in collection), or null. */
  file: number | null;
  rejected: boolean;
}

/** Money collected by a MASAV file for a debt that has no purchase (a failed renewal's or a manual debt). */
export interface MCollection {
  debtId: number;
  clientId: number;
  amount: number;
  day: string;
  at: Date;
}

/** Exact sums and the slack of MASAV sales whose outcome is still open, for one figure. */
export interface Bounded {
  lo: number;
  hi: number;
}

export class Ledger {
  readonly clients = new Map<number, MClient>();
  readonly sales = new Map<number, MSale>();
  readonly debts = new Map<number, MDebt>();
  readonly collections: MCollection[] = [];
  /** Renewal charges per client and day (no client charged twice a day). */
  readonly renewalsOn = new Map<string, number>();

  sale(s: Omit<MSale, 'refunded' | 'refundedVat' | 'refunds'>): MSale {
    const full: MSale = { ...s, refunded: 0, refundedVat: 0, refunds: [] };
    this.sales.set(s.purchaseId, full);
    return full;
  }

  /** VAT-bearing part of a sale's payments: everything but the money balance and Free. */
  static taxedBase(payments: { method: number; amount: number }[], total: number): number {
    const untaxed = payments.filter((p) => UNTAXED.includes(p.method)).reduce((a, p) => a + p.amount, 0);
    return total - untaxed;
  }

  /**
   * What the financial report must show for every sale so far (cumulative): the total with VAT,
   * the VAT and the money per method, each as [lo, hi]. A sale counts on its day, a MASAV sale too
   * (collected or not: docs/money.md books it to the MASAV receivable at the sale); a MASAV sale
   * returned by the bank and then paid at the desk counts once (its total), its VAT either the
   * sale's or the desk payment's (the one that took the money); money a MASAV file collected for a
   * debt without a purchase is income too. Only that VAT is a range; everything else is exact.
   */
  expectedReport(): { total: Bounded; vat: Bounded; byMethod: Map<number, Bounded> } {
    const total = { lo: 0, hi: 0 };
    const vat = { lo: 0, hi: 0 };
    const byMethod = new Map<number, Bounded>();
    const add = (b: Bounded, lo: number, hi = lo) => {
      b.lo += lo;
      b.hi += hi;
    };
    const meth = (m: number) => {
      if (!byMethod.has(m)) byMethod.set(m, { lo: 0, hi: 0 });
      return byMethod.get(m)!;
    };
    for (const s of this.sales.values()) {
      const net = s.total - s.refunded;
      const netVat = s.vat - s.refundedVat;
      const methods = (lo: boolean, hi: boolean) => {
        for (const p of s.payments) {
          const back = s.refunds.reduce(
            (a, r) => a + r.payments.filter((x) => x.method === p.method).reduce((b, x) => b + x.amount, 0),
            0,
          );
          add(meth(p.method), lo ? p.amount - back : 0, hi ? p.amount - back : 0);
        }
      };
      if (s.settlesMasavSale != null) {
        // The desk payment of a rejected MASAV sale: the money is real (its methods count), its
        // total and VAT are the MASAV sale's, counted there.
        methods(true, true);
        continue;
      }
      if (!s.masav || s.masav.state !== 'settledAtDesk') {
        // A MASAV sale counts from its sale, collected or not (its money a receivable until then).
        add(total, net);
        add(vat, netVat);
        methods(true, true);
      } else {
        // Settled at the desk: its total once; its VAT the sale's or the desk payment's; no MASAV money.
        const desk = this.sales.get(s.masav.settledBy!)!;
        add(total, net);
        add(vat, Math.min(netVat, desk.vat), Math.max(netVat, desk.vat));
        methods(false, false);
      }
    }
    for (const c of this.collections) {
      add(total, c.amount);
      const v = vatIn(c.amount, vatRateBp(c.at));
      add(vat, v);
      add(meth(M.Masav), c.amount);
    }
    return { total, vat, byMethod };
  }

  /**
   * What the accounting export (MOVEIN) must hold after every movement so far, per account role:
   * income and VAT (credits less debits), cash and card (debits less credits), the MASAV
   * receivable (debits less credits: always 0 — a MASAV sale is written when collected, through the
   * MASAV account and on to the bank the same day) and the bank (MASAV collections).
   */
  expectedAccounts(): Record<'income' | 'vat' | 'cash' | 'card' | 'masav' | 'bank', Bounded> {
    const r = {
      income: { lo: 0, hi: 0 },
      vat: { lo: 0, hi: 0 },
      cash: { lo: 0, hi: 0 },
      card: { lo: 0, hi: 0 },
      masav: { lo: 0, hi: 0 },
      bank: { lo: 0, hi: 0 },
    };
    const add = (b: Bounded, lo: number, hi = lo) => {
      b.lo += lo;
      b.hi += hi;
    };
    const moneyOf = (ps: { method: number; amount: number }[], methods: readonly number[]) =>
      ps.filter((p) => methods.includes(p.method)).reduce((a, p) => a + p.amount, 0);
    for (const s of this.sales.values()) {
      const refundsMoney = (methods: readonly number[]) =>
        s.refunds.reduce((a, x) => a + moneyOf(x.payments, methods), 0);
      const cash = moneyOf(s.payments, [M.Cash]) - refundsMoney([M.Cash]);
      const card = moneyOf(s.payments, [M.Card, M.Token]) - refundsMoney([M.Card, M.Token]);
      add(r.cash, cash);
      add(r.card, card);
      const money = moneyOf(s.payments, MONEY_METHODS) - refundsMoney(MONEY_METHODS);
      const netVat = s.vat - s.refundedVat;
      if (s.settlesMasavSale != null) continue; // counted with its MASAV sale below
      if (!s.masav) {
        add(r.income, money - netVat);
        add(r.vat, netVat);
        continue;
      }
      const amount = moneyOf(s.payments, [M.Masav]);
      if (s.masav.state === 'collected') {
        add(r.income, money - netVat);
        add(r.vat, netVat);
        add(r.bank, amount);
        // Collected MASAV money given back is handed back by the cashier (docs/money.md "Refunds").
        add(r.cash, -refundsMoney([M.Masav]));
      } else if (s.masav.state === 'open') {
        // Not collected: no document yet, so nothing in the books (docs/money.md "MASAV: rejected, then paid
        // another way": MOVEIN holds documents; the sale is written on the day the bank collects it).
      } else {
        const desk = this.sales.get(s.masav.settledBy!)!;
        const deskMoney = moneyOf(desk.payments, MONEY_METHODS);
        const lo = Math.min(money - netVat, deskMoney - desk.vat);
        const hi = Math.max(money - netVat, deskMoney - desk.vat);
        add(r.income, lo, hi);
        add(r.vat, Math.min(netVat, desk.vat), Math.max(netVat, desk.vat));
      }
    }
    for (const c of this.collections) {
      const v = vatIn(c.amount, vatRateBp(c.at));
      add(r.income, c.amount - v);
      add(r.vat, v);
      add(r.bank, c.amount);
    }
    return r;
  }
}
