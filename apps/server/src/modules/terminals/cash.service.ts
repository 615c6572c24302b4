import { and, eq } from 'drizzle-orm';
import type { Actor } from '../../lib/actor.js';
import {
  ILS_BILLS,
  PaymentMethod,
  PurchaseItemType,
  inventoryTotal,
  planChange,
  roundCash,
  terminalSettings,
  type CashBoxStatus,
  type CashError,
  type CashReset,
  type CashSessionState,
  type Identification,
  type Inventory,
  type ServerCashState,
} from '@venue/domain';
import type { Db, Tx } from '../../db/index.js';
import { cashInserts, cashResets, cashSessions, clients, clubs, terminalCash, terminals } from '../../db/schema.js';
import { audit } from '../../lib/audit.js';
import { AppError } from '../../lib/errors.js';
import { scoped } from '../../lib/scoped.js';
import { createPurchase } from '../purchases/purchase.service.js';
import { clearingProvider } from '../../integrations/clearing/sandbox.js';
import { clubSettings } from '../club/club.service.js';
import type { EventBus } from '../../lib/event-bus.js';
import { terminalRow } from './terminals.service.js';
import { clockNow } from '../../lib/clock.js';

/**
 * Cash at the terminal (DESIGN §7 "Cash"; seed 001 §3, §4 "Cash session",
 * §8 cash change errors). docs/cash.md has the rules in prose.
 *
 * Inventories (terminal_cash): `coins` and `bills` are what the terminal
 * pays change from (hopper and bill recycler, loaded by staff with LoadCash;
 * inserted coins go to the hopper), `cashBox` collects inserted bills,
 * `excess` the overpayment kept beyond the club's maxCashOverpayment.
 *
 * A session: begin (client identified, amount due rounded to 10 agorot) →
 * coins and bills inserted (each once per eventId; a valid bill the acceptor
 * is not set to take is refused: VALID_UNAUTHORIZED_BILL) → the client
 * completes → payment approved: the due amount (or everything inserted when
 * no amount was due) is a money-load purchase paid by Cash (createPurchase:
 * invoice, VAT, ledger rows), or pays a kiosk purchase (`purchase` message
 * with a Cash payment naming the session) → start payout: change up to the club's
 * limit is planned greedily from the inventories; the rest of the change is
 * excess; change the inventories cannot cover is `unpaid` (a payout-error
 * purchase owed to the client, COIN_CHANGE_ERROR or BILL_CHANGE_ERROR) →
 * closed when the terminal confirms the payout. Cancel before completing
 * pays back what was inserted. Every step is one transaction holding the
 * session's and the inventory's row locks.
 */

type Inv = Record<string, number>;
const add = (inv: Inv, d: number, n: number): Inv => {
  const k = String(d);
  const next = { ...inv, [k]: (inv[k] ?? 0) + n };
  if (next[k] <= 0) delete next[k];
  return next;
};
const addAll = (inv: Inv, other: Inv, sign: 1 | -1): Inv => {
  let out = { ...inv };
  for (const [d, n] of Object.entries(other)) out = add(out, Number(d), sign * n);
  return out;
};
const SMALLEST_BILL = Math.min(...ILS_BILLS);

async function cashRow(db: Db | Tx, clubId: number, terminalId: number, forUpdate = false) {
  await db.insert(terminalCash).values({ terminalId, clubId }).onConflictDoNothing();
  const q = db.select().from(terminalCash).where(eq(terminalCash.terminalId, terminalId));
  const [row] = forUpdate ? await q.for('update') : await q;
  return row;
}

/**
 * Inventories and totals of a terminal (GET /api/Terminal/GetCashBoxStatus/{id}).
 * @throws NOT_FOUND for another club's or a deleted terminal
 */
export async function cashBoxStatus(db: Db, clubId: number, terminalId: number): Promise<CashBoxStatus> {
  await terminalRow(db, clubId, terminalId);
  const row = await cashRow(db, clubId, terminalId);
  return presentCash(row);
}

function presentCash(row: typeof terminalCash.$inferSelect): CashBoxStatus {
  const coins = row.coins;
  const bills = row.bills;
  const cashBox = row.cashBox;
  return {
    terminalId: row.terminalId,
    coins,
    bills,
    cashBox,
    excess: { amount: row.excessAmount, count: row.excessCount },
    coinsTotal: inventoryTotal(coins),
    billsTotal: inventoryTotal(bills),
    cashBoxTotal: inventoryTotal(cashBox),
    lastResetAt: row.lastResetAt ? row.lastResetAt.toISOString() : null,
  };
}

/**
 * Empties the cash box (POST /api/Terminal/CreateResetCashLevels; seed 000 §3
 * cash action EmptyCashBox): writes a cash-reset record of what the box and
 * the excess box held (the cash management report) and resets both to zero.
 * The payout inventories (the float) stay. Audited.
 */
export async function resetCashLevels(db: Db, actor: Actor, terminalId: number): Promise<CashReset> {
  const clubId = actor.clubId;
  return db.transaction(async (tx) => {
    await terminalRow(tx, clubId, terminalId);
    const row = await cashRow(tx, clubId, terminalId, true);
    const cashBox = row.cashBox;
    const [reset] = await tx
      .insert(cashResets)
      .values({
        clubId,
        terminalId,
        userId: actor.userId,
        cashBox,
        cashBoxTotal: inventoryTotal(cashBox),
        excessAmount: row.excessAmount,
        excessCount: row.excessCount,
        at: clockNow(),
      })
      .returning();
    await tx
      .update(terminalCash)
      .set({ cashBox: {}, excessAmount: 0, excessCount: 0, lastResetAt: reset.at, updatedAt: clockNow() })
      .where(eq(terminalCash.terminalId, terminalId));
    const record: CashReset = {
      id: reset.id,
      terminalId,
      at: reset.at.toISOString(),
      userId: reset.userId,
      cashBox,
      cashBoxTotal: reset.cashBoxTotal,
      excessAmount: reset.excessAmount,
    };
    await audit(tx, actor, { action: 'reset-cash-levels', entity: 'terminal', entityId: terminalId, after: record });
    return record;
  });
}

/**
 * Loads coins and bills into the payout inventories (POST
 * /api/Terminal/LoadCash/{id}; seed 000 §3 cash action LoadCash): adds the
 * given pieces per denomination (agorot → count). Counts are 0 or more: the
 * contract (`LoadCashInput`, `Inventory`) refuses a negative count with
 * VALIDATION_ERROR; taking money out is EmptyCashBox (docs/cash.md). Audited.
 */
export async function loadCash(
  db: Db,
  actor: Actor,
  terminalId: number,
  input: { coins: Inventory; bills: Inventory },
): Promise<CashBoxStatus> {
  const clubId = actor.clubId;
  return db.transaction(async (tx) => {
    await terminalRow(tx, clubId, terminalId);
    const row = await cashRow(tx, clubId, terminalId, true);
    const coins = addAll(row.coins, input.coins, 1);
    const bills = addAll(row.bills, input.bills, 1);
    const [next] = await tx
      .update(terminalCash)
      .set({ coins, bills, updatedAt: clockNow() })
      .where(eq(terminalCash.terminalId, terminalId))
      .returning();
    await audit(tx, actor, {
      action: 'load-cash',
      entity: 'terminal',
      entityId: terminalId,
      before: { coins: row.coins, bills: row.bills },
      after: { coins, bills },
    });
    return presentCash(next);
  });
}

// ---------------------------------------------------------------- the session, driven by terminal messages

export interface CashLink {
  clubId: number;
  terminalId: number;
}

type SessionRow = typeof cashSessions.$inferSelect;

function stateOf(s: SessionRow, extra: Partial<ServerCashState> = {}): ServerCashState {
  const plan = s.changePlan as { coins: Inventory; bills: Inventory; amount: number } | null;
  return {
    type: 'cash-state',
    sessionId: s.sessionId,
    state: s.state as CashSessionState,
    inserted: s.inserted,
    due: s.amountDue,
    credited: s.credited,
    ...(plan ? { change: plan } : {}),
    unpaid: s.unpaid,
    excess: s.excess,
    ...(s.error ? { error: s.error as CashError } : {}),
    ...extra,
  };
}

async function sessionRow(tx: Tx, link: CashLink, sessionId: string): Promise<SessionRow | undefined> {
  const [s] = await tx
    .select()
    .from(cashSessions)
    .where(and(eq(cashSessions.terminalId, link.terminalId), eq(cashSessions.sessionId, sessionId)))
    .for('update');
  return s;
}

async function findClient(tx: Tx, clubId: number, ident: Identification) {
  if (ident.kind !== 'card' && ident.kind !== 'code') return undefined;
  const where =
    ident.kind === 'card'
      ? eq(clients.cardSerial, ident.value)
      : /^\d{1,9}$/.test(ident.value)
        ? eq(clients.number, Number(ident.value))
        : undefined;
  if (!where) return undefined;
  const [c] = await tx.select({ id: clients.id }).from(clients).where(scoped(tx, clubId).live(clients, where)).limit(1);
  return c;
}

/** A cash-begin: opens the session (idempotent by the terminal's sessionId). */
export async function cashBegin(
  db: Db,
  link: CashLink,
  m: { sessionId: string; identification: Identification; amountDue?: number },
): Promise<ServerCashState> {
  return db.transaction(async (tx) => {
    const existing = await sessionRow(tx, link, m.sessionId);
    if (existing) return stateOf(existing);
    const client = await findClient(tx, link.clubId, m.identification);
    const [s] = await tx
      .insert(cashSessions)
      .values({
        clubId: link.clubId,
        terminalId: link.terminalId,
        sessionId: m.sessionId,
        clientId: client?.id ?? null,
        state: client ? 'begin' : 'rejected',
        amountDue: m.amountDue != null ? roundCash(m.amountDue) : null,
        startedAt: clockNow(),
        updatedAt: clockNow(),
      })
      .returning();
    return stateOf(s, client ? {} : { message: 'ClientNotFound' });
  });
}

/** A coin or bill inserted (idempotent by eventId). */
export async function cashInsert(
  db: Db,
  link: CashLink,
  m: { sessionId: string; eventId: string; kind: 'coin' | 'bill'; denomination: number },
): Promise<ServerCashState> {
  return db.transaction(async (tx) => {
    const s = await sessionRow(tx, link, m.sessionId);
    if (!s) return unknownSession(m.sessionId);
    const [dup] = await tx
      .select({ accepted: cashInserts.accepted })
      .from(cashInserts)
      .where(and(eq(cashInserts.terminalId, link.terminalId), eq(cashInserts.eventId, m.eventId)));
    if (dup) return stateOf(s, dup.accepted ? {} : { error: 'VALID_UNAUTHORIZED_BILL' });
    if (s.state !== 'begin') return stateOf(s, { message: 'SessionNotOpen' });
    const isBill = m.kind === 'bill';
    if (isBill !== m.denomination >= SMALLEST_BILL) return stateOf(s, { message: 'BadDenomination' });
    const [t] = await tx
      .select({ settings: terminals.settings })
      .from(terminals)
      .where(eq(terminals.id, link.terminalId));
    const settings = terminalSettings(t?.settings);
    const accepted = isBill
      ? (settings.billAcceptor.accepted as number[]).includes(m.denomination)
      : (settings.coinAcceptor.accepted as number[]).includes(m.denomination);
    await tx.insert(cashInserts).values({
      clubId: link.clubId,
      terminalId: link.terminalId,
      cashSessionId: s.id,
      eventId: m.eventId,
      kind: m.kind,
      denomination: m.denomination,
      accepted,
      at: clockNow(),
    });
    // A valid bill the acceptor is not set to take goes back to the client (seed 001 §8 "valid unauthorized bill").
    if (!accepted) return stateOf(s, isBill ? { error: 'VALID_UNAUTHORIZED_BILL' } : { message: 'CoinRefused' });
    const inv = await cashRow(tx, link.clubId, link.terminalId, true);
    await tx
      .update(terminalCash)
      .set(
        isBill
          ? { cashBox: add(inv.cashBox, m.denomination, 1), updatedAt: clockNow() }
          : { coins: add(inv.coins, m.denomination, 1), updatedAt: clockNow() },
      )
      .where(eq(terminalCash.terminalId, link.terminalId));
    const [next] = await tx
      .update(cashSessions)
      .set({
        inserted: s.inserted + m.denomination,
        pieces: add(s.pieces, m.denomination, 1),
        updatedAt: clockNow(),
      })
      .where(eq(cashSessions.id, s.id))
      .returning();
    return stateOf(next);
  });
}

/**
 * The client completed a money load: payment completed → approved → start
 * payout (or closed when there is no change to pay). The due amount (or
 * everything inserted) becomes a real purchase — a ChargingMoney item paid by
 * Cash, through `createPurchase` (invoice number, VAT, the group's bonus,
 * ledger rows; idempotency key `cash:<terminal>:<session>`) — and the session
 * is settled in the same transaction (`settleCashSession`). A purchase the
 * rules refuse (e.g. CHARGE_AMOUNT_OUT_OF_RANGE) leaves the session in
 * `begin` with the error code as `message`; the client may cancel.
 */
export async function cashComplete(db: Db, link: CashLink, m: { sessionId: string }): Promise<ServerCashState> {
  const [s] = await db
    .select()
    .from(cashSessions)
    .where(and(eq(cashSessions.terminalId, link.terminalId), eq(cashSessions.sessionId, m.sessionId)));
  if (!s) return unknownSession(m.sessionId);
  if (s.state !== 'begin') return stateOf(s);
  const due = s.amountDue ?? s.inserted;
  if (s.inserted < due || s.inserted === 0) return stateOf(s, { message: 'InsufficientCash' });
  const settle = (tx: Tx, purchaseId: number | null) =>
    settleCashSession(tx, link, { sessionId: m.sessionId, due, inserted: s.inserted, purchaseId });
  if (s.clientId == null || due === 0) return db.transaction((tx) => settle(tx, null));
  let state: ServerCashState | undefined;
  try {
    const excess = await cashExcess(db, link.clubId, s.inserted - due);
    await createPurchase(db, clearingProvider(), {
      clubId: link.clubId,
      clientId: s.clientId,
      items: [{ itemType: PurchaseItemType.ChargingMoney, name: '', quantity: 1, unitPrice: due }],
      payments: [
        excess > 0
          ? { method: PaymentMethod.Cash, amount: due, cashGiven: due + excess, keepExcess: true }
          : { method: PaymentMethod.Cash, amount: due, cashGiven: s.inserted, keepExcess: false },
      ],
      isAdminUser: false,
      source: 'terminal',
      terminalId: link.terminalId,
      idempotencyKey: `cash:${link.terminalId}:${m.sessionId}`,
      inTransaction: async (tx, p) => {
        state = await settle(tx, p.id);
      },
    });
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    const [now] = await db.select().from(cashSessions).where(eq(cashSessions.id, s.id));
    return stateOf(now ?? s, { message: err.code });
  }
  if (state) {
    if (state.state === 'closed') await recordPayoutError(db, link, m.sessionId);
    return { ...state, message: 'PaymentApproved' };
  }
  // Already completed (a resend): the session's state as recorded.
  const [done] = await db.select().from(cashSessions).where(eq(cashSessions.id, s.id));
  return stateOf(done ?? s);
}

/** The part of `change` above the club's maxCashOverpayment (0 = no limit): kept as excess. */
export async function cashExcess(db: Db | Tx, clubId: number, change: number): Promise<number> {
  const [club] = await db.select({ settings: clubs.settings }).from(clubs).where(eq(clubs.id, clubId));
  const limit = clubSettings({ settings: club?.settings ?? {} }).maxCashOverpayment;
  return limit > 0 ? Math.max(0, change - limit) : 0;
}

/**
 * Settles a cash session inside the transaction of the purchase it paid
 * (`createPurchase`'s `inTransaction`): locks the session, checks it is
 * still in `begin` with the same money inserted (else CONFLICT, so the
 * purchase rolls back), plans the change (up to the club's limit; the rest
 * is excess) from the inventories, and moves the session to startPayout or
 * closed with `credited` = the due amount and the purchase id.
 *
 * @param due the cash amount of the purchase, agorot (already rounded to 10 agorot)
 * @throws AppError CONFLICT when the session is unknown, not open, or changed meanwhile
 */
export async function settleCashSession(
  tx: Tx,
  link: CashLink,
  a: { sessionId: string; due: number; inserted: number; purchaseId: number | null },
): Promise<ServerCashState> {
  const s = await sessionRow(tx, link, a.sessionId);
  if (!s || s.state !== 'begin' || s.inserted !== a.inserted || s.inserted < a.due) {
    throw new AppError('CONFLICT', 'The cash session is not open or changed');
  }
  const change = s.inserted - a.due;
  const excess = await cashExcess(tx, link.clubId, change);
  const payable = change - excess;
  const inv = await cashRow(tx, link.clubId, link.terminalId, true);
  const plan = planChange(payable, inv.coins, inv.bills);
  // Planned pieces leave the inventories now, so a concurrent session cannot promise them too.
  await tx
    .update(terminalCash)
    .set({
      coins: addAll(inv.coins, plan.coins, -1),
      bills: addAll(inv.bills, plan.bills, -1),
      excessAmount: inv.excessAmount + excess,
      excessCount: inv.excessCount + (excess > 0 ? 1 : 0),
      updatedAt: clockNow(),
    })
    .where(eq(terminalCash.terminalId, link.terminalId));
  const error: CashError | null =
    plan.unpaid === 0 ? null : plan.unpaid < SMALLEST_BILL ? 'COIN_CHANGE_ERROR' : 'BILL_CHANGE_ERROR';
  const [next] = await tx
    .update(cashSessions)
    .set({
      state: plan.paid > 0 ? 'startPayout' : 'closed',
      credited: a.purchaseId != null ? a.due : 0,
      changeDue: change,
      changePlan: { coins: plan.coins, bills: plan.bills, amount: plan.paid },
      unpaid: plan.unpaid,
      excess,
      error,
      purchaseId: a.purchaseId,
      updatedAt: clockNow(),
    })
    .where(eq(cashSessions.id, s.id))
    .returning();
  return stateOf(next);
}

/** A session of the terminal as it is now (kiosk purchases paid in cash check it before charging). */
export async function cashSessionOf(db: Db, link: CashLink, sessionId: string) {
  const [s] = await db
    .select()
    .from(cashSessions)
    .where(and(eq(cashSessions.terminalId, link.terminalId), eq(cashSessions.sessionId, sessionId)));
  return s;
}

/** The client canceled before completing: what was inserted is planned back from the inventories. */
export async function cashCancel(db: Db, link: CashLink, m: { sessionId: string }): Promise<ServerCashState> {
  const out = await cancelSession(db, link, m);
  // Nothing to pay out: what the inventories could not return is final now.
  if (out.state === 'canceled' && out.message !== 'UnknownSession')
    await recordPayoutError(db, link, m.sessionId, true);
  return out;
}

async function cancelSession(db: Db, link: CashLink, m: { sessionId: string }): Promise<ServerCashState> {
  return db.transaction(async (tx) => {
    const s = await sessionRow(tx, link, m.sessionId);
    if (!s) return unknownSession(m.sessionId);
    if (s.state !== 'begin') return stateOf(s);
    const inv = await cashRow(tx, link.clubId, link.terminalId, true);
    const plan = planChange(s.inserted, inv.coins, inv.bills);
    await tx
      .update(terminalCash)
      .set({
        coins: addAll(inv.coins, plan.coins, -1),
        bills: addAll(inv.bills, plan.bills, -1),
        updatedAt: clockNow(),
      })
      .where(eq(terminalCash.terminalId, link.terminalId));
    const error: CashError | null =
      plan.unpaid === 0 ? null : plan.unpaid < SMALLEST_BILL ? 'COIN_CHANGE_ERROR' : 'BILL_CHANGE_ERROR';
    const [next] = await tx
      .update(cashSessions)
      .set({
        state: 'canceled',
        changeDue: s.inserted,
        changePlan: { coins: plan.coins, bills: plan.bills, amount: plan.paid },
        unpaid: plan.unpaid,
        error,
        updatedAt: clockNow(),
      })
      .where(eq(cashSessions.id, s.id))
      .returning();
    return stateOf(next);
  });
}

/**
 * The terminal paid out: closes a session in startPayout. Pieces it reports
 * it could not pay go back to the inventories and their value is added to
 * `unpaid` (a payout error).
 */
export async function cashPayoutDone(
  db: Db,
  link: CashLink,
  m: { sessionId: string; coins: Inventory; bills: Inventory },
): Promise<ServerCashState> {
  const out = await payoutDone(db, link, m);
  if (out.state === 'closed' || out.state === 'canceled') await recordPayoutError(db, link, m.sessionId);
  return out;
}

async function payoutDone(
  db: Db,
  link: CashLink,
  m: { sessionId: string; coins: Inventory; bills: Inventory },
): Promise<ServerCashState> {
  return db.transaction(async (tx) => {
    const s = await sessionRow(tx, link, m.sessionId);
    if (!s) return unknownSession(m.sessionId);
    if (s.state !== 'startPayout' && s.state !== 'canceled') return stateOf(s);
    if (s.state === 'canceled' && s.changePlan && (s.changePlan as { paidOut?: boolean }).paidOut) return stateOf(s);
    const plan = (s.changePlan ?? { coins: {}, bills: {}, amount: 0 }) as { coins: Inv; bills: Inv; amount: number };
    const missingCoins: Inv = {};
    const missingBills: Inv = {};
    let missing = 0;
    for (const [d, n] of Object.entries(plan.coins)) {
      const short = n - Math.min(n, m.coins[d] ?? 0);
      if (short > 0) {
        missingCoins[d] = short;
        missing += short * Number(d);
      }
    }
    for (const [d, n] of Object.entries(plan.bills)) {
      const short = n - Math.min(n, m.bills[d] ?? 0);
      if (short > 0) {
        missingBills[d] = short;
        missing += short * Number(d);
      }
    }
    if (missing > 0) {
      const inv = await cashRow(tx, link.clubId, link.terminalId, true);
      await tx
        .update(terminalCash)
        .set({
          coins: addAll(inv.coins, missingCoins, 1),
          bills: addAll(inv.bills, missingBills, 1),
          updatedAt: clockNow(),
        })
        .where(eq(terminalCash.terminalId, link.terminalId));
    }
    const unpaid = s.unpaid + missing;
    const error: string | null =
      missing > 0 ? (Object.keys(missingBills).length > 0 ? 'BILL_CHANGE_ERROR' : 'COIN_CHANGE_ERROR') : s.error;
    const [next] = await tx
      .update(cashSessions)
      .set({
        state: s.state === 'canceled' ? 'canceled' : 'closed',
        unpaid,
        error,
        changePlan: { ...plan, amount: plan.amount - missing, paidOut: true },
        updatedAt: clockNow(),
      })
      .where(eq(cashSessions.id, s.id))
      .returning();
    return stateOf(next);
  });
}

/** The idempotency key of a session's payout-error purchase (one per session). */
export function payoutErrorKey(terminalId: number, sessionId: string): string {
  return `payout-error:${terminalId}:${sessionId}`;
}

/**
 * The payout-error purchase (seed 000 §2 "Payout-error (surplus) purchases";
 * docs/cash.md "Payout errors"): when a session of a known client is final
 * (closed, or canceled with nothing left to pay out) and change is still
 * `unpaid`, that money — cash the terminal kept — is loaded onto the client's
 * balance by a purchase of source 'payoutError' (a ChargingMoney item paid by
 * Cash, no group bonus; invoice number, VAT and ledger row as any load), key
 * `payout-error:<terminal>:<session>`, so a resent message never writes it
 * twice. An anonymous session's unpaid change stays on the session (no one
 * to credit); a purchase the rules refuse (the club's maximum charge) leaves
 * it there too. Both are still in the payout-error report. Called after
 * every step that can make a session final: a cash load completed, a kiosk
 * purchase paid from the session (kiosk.service.ts), a payout done, a cancel;
 * a session not final yet (startPayout, begin) is left alone.
 * @param canceled a canceled session counts only once nothing is planned to be paid out
 */
export async function recordPayoutError(db: Db, link: CashLink, sessionId: string, canceled = false): Promise<void> {
  const s = await cashSessionOf(db, link, sessionId);
  if (!s || s.clientId == null || s.unpaid <= 0) return;
  if (s.state !== 'closed' && s.state !== 'canceled') return;
  if (canceled && ((s.changePlan as { amount?: number } | null)?.amount ?? 0) > 0) return;
  try {
    await createPurchase(db, clearingProvider(), {
      clubId: link.clubId,
      clientId: s.clientId,
      items: [{ itemType: PurchaseItemType.ChargingMoney, name: s.error ?? '', quantity: 1, unitPrice: s.unpaid }],
      payments: [{ method: PaymentMethod.Cash, amount: s.unpaid, keepExcess: false }],
      isAdminUser: true,
      source: 'payoutError',
      terminalId: link.terminalId,
      idempotencyKey: payoutErrorKey(link.terminalId, sessionId),
    });
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
  }
}

function unknownSession(sessionId: string): ServerCashState {
  return {
    type: 'cash-state',
    sessionId,
    state: 'rejected',
    inserted: 0,
    due: null,
    credited: 0,
    unpaid: 0,
    excess: 0,
    message: 'UnknownSession',
  };
}

/** Publishes a session's state on the live feed (console dashboard, terminals screen). */
export function publishCash(bus: EventBus, link: CashLink, s: ServerCashState): void {
  bus.publish('cash', {
    clubId: link.clubId,
    terminalId: link.terminalId,
    sessionId: s.sessionId,
    state: s.state,
    inserted: s.inserted,
    ...(s.error ? { error: s.error } : {}),
  });
}
