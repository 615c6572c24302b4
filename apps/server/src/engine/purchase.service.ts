import { and, asc, eq, gte, inArray, ne, sql } from 'drizzle-orm';
import type { Actor } from '../lib/actor.js';
import {
  ClientStatus,
  isoDate,
  localParts,
  LOW_LICENSE_THRESHOLD,
  PAYMENT_METHOD_BEATS,
  PaymentMethod,
  PurchaseItemType,
  PurchasePayer,
  PurchasePaymentStatus,
  subscriptionEnd,
  subscriptionStart,
  vatRateBasisPoints,
  type PaymentInput,
  type Purchase,
  type PurchaseItemInput,
} from '@venue/domain';
import type { Db, Tx } from '../db/index.js';
import {
  balanceLedger,
  charges,
  clients,
  clubs,
  debts,
  groups,
  invoiceCounters,
  paymentMethods,
  products,
  purchaseItems,
  purchasePayments,
  purchases,
} from '../db/schema.js';
import { audit } from '../lib/audit.js';
import { AppError, notFound } from '../lib/errors.js';
import { pgError, validationError } from '../lib/validation.js';
import {
  chargeOnce,
  linkCharges,
  purchaseLockSql,
  refundCharge,
  type ChargeRow,
} from '../integrations/clearing/charges.js';
import { expiryValid, type ClearingProvider } from '../integrations/clearing/provider.js';
import { clubLocation, clubSettings } from '../modules/club/club.service.js';
import { isCardMethod, pricePurchase } from './purchase.js';

/**
 * Purchases (seed 000 §3, seed 001 §3; DESIGN §7): the one way money comes
 * in, from the console (POST /api/Client/AdminPurchase), from terminals
 * (kiosk purchases: call `createPurchase` with source 'terminal'), from
 * automatic renewal and from license orders. See docs/money.md.
 */

export interface PurchaseCommand {
  clubId: number;
  /** The client buying; null for an anonymous kiosk purchase (cash/card only, no balance items). */
  clientId: number | null;
  items: PurchaseItemInput[];
  payments: PaymentInput[];
  payer?: 'client' | 'parent' | 'manager';
  /** A staff user at the console (seed 000 §3 IsAdminUser): may give Free and set prices. */
  isAdminUser: boolean;
  source: 'console' | 'terminal' | 'autorenew' | 'license';
  userId?: number | null;
  terminalId?: number | null;
  /** Required: a retry with the same key answers the first purchase and charges nothing again. */
  idempotencyKey: string;
  /** When the purchase happens (default now): the tax event, so it picks the VAT rate. */
  at?: Date;
  /** Staff request, for the audit row. */
  actor?: Actor;
  /**
   * Runs inside the purchase's transaction after its rows are written, so both commit or neither:
   * the gate writes the paid entrance's log row (OpenWithPay), a terminal's cash session is
   * completed. Throwing rolls the purchase back (a charged card is refunded).
   */
  inTransaction?: (tx: Tx, purchase: { id: number; invoiceNumber: number; total: number }) => Promise<void>;
}

type PurchaseRow = typeof purchases.$inferSelect;

/** Maps a purchase row (with items and payments) to the API shape; the only place that does. */
export function presentPurchase(
  p: PurchaseRow,
  items: (typeof purchaseItems.$inferSelect)[],
  pays: (typeof purchasePayments.$inferSelect)[],
  warnings: string[] = [],
): Purchase {
  return {
    id: p.id,
    at: p.at.toISOString(),
    clientId: p.clientId,
    invoiceNumber: p.invoiceNumber,
    total: p.total,
    amountBeforeVat: p.amountBeforeVat,
    vat: p.vat,
    vatRateBp: p.vatRateBp,
    paymentStatus: p.paymentStatus,
    balanceBefore: p.balanceBefore,
    balanceAfter: p.balanceAfter,
    tempBalanceBefore: p.tempBalanceBefore,
    tempBalanceAfter: p.tempBalanceAfter,
    paidCash: p.paidCash,
    paidCredit: p.paidCredit,
    paidBeats: p.paidBeats,
    paidTemp: p.paidTemp,
    paidOther: p.paidOther,
    fee: p.fee,
    lastFour: p.lastFour,
    excess: p.excess,
    change: 0,
    payer: p.payer,
    source: p.source,
    items: items.map(presentItem),
    payments: pays.map((x) => ({ method: x.method, amount: x.amount, lastFour: x.lastFour })),
    warnings,
  };
}

export function presentItem(i: typeof purchaseItems.$inferSelect) {
  return {
    id: i.id,
    itemType: i.itemType,
    itemId: i.itemId,
    name: i.name,
    quantity: i.quantity,
    unitPrice: i.unitPrice,
    priceWithVat: i.priceWithVat,
    amountBeforeVat: i.amountBeforeVat,
    expiry: i.expiry,
    details: (i.details as Record<string, unknown> | null) ?? null,
  };
}

/** A purchase of the club with its items and payments; 404 when not the club's. */
export async function getPurchase(db: Db | Tx, clubId: number, id: number): Promise<Purchase> {
  const [p] = await db
    .select()
    .from(purchases)
    .where(and(eq(purchases.clubId, clubId), eq(purchases.id, id)));
  if (!p) throw notFound('purchase');
  const [items, pays] = await Promise.all([
    db.select().from(purchaseItems).where(eq(purchaseItems.purchaseId, id)).orderBy(asc(purchaseItems.id)),
    db.select().from(purchasePayments).where(eq(purchasePayments.purchaseId, id)).orderBy(asc(purchasePayments.id)),
  ]);
  return presentPurchase(p, items, pays);
}

async function findByKey(db: Db, clubId: number, key: string): Promise<Purchase | null> {
  const [p] = await db
    .select({ id: purchases.id })
    .from(purchases)
    .where(and(eq(purchases.clubId, clubId), eq(purchases.idempotencyKey, key)));
  return p ? getPurchase(db, clubId, p.id) : null;
}

/** The club's local date of an instant. */
export function clubToday(location: unknown, at: Date): string {
  const tz = clubLocation({ location: location as never }).timeZone;
  return isoDate(localParts(at, tz));
}

function plusYears(iso: string, years: number): string {
  const [y, m, d] = iso.split('-').map(Number);
  const t = new Date(Date.UTC(y + years, m - 1, d));
  if (t.getUTCDate() !== d) t.setUTCDate(0); // 29 Feb → 28 Feb
  return t.toISOString().slice(0, 10);
}

/**
 * Makes a purchase: checks the items and payments, charges cards through the
 * clearing provider (idempotent per payment), then in one transaction debits
 * the money and temporary balances (guarded: never below zero under
 * concurrency), applies the items (subscription dates, money loads with the
 * group's bonus, debt payments, licenses from the club's pool), takes the
 * next invoice number of the club (no gaps) and writes the purchase, its
 * items, payments and ledger rows. If the transaction fails after a card was
 * charged, the charge is refunded.
 *
 * Rules: seed 000 §3 (item types, payment methods, fee types), seed 001 §3
 * (stored fields, group bonus, min/max charge), DOMAIN-FACTS (VAT by date,
 * cash rounding). Amounts in minor units.
 *
 * @throws AppError NOT_FOUND (client, debt, product), VALIDATION_ERROR,
 *   PAYMENTS_DO_NOT_MATCH_TOTAL, CHARGE_AMOUNT_OUT_OF_RANGE, NOT_ENOUGH_BALANCE,
 *   NO_PAYMENT_METHOD, INVALID_EXPIRATION_DATE, PAYMENT_ERROR (declined or
 *   uncertain; details.reason), NOT_ENOUGH_LICENSES, PURCHASES_NOT_ALLOWED.
 */
export async function createPurchase(db: Db, provider: ClearingProvider, cmd: PurchaseCommand): Promise<Purchase> {
  const existing = await findByKey(db, cmd.clubId, cmd.idempotencyKey);
  if (existing) return existing;
  try {
    return await purchaseOnce(db, provider, cmd);
  } catch (err) {
    // Duplicate requests with one key (issue 12 finding 3): the one that lost the race fails
    // a check the winner's purchase made untrue (balance spent, debt paid). It answers the
    // winner's purchase, never an error for a purchase that went through.
    const done = await findByKey(db, cmd.clubId, cmd.idempotencyKey);
    if (done) return done;
    throw err;
  }
}

/** One attempt of createPurchase, after the idempotency key was found unused. */
async function purchaseOnce(db: Db, provider: ClearingProvider, cmd: PurchaseCommand): Promise<Purchase> {
  const at = cmd.at ?? new Date();

  const [club] = await db.select().from(clubs).where(eq(clubs.id, cmd.clubId));
  if (!club) throw notFound('club');
  const settings = clubSettings(club);
  const today = clubToday(club.location, at);

  // --- who buys, who pays
  let client: typeof clients.$inferSelect | null = null;
  let group: typeof groups.$inferSelect | null = null;
  if (cmd.clientId != null) {
    const [r] = await db
      .select({ c: clients, g: groups })
      .from(clients)
      .leftJoin(groups, eq(groups.id, clients.groupId))
      .where(
        and(eq(clients.clubId, cmd.clubId), eq(clients.id, cmd.clientId), ne(clients.status, ClientStatus.Deleted)),
      );
    if (!r) throw notFound('client');
    client = r.c;
    group = r.g;
  }
  const payerKind = cmd.payer ?? 'client';
  let payerId = client?.id ?? null;
  if (payerKind === 'parent') {
    if (!client?.parentId) throw validationError([{ path: 'payer', message: 'noParent' }]);
    payerId = client.parentId;
  }
  if (group && !group.allowPurchases && !cmd.isAdminUser) throw new AppError('PURCHASES_NOT_ALLOWED');

  // --- items
  const items: PurchaseItemInput[] = [];
  for (const [k, it] of cmd.items.entries()) {
    const item = { ...it };
    const needsClient = item.itemType !== PurchaseItemType.Product && item.itemType !== PurchaseItemType.Towel;
    if (needsClient && item.itemType !== PurchaseItemType.Entrance && !client) {
      throw validationError([{ path: `purchaseItems.${k}.itemType`, message: 'clientRequired' }]);
    }
    if (item.itemType === PurchaseItemType.Product && item.itemId != null) {
      const [p] = await db
        .select()
        .from(products)
        .where(and(eq(products.clubId, cmd.clubId), eq(products.id, item.itemId), eq(products.deleted, false)));
      if (!p || !p.active) throw notFound('product');
      if (!cmd.isAdminUser) item.unitPrice = p.price;
      if (!item.name) item.name = p.displayName || p.name;
      if (p.maxQuantity > 0 && item.quantity > p.maxQuantity) {
        throw validationError([{ path: `purchaseItems.${k}.quantity`, message: 'maxQuantity' }]);
      }
    }
    if (item.itemType === PurchaseItemType.ChargingMoney) {
      const amount = item.quantity * item.unitPrice;
      const mins = [settings.minChargeAmount, group?.minChargeAmount ?? 0].filter((v) => v > 0);
      const maxs = [settings.maxChargeAmount, group?.maxChargeAmount ?? 0].filter((v) => v > 0);
      if (amount <= 0 || mins.some((m) => amount < m) || maxs.some((m) => amount > m)) {
        throw new AppError('CHARGE_AMOUNT_OUT_OF_RANGE', 'Charge amount out of range', {
          min: mins.length ? Math.max(...mins) : 0,
          max: maxs.length ? Math.min(...maxs) : 0,
        });
      }
    }
    if (item.itemType === PurchaseItemType.NewSubscription) {
      if (!item.subscription) throw validationError([{ path: `purchaseItems.${k}.subscription`, message: 'required' }]);
      if (item.subscription.kala && !settings.isKalaSubscriptionEnabled) {
        throw validationError([{ path: `purchaseItems.${k}.subscription.kala`, message: 'kalaNotEnabled' }]);
      }
    }
    if (item.itemType === PurchaseItemType.PayDebt && item.itemId == null) {
      throw validationError([{ path: `purchaseItems.${k}.itemId`, message: 'required' }]);
    }
    items.push(item);
  }

  // --- payments
  for (const [k, p] of cmd.payments.entries()) {
    const bad = (message: string) => validationError([{ path: `payments.${k}`, message }]);
    if (p.method === PaymentMethod.Free && !cmd.isAdminUser) throw bad('freeNotAllowed');
    if ((p.method === PAYMENT_METHOD_BEATS || p.method === PaymentMethod.TempCredit) && payerId == null) {
      throw bad('clientRequired');
    }
    if (p.method === PAYMENT_METHOD_BEATS && items.some((i) => i.itemType === PurchaseItemType.ChargingMoney)) {
      throw bad('beatsCannotLoadBeats');
    }
    if (p.method === PaymentMethod.CreditCard && !p.card) throw bad('cardRequired');
    if (p.method === PaymentMethod.CreditCard && p.card && !expiryValid(p.card.expiry, at)) {
      throw new AppError('INVALID_EXPIRATION_DATE', 'Invalid expiration date');
    }
    if (p.method === PaymentMethod.CreditCardEmv && (!p.emvReference || !p.lastFour)) throw bad('emvReferenceRequired');
    if (p.method === PaymentMethod.Cash && p.cashGiven != null && p.cashGiven < p.amount) throw bad('cashGivenTooLow');
  }
  const vatRateBp = vatRateBasisPoints(settings.country, at);
  const priced = pricePurchase(items, cmd.payments, vatRateBp, settings);
  if ('error' in priced) {
    throw new AppError('PAYMENTS_DO_NOT_MATCH_TOTAL', 'Payments do not match the total', { expected: priced.expected });
  }

  // Stored payment methods of the payer (token card / MASAV authorization).
  const stored = payerId
    ? (
        await db
          .select()
          .from(paymentMethods)
          .where(
            and(
              eq(paymentMethods.clubId, cmd.clubId),
              eq(paymentMethods.clientId, payerId),
              eq(paymentMethods.deleted, false),
            ),
          )
      )[0]
    : undefined;
  for (const [k, p] of cmd.payments.entries()) {
    if (p.method === PaymentMethod.CreditCardToken && (!stored || stored.kind !== 'card')) {
      throw new AppError('NO_PAYMENT_METHOD', 'No stored card', { path: `payments.${k}` });
    }
    if (p.method === PaymentMethod.Masav && (!stored || stored.kind !== 'masav')) {
      throw new AppError('NO_PAYMENT_METHOD', 'No MASAV authorization', { path: `payments.${k}` });
    }
    if (p.method === PaymentMethod.Masav && stored && stored.chargeLimit > 0 && p.amount > stored.chargeLimit) {
      throw new AppError('CHARGE_AMOUNT_OUT_OF_RANGE', 'Above the authorization charge limit', {
        max: stored.chargeLimit,
      });
    }
  }

  // --- card charges, before the transaction (each idempotent on its own key)
  const charged: ChargeRow[] = [];
  const chargeFor = new Map<number, ChargeRow>();
  // A charge is shared by every request with the same key (chargeOnce): it is refunded only
  // when no purchase of this key exists — a concurrent duplicate's purchase holds it.
  const giveBack = async () => {
    if (charged.length === 0 || (await findByKey(db, cmd.clubId, cmd.idempotencyKey))) return;
    for (const c of charged) await refundCharge(db, provider, c).catch(() => undefined);
  };
  for (const [k, p] of cmd.payments.entries()) {
    if (p.method !== PaymentMethod.CreditCard && p.method !== PaymentMethod.CreditCardToken) continue;
    if (p.amount === 0) continue;
    let token: string;
    let lastFour: string;
    let brand: string;
    if (p.method === PaymentMethod.CreditCard) {
      const t = await provider.tokenize({ ...p.card!, number: p.card!.number.replace(/\D/g, '') });
      if (!t.ok) {
        await giveBack();
        throw new AppError('PAYMENT_ERROR', 'Payment error', { reason: t.reason });
      }
      ({ token, lastFour, brand } = t);
    } else {
      token = stored!.cardToken!;
      lastFour = stored!.cardLastFour ?? '';
      brand = stored!.cardBrand ?? '';
    }
    const row = await chargeOnce(db, provider, {
      clubId: cmd.clubId,
      clientId: payerId,
      idempotencyKey: `${cmd.idempotencyKey}:p${k}`,
      token,
      amount: p.amount,
      currency: club.currency,
      lastFour,
      brand,
    });
    if (row.status !== 'approved') {
      await giveBack();
      // A concurrent duplicate may have completed the purchase meanwhile.
      const done = await findByKey(db, cmd.clubId, cmd.idempotencyKey);
      if (done) return done;
      throw new AppError('PAYMENT_ERROR', 'Payment error', {
        reason: row.status === 'declined' ? (row.error ?? 'declined') : 'uncertain',
      });
    }
    charged.push(row);
    chargeFor.set(k, row);
  }

  // --- the transaction
  const warnings: string[] = [];
  let purchaseId: number;
  try {
    purchaseId = await db.transaction(async (tx) => {
      // One purchase per key at a time: a duplicate waits here for the first to commit or fail,
      // then finds its purchase and answers it (no balance or debt check runs twice).
      await tx.execute(purchaseLockSql(cmd.clubId, cmd.idempotencyKey));
      const [dup] = await tx
        .select({ id: purchases.id })
        .from(purchases)
        .where(and(eq(purchases.clubId, cmd.clubId), eq(purchases.idempotencyKey, cmd.idempotencyKey)));
      if (dup) return dup.id;
      // A charge the reconciliation took as an orphan (this request stalled past
      // ORPHAN_CHARGE_MINUTES) is being refunded: the purchase cannot keep it.
      if (charged.length) {
        const live = await tx
          .select({ id: charges.id })
          .from(charges)
          .where(
            and(
              inArray(
                charges.id,
                charged.map((c) => c.id),
              ),
              eq(charges.status, 'approved'),
            ),
          );
        if (live.length !== charged.length)
          throw new AppError('PAYMENT_ERROR', 'Payment error', { reason: 'reconciled' });
      }
      // Lock the client and the payer: balances before/after are exact and no concurrent spend interleaves.
      const lockIds = [...new Set([client?.id, payerId].filter((x): x is number => x != null))].sort((a, b) => a - b);
      const locked = new Map<number, { balance: number; tempBalance: number; licenseExpiry: string | null }>();
      for (const id of lockIds) {
        const r = await tx.execute(
          sql`select balance, temp_balance, license_expiry from clients where id = ${id} and club_id = ${cmd.clubId} for update`,
        );
        const row = (
          r as unknown as { rows: { balance: number; temp_balance: number; license_expiry: string | null }[] }
        ).rows[0];
        if (!row) throw notFound('client');
        locked.set(id, {
          balance: Number(row.balance),
          tempBalance: Number(row.temp_balance),
          licenseExpiry: row.license_expiry ? String(row.license_expiry).slice(0, 10) : null,
        });
      }
      const payerState = payerId != null ? locked.get(payerId)! : { balance: 0, tempBalance: 0 };
      const balanceBefore = payerState.balance;
      const tempBefore = payerState.tempBalance;
      const ledger: { clientId: number; kind: string; delta: number; source: string }[] = [];

      const sum = (m: number) => cmd.payments.filter((p) => p.method === m).reduce((s, p) => s + p.amount, 0);
      const beats = sum(PAYMENT_METHOD_BEATS);
      const temp = sum(PaymentMethod.TempCredit);
      if (beats > 0) {
        const ok = await tx
          .update(clients)
          .set({ balance: sql`${clients.balance} - ${beats}` })
          .where(and(eq(clients.id, payerId!), gte(clients.balance, beats)))
          .returning({ id: clients.id });
        if (!ok.length) throw new AppError('NOT_ENOUGH_BALANCE', 'Not enough balance', { kind: 'money' });
        ledger.push({ clientId: payerId!, kind: 'money', delta: -beats, source: 'purchase' });
      }
      if (temp > 0) {
        const ok = await tx
          .update(clients)
          .set({ tempBalance: sql`${clients.tempBalance} - ${temp}` })
          .where(and(eq(clients.id, payerId!), gte(clients.tempBalance, temp)))
          .returning({ id: clients.id });
        if (!ok.length) throw new AppError('NOT_ENOUGH_BALANCE', 'Not enough balance', { kind: 'temp' });
        ledger.push({ clientId: payerId!, kind: 'temp', delta: -temp, source: 'purchase' });
      }

      // Items
      const itemRows: (typeof purchaseItems.$inferInsert)[] = [];
      let loaded = 0;
      for (const line of priced.lines) {
        const it = line.input;
        let expiry: string | null = null;
        let details: Record<string, unknown> | null = null;
        if (it.itemType === PurchaseItemType.ChargingMoney) {
          const amount = line.priceWithVat;
          loaded += amount;
          ledger.push({ clientId: client!.id, kind: 'money', delta: amount, source: 'purchase' });
          const bonus = Math.floor((amount * (group?.bonus ?? 0)) / 100);
          if (bonus > 0) {
            ledger.push({ clientId: client!.id, kind: 'money', delta: bonus, source: 'bonus' });
            loaded += bonus;
          }
          details = { bonus };
        } else if (it.itemType === PurchaseItemType.NewSubscription) {
          const sub = it.subscription!;
          const [cur] = await tx
            .select({ start: clients.subscriptionStart, end: clients.subscriptionEnd })
            .from(clients)
            .where(eq(clients.id, client!.id));
          const start = sub.start ?? subscriptionStart(today, cur.end);
          const end =
            sub.end ??
            subscriptionEnd(start, {
              period: sub.period,
              endType: group?.subscriptionEndType ?? 4,
              daysToExtend: group?.daysToExtend ?? 0,
              unlimited: sub.unlimited,
            });
          if (end < start) throw validationError([{ path: 'purchaseItems', message: 'dateRangeOrder' }]);
          // A renewal that continues the current subscription keeps its start date.
          const newStart =
            cur.end && cur.start && cur.end >= plusDay(start, -1) && cur.start <= start ? cur.start : start;
          await tx
            .update(clients)
            .set({ subscriptionStart: newStart, subscriptionEnd: end })
            .where(eq(clients.id, client!.id));
          const immersions = sub.kala ? (sub.immersions ?? settings.subscriptionTvilotKalaQty) : null;
          if (immersions) {
            ledger.push({ clientId: client!.id, kind: 'subscription', delta: immersions, source: 'purchase' });
          }
          expiry = end;
          details = {
            period: sub.period,
            usageType: sub.usageType,
            unlimited: sub.unlimited,
            kala: sub.kala,
            immersions,
            start,
            end,
            endType: group?.subscriptionEndType ?? 4,
            monthlyPrice: it.unitPrice,
          };
        } else if (it.itemType === PurchaseItemType.PayDebt) {
          const amount = line.priceWithVat;
          const ok = await tx
            .update(debts)
            .set({ paid: sql`${debts.paid} + ${amount}` })
            .where(
              and(
                eq(debts.id, it.itemId!),
                eq(debts.clubId, cmd.clubId),
                eq(debts.clientId, client!.id),
                eq(debts.deleted, false),
                sql`${debts.paid} + ${amount} <= ${debts.amount}`,
              ),
            )
            .returning({ id: debts.id });
          if (!ok.length) throw validationError([{ path: 'purchaseItems', message: 'debtAmountTooHigh' }]);
        } else if (it.itemType === PurchaseItemType.License) {
          const ok = await tx
            .update(clubs)
            .set({ licensesAmount: sql`${clubs.licensesAmount} - ${it.quantity}` })
            .where(and(eq(clubs.id, cmd.clubId), gte(clubs.licensesAmount, it.quantity)))
            .returning({ left: clubs.licensesAmount });
          if (!ok.length) throw new AppError('NOT_ENOUGH_LICENSES', 'Not enough licenses');
          if (ok[0].left < LOW_LICENSE_THRESHOLD) warnings.push('LICENSES_LOW');
          const cur = locked.get(client!.id)!.licenseExpiry;
          const from = cur && cur > today ? cur : today;
          expiry = plusYears(from, it.quantity);
          await tx.update(clients).set({ licenseExpiry: expiry }).where(eq(clients.id, client!.id));
        }
        itemRows.push({
          clubId: cmd.clubId,
          purchaseId: 0,
          itemType: it.itemType,
          itemId: it.itemId ?? null,
          name: it.name,
          quantity: it.quantity,
          unitPrice: it.unitPrice,
          priceWithVat: line.priceWithVat,
          amountBeforeVat: line.amountBeforeVat,
          expiry,
          details,
        });
      }
      // Money loads and immersions: credit the balances (the ledger rows follow).
      if (loaded > 0) {
        await tx
          .update(clients)
          .set({ balance: sql`${clients.balance} + ${loaded}` })
          .where(eq(clients.id, client!.id));
      }
      const immersions = ledger.filter((l) => l.kind === 'subscription').reduce((s, l) => s + l.delta, 0);
      if (immersions > 0) {
        await tx
          .update(clients)
          .set({ subscriptionBalance: sql`${clients.subscriptionBalance} + ${immersions}` })
          .where(eq(clients.id, client!.id));
      }

      // Payments
      const cashPays = cmd.payments.filter((p) => p.method === PaymentMethod.Cash);
      const paidCash = cashPays.reduce((s, p) => s + p.amount, 0);
      let excess = 0;
      for (const p of cashPays) if (p.keepExcess && p.cashGiven != null) excess += p.cashGiven - p.amount;
      const paidCredit = cmd.payments.filter((p) => isCardMethod(p.method)).reduce((s, p) => s + p.amount, 0);
      const paidOther = sum(PaymentMethod.Masav) + sum(PaymentMethod.Free);
      const lastFour =
        [...chargeFor.values()][0]?.lastFour ??
        cmd.payments.find((p) => p.method === PaymentMethod.CreditCardEmv)?.lastFour ??
        '';
      const masav = sum(PaymentMethod.Masav);

      // The invoice number: last step before the insert, so the counter row is locked briefly.
      const [counter] = await tx
        .insert(invoiceCounters)
        .values({ clubId: cmd.clubId, last: 1 })
        .onConflictDoUpdate({ target: invoiceCounters.clubId, set: { last: sql`${invoiceCounters.last} + 1` } })
        .returning({ last: invoiceCounters.last });

      const sameClient = client?.id === payerId;
      const balanceAfter = payerId != null ? balanceBefore - beats + (sameClient ? loaded : 0) : 0;
      const [purchase] = await tx
        .insert(purchases)
        .values({
          clubId: cmd.clubId,
          clientId: client?.id ?? null,
          at,
          invoiceNumber: counter.last,
          total: priced.total,
          amountBeforeVat: priced.amountBeforeVat,
          vat: priced.vat,
          vatRateBp,
          paymentStatus: masav > 0 ? PurchasePaymentStatus.Pending : PurchasePaymentStatus.Paid,
          balanceBefore,
          balanceAfter,
          tempBalanceBefore: tempBefore,
          tempBalanceAfter: tempBefore - temp,
          paidCash,
          paidCredit,
          paidBeats: beats,
          paidTemp: temp,
          paidOther,
          fee: priced.fee,
          lastFour,
          excess,
          rounding: priced.rounding,
          payer:
            payerKind === 'parent'
              ? PurchasePayer.Parent
              : payerKind === 'manager'
                ? PurchasePayer.Manager
                : PurchasePayer.Client,
          payerClientId: payerKind === 'parent' ? payerId : null,
          isAdminUser: cmd.isAdminUser,
          source: cmd.source,
          userId: cmd.userId ?? null,
          terminalId: cmd.terminalId ?? null,
          idempotencyKey: cmd.idempotencyKey,
        })
        .returning({ id: purchases.id });
      await tx.insert(purchaseItems).values(itemRows.map((r) => ({ ...r, purchaseId: purchase.id })));
      await tx.insert(purchasePayments).values(
        cmd.payments.map((p, k) => ({
          clubId: cmd.clubId,
          purchaseId: purchase.id,
          method: p.method,
          amount: p.amount,
          chargeId: chargeFor.get(k)?.id ?? null,
          lastFour: chargeFor.get(k)?.lastFour ?? p.lastFour ?? '',
        })),
      );
      if (ledger.length) {
        await tx.insert(balanceLedger).values(
          ledger.map((l) => ({
            clubId: cmd.clubId,
            clientId: l.clientId,
            kind: l.kind,
            delta: l.delta,
            source: l.source,
            sourceId: purchase.id,
            at,
            userId: cmd.userId ?? null,
          })),
        );
      }
      if (masav > 0) {
        // Collected by the next MASAV file (modules/masav).
        await tx.insert(debts).values({
          clubId: cmd.clubId,
          clientId: payerId!,
          amount: masav,
          description: `MASAV ${counter.last}`,
          source: 'masav',
          userId: cmd.userId ?? null,
        });
      }
      if (cmd.actor) {
        await audit(tx, cmd.actor, {
          action: 'purchase',
          entity: 'purchase',
          entityId: purchase.id,
          after: { clientId: client?.id ?? null, invoiceNumber: counter.last, total: priced.total },
        });
      }
      if (cmd.inTransaction) {
        await cmd.inTransaction(tx, { id: purchase.id, invoiceNumber: counter.last, total: priced.total });
      }
      return purchase.id;
    });
  } catch (err) {
    if (pgError(err).constraint === 'purchases_idem') {
      const done = await findByKey(db, cmd.clubId, cmd.idempotencyKey);
      if (done) return done;
    }
    await giveBack();
    throw err;
  }
  await linkCharges(
    db,
    charged.map((c) => c.id),
    purchaseId,
  );
  const out = await getPurchase(db, cmd.clubId, purchaseId);
  const change = cmd.payments
    .filter((p) => p.method === PaymentMethod.Cash && p.cashGiven != null && !p.keepExcess)
    .reduce((s, p) => s + (p.cashGiven! - p.amount), 0);
  return { ...out, change, warnings };
}

function plusDay(iso: string, days: number): string {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Purchases of a client, newest first (purchase history tab). */
export async function listClientPurchases(db: Db, clubId: number, clientId: number, limit = 200) {
  const rows = await db
    .select()
    .from(purchases)
    .where(and(eq(purchases.clubId, clubId), eq(purchases.clientId, clientId)))
    .orderBy(sql`${purchases.at} desc, ${purchases.id} desc`)
    .limit(limit);
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const [items, pays] = await Promise.all([
    db.select().from(purchaseItems).where(inArray(purchaseItems.purchaseId, ids)),
    db.select().from(purchasePayments).where(inArray(purchasePayments.purchaseId, ids)),
  ]);
  return rows.map((r) =>
    presentPurchase(
      r,
      items.filter((i) => i.purchaseId === r.id),
      pays.filter((p) => p.purchaseId === r.id),
    ),
  );
}
