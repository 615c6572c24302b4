import { and, eq } from 'drizzle-orm';
import {
  EntrancePaymentType,
  EntranceStatus,
  PaymentMethod,
  PurchaseItemType,
  Reason,
  REASON_KEYS,
  type EntranceRow,
  type PaymentInput,
  type Purchase,
  type PurchaseItemInput,
  type ServerPurchaseResult,
  type TerminalPurchase,
} from '@venue/domain';
import type { Db, Tx } from '../../db/index.js';
import { clients, entranceLogs, terminals } from '../../db/schema.js';
import { scoped } from '../../lib/scoped.js';
import { AppError } from '../../lib/errors.js';
import type { ClearingProvider } from '../../integrations/clearing/provider.js';
import { cashExcess, cashSessionOf, recordPayoutError, settleCashSession } from '../terminals/cash.service.js';
import type { EventBus } from '../../lib/event-bus.js';
import { identificationMatch, processEntrance, writePaidEntrance } from './entrance.service.js';
import { createPurchase, getPurchase } from '../purchases/purchase.service.js';
import { purchaseIdByKey } from '../purchases/purchase-present.js';
import { clockNow } from '../../lib/clock.js';

/**
 * Kiosk purchases and paying at the gate ("from terminals";
 * seed 000 §3 Purchase and entrance state OpenWithPay; docs/terminal-protocol.md
 * "Kiosk purchases and paying at the gate"). Every purchase goes through
 * `createPurchase` — the one purchase path — with `source: 'terminal'` and the
 * idempotency key `terminal:<terminal id>:<eventId>`.
 */

export interface KioskLink {
  clubId: number;
  terminalId: number;
}

const keyOf = (link: KioskLink, eventId: string) => `terminal:${link.terminalId}:${eventId}`;

function fail(eventId: string, error: string, details?: unknown, decision?: ServerPurchaseResult['decision']) {
  const out: ServerPurchaseResult = { type: 'purchase-result', eventId, ok: false, error };
  if (details && typeof details === 'object') out.details = details as Record<string, unknown>;
  if (decision) out.decision = decision;
  return out;
}

const paymentFailed = (): NonNullable<ServerPurchaseResult['decision']> => ({
  status: EntranceStatus.PaymentError,
  reason: Reason.PaymentError,
  gateOpenSeconds: 0,
  message: REASON_KEYS[Reason.PaymentError],
});

async function answer(
  db: Db,
  link: KioskLink,
  eventId: string,
  purchaseId: number,
  extra: Partial<ServerPurchaseResult> = {},
): Promise<ServerPurchaseResult> {
  const p = await getPurchase(db, link.clubId, purchaseId);
  const sub = p.items.find((i) => i.itemType === PurchaseItemType.NewSubscription);
  return {
    type: 'purchase-result',
    eventId,
    ok: true,
    purchaseId: p.id,
    invoiceNumber: p.invoiceNumber ?? undefined,
    total: p.total,
    balanceAfter: p.balanceAfter,
    ...(sub?.expiry ? { subscriptionEnd: sub.expiry } : {}),
    ...extra,
  };
}

/**
 * A `purchase` from a terminal → `purchase-result`.
 *
 * - The client is named by `identification` (as for entrances), or by the
 *   cash session paying; none → only Product and Towel items, paid by cash
 *   or card.
 * - Prices: a Product with `itemId` takes the product's price; an Entrance
 *   item takes the OpenWithPay offer of the entrance decision (whatever the
 *   terminal sent); other items need `unitPrice` (money load amount,
 *   subscription price: subscriptions are sold with their price, there is no
 *   plan table, docs/money.md).
 * - A single payment without `amount` is filled in with the total (card fee
 *   and cash rounding included).
 * - Cash: `cashSessionId` names a session of this terminal in `begin` whose
 *   inserted money covers the cash amount; the session is settled (change,
 *   excess) in the purchase's transaction and `credited` records the amount.
 * - Entrance item (paying at the gate): the decision must be status 9 with a
 *   payment offer (state OpenWithPay), else PAYMENT_NOT_REQUIRED and nothing
 *   is written. Paid → an entrance_logs row status 1 reason 7 EntryByPayment
 *   with the purchase id and the event id, in the purchase's transaction; the
 *   gate opens. A failed purchase → a row status 9 reason 27 with the event id.
 * - Idempotent by the terminal's eventId: a resend answers the first outcome
 *   (the same purchase, or the same failure of a paid entrance) and charges
 *   nothing again.
 *
 * Errors are answered, never thrown, for the rules: CLIENT_NOT_FOUND,
 * TERMINAL_NOT_APPROVED, CASH_SESSION_INVALID, CASH_NOT_ENOUGH,
 * PAYMENT_NOT_REQUIRED, and createPurchase's codes (PAYMENT_ERROR with
 * details.reason, PAYMENTS_DO_NOT_MATCH_TOTAL with details.expected,
 * NOT_ENOUGH_BALANCE, CHARGE_AMOUNT_OUT_OF_RANGE, VALIDATION_ERROR, …).
 * Amounts in agorot.
 */
export async function kioskPurchase(
  db: Db,
  bus: EventBus | null,
  provider: ClearingProvider,
  link: KioskLink,
  m: TerminalPurchase,
): Promise<ServerPurchaseResult> {
  const atGate = m.items.some((i) => i.itemType === PurchaseItemType.Entrance);
  const resent = await firstOutcome(db, link, m, atGate);
  if (resent) {
    if (resent.ok) await payoutErrorOf(db, link, m);
    return resent;
  }

  const [t] = await db
    .select({ approved: terminals.approved })
    .from(terminals)
    .where(scoped(db, link.clubId).live(terminals, eq(terminals.id, link.terminalId)));
  if (!t?.approved) return fail(m.eventId, 'TERMINAL_NOT_APPROVED');

  const buyer = await identifyBuyer(db, link, m);
  if ('type' in buyer) return buyer;
  const gate = atGate ? await gateOffer(db, link, m, buyer) : null;
  if (gate && 'type' in gate) return gate;
  const items = kioskItems(m, gate?.offer ?? 0);
  if (!Array.isArray(items)) return items;

  const sale: KioskSale = { db, link, m, buyer, gate, items, at: clockNow(), logId: 0 };
  try {
    const result = await buy(sale, provider);
    if (!('id' in result)) return result;
    await payoutErrorOf(db, link, m);
    return await answerPaid(sale, bus, result.id);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return answerFailed(sale, bus, err);
  }
}

/**
 * Change the kiosk could not pay for a cash-paid purchase: when the paying
 * session is final (closed: nothing planned to pay out) with change still
 * unpaid, that money is loaded onto the client's balance by a payout-error
 * purchase, exactly as after a cash load (docs/cash.md "Payout errors").
 * A session still paying out gets it when the terminal reports the payout
 * (cash-payout-done). Idempotent by the session (a resend writes nothing new).
 */
async function payoutErrorOf(db: Db, link: KioskLink, m: TerminalPurchase): Promise<void> {
  const sessionId = m.payments.find((p) => p.method === PaymentMethod.Cash)?.cashSessionId;
  if (sessionId) await recordPayoutError(db, link, sessionId);
}

/** A resend of an event already answered: the first outcome (the same purchase, or the same failure at the gate), or null. */
async function firstOutcome(
  db: Db,
  link: KioskLink,
  m: TerminalPurchase,
  atGate: boolean,
): Promise<ServerPurchaseResult | null> {
  if (atGate) {
    const [log] = await db
      .select({ purchaseId: entranceLogs.purchaseId })
      .from(entranceLogs)
      .where(and(eq(entranceLogs.terminalId, link.terminalId), eq(entranceLogs.eventId, m.eventId)));
    if (!log) return null;
    if (log.purchaseId != null)
      return answer(db, link, m.eventId, log.purchaseId, { decision: await approved(db, link) });
    return fail(m.eventId, 'PAYMENT_ERROR', undefined, paymentFailed());
  }
  const done = await purchaseIdByKey(db, link.clubId, keyOf(link, m.eventId));
  return done != null ? answer(db, link, m.eventId, done) : null;
}

/** Who buys, and the cash session paying (if any). */
interface Buyer {
  clientId: number | null;
  groupId: number | null;
  cashSession: CashSession | undefined;
}

type CashSession = Awaited<ReturnType<typeof cashSessionOf>>;

/**
 * The client named by the identification (or by the paying cash session) and the cash session:
 * at most one cash payment, naming a session of this terminal in `begin` of the same client.
 */
async function identifyBuyer(db: Db, link: KioskLink, m: TerminalPurchase): Promise<Buyer | ServerPurchaseResult> {
  let clientId: number | null = null;
  let groupId: number | null = null;
  if (m.identification) {
    const match = await identificationMatch(db, link.clubId, m.identification);
    const [c] = match
      ? await db
          .select({ id: clients.id, groupId: clients.groupId })
          .from(clients)
          .where(scoped(db, link.clubId).live(clients, match))
          .limit(1)
      : [];
    if (!c) return fail(m.eventId, 'CLIENT_NOT_FOUND');
    clientId = c.id;
    groupId = c.groupId;
  }
  const cashPays = m.payments.filter((p) => p.method === PaymentMethod.Cash);
  if (cashPays.length > 1) return fail(m.eventId, 'CASH_SESSION_INVALID');
  const cashSession = cashPays[0] ? await cashSessionOf(db, link, cashPays[0].cashSessionId ?? '') : undefined;
  if (cashPays[0]) {
    if (!cashSession || cashSession.state !== 'begin') return fail(m.eventId, 'CASH_SESSION_INVALID');
    if (clientId == null && cashSession.clientId != null && !m.identification) {
      clientId = cashSession.clientId;
      const [c] = await db.select({ groupId: clients.groupId }).from(clients).where(eq(clients.id, clientId));
      groupId = c?.groupId ?? null;
    }
    if (cashSession.clientId != null && cashSession.clientId !== clientId) {
      return fail(m.eventId, 'CASH_SESSION_INVALID');
    }
  }
  return { clientId, groupId, cashSession };
}

/** Paying at the gate: the entrance decision's OpenWithPay offer (agorot) and its row. */
interface GateOffer {
  offer: number;
  row: EntranceRow;
}

/**
 * The gate's offer for one Entrance item: the entrance decision (written nowhere) must ask for a
 * payment (status 9, state OpenWithPay), else PAYMENT_NOT_REQUIRED with the decision.
 */
async function gateOffer(
  db: Db,
  link: KioskLink,
  m: TerminalPurchase,
  buyer: Buyer,
): Promise<GateOffer | ServerPurchaseResult> {
  if (!m.identification || buyer.clientId == null) return fail(m.eventId, 'CLIENT_NOT_FOUND');
  const entranceItems = m.items.filter((i) => i.itemType === PurchaseItemType.Entrance);
  if (entranceItems.length > 1 || (entranceItems[0].quantity ?? 1) !== 1) {
    return fail(m.eventId, 'VALIDATION_ERROR', { path: 'items', message: 'oneEntrance' });
  }
  const d = await processEntrance(
    db,
    null,
    { clubId: link.clubId, terminalId: link.terminalId, identification: m.identification, at: clockNow() },
    { decideOnly: true, publish: false },
  );
  if (!d.paymentRequired) {
    return fail(m.eventId, 'PAYMENT_NOT_REQUIRED', undefined, {
      status: d.status,
      reason: d.reason,
      gateOpenSeconds: 0,
      message: d.messageKey,
    });
  }
  return { offer: d.paymentRequired, row: d.row };
}

/**
 * The purchase items of a kiosk purchase: an Entrance takes the gate's offer, a Product with an id
 * its product's price (in the purchase check); every other item needs `unitPrice`. Several
 * payments each need an amount.
 */
function kioskItems(m: TerminalPurchase, offer: number): PurchaseItemInput[] | ServerPurchaseResult {
  const missingPrice = m.items.findIndex(
    (i) =>
      i.unitPrice == null &&
      i.itemType !== PurchaseItemType.Entrance &&
      !(i.itemType === PurchaseItemType.Product && i.itemId != null),
  );
  if (missingPrice >= 0) {
    return fail(m.eventId, 'VALIDATION_ERROR', { path: `items.${missingPrice}.unitPrice`, message: 'required' });
  }
  if (m.payments.length > 1 && m.payments.some((p) => p.amount == null)) {
    return fail(m.eventId, 'VALIDATION_ERROR', { path: 'payments', message: 'amountRequired' });
  }
  return m.items.map((i) => ({
    ...i,
    name: i.name ?? '',
    quantity: i.quantity ?? 1,
    unitPrice: i.itemType === PurchaseItemType.Entrance ? offer : (i.unitPrice ?? 0),
  }));
}

/** One kiosk purchase on its way: what was decided so far, and what its transaction recorded. */
interface KioskSale {
  db: Db;
  link: KioskLink;
  m: TerminalPurchase;
  buyer: Buyer;
  gate: GateOffer | null;
  items: PurchaseItemInput[];
  /** The purchase's moment, also the paid entrance's. */
  at: Date;
  /** The paid entrance's entrance_logs id, once written. */
  logId: number;
  /** The settled cash session, once settled. */
  cashState?: Awaited<ReturnType<typeof settleCashSession>>;
}

/**
 * The purchase's payments for the given amounts (agorot): cash from the session (what was
 * inserted beyond the amount is change, or excess above the club's maxCashOverpayment), cards
 * and EMV as sent. CASH_NOT_ENOUGH when the session holds less than the cash amount.
 */
async function kioskPayments(sale: KioskSale, amounts: number[]): Promise<PaymentInput[] | ServerPurchaseResult> {
  const { db, link, m } = sale;
  const cashSession = sale.buyer.cashSession;
  const out: PaymentInput[] = [];
  for (const [k, p] of m.payments.entries()) {
    const amount = amounts[k];
    if (p.method === PaymentMethod.Cash && cashSession) {
      if (cashSession.inserted < amount) {
        return fail(m.eventId, 'CASH_NOT_ENOUGH', { inserted: cashSession.inserted, amount });
      }
      const excess = await cashExcess(db, link.clubId, cashSession.inserted - amount);
      out.push(
        excess > 0
          ? { method: p.method, amount, cashGiven: amount + excess, keepExcess: true }
          : { method: p.method, amount, cashGiven: cashSession.inserted, keepExcess: false },
      );
    } else {
      out.push({
        method: p.method,
        amount,
        keepExcess: false,
        ...(p.card ? { card: p.card } : {}),
        ...(p.emvReference ? { emvReference: p.emvReference } : {}),
        ...(p.lastFour ? { lastFour: p.lastFour } : {}),
      });
    }
  }
  return out;
}

/**
 * Buys through `createPurchase` (source 'terminal', key `terminal:<id>:<eventId>`). A single
 * payment sent without an amount is first tried at 0; the purchase check's
 * PAYMENTS_DO_NOT_MATCH_TOTAL names the amount due (card fee and cash rounding included),
 * and the purchase is made with it. In the purchase's transaction the cash session is settled
 * and the paid entrance's log row (status 1, reason 7 EntryByPayment) is written.
 * @throws AppError from createPurchase
 */
async function buy(sale: KioskSale, provider: ClearingProvider): Promise<Purchase | ServerPurchaseResult> {
  const { db, link, m, buyer, gate } = sale;
  const purchase = async (payments: PaymentInput[]) =>
    createPurchase(db, provider, {
      clubId: link.clubId,
      clientId: buyer.clientId,
      items: sale.items,
      payments,
      isAdminUser: false,
      source: 'terminal',
      terminalId: link.terminalId,
      idempotencyKey: keyOf(link, m.eventId),
      at: sale.at,
      inTransaction: async (tx, p) => {
        const cash = payments.find((x) => x.method === PaymentMethod.Cash);
        if (cash && buyer.cashSession) {
          sale.cashState = await settleCashSession(tx, link, {
            sessionId: buyer.cashSession.sessionId,
            due: cash.amount,
            inserted: buyer.cashSession.inserted,
            purchaseId: p.id,
          });
        }
        if (gate) sale.logId = await writeGateLog(tx, sale, p.id);
      },
    });
  const payments = await kioskPayments(
    sale,
    m.payments.map((p) => p.amount ?? 0),
  );
  if (!Array.isArray(payments)) return payments;
  try {
    return await purchase(payments);
  } catch (err) {
    const expected = (err as AppError).details as { expected?: number } | undefined;
    if (!(err instanceof AppError) || err.code !== 'PAYMENTS_DO_NOT_MATCH_TOTAL' || m.payments[0].amount != null)
      throw err;
    const due = await kioskPayments(sale, [expected?.expected ?? 0]);
    if (!Array.isArray(due)) return due;
    return purchase(due);
  }
}

/** The paid entrance's log row (status 1, reason 7 EntryByPayment, the offer as its amount); its id. */
async function writeGateLog(tx: Tx, sale: KioskSale, purchaseId: number): Promise<number> {
  const { link, m, buyer } = sale;
  return writePaidEntrance(tx, {
    clubId: link.clubId,
    terminalId: link.terminalId,
    clientId: buyer.clientId,
    groupId: buyer.groupId,
    at: sale.at,
    identificationKind: m.identification!.kind,
    amount: sale.gate!.offer,
    eventId: m.eventId,
    purchaseId,
  });
}

/** A purchase made: the paid entrance goes on the live feed, the terminal gets the purchase, change and cash state. */
async function answerPaid(sale: KioskSale, bus: EventBus | null, purchaseId: number): Promise<ServerPurchaseResult> {
  const { db, link, m, gate, cashState, at } = sale;
  if (gate && sale.logId > 0) {
    bus?.publish('entrance', {
      clubId: link.clubId,
      row: {
        ...gate.row,
        id: sale.logId,
        at: at.toISOString(),
        status: EntranceStatus.Approved,
        reason: Reason.EntryByPayment,
        amount: gate.offer,
        paymentType: EntrancePaymentType.None,
      },
    });
  }
  const change = cashState?.change?.amount;
  return answer(db, link, m.eventId, purchaseId, {
    ...(change != null ? { change } : {}),
    ...(cashState
      ? {
          cash: {
            sessionId: cashState.sessionId,
            state: cashState.state,
            ...(cashState.change ? { change: cashState.change } : {}),
            unpaid: cashState.unpaid,
            excess: cashState.excess,
            ...(cashState.error ? { error: cashState.error } : {}),
          },
        }
      : {}),
    ...(gate ? { decision: await approved(db, link) } : {}),
  });
}

/**
 * A purchase refused: its code and details; at the gate the entrance is recorded as refused
 * (status 9, reason 27 PaymentError, once per event id) and goes on the live feed.
 */
async function answerFailed(sale: KioskSale, bus: EventBus | null, err: AppError): Promise<ServerPurchaseResult> {
  const { db, link, m, buyer, gate, at } = sale;
  if (!gate) return fail(m.eventId, err.code, err.details);
  const [log] = await db
    .insert(entranceLogs)
    .values({
      clubId: link.clubId,
      terminalId: link.terminalId,
      clientId: buyer.clientId,
      groupId: buyer.groupId,
      at,
      status: EntranceStatus.PaymentError,
      reason: Reason.PaymentError,
      identificationKind: m.identification!.kind,
      eventId: m.eventId,
    })
    .onConflictDoNothing({ target: [entranceLogs.clubId, entranceLogs.terminalId, entranceLogs.eventId] })
    .returning({ id: entranceLogs.id });
  if (log) {
    bus?.publish('entrance', {
      clubId: link.clubId,
      row: { ...gate.row, id: log.id, at: at.toISOString(), status: 9, reason: Reason.PaymentError, amount: 0 },
    });
  }
  return fail(m.eventId, err.code, err.details, paymentFailed());
}

async function approved(db: Db, link: KioskLink): Promise<NonNullable<ServerPurchaseResult['decision']>> {
  const [t] = await db
    .select({ gateOpenSeconds: terminals.gateOpenSeconds })
    .from(terminals)
    .where(eq(terminals.id, link.terminalId));
  return {
    status: EntranceStatus.Approved,
    reason: Reason.EntryByPayment,
    gateOpenSeconds: t?.gateOpenSeconds ?? 0,
    message: REASON_KEYS[Reason.EntryByPayment],
  };
}
