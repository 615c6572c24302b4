import { and, eq, gte, inArray, isNull, sql } from 'drizzle-orm';
import {
  LOW_LICENSE_THRESHOLD,
  nothingPaid,
  PaymentMethod,
  paymentTotals,
  PurchaseItemType,
  PurchasePayer,
  PurchasePaymentStatus,
  subscriptionDates,
  type CheckedPurchase,
  type PaymentTotals,
  type PricedLine,
} from '@venue/domain';
import type { Db, Tx } from '../../db/index.js';
import { queryRow } from '../../db/query.js';
import {
  charges,
  clients,
  clubs,
  debts,
  invoiceCounters,
  purchaseItems,
  purchasePayments,
  purchases,
} from '../../db/schema.js';
import { scoped } from '../../lib/scoped.js';
import { audit } from '../../lib/audit.js';
import { AppError, notFound } from '../../lib/errors.js';
import { validationError } from '../../lib/validation.js';
import { purchaseLockSql, type ChargeRow } from '../../integrations/clearing/charges.js';
import { closeMasavSale } from '../debts/debts.service.js';
import { writeLedger, type LedgerEntry } from './ledger.js';
import type { CardCharges } from './purchase-charge.js';
import type { PurchaseCommand, PurchaseContext } from './purchase-context.js';
import { purchaseIdByKey } from './purchase-present.js';

/**
 * The write step of a purchase, in one transaction (docs/money.md): take the
 * purchase key's advisory lock, lock the client and the payer, debit the
 * balances (guarded: never below zero under concurrency), apply the items
 * (subscription dates, money loads with the group's bonus, debt payments,
 * licenses from the club's pool), take the next invoice number of the club
 * (no gaps) and write the purchase, its items, payments, ledger rows, a
 * MASAV debt and the audit row. Amounts in agorot.
 */

interface Locked {
  balance: number;
  tempBalance: number;
  licenseExpiry: string | null;
}

/** Everything the write step needs: the command, what was read, the check's result and the charges. */
export interface PurchaseToWrite {
  cmd: PurchaseCommand;
  ctx: PurchaseContext;
  checked: CheckedPurchase;
  charges: CardCharges;
}

/** What the items did to the client while the transaction runs. */
interface ItemsState {
  locked: Map<number, Locked>;
  ledger: LedgerEntry[];
  warnings: string[];
  /** Money loaded onto the client's balance (loads and bonuses, agorot). */
  loaded: number;
}

/**
 * Writes a checked, charged purchase.
 * @returns the purchase id (a duplicate's, when one with the key committed first) and its warnings (LICENSES_LOW).
 * @throws AppError PAYMENT_ERROR reason 'reconciled' (a charge was taken as an orphan), NOT_FOUND (client),
 *   NOT_ENOUGH_BALANCE (details.kind 'money' | 'temp'), NOT_ENOUGH_LICENSES, VALIDATION_ERROR
 *   (dateRangeOrder, debtAmountTooHigh).
 */
export async function writePurchase(db: Db, w: PurchaseToWrite): Promise<{ purchaseId: number; warnings: string[] }> {
  const warnings: string[] = [];
  const purchaseId = await db.transaction(async (tx) => {
    const dup = await claimKey(tx, w.cmd, w.charges.charged);
    if (dup != null) return dup;
    const { cmd, ctx, checked } = w;
    const client = ctx.client;
    const payerId = checked.payerId;
    const locked = await lockClients(tx, cmd.clubId, [client?.id, payerId]);
    const totals = paymentTotals(cmd.payments);
    const state: ItemsState = { locked, ledger: await debitBalances(tx, payerId, totals), warnings, loaded: 0 };
    const itemRows: (typeof purchaseItems.$inferInsert)[] = [];
    for (const line of checked.lines) itemRows.push(await applyItem(tx, w, line, state));
    await creditBalances(tx, client?.id ?? null, state);
    const payer = payerId != null ? locked.get(payerId)! : { balance: 0, tempBalance: 0 };
    const sameClient = client?.id === payerId;
    const id = await insertPurchase(tx, w, totals, {
      balanceBefore: payer.balance,
      balanceAfter: payerId != null ? payer.balance - totals.paidBeats + (sameClient ? state.loaded : 0) : 0,
      tempBalanceBefore: payer.tempBalance,
      tempBalanceAfter: payer.tempBalance - totals.paidTemp,
    });
    await insertPurchaseDetails(tx, w, id, itemRows, state.ledger);
    return id.purchaseId;
  });
  return { purchaseId, warnings };
}

/**
 * One purchase per key at a time: a duplicate waits on the key's advisory lock for the first
 * to commit or fail, then finds its purchase and answers it (no balance or debt check runs twice).
 * @returns the id of the purchase already made with the key, or null.
 * @throws AppError PAYMENT_ERROR reason 'reconciled' when the reconciliation took a charge as an
 *   orphan (this request stalled past the orphan wait, ORPHAN_CHARGE_SECONDS) and is refunding it.
 */
async function claimKey(tx: Tx, cmd: PurchaseCommand, charged: ChargeRow[]): Promise<number | null> {
  await tx.execute(purchaseLockSql(cmd.clubId, cmd.idempotencyKey));
  const dup = await purchaseIdByKey(tx, cmd.clubId, cmd.idempotencyKey);
  if (dup != null) return dup;
  if (charged.length) {
    const ids = charged.map((c) => c.id);
    const live = await tx
      .select({ id: charges.id })
      .from(charges)
      .where(and(inArray(charges.id, ids), eq(charges.status, 'approved')));
    if (live.length !== charged.length) throw new AppError('PAYMENT_ERROR', 'Payment error', { reason: 'reconciled' });
  }
  return null;
}

/**
 * Locks the client and the payer rows (in id order, no deadlock) so that balances before/after are
 * exact and no concurrent spend interleaves; returns their balances (agorot) and license expiry.
 * @throws AppError NOT_FOUND (client)
 */
async function lockClients(tx: Tx, clubId: number, ids: (number | null | undefined)[]): Promise<Map<number, Locked>> {
  const lockIds = [...new Set(ids.filter((x): x is number => x != null))].sort((a, b) => a - b);
  const locked = new Map<number, Locked>();
  for (const id of lockIds) {
    const row = await queryRow<{ balance: number; temp_balance: number; license_expiry: string | null }>(
      tx,
      sql`select balance, temp_balance, license_expiry from clients where id = ${id} and club_id = ${clubId} for update`,
    );
    if (!row) throw notFound('client');
    locked.set(id, {
      balance: Number(row.balance),
      tempBalance: Number(row.temp_balance),
      licenseExpiry: row.license_expiry ? String(row.license_expiry).slice(0, 10) : null,
    });
  }
  return locked;
}

/**
 * Takes the beats (money balance) and temporary-credit payments from the payer, each guarded by
 * `balance >= amount`; returns their ledger entries.
 * @throws AppError NOT_ENOUGH_BALANCE (details.kind 'money' or 'temp')
 */
async function debitBalances(tx: Tx, payerId: number | null, totals: PaymentTotals): Promise<LedgerEntry[]> {
  const ledger: LedgerEntry[] = [];
  const debit = async (kind: 'money' | 'temp', amount: number) => {
    if (amount <= 0) return;
    const column = kind === 'money' ? clients.balance : clients.tempBalance;
    const set =
      kind === 'money' ? { balance: sql`${column} - ${amount}` } : { tempBalance: sql`${column} - ${amount}` };
    const ok = await tx
      .update(clients)
      .set(set)
      .where(and(eq(clients.id, payerId!), gte(column, amount)))
      .returning({ id: clients.id });
    if (!ok.length) throw new AppError('NOT_ENOUGH_BALANCE', 'Not enough balance', { kind });
    ledger.push({ clientId: payerId!, kind, delta: -amount, source: 'purchase' });
  };
  await debit('money', totals.paidBeats);
  await debit('temp', totals.paidTemp);
  return ledger;
}

/** Applies one line to the client (by item type) and returns its purchase_items row. */
async function applyItem(
  tx: Tx,
  w: PurchaseToWrite,
  line: PricedLine,
  state: ItemsState,
): Promise<typeof purchaseItems.$inferInsert> {
  const it = line.input;
  let applied: { expiry: string | null; details: Record<string, unknown> | null } = { expiry: null, details: null };
  if (it.itemType === PurchaseItemType.ChargingMoney) applied = loadMoney(w, line, state);
  else if (it.itemType === PurchaseItemType.NewSubscription) applied = await applySubscription(tx, w, line, state);
  else if (it.itemType === PurchaseItemType.PayDebt) await payDebt(tx, w, line);
  else if (it.itemType === PurchaseItemType.License) applied = await addLicense(tx, w, line, state);
  return {
    clubId: w.cmd.clubId,
    purchaseId: 0,
    itemType: it.itemType,
    itemId: it.itemId ?? null,
    name: it.name,
    quantity: it.quantity,
    unitPrice: it.unitPrice,
    priceWithVat: line.priceWithVat,
    amountBeforeVat: line.amountBeforeVat,
    ...applied,
  };
}

/** A money load: the amount plus the group's bonus percentage (seed 001 §3 group bonus, floored to the agora). */
function loadMoney(w: PurchaseToWrite, line: PricedLine, state: ItemsState) {
  const clientId = w.ctx.client!.id;
  const amount = line.priceWithVat;
  state.ledger.push({ clientId, kind: 'money', delta: amount, source: 'purchase' });
  // The change a terminal owed is the client's own money, not a load that earns the group's bonus.
  const rate = w.cmd.source === 'payoutError' ? 0 : (w.ctx.group?.bonus ?? 0);
  const bonus = Math.floor((amount * rate) / 100);
  if (bonus > 0) state.ledger.push({ clientId, kind: 'money', delta: bonus, source: 'bonus' });
  state.loaded += amount + Math.max(0, bonus);
  return { expiry: null, details: { bonus } };
}

/**
 * A subscription (seed 001 §4): from the given start, or the day after the current one ends (or
 * today), to the given end or the end the period and the group's end type give; a renewal that
 * continues the current subscription keeps its start date. Kala subscriptions add immersions.
 * @throws AppError VALIDATION_ERROR dateRangeOrder (end before start)
 */
async function applySubscription(tx: Tx, w: PurchaseToWrite, line: PricedLine, state: ItemsState) {
  const { ctx } = w;
  const it = line.input;
  const sub = it.subscription!;
  const clientId = ctx.client!.id;
  const endType = ctx.group?.subscriptionEndType ?? 4;
  const [cur] = await tx
    .select({ start: clients.subscriptionStart, end: clients.subscriptionEnd })
    .from(clients)
    .where(eq(clients.id, clientId));
  const { start, end } = subscriptionDates(
    ctx.today,
    cur.end,
    { period: sub.period, endType, daysToExtend: ctx.group?.daysToExtend ?? 0, unlimited: sub.unlimited },
    { start: sub.start, end: sub.end },
  );
  if (end < start) throw validationError([{ path: 'purchaseItems', message: 'dateRangeOrder' }]);
  const newStart = cur.end && cur.start && cur.end >= plusDays(start, -1) && cur.start <= start ? cur.start : start;
  await tx.update(clients).set({ subscriptionStart: newStart, subscriptionEnd: end }).where(eq(clients.id, clientId));
  const immersions = sub.kala ? (sub.immersions ?? ctx.settings.subscriptionTvilotKalaQty) : null;
  if (immersions) state.ledger.push({ clientId, kind: 'subscription', delta: immersions, source: 'purchase' });
  const details = {
    period: sub.period,
    usageType: sub.usageType,
    unlimited: sub.unlimited,
    kala: sub.kala,
    immersions,
    start,
    end,
    endType,
    // The rate the next automatic renewal charges: set by a renewal (what it prorated from), else this sale's price.
    monthlyPrice: sub.monthlyPrice ?? it.unitPrice,
  };
  return { expiry: end, details };
}

/**
 * Pays (part of) a debt of the client, never above what is left of it. A debt the bank is
 * collecting (in a sent MASAV file whose return was not read) is not paid at the desk: the client
 * would pay twice. A debt of a MASAV sale the bank did not collect is paid in full, and the MASAV
 * sale is closed (Cancelled): this purchase's document takes the money, with its income and VAT,
 * once (docs/money.md "MASAV: rejected, then paid another way").
 * @throws AppError VALIDATION_ERROR debtAmountTooHigh (also: not the client's, deleted),
 *   debtInCollection, masavDebtPayInFull
 */
async function payDebt(tx: Tx, w: PurchaseToWrite, line: PricedLine): Promise<void> {
  const amount = line.priceWithVat;
  const ok = await tx
    .update(debts)
    .set({ paid: sql`${debts.paid} + ${amount}` })
    .where(
      scoped(tx, w.cmd.clubId).live(
        debts,
        eq(debts.id, line.input.itemId!),
        eq(debts.clientId, w.ctx.client!.id),
        sql`${debts.paid} + ${amount} <= ${debts.amount}`,
        isNull(debts.masavFileId),
      ),
    )
    .returning({ id: debts.id, purchaseId: debts.purchaseId, amount: debts.amount, paid: debts.paid });
  if (!ok.length) {
    const [d] = await tx
      .select({ fileId: debts.masavFileId })
      .from(debts)
      .where(scoped(tx, w.cmd.clubId).where(debts, eq(debts.id, line.input.itemId!)));
    const message = d?.fileId != null ? 'debtInCollection' : 'debtAmountTooHigh';
    throw validationError([{ path: 'purchaseItems', message }]);
  }
  const d = ok[0];
  if (d.purchaseId != null && (await closeMasavSale(tx, w.cmd.clubId, d.purchaseId)) && d.paid < d.amount)
    throw validationError([{ path: 'purchaseItems', message: 'masavDebtPayInFull' }]);
}

/**
 * Licenses (seed 001 §7): `quantity` years from the club's pool, added to the client's license
 * from its expiry (or today when expired); LICENSES_LOW warns when the pool falls below
 * LOW_LICENSE_THRESHOLD.
 * @throws AppError NOT_ENOUGH_LICENSES
 */
async function addLicense(tx: Tx, w: PurchaseToWrite, line: PricedLine, state: ItemsState) {
  const { quantity } = line.input;
  const clientId = w.ctx.client!.id;
  const ok = await tx
    .update(clubs)
    .set({ licensesAmount: sql`${clubs.licensesAmount} - ${quantity}` })
    .where(and(eq(clubs.id, w.cmd.clubId), gte(clubs.licensesAmount, quantity)))
    .returning({ left: clubs.licensesAmount });
  if (!ok.length) throw new AppError('NOT_ENOUGH_LICENSES', 'Not enough licenses');
  if (ok[0].left < LOW_LICENSE_THRESHOLD) state.warnings.push('LICENSES_LOW');
  const cur = state.locked.get(clientId)!.licenseExpiry;
  const from = cur && cur > w.ctx.today ? cur : w.ctx.today;
  const expiry = plusYears(from, quantity);
  await tx.update(clients).set({ licenseExpiry: expiry }).where(eq(clients.id, clientId));
  return { expiry, details: null };
}

/** Credits the money loads and the kala immersions to the client (their ledger entries are written with the purchase). */
async function creditBalances(tx: Tx, clientId: number | null, state: ItemsState): Promise<void> {
  if (state.loaded > 0) {
    await tx
      .update(clients)
      .set({ balance: sql`${clients.balance} + ${state.loaded}` })
      .where(eq(clients.id, clientId!));
  }
  const immersions = state.ledger.filter((l) => l.kind === 'subscription').reduce((s, l) => s + l.delta, 0);
  if (immersions > 0) {
    await tx
      .update(clients)
      .set({ subscriptionBalance: sql`${clients.subscriptionBalance} + ${immersions}` })
      .where(eq(clients.id, clientId!));
  }
}

const PAYER_CODE = { client: PurchasePayer.Client, parent: PurchasePayer.Parent, manager: PurchasePayer.Manager };

/** Takes the club's next invoice number (no gaps; the counter row is locked until commit) and inserts the purchase row. */
async function insertPurchase(
  tx: Tx,
  w: PurchaseToWrite,
  totals: PaymentTotals,
  balances: { balanceBefore: number; balanceAfter: number; tempBalanceBefore: number; tempBalanceAfter: number },
): Promise<{ purchaseId: number; invoiceNumber: number | null }> {
  const { cmd, ctx, checked, charges: paid } = w;
  // The invoice number: last step before the insert, so the counter row is locked briefly. A MASAV
  // payment gets its number (and its tax invoice-receipt) only when collected; a purchase where
  // nothing is paid (Free, ₪0) gets none at all (docs/money.md "Documents", "Nothing paid").
  const counter =
    totals.paidMasav > 0 || nothingPaid(cmd.payments)
      ? { last: null }
      : (
          await tx
            .insert(invoiceCounters)
            .values({ clubId: cmd.clubId, last: 1 })
            .onConflictDoUpdate({ target: invoiceCounters.clubId, set: { last: sql`${invoiceCounters.last} + 1` } })
            .returning({ last: invoiceCounters.last })
        )[0];
  const lastFour =
    paid.charged[0]?.lastFour ?? cmd.payments.find((p) => p.method === PaymentMethod.CreditCardEmv)?.lastFour ?? '';
  const [purchase] = await tx
    .insert(purchases)
    .values({
      clubId: cmd.clubId,
      clientId: ctx.client?.id ?? null,
      at: ctx.at,
      invoiceNumber: counter.last,
      total: checked.total,
      amountBeforeVat: checked.amountBeforeVat,
      vat: checked.vat,
      vatRateBp: ctx.vatRateBp,
      paymentStatus: totals.paidMasav > 0 ? PurchasePaymentStatus.Pending : PurchasePaymentStatus.Paid,
      ...balances,
      paidCash: totals.paidCash,
      paidCredit: totals.paidCredit,
      paidBeats: totals.paidBeats,
      paidTemp: totals.paidTemp,
      paidOther: totals.paidOther,
      fee: checked.fee,
      lastFour,
      excess: totals.excess,
      rounding: checked.rounding,
      payer: PAYER_CODE[ctx.payerKind],
      payerClientId: ctx.payerKind === 'parent' ? checked.payerId : null,
      isAdminUser: cmd.isAdminUser,
      source: cmd.source,
      userId: cmd.userId ?? null,
      terminalId: cmd.terminalId ?? null,
      idempotencyKey: cmd.idempotencyKey,
    })
    .returning({ id: purchases.id });
  return { purchaseId: purchase.id, invoiceNumber: counter.last };
}

/**
 * Writes the purchase's items, payments (with their charges), ledger rows, the MASAV debt the
 * next MASAV file collects (modules/masav), the audit row (staff) and runs `cmd.inTransaction`.
 */
async function insertPurchaseDetails(
  tx: Tx,
  w: PurchaseToWrite,
  ids: { purchaseId: number; invoiceNumber: number | null },
  itemRows: (typeof purchaseItems.$inferInsert)[],
  ledger: LedgerEntry[],
): Promise<void> {
  const { cmd, ctx, checked } = w;
  const { purchaseId, invoiceNumber } = ids;
  const byPayment = w.charges.byPayment;
  await tx.insert(purchaseItems).values(itemRows.map((r) => ({ ...r, purchaseId })));
  await tx.insert(purchasePayments).values(
    cmd.payments.map((p, k) => ({
      clubId: cmd.clubId,
      purchaseId,
      method: p.method,
      amount: p.amount,
      chargeId: byPayment.get(k)?.id ?? null,
      lastFour: byPayment.get(k)?.lastFour ?? p.lastFour ?? '',
    })),
  );
  await writeLedger(tx, cmd.clubId, ledger, { sourceId: purchaseId, at: ctx.at, userId: cmd.userId });
  const masav = paymentTotals(cmd.payments).paidMasav;
  if (masav > 0) {
    await tx.insert(debts).values({
      clubId: cmd.clubId,
      clientId: checked.payerId!,
      amount: masav,
      description: `MASAV #${purchaseId}`,
      source: 'masav',
      purchaseId,
      userId: cmd.userId ?? null,
      createdAt: ctx.at,
    });
  }
  if (cmd.actor) {
    await audit(tx, cmd.actor, {
      action: 'purchase',
      entity: 'purchase',
      entityId: purchaseId,
      after: { clientId: ctx.client?.id ?? null, invoiceNumber, total: checked.total },
    });
  }
  if (cmd.inTransaction) await cmd.inTransaction(tx, { id: purchaseId, invoiceNumber, total: checked.total });
}

/** An ISO date `days` later (negative: earlier). */
function plusDays(iso: string, days: number): string {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** An ISO date `years` later; 29 February becomes 28 February in a common year. */
function plusYears(iso: string, years: number): string {
  const [y, m, d] = iso.split('-').map(Number);
  const t = new Date(Date.UTC(y + years, m - 1, d));
  if (t.getUTCDate() !== d) t.setUTCDate(0);
  return t.toISOString().slice(0, 10);
}
