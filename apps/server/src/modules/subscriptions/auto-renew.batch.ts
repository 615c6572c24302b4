import { and, eq, sql, type SQL } from 'drizzle-orm';
import {
  checkPurchase,
  ClientStatus,
  isRenewalDue,
  PaymentMethod,
  paymentTotals,
  PurchaseItemType,
  PurchasePayer,
  PurchasePaymentStatus,
  renewalQuote,
  subscriptionDates,
  vatRateBasisPoints,
  type AutoRenewSettings,
  type CheckedPurchase,
  type ClubSettings,
  type PaymentInput,
  type PurchaseItemInput,
} from '@venue/domain';
import type { Db, Tx } from '../../db/index.js';
import { queryRows } from '../../db/query.js';
import {
  autoRenewLogs,
  charges,
  clients,
  clubs,
  debts,
  groups,
  invoiceCounters,
  paymentMethods,
} from '../../db/schema.js';
import { notFound } from '../../lib/errors.js';
import { clockNow } from '../../lib/clock.js';
import { ClearingUncertainError, type ClearingProvider } from '../../integrations/clearing/provider.js';
import { refundCharge, type ChargeRow } from '../../integrations/clearing/charges.js';
import { clubSettings, clubToday } from '../club/club.service.js';

/**
 * Set-based automatic renewal (seed 001 §4; docs/money.md "Automatic
 * renewal"). The same decisions as one `createPurchase` per client — the
 * domain's pure `renewalQuote` and `checkPurchase`, the same idempotency keys
 * (`autorenew:<client>:<end>`, charges `…:p0`), the same rows — but in sets:
 * the candidates in one query, the quotes and checks in memory, and per chunk
 * of clients one multi-row insert of the charges, the provider's calls (each
 * still idempotent on its own key), one update settling the charges, and one
 * transaction writing every purchase, item, payment, MASAV debt, failure debt,
 * subscription date and log row with multi-row statements. A constant number
 * of round trips per chunk instead of about 17 per client.
 *
 * A client whose key was used before (a purchase or a charge already exists:
 * a run that died half-way) and every client of a chunk whose transaction
 * fails go through the one-client path (`renewOne`), which finds the charge
 * rows by their keys and never charges twice.
 */

/** Clients per chunk: one charge insert, one transaction (≈ 20 statements). */
export const RENEW_CHUNK = 500;
/** Provider calls in flight at once (a real provider is a network round trip per charge). */
const PROVIDER_CONCURRENCY = 16;

type ClientRow = typeof clients.$inferSelect;
type GroupRow = typeof groups.$inferSelect;
type MethodRow = typeof paymentMethods.$inferSelect;

/** A due client with what its renewal needs, read by `renewalCandidates`. */
export interface RenewalCandidate {
  client: ClientRow;
  group: GroupRow | null;
  method: MethodRow;
  end: string;
  last: { unitPrice: number; details: unknown } | null;
  /** A purchase or a charge with this renewal's key exists: the one-client path settles it. */
  keyUsed: boolean;
}

/** The outcome of one client's renewal, as the one-client path records it. */
export type RenewalOutcome =
  { kind: 'skipped' } | { kind: 'single' } | { kind: 'failed'; error: string; refund?: ChargeRow } | { kind: 'ok' };

/** Everything computed in memory for one due client. */
export interface PlannedRenewal {
  c: RenewalCandidate;
  key: string;
  start: string;
  endDate: string;
  price: number;
  /** The monthly price the quote prorated from (agorot): recorded on the sale for the next renewal. */
  monthly: number;
  items: PurchaseItemInput[];
  payments: PaymentInput[];
  checked: CheckedPurchase | null;
  charge: ChargeRow | null;
  /** The invoice number taken for it (set when written). */
  invoice?: number;
  /** The client's money and temporary balances when locked (agorot): the purchase's before/after. */
  balances?: { balance: number; temp: number };
  outcome: RenewalOutcome;
}

/** The club, its settings and the moment of a run. */
export interface RenewalRun {
  clubId: number;
  club: typeof clubs.$inferSelect;
  settings: ClubSettings;
  rule: AutoRenewSettings;
  at: Date;
  today: string;
  vatRateBp: number;
  userId: number | null;
}

/**
 * The run's club, settings and dates.
 * @throws AppError NOT_FOUND (club)
 */
export async function renewalRun(
  db: Db,
  clubId: number,
  rule: AutoRenewSettings,
  at: Date,
  userId: number | null,
): Promise<RenewalRun> {
  const [club] = await db.select().from(clubs).where(eq(clubs.id, clubId));
  if (!club) throw notFound('club');
  const settings = clubSettings(club);
  return {
    clubId,
    club,
    settings,
    rule,
    at,
    today: clubToday(club.location, at),
    vatRateBp: vatRateBasisPoints(settings.country, at, settings.usSalesTaxBp),
    userId,
  };
}

/**
 * The due clients in one query (the window of seed 001 §4: from
 * autoRenewDaysAfter days ago to autoRenewDaysBefore days ahead): active,
 * with a live stored method, no attempt logged for this end date; with their
 * group, method, last subscription item and whether the renewal key was used.
 */
export async function renewalCandidates(db: Db, run: RenewalRun): Promise<RenewalCandidate[]> {
  const { clubId, today, settings } = run;
  const from = shiftDays(today, -settings.autoRenewDaysAfter);
  const to = shiftDays(today, settings.autoRenewDaysBefore);
  // Qualified: a one-table select names its columns bare, which the subqueries would take as theirs.
  const cid = sql.raw('"clients"."id"');
  const cend = sql.raw('"clients"."subscription_end"');
  // Driven by the clients alone (per-client lookups by key in subqueries), so that the plan does not
  // depend on the statistics: a bulk-loaded club with stale statistics once got a nested loop over
  // clients × methods (O(n²), 3.4 s for 2 000 clients, bench/renewal.bench.mjs).
  const rows = await db
    .select({
      client: clients,
      last: sql<unknown>`(select json_build_object('unitPrice', pi.unit_price, 'details', pi.details)
          from purchase_items pi join purchases p on p.id = pi.purchase_id and p.club_id = pi.club_id
         where p.club_id = ${clubId} and p.client_id = ${cid} and pi.item_type = ${PurchaseItemType.NewSubscription}
         order by p.at desc, p.id desc limit 1)`,
    })
    .from(clients)
    .where(
      and(
        eq(clients.clubId, clubId),
        eq(clients.status, ClientStatus.Active),
        sql`${clients.subscriptionEnd} between ${from}::date and ${to}::date`,
        sql`exists (select 1 from payment_methods pm
                     where pm.club_id = ${clubId} and pm.client_id = ${cid} and pm.deleted = false)`,
        sql`not exists (select 1 from auto_renew_logs l
                         where l.club_id = ${clubId} and l.client_id = ${cid} and l.for_end = ${cend})`,
      ),
    )
    .orderBy(clients.id);
  if (!rows.length) return [];
  // A client's live stored method: at most one (unique index payment_methods_client).
  const ids = rows.map((r) => r.client.id);
  const methods = await db
    .select()
    .from(paymentMethods)
    .where(
      and(
        eq(paymentMethods.clubId, clubId),
        eq(paymentMethods.deleted, false),
        sql`${paymentMethods.clientId} = any(${pgArray(ids, 'int')})`,
      ),
    );
  const methodOf = new Map(methods.map((m) => [m.clientId, m]));
  const groupOf = new Map((await db.select().from(groups).where(eq(groups.clubId, clubId))).map((g) => [g.id, g]));
  const live = rows.filter((r) => methodOf.has(r.client.id));
  // Keys used before (a run that died half-way): looked up in bulk, each an index probe.
  const keyOf = (r: (typeof live)[number]) =>
    `autorenew:${r.client.id}:${String(r.client.subscriptionEnd).slice(0, 10)}`;
  const keys = live.map(keyOf);
  const used = new Set<string>();
  if (keys.length) {
    for (const r of await queryRows<{ k: string }>(
      db,
      sql`select idempotency_key as k from purchases where club_id = ${clubId} and idempotency_key = any(${pgArray(keys, 'text')})
          union all
          select left(idempotency_key, -3) from charges
           where club_id = ${clubId} and idempotency_key = any(${pgArray(
             keys.map((k) => `${k}:p0`),
             'text',
           )})`,
    ))
      used.add(r.k);
  }
  return live.map((r) => ({
    client: r.client,
    group: (r.client.groupId != null ? groupOf.get(r.client.groupId) : undefined) ?? null,
    method: methodOf.get(r.client.id)!,
    end: String(r.client.subscriptionEnd).slice(0, 10),
    last: (typeof r.last === 'string' ? JSON.parse(r.last) : r.last) as RenewalCandidate['last'],
    keyUsed: used.has(keyOf(r)),
  }));
}

/**
 * Logs the due clients that cannot be renewed because they have no live stored payment method
 * (seed 001 §4: every attempt's outcome, success or error): active, the end in the run's window,
 * a last subscription that renews (a month or more, not unlimited, not kala), no attempt logged
 * for that end. One row each (`success` false, error `NO_PAYMENT_METHOD`, amount 0), once per
 * end date, in one statement; no debt (nothing was charged). The manager finds them in the
 * automatic renewal report.
 * @returns the number of rows written.
 */
export async function logWithoutMethod(db: Db, run: RenewalRun): Promise<number> {
  const { clubId, today, settings } = run;
  const from = shiftDays(today, -settings.autoRenewDaysAfter);
  const to = shiftDays(today, settings.autoRenewDaysBefore);
  const rows = await queryRows<{ n: number }>(
    db,
    sql`with due as (
          select c.id, c.subscription_end as end
            from clients c
           where c.club_id = ${clubId} and c.status = ${ClientStatus.Active}
             and c.subscription_end between ${from}::date and ${to}::date
             and not exists (select 1 from payment_methods pm
                              where pm.club_id = ${clubId} and pm.client_id = c.id and pm.deleted = false)
             and not exists (select 1 from auto_renew_logs l
                              where l.club_id = ${clubId} and l.client_id = c.id and l.for_end = c.subscription_end)
             and (select coalesce(pi.details->>'period', '') in ('month', 'threeMonths', 'halfYear', 'year')
                         and coalesce((pi.details->>'unlimited')::boolean, false) = false
                         and coalesce((pi.details->>'kala')::boolean, false) = false
                    from purchase_items pi join purchases p on p.id = pi.purchase_id and p.club_id = pi.club_id
                   where p.club_id = ${clubId} and p.client_id = c.id and pi.item_type = ${PurchaseItemType.NewSubscription}
                   order by p.at desc, p.id desc limit 1)
        ), ins as (
          insert into auto_renew_logs (club_id, client_id, at, success, error, amount, for_end)
          select ${clubId}, due.id, ${run.at.toISOString()}::timestamptz, false, 'NO_PAYMENT_METHOD', 0, due.end from due
          returning 1
        )
        select count(*)::int as n from ins`,
  );
  return rows[0]?.n ?? 0;
}

/**
 * Plans one client's renewal in memory with the domain's rules: the monthly
 * price of its last subscription, the due check, the quote, the purchase's
 * items and payment (stored card or MASAV), and `checkPurchase`'s verdict.
 */
export function planRenewal(
  run: RenewalRun,
  c: RenewalCandidate,
  monthlyOf: (r: { unitPrice: number; details: unknown }) => number | null,
): PlannedRenewal {
  const key = `autorenew:${c.client.id}:${c.end}`;
  const base = {
    c,
    key,
    start: '',
    endDate: '',
    price: 0,
    monthly: 0,
    items: [],
    payments: [],
    checked: null,
    charge: null,
  };
  const monthly = c.last ? monthlyOf(c.last) : null;
  const { settings } = run;
  if (monthly == null || !isRenewalDue(run.today, c.end, settings.autoRenewDaysBefore, settings.autoRenewDaysAfter)) {
    return { ...base, outcome: { kind: 'skipped' } };
  }
  const endType = c.group?.subscriptionEndType ?? 4;
  const q = renewalQuote(run.today, c.end, monthly, Number(endType), run.rule, settings.autoRenewDaysBefore);
  const items: PurchaseItemInput[] = [renewalItem(q, monthly)];
  const payments: PaymentInput[] = [
    {
      method: c.method.kind === 'masav' ? PaymentMethod.Masav : PaymentMethod.CreditCardToken,
      amount: q.price,
      keepExcess: false,
    },
  ];
  const planned = { ...base, start: q.start, endDate: q.end, price: q.price, monthly, items, payments };
  if (c.keyUsed) return { ...planned, outcome: { kind: 'single' } };
  const out = checkPurchase({
    items,
    payments,
    isAdminUser: true,
    payer: 'client',
    client: { id: c.client.id, parentId: c.client.parentId },
    group: c.group,
    settings,
    products: new Map(),
    stored: c.method,
    vatRateBp: run.vatRateBp,
    at: run.at,
    requireExplicitFree: false,
  });
  if ('refusal' in out) {
    const reason = (out.refusal.details as { reason?: string } | undefined)?.reason;
    return {
      ...planned,
      outcome: { kind: 'failed', error: reason ? `${out.refusal.code}:${reason}` : out.refusal.code },
    };
  }
  return { ...planned, checked: out, outcome: { kind: 'ok' } };
}

/**
 * The renewal's one line: a month's subscription from the quote's start to its end, at the quote's
 * price, recording `monthly` (agorot) — the rate it was prorated from — as the client's monthly
 * price for the next renewal (never the price of this period).
 */
export function renewalItem(q: { start: string; end: string; price: number }, monthly: number): PurchaseItemInput {
  return {
    itemType: PurchaseItemType.NewSubscription,
    name: '',
    quantity: 1,
    unitPrice: q.price,
    subscription: {
      period: 'month',
      usageType: 'subscription',
      unlimited: false,
      kala: false,
      start: q.start,
      end: q.end,
      monthlyPrice: monthly,
    },
  };
}

/**
 * Charges the chunk's stored cards: one multi-row insert of the pending
 * `charges` rows (keys `<purchase key>:p0`, committed before the provider is
 * called, as `chargeOnce` does), the provider's calls (idempotent per key,
 * PROVIDER_CONCURRENCY at a time), one update settling every row. A key that
 * already has a row sends its client to the one-client path. A declined or
 * uncertain charge fails the client with PAYMENT_ERROR and its reason.
 */
export async function chargeChunk(
  db: Db,
  provider: ClearingProvider,
  run: RenewalRun,
  chunk: PlannedRenewal[],
): Promise<void> {
  const cards = chunk.filter(
    (p) => p.outcome.kind === 'ok' && p.payments[0].method === PaymentMethod.CreditCardToken && p.price > 0,
  );
  if (!cards.length) return;
  const inserted = await db
    .insert(charges)
    .values(
      cards.map((p) => ({
        clubId: run.clubId,
        clientId: p.c.client.id,
        idempotencyKey: `${p.key}:p0`,
        provider: provider.name,
        token: p.c.method.cardToken ?? '',
        amount: p.payments[0].amount,
        currency: run.club.currency,
        status: 'pending',
        lastFour: p.c.method.cardLastFour ?? '',
        brand: p.c.method.cardBrand ?? '',
        createdAt: clockNow(),
      })),
    )
    .onConflictDoNothing({ target: [charges.clubId, charges.idempotencyKey] })
    .returning();
  const byKey = new Map(inserted.map((r) => [r.idempotencyKey, r]));
  const settled: { id: number; status: string; provider_ref: string | null; error: string | null }[] = [];
  const mine = cards.filter((p) => {
    const row = byKey.get(`${p.key}:p0`);
    if (!row) p.outcome = { kind: 'single' };
    else p.charge = row;
    return !!row;
  });
  let next = 0;
  const worker = async () => {
    while (next < mine.length) {
      const p = mine[next++];
      const row = p.charge!;
      let s: (typeof settled)[number];
      try {
        const r = await provider.chargeToken({
          token: row.token,
          amount: row.amount,
          currency: row.currency,
          idempotencyKey: row.idempotencyKey,
        });
        s =
          r.status === 'approved'
            ? { id: row.id, status: 'approved', provider_ref: r.providerRef, error: null }
            : { id: row.id, status: 'declined', provider_ref: null, error: r.reason };
      } catch (err) {
        const error = err instanceof ClearingUncertainError ? err.message : 'provider error';
        s = { id: row.id, status: 'uncertain', provider_ref: null, error };
      }
      settled.push(s);
      p.charge = { ...row, status: s.status, providerRef: s.provider_ref, error: s.error };
      if (s.status !== 'approved') {
        const reason = s.status === 'declined' ? (s.error ?? 'declined') : 'uncertain';
        p.outcome = { kind: 'failed', error: `PAYMENT_ERROR:${reason}` };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PROVIDER_CONCURRENCY, mine.length) }, worker));
  if (!settled.length) return;
  const ids = pgArray(
    settled.map((x) => x.id),
    'bigint',
  );
  const at = sql`array_position(${ids}, ch.id)`;
  await db.execute(sql`
    update charges ch
       set status = (${pgArray(
         settled.map((x) => x.status),
         'text',
       )})[${at}],
           provider_ref = (${pgArray(
             settled.map((x) => x.provider_ref),
             'text',
           )})[${at}],
           error = (${pgArray(
             settled.map((x) => x.error),
             'text',
           )})[${at}],
           settled_at = case when (${pgArray(
             settled.map((x) => x.status),
             'text',
           )})[${at}] = 'uncertain' then null else ${clockNow().toISOString()}::timestamptz end
     where ch.club_id = ${run.clubId} and ch.id = any(${ids})`);
}

/**
 * Writes a charged chunk in one transaction (docs/money.md "Purchases":
 * the same rows `writePurchase` writes, in multi-row statements): the
 * purchase keys' advisory locks, the charges still approved, the clients
 * locked FOR UPDATE, consecutive invoice numbers from one counter update,
 * purchases, items, payments, MASAV debts, subscription dates, linked
 * charges, failure debts and every log row.
 */
export async function writeChunk(db: Db, run: RenewalRun, chunk: PlannedRenewal[]): Promise<void> {
  await db.transaction(async (tx) => {
    const ok = chunk.filter((p) => p.outcome.kind === 'ok');
    if (ok.length) {
      const keys = JSON.stringify(ok.map((p) => `purchase:${run.clubId}:${p.key}`));
      await tx.execute(
        sql`select count(pg_advisory_xact_lock(hashtextextended(k, 0))) from jsonb_array_elements_text(${keys}::jsonb) k`,
      );
      await dropReconciled(tx, ok);
      await applyDates(tx, run, ok);
    }
    const good = chunk.filter((p) => p.outcome.kind === 'ok');
    const ids = await insertPurchases(tx, run, good);
    await insertDetails(tx, run, good, ids);
    await insertFailures(
      tx,
      run,
      chunk.filter((p) => p.outcome.kind === 'failed'),
    );
  });
}

/** A charge the reconciliation took as an orphan meanwhile fails its client (PAYMENT_ERROR reconciled). */
async function dropReconciled(tx: Tx, ok: PlannedRenewal[]): Promise<void> {
  const ids = ok.filter((p) => p.charge).map((p) => p.charge!.id);
  if (!ids.length) return;
  const live = await tx
    .select({ id: charges.id })
    .from(charges)
    .where(
      and(
        eq(charges.clubId, ok[0].c.client.clubId),
        sql`${charges.id} = any(${pgArray(ids, 'bigint')})`,
        eq(charges.status, 'approved'),
      ),
    );
  const alive = new Set(live.map((r) => r.id));
  for (const p of ok) {
    if (p.charge && !alive.has(p.charge.id)) p.outcome = { kind: 'failed', error: 'PAYMENT_ERROR:reconciled' };
  }
}

/**
 * Locks the clients (id order) and computes each one's subscription dates as
 * `applySubscription` does (a renewal continuing the current subscription
 * keeps its start); one update writes them all.
 */
async function applyDates(tx: Tx, run: RenewalRun, ok: PlannedRenewal[]): Promise<void> {
  const ids = ok.filter((p) => p.outcome.kind === 'ok').map((p) => p.c.client.id);
  if (!ids.length) return;
  const rows = await queryRows<{
    id: number;
    balance: number;
    temp_balance: number;
    subscription_start: string | null;
    subscription_end: string | null;
  }>(
    tx,
    sql`select id, balance, temp_balance, subscription_start::text, subscription_end::text from clients
         where club_id = ${run.clubId} and id = any(${pgArray(ids, 'int')})
         order by id for update`,
  );
  const cur = new Map(rows.map((r) => [Number(r.id), r]));
  const updates: { id: number; s: string; e: string }[] = [];
  for (const p of ok) {
    if (p.outcome.kind !== 'ok') continue;
    const r = cur.get(p.c.client.id);
    if (!r) {
      p.outcome = { kind: 'failed', error: 'NOT_FOUND', refund: p.charge ?? undefined };
      continue;
    }
    const sub = p.items[0].subscription!;
    const group = p.c.group;
    const { start, end } = subscriptionDates(
      run.today,
      r.subscription_end,
      {
        period: sub.period,
        endType: group?.subscriptionEndType ?? 4,
        daysToExtend: group?.daysToExtend ?? 0,
        unlimited: false,
      },
      { start: sub.start, end: sub.end },
    );
    if (end < start) {
      p.outcome = { kind: 'failed', error: 'VALIDATION_ERROR', refund: p.charge ?? undefined };
      continue;
    }
    const keep = r.subscription_end && r.subscription_start && r.subscription_end >= shiftDays(start, -1);
    const newStart = keep && r.subscription_start! <= start ? r.subscription_start! : start;
    p.start = start;
    p.endDate = end;
    p.balances = { balance: Number(r.balance), temp: Number(r.temp_balance) };
    updates.push({ id: p.c.client.id, s: newStart, e: end });
  }
  if (!updates.length) return;
  const uids = pgArray(
    updates.map((u) => u.id),
    'int',
  );
  const at = sql`array_position(${uids}, c.id)`;
  await tx.execute(sql`
    update clients c
       set subscription_start = (${pgArray(
         updates.map((u) => u.s),
         'date',
       )})[${at}],
           subscription_end = (${pgArray(
             updates.map((u) => u.e),
             'date',
           )})[${at}]
     where c.club_id = ${run.clubId} and c.id = any(${uids})`);
}

/**
 * Inserts rows into `table` from one JSON parameter (`jsonb_populate_recordset` over the table's
 * row type): one bind value however many rows, so a chunk is one short statement to parse.
 * `rows` use the table's column names; columns not given take their defaults.
 */
async function insertJson<T extends Record<string, unknown>>(
  tx: Tx,
  table: string,
  rows: Record<string, unknown>[],
  returning?: string,
): Promise<T[]> {
  if (!rows.length) return [];
  const cols = Object.keys(rows[0]).join(', ');
  return queryRows<T>(
    tx,
    sql`insert into ${sql.raw(table)} (${sql.raw(cols)})
        select ${sql.raw(cols)} from jsonb_populate_recordset(null::${sql.raw(table)}, ${JSON.stringify(rows)}::jsonb)
        ${returning ? sql.raw(`returning ${returning}`) : sql``}`,
  );
}

/** Takes `n` consecutive invoice numbers of the club (one counter update, no gaps); returns the first. */
async function takeInvoiceNumbers(tx: Tx, clubId: number, n: number): Promise<number> {
  const [counter] = await tx
    .insert(invoiceCounters)
    .values({ clubId, last: n })
    .onConflictDoUpdate({ target: invoiceCounters.clubId, set: { last: sql`${invoiceCounters.last} + ${n}` } })
    .returning({ last: invoiceCounters.last });
  return counter.last - n + 1;
}

/** Inserts the chunk's purchase rows (client-id order = invoice order); returns their ids by key. */
async function insertPurchases(tx: Tx, run: RenewalRun, good: PlannedRenewal[]): Promise<Map<string, number>> {
  if (!good.length) return new Map();
  // A MASAV renewal takes its invoice number when the bank collects it (docs/money.md "Documents"), as in writePurchase.
  const isMasav = (p: PlannedRenewal) => paymentTotals(p.payments).paidMasav > 0;
  const numbered = good.filter((p) => !isMasav(p));
  const first = numbered.length ? await takeInvoiceNumbers(tx, run.clubId, numbered.length) : 0;
  const numberOf = new Map(numbered.map((p, i) => [p, first + i]));
  const rows = good.map((p) => {
    const checked = p.checked!;
    const totals = paymentTotals(p.payments);
    const balance = p.balances?.balance ?? p.c.client.balance;
    const temp = p.balances?.temp ?? p.c.client.tempBalance;
    return {
      club_id: run.clubId,
      client_id: p.c.client.id,
      at: run.at.toISOString(),
      invoice_number: numberOf.get(p) ?? null,
      total: checked.total,
      amount_before_vat: checked.amountBeforeVat,
      vat: checked.vat,
      vat_rate_bp: run.vatRateBp,
      payment_status: totals.paidMasav > 0 ? PurchasePaymentStatus.Pending : PurchasePaymentStatus.Paid,
      balance_before: balance,
      balance_after: balance,
      temp_balance_before: temp,
      temp_balance_after: temp,
      paid_cash: totals.paidCash,
      paid_credit: totals.paidCredit,
      paid_beats: totals.paidBeats,
      paid_temp: totals.paidTemp,
      paid_other: totals.paidOther,
      fee: checked.fee,
      last_four: p.charge?.lastFour ?? '',
      excess: totals.excess,
      rounding: checked.rounding,
      payer: PurchasePayer.Client,
      payer_client_id: null,
      is_admin_user: true,
      source: 'autorenew',
      user_id: run.userId,
      terminal_id: null,
      idempotency_key: p.key,
    };
  });
  const ret = await insertJson<{ id: number; idempotency_key: string }>(tx, 'purchases', rows, 'id, idempotency_key');
  const out = new Map(ret.map((r) => [r.idempotency_key, Number(r.id)]));
  good.forEach((p) => (p.invoice = numberOf.get(p)));
  return out;
}

/**
 * The purchases' items, payments (with their charges), MASAV debts (the next
 * MASAV file collects them), the charges' links and the success log rows.
 * A renewal paid by card or MASAV moves no balance: no ledger rows, as in
 * `writePurchase` (kala subscriptions, which credit immersions, are not renewed).
 */
async function insertDetails(tx: Tx, run: RenewalRun, good: PlannedRenewal[], ids: Map<string, number>) {
  if (!good.length) return;
  const idOf = (p: PlannedRenewal) => ids.get(p.key)!;
  await insertJson(
    tx,
    'purchase_items',
    good.map((p) => {
      const line = p.checked!.lines[0];
      const it = line.input;
      const sub = it.subscription!;
      return {
        club_id: run.clubId,
        purchase_id: idOf(p),
        item_type: it.itemType,
        item_id: it.itemId ?? null,
        name: it.name,
        quantity: it.quantity,
        unit_price: it.unitPrice,
        price_with_vat: line.priceWithVat,
        amount_before_vat: line.amountBeforeVat,
        expiry: p.endDate,
        details: {
          period: sub.period,
          usageType: sub.usageType,
          unlimited: sub.unlimited,
          kala: sub.kala,
          immersions: null,
          start: p.start,
          end: p.endDate,
          endType: p.c.group?.subscriptionEndType ?? 4,
          monthlyPrice: sub.monthlyPrice ?? it.unitPrice,
        },
      };
    }),
  );
  await insertJson(
    tx,
    'purchase_payments',
    good.map((p) => ({
      club_id: run.clubId,
      purchase_id: idOf(p),
      method: p.payments[0].method,
      amount: p.payments[0].amount,
      charge_id: p.charge?.id ?? null,
      last_four: p.charge?.lastFour ?? '',
    })),
  );
  const masav = good.filter((p) => paymentTotals(p.payments).paidMasav > 0);
  if (masav.length) {
    await tx.insert(debts).values(
      masav.map((p) => ({
        clubId: run.clubId,
        clientId: p.c.client.id,
        amount: paymentTotals(p.payments).paidMasav,
        description: `MASAV #${idOf(p)}`,
        source: 'masav',
        purchaseId: idOf(p),
        userId: run.userId,
        createdAt: clockNow(),
      })),
    );
  }
  const links = good.filter((p) => p.charge).map((p) => ({ id: p.charge!.id, purchase: idOf(p) }));
  if (links.length) {
    const lids = pgArray(
      links.map((l) => l.id),
      'bigint',
    );
    await tx.execute(sql`
      update charges ch set purchase_id = (${pgArray(
        links.map((l) => l.purchase),
        'bigint',
      )})[array_position(${lids}, ch.id)]
       where ch.club_id = ${run.clubId} and ch.id = any(${lids})`);
  }
  await tx.insert(autoRenewLogs).values(
    good.map((p) => ({
      clubId: run.clubId,
      clientId: p.c.client.id,
      at: run.at,
      success: true,
      amount: p.price,
      purchaseId: idOf(p),
      startDate: p.start,
      endDate: p.endDate,
      forEnd: p.c.end,
    })),
  );
}

/** Failed renewals: a debt each (source 'autorenew') and a log row with the error code and reason. */
async function insertFailures(tx: Tx, run: RenewalRun, failed: PlannedRenewal[]): Promise<void> {
  if (!failed.length) return;
  const made = await tx
    .insert(debts)
    .values(
      failed.map((p) => ({
        clubId: run.clubId,
        clientId: p.c.client.id,
        amount: p.price,
        description: `Automatic renewal ${p.start}–${p.endDate}`,
        source: 'autorenew',
        userId: run.userId,
        createdAt: clockNow(),
      })),
    )
    .returning({ id: debts.id, clientId: debts.clientId });
  const debtOf = new Map(made.map((d) => [d.clientId, d.id]));
  await tx.insert(autoRenewLogs).values(
    failed.map((p) => ({
      clubId: run.clubId,
      clientId: p.c.client.id,
      at: run.at,
      success: false,
      error: p.outcome.kind === 'failed' ? p.outcome.error : 'GENERAL_ERROR',
      amount: p.price,
      debtId: debtOf.get(p.c.client.id) ?? null,
      startDate: p.start,
      endDate: p.endDate,
      forEnd: p.c.end,
    })),
  );
}

/** Refunds the charges of clients that failed after being charged (their purchase was not written). */
export async function refundFailed(db: Db, provider: ClearingProvider, chunk: PlannedRenewal[]): Promise<void> {
  for (const p of chunk) {
    if (p.outcome.kind === 'failed' && p.outcome.refund) {
      await refundCharge(db, provider, p.outcome.refund).catch(() => undefined);
    }
  }
}

/**
 * One bind value holding a PostgreSQL array (`'{1,2}'::int[]`; text elements quoted, null as NULL).
 * `col = any(<array>)` probes the column's index once per element and `array_position` picks a
 * row's value, whatever the planner's statistics say (a bulk-loaded club with stale statistics got
 * nested loops over `jsonb_array_elements` sets: O(n²), bench/renewal.bench.mjs).
 */
export function pgArray(values: readonly (string | number | null)[], type: 'int' | 'bigint' | 'text' | 'date'): SQL {
  const items = values.map((v) =>
    v == null ? 'NULL' : typeof v === 'number' ? String(v) : `"${v.replace(/["\\]/g, (c) => `\\${c}`)}"`,
  );
  return sql`${`{${items.join(',')}}`}::${sql.raw(type)}[]`;
}

/** An ISO date `days` later (negative: earlier). */
export function shiftDays(iso: string, days: number): string {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}
