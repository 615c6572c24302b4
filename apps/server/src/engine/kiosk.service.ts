import { and, eq, ne } from 'drizzle-orm';
import {
  ClientStatus,
  EntrancePaymentType,
  EntranceStatus,
  PaymentMethod,
  PurchaseItemType,
  Reason,
  REASON_KEYS,
  type EntranceRow,
  type PaymentInput,
  type PurchaseItemInput,
  type ServerPurchaseResult,
  type TerminalPurchase,
} from '@venue/domain';
import type { Db } from '../db/index.js';
import { clients, entranceLogs, purchases, terminals } from '../db/schema.js';
import { AppError } from '../lib/errors.js';
import type { ClearingProvider } from '../integrations/clearing/provider.js';
import { cashExcess, cashSessionOf, settleCashSession } from '../modules/terminals/cash.service.js';
import type { EventBus } from '../realtime/event-bus.js';
import { identificationMatch, processEntrance } from './entrance.service.js';
import { createPurchase, getPurchase } from './purchase.service.js';

/**
 * Kiosk purchases and paying at the gate (issue 4 item 1 "from terminals";
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
    invoiceNumber: p.invoiceNumber,
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
  const key = keyOf(link, m.eventId);
  const entranceItems = m.items.filter((i) => i.itemType === PurchaseItemType.Entrance);
  const atGate = entranceItems.length > 0;

  // A resend: the first outcome.
  const [done] = await db
    .select({ id: purchases.id })
    .from(purchases)
    .where(and(eq(purchases.clubId, link.clubId), eq(purchases.idempotencyKey, key)));
  if (atGate) {
    const [log] = await db
      .select({ status: entranceLogs.status, reason: entranceLogs.reason, purchaseId: entranceLogs.purchaseId })
      .from(entranceLogs)
      .where(and(eq(entranceLogs.terminalId, link.terminalId), eq(entranceLogs.eventId, m.eventId)));
    if (log) {
      if (log.purchaseId != null)
        return answer(db, link, m.eventId, log.purchaseId, { decision: await approved(db, link) });
      return fail(m.eventId, 'PAYMENT_ERROR', undefined, paymentFailed());
    }
  }
  if (done && !atGate) return answer(db, link, m.eventId, done.id);

  const [t] = await db
    .select({ approved: terminals.approved, gateOpenSeconds: terminals.gateOpenSeconds })
    .from(terminals)
    .where(and(eq(terminals.id, link.terminalId), eq(terminals.clubId, link.clubId), eq(terminals.deleted, false)));
  if (!t?.approved) return fail(m.eventId, 'TERMINAL_NOT_APPROVED');

  // The client.
  let clientId: number | null = null;
  let groupId: number | null = null;
  if (m.identification) {
    const match = await identificationMatch(db, link.clubId, m.identification);
    const [c] = match
      ? await db
          .select({ id: clients.id, groupId: clients.groupId })
          .from(clients)
          .where(and(eq(clients.clubId, link.clubId), ne(clients.status, ClientStatus.Deleted), match))
          .limit(1)
      : [];
    if (!c) return fail(m.eventId, 'CLIENT_NOT_FOUND');
    clientId = c.id;
    groupId = c.groupId;
  }

  // Cash sessions named by the payments.
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

  // Paying at the gate: the decision's offer sets the price.
  let gateRow: EntranceRow | null = null;
  let offer = 0;
  if (atGate) {
    if (!m.identification || clientId == null) return fail(m.eventId, 'CLIENT_NOT_FOUND');
    if (entranceItems.length > 1 || (entranceItems[0].quantity ?? 1) !== 1) {
      return fail(m.eventId, 'VALIDATION_ERROR', { path: 'items', message: 'oneEntrance' });
    }
    const d = await processEntrance(
      db,
      null,
      { clubId: link.clubId, terminalId: link.terminalId, identification: m.identification, at: new Date() },
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
    offer = d.paymentRequired;
    gateRow = d.row;
  }

  const items: PurchaseItemInput[] = m.items.map((i) => ({
    ...i,
    name: i.name ?? '',
    quantity: i.quantity ?? 1,
    unitPrice: i.itemType === PurchaseItemType.Entrance ? offer : (i.unitPrice ?? 0),
  }));
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

  const toPayments = async (amounts: number[]): Promise<PaymentInput[] | ServerPurchaseResult> => {
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
  };

  let cashState: Awaited<ReturnType<typeof settleCashSession>> | undefined;
  let logId = 0;
  const at = new Date();
  const purchase = async (payments: PaymentInput[]) =>
    createPurchase(db, provider, {
      clubId: link.clubId,
      clientId,
      items,
      payments,
      isAdminUser: false,
      source: 'terminal',
      terminalId: link.terminalId,
      idempotencyKey: key,
      at,
      inTransaction: async (tx, p) => {
        const cash = payments.find((x) => x.method === PaymentMethod.Cash);
        if (cash && cashSession) {
          cashState = await settleCashSession(tx, link, {
            sessionId: cashSession.sessionId,
            due: cash.amount,
            inserted: cashSession.inserted,
            purchaseId: p.id,
          });
        }
        if (gateRow) {
          const [log] = await tx
            .insert(entranceLogs)
            .values({
              clubId: link.clubId,
              terminalId: link.terminalId,
              clientId,
              groupId,
              at,
              status: EntranceStatus.Approved,
              reason: Reason.EntryByPayment,
              identificationKind: m.identification!.kind,
              amount: offer,
              paymentType: EntrancePaymentType.None,
              eventId: m.eventId,
              purchaseId: p.id,
            })
            .returning({ id: entranceLogs.id });
          logId = log.id;
        }
      },
    });

  try {
    let amounts = m.payments.map((p) => p.amount ?? 0);
    let payments = await toPayments(amounts);
    if (!Array.isArray(payments)) return payments;
    let result;
    try {
      result = await purchase(payments);
    } catch (err) {
      // One payment without an amount: the total createPurchase expects (fee, rounding included).
      const expected = (err as AppError).details as { expected?: number } | undefined;
      if (!(err instanceof AppError) || err.code !== 'PAYMENTS_DO_NOT_MATCH_TOTAL' || m.payments[0].amount != null)
        throw err;
      amounts = [expected?.expected ?? 0];
      payments = await toPayments(amounts);
      if (!Array.isArray(payments)) return payments;
      result = await purchase(payments);
    }
    const change = cashState?.change?.amount;
    if (gateRow && logId > 0) {
      bus?.publish('entrance', {
        clubId: link.clubId,
        row: {
          ...gateRow,
          id: logId,
          at: at.toISOString(),
          status: EntranceStatus.Approved,
          reason: Reason.EntryByPayment,
          amount: offer,
          paymentType: EntrancePaymentType.None,
        },
      });
    }
    return answer(db, link, m.eventId, result.id, {
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
      ...(gateRow ? { decision: await approved(db, link) } : {}),
    });
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    if (gateRow) {
      // A failed payment at the gate is recorded as the entrance's refusal (status 9, reason 27).
      const [log] = await db
        .insert(entranceLogs)
        .values({
          clubId: link.clubId,
          terminalId: link.terminalId,
          clientId,
          groupId,
          at,
          status: EntranceStatus.PaymentError,
          reason: Reason.PaymentError,
          identificationKind: m.identification!.kind,
          eventId: m.eventId,
        })
        .onConflictDoNothing({ target: [entranceLogs.terminalId, entranceLogs.eventId] })
        .returning({ id: entranceLogs.id });
      if (log) {
        bus?.publish('entrance', {
          clubId: link.clubId,
          row: { ...gateRow, id: log.id, at: at.toISOString(), status: 9, reason: Reason.PaymentError, amount: 0 },
        });
      }
      return fail(m.eventId, err.code, err.details, paymentFailed());
    }
    return fail(m.eventId, err.code, err.details);
  }
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
