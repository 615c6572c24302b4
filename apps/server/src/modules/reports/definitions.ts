import { sql, type SQL } from 'drizzle-orm';
import { ISRAELI_BANKS, LicenseRequestStatus, PurchasePaymentStatus, REPORTS } from '@venue/domain';
import type { ReportContext, ReportDefinition } from './framework.js';
import { itemsText } from './report-labels.js';
import { clientName, filters, inList } from './report-sql.js';
import { activitiesReport, clientEntrancesReport, entrancesReport, paymentsReport } from './entrance-definitions.js';

/**
 * The reports, one definition each (docs/reports.md); the entrance timeline
 * ones live in entrance-definitions.ts. Every table is read by its club_id;
 * joined tables are restricted to the club in their ON clause.
 */

export { activitiesReport, clientEntrancesReport, entrancesReport, paymentsReport };

// ---------------------------------------------------------------- purchases

/** Purchases (`GetPurchases`): purchases of the period with VAT and the split by how they were paid. */
export const purchasesReport: ReportDefinition = {
  meta: REPORTS.purchases,
  from: (c) => sql`purchases p
    left join clients c on c.id = p.client_id and c.club_id = ${c.clubId}
    left join terminals t on t.id = p.terminal_id and t.club_id = ${c.clubId}
    left join users u on u.id = p.user_id and u.club_id = ${c.clubId}`,
  at: sql`p.at`,
  where: (c) => {
    const w = [
      sql`p.club_id = ${c.clubId}`,
      ...filters(c, { terminalId: sql`p.terminal_id`, clientId: sql`p.client_id`, userId: sql`p.user_id` }),
    ];
    if (c.q.status?.length) w.push(inList(sql`p.payment_status`, c.q.status));
    if (c.q.itemType?.length)
      w.push(
        sql`exists (select 1 from purchase_items i where i.purchase_id = p.id and ${inList(sql`i.item_type`, c.q.itemType)})`,
      );
    if (c.q.productId)
      w.push(
        sql`exists (select 1 from purchase_items i where i.purchase_id = p.id and i.item_type = 10 and i.item_id = ${c.q.productId})`,
      );
    if (c.q.paymentMethod?.length)
      w.push(
        sql`exists (select 1 from purchase_payments pp where pp.purchase_id = p.id and ${inList(sql`pp.method`, c.q.paymentMethod)})`,
      );
    return w;
  },
  select: {
    id: sql`p.id`,
    at: sql`p.at`,
    invoiceNumber: sql`p.invoice_number`,
    clientId: sql`p.client_id`,
    clientNumber: sql`c.number`,
    clientName: clientName('c'),
    items: sql`(select json_agg(json_build_object('t', i.item_type, 'n', i.name, 'q', i.quantity) order by i.id) from purchase_items i where i.purchase_id = p.id)`,
    amountBeforeVat: sql`p.amount_before_vat`,
    vat: sql`p.vat`,
    total: sql`p.total`,
    paymentStatus: sql`p.payment_status`,
    paidCash: sql`p.paid_cash`,
    paidCredit: sql`p.paid_credit`,
    paidBeats: sql`p.paid_beats`,
    paidTemp: sql`p.paid_temp`,
    paidOther: sql`p.paid_other`,
    terminalName: sql`t.name`,
    userName: sql`nullif(u.name, '')`,
  },
  sort: {
    at: [sql`p.at`],
    invoiceNumber: [sql`p.invoice_number`],
    client: [sql`c.last_name`, sql`c.first_name`, sql`p.at`],
    total: [sql`p.total`, sql`p.at`],
    paymentStatus: [sql`p.payment_status`, sql`p.at`],
  },
  tiebreak: [sql`p.id`],
  post: { items: (v, c) => itemsText(v, c.q.lang) },
  totals: {
    count: sql`count(*)::int`,
    amountBeforeVat: sql`coalesce(sum(p.amount_before_vat), 0)::bigint`,
    vat: sql`coalesce(sum(p.vat), 0)::bigint`,
    total: sql`coalesce(sum(p.total), 0)::bigint`,
    paidCash: sql`coalesce(sum(p.paid_cash), 0)::bigint`,
    paidCredit: sql`coalesce(sum(p.paid_credit), 0)::bigint`,
    paidBeats: sql`coalesce(sum(p.paid_beats), 0)::bigint`,
    paidTemp: sql`coalesce(sum(p.paid_temp), 0)::bigint`,
    paidOther: sql`coalesce(sum(p.paid_other), 0)::bigint`,
  },
};

// ---------------------------------------------------------------- debts

/**
 * Debts (`GetDebts`): debts registered in the period (not deleted). Status
 * filter: 1 = open (something left to pay), 2 = paid in full.
 */
export const debtsReport: ReportDefinition = {
  meta: REPORTS.debts,
  from: (c) => sql`debts d
    left join clients c on c.id = d.client_id and c.club_id = ${c.clubId}
    left join users u on u.id = d.user_id and u.club_id = ${c.clubId}`,
  at: sql`d.created_at`,
  where: (c) => {
    const w = [
      sql`d.club_id = ${c.clubId}`,
      sql`d.deleted = false`,
      ...filters(c, { clientId: sql`d.client_id`, userId: sql`d.user_id` }),
    ];
    const s = c.q.status ?? [];
    if (s.length && !(s.includes(1) && s.includes(2))) {
      if (s.includes(1)) w.push(sql`d.paid < d.amount`);
      else if (s.includes(2)) w.push(sql`d.paid >= d.amount`);
      else w.push(sql`false`);
    }
    return w;
  },
  select: {
    id: sql`d.id`,
    at: sql`d.created_at`,
    clientId: sql`d.client_id`,
    clientNumber: sql`c.number`,
    clientName: clientName('c'),
    description: sql`nullif(d.description, '')`,
    source: sql`d.source`,
    amount: sql`d.amount`,
    paid: sql`d.paid`,
    open: sql`greatest(d.amount - d.paid, 0)`,
    userName: sql`nullif(u.name, '')`,
  },
  sort: {
    at: [sql`d.created_at`],
    client: [sql`c.last_name`, sql`c.first_name`, sql`d.created_at`],
    amount: [sql`d.amount`, sql`d.created_at`],
    open: [sql`greatest(d.amount - d.paid, 0)`, sql`d.created_at`],
  },
  tiebreak: [sql`d.id`],
  totals: {
    count: sql`count(*)::int`,
    amount: sql`coalesce(sum(d.amount), 0)::bigint`,
    paid: sql`coalesce(sum(d.paid), 0)::bigint`,
    open: sql`coalesce(sum(greatest(d.amount - d.paid, 0)), 0)::bigint`,
  },
};

// ---------------------------------------------------------------- financial

const notRefunded = sql.raw(`p.payment_status <> ${PurchasePaymentStatus.Refunded}`);

function financialPurchaseFilters(c: ReportContext): SQL[] {
  const w = [
    sql`p.club_id = ${c.clubId}`,
    notRefunded,
    sql`p.at >= ${c.range.start}`,
    sql`p.at < ${c.range.end}`,
    ...filters(c, { terminalId: sql`p.terminal_id`, userId: sql`p.user_id` }),
  ];
  if (c.q.itemType?.length)
    w.push(
      sql`exists (select 1 from purchase_items i2 where i2.purchase_id = p.id and ${inList(sql`i2.item_type`, c.q.itemType)})`,
    );
  return w;
}

/**
 * The financial report reads the daily summary `financial_daily` (schema.ts;
 * kept by triggers, migration 0011) by local day, terminal and seller; an
 * item-type filter limits `byMethod`, `fee` and `purchases` to the purchases
 * that contain such a line, which the summary cannot tell, so it reads the
 * purchases themselves.
 */
const fromSummary = (c: ReportContext): boolean => !c.q.itemType?.length;

/** Summary rows of one kind (0 purchase, 1 item type, 2 payment method) of the club, period and filters. */
function summaryWhere(c: ReportContext, kind: 0 | 1 | 2): SQL {
  const w = [
    sql`f.club_id = ${c.clubId}`,
    sql`f.kind = ${kind}`,
    sql`f.day >= ${c.range.from}::date`,
    sql`f.day <= ${c.range.to}::date`,
  ];
  if (c.q.terminalId) w.push(sql`f.terminal_id = ${c.q.terminalId}`);
  if (c.q.userId) w.push(sql`f.user_id = ${c.q.userId}`);
  return sql.join(w, sql` and `);
}

/**
 * Financial (`GetFinancialReport`): purchases of the period that were not
 * refunded, one row per item type (purchases, quantity, amount before VAT,
 * VAT, total with VAT), and the money received per payment method. Each line
 * carries its share of its purchase's VAT (docs/money.md), so the VAT column
 * sums to the purchases' VAT; card fees are a separate total (`fee`), so
 * `total + fee` equals the purchases' totals. `from` is one row per item type
 * (item_type, purchases, quantity, amount_before_vat, price_with_vat), from
 * the daily summary or, with an item-type filter, from the lines.
 */
export const financialReport: ReportDefinition = {
  meta: REPORTS.financial,
  from: (c) =>
    fromSummary(c)
      ? sql`(select f.key as item_type, sum(f.purchases) as purchases, sum(f.quantity) as quantity,
            sum(f.amount_before_vat) as amount_before_vat, sum(f.total) as price_with_vat
          from financial_daily f where ${summaryWhere(c, 1)} group by f.key having sum(f.purchases) <> 0) i`
      : sql`(select i.item_type, count(distinct i.purchase_id) as purchases, sum(i.quantity) as quantity,
            sum(i.amount_before_vat) as amount_before_vat, sum(i.price_with_vat) as price_with_vat
          from purchase_items i join purchases p on p.id = i.purchase_id and p.club_id = ${c.clubId}
          where i.club_id = ${c.clubId} and ${sql.join(financialPurchaseFilters(c), sql` and `)}
            and ${inList(sql`i.item_type`, c.q.itemType ?? [])}
          group by i.item_type) i`,
  at: null,
  where: () => [sql`true`],
  // `from` is already one row per item type: no GROUP BY here, so the row count is in the totals' scan.
  select: {
    itemType: sql`i.item_type`,
    purchases: sql`i.purchases::int`,
    quantity: sql`i.quantity::int`,
    amountBeforeVat: sql`i.amount_before_vat::bigint`,
    vat: sql`(i.price_with_vat - i.amount_before_vat)::bigint`,
    total: sql`i.price_with_vat::bigint`,
  },
  sort: {
    itemType: [sql`i.item_type`],
    quantity: [sql`i.quantity`],
    total: [sql`i.price_with_vat`],
  },
  tiebreak: [sql`i.item_type`],
  totals: {
    // Distinct purchases over all types: from extraTotals (a purchase may have lines of several types).
    purchases: sql`0`,
    quantity: sql`coalesce(sum(i.quantity), 0)::int`,
    amountBeforeVat: sql`coalesce(sum(i.amount_before_vat), 0)::bigint`,
    vat: sql`coalesce(sum(i.price_with_vat - i.amount_before_vat), 0)::bigint`,
    total: sql`coalesce(sum(i.price_with_vat), 0)::bigint`,
  },
  breakdowns: {
    byMethod: {
      by: sql`pp.method`,
      value: sql`coalesce(sum(pp.amount), 0)::bigint`,
      from: (c) =>
        fromSummary(c)
          ? sql`(select f.key as method, sum(f.total) as amount from financial_daily f
              where ${summaryWhere(c, 2)} group by f.key having sum(f.purchases) <> 0) pp`
          : sql`(select pp.method, sum(pp.amount) as amount
              from purchase_payments pp join purchases p on p.id = pp.purchase_id and p.club_id = ${c.clubId}
              where pp.club_id = ${c.clubId} and ${sql.join(financialPurchaseFilters(c), sql` and `)}
              group by pp.method) pp`,
      where: () => [sql`true`],
    },
  },
  // From the summary: the purchases and card fees of its kind-0 rows, inside the totals' statement.
  extraTotalsSql: (c) =>
    fromSummary(c)
      ? {
          purchases: sql`(select coalesce(sum(f.purchases), 0)::int from financial_daily f where ${summaryWhere(c, 0)})`,
          fee: sql`(select coalesce(sum(f.total), 0)::bigint from financial_daily f where ${summaryWhere(c, 0)})`,
        }
      : null,
  // With an item-type filter: from the purchases and their lines.
  extraTotals: async (db, c) => {
    const one = async (q: SQL): Promise<Record<string, unknown> | undefined> =>
      ((await db.execute(q)) as unknown as { rows: Record<string, unknown>[] }).rows[0];
    const [fee, count] = await Promise.all([
      one(
        sql`select coalesce(sum(p.fee), 0)::bigint as fee from purchases p where ${sql.join(financialPurchaseFilters(c), sql` and `)}`,
      ),
      one(
        sql`select count(distinct i.purchase_id)::int as purchases
          from purchase_items i join purchases p on p.id = i.purchase_id and p.club_id = ${c.clubId}
          where i.club_id = ${c.clubId} and ${sql.join(financialPurchaseFilters(c), sql` and `)}
            and ${inList(sql`i.item_type`, c.q.itemType ?? [])}`,
      ),
    ]);
    return { purchases: Number(count?.purchases ?? 0), fee: Number(fee?.fee ?? 0) };
  },
};

// ---------------------------------------------------------------- cash

/**
 * Cash transactions (`getCashTransactions`): cash sessions at the terminals
 * begun in the period (seed 001 §4 cash flow): inserted, credited to the
 * balance, change due, change that could not be paid (payout error), excess kept.
 */
export const cashTransactionsReport: ReportDefinition = {
  meta: REPORTS.cashTransactions,
  from: (c) => sql`cash_sessions s
    left join clients c on c.id = s.client_id and c.club_id = ${c.clubId}
    left join terminals t on t.id = s.terminal_id and t.club_id = ${c.clubId}`,
  at: sql`s.started_at`,
  where: (c) => [
    sql`s.club_id = ${c.clubId}`,
    ...filters(c, { terminalId: sql`s.terminal_id`, clientId: sql`s.client_id` }),
  ],
  select: {
    id: sql`s.id`,
    at: sql`s.started_at`,
    terminalName: sql`t.name`,
    clientId: sql`s.client_id`,
    clientNumber: sql`c.number`,
    clientName: clientName('c'),
    state: sql`s.state`,
    amountDue: sql`s.amount_due`,
    inserted: sql`s.inserted`,
    credited: sql`s.credited`,
    changeDue: sql`s.change_due`,
    unpaid: sql`s.unpaid`,
    excess: sql`s.excess`,
  },
  sort: {
    at: [sql`s.started_at`],
    terminal: [sql`t.name`, sql`s.started_at`],
    client: [sql`c.last_name`, sql`c.first_name`, sql`s.started_at`],
    inserted: [sql`s.inserted`, sql`s.started_at`],
  },
  tiebreak: [sql`s.id`],
  totals: {
    count: sql`count(*)::int`,
    inserted: sql`coalesce(sum(s.inserted), 0)::bigint`,
    credited: sql`coalesce(sum(s.credited), 0)::bigint`,
    changeDue: sql`coalesce(sum(s.change_due), 0)::bigint`,
    unpaid: sql`coalesce(sum(s.unpaid), 0)::bigint`,
    excess: sql`coalesce(sum(s.excess), 0)::bigint`,
  },
};

/** Cash management (`getResetCashLevels`): every emptying of a terminal's cash box in the period, by whom, how much. */
export const cashManagementReport: ReportDefinition = {
  meta: REPORTS.cashManagement,
  from: (c) => sql`cash_resets r
    left join terminals t on t.id = r.terminal_id and t.club_id = ${c.clubId}
    left join users u on u.id = r.user_id and u.club_id = ${c.clubId}`,
  at: sql`r.at`,
  where: (c) => [
    sql`r.club_id = ${c.clubId}`,
    ...filters(c, { terminalId: sql`r.terminal_id`, userId: sql`r.user_id` }),
  ],
  select: {
    id: sql`r.id`,
    at: sql`r.at`,
    terminalName: sql`t.name`,
    userName: sql`nullif(u.name, '')`,
    cashBoxTotal: sql`r.cash_box_total`,
    excessAmount: sql`r.excess_amount`,
    excessCount: sql`r.excess_count`,
  },
  sort: {
    at: [sql`r.at`],
    terminal: [sql`t.name`, sql`r.at`],
    cashBoxTotal: [sql`r.cash_box_total`, sql`r.at`],
  },
  tiebreak: [sql`r.id`],
  totals: {
    count: sql`count(*)::int`,
    cashBoxTotal: sql`coalesce(sum(r.cash_box_total), 0)::bigint`,
    excessAmount: sql`coalesce(sum(r.excess_amount), 0)::bigint`,
    excessCount: sql`coalesce(sum(r.excess_count), 0)::int`,
  },
  breakdowns: {
    byTerminal: {
      by: sql`coalesce(t.name, '#' || r.terminal_id)`,
      value: sql`coalesce(sum(r.cash_box_total), 0)::bigint`,
    },
  },
};

// ---------------------------------------------------------------- automatic renewal

/** Automatic renewal history (`GetAutoRenewSubscriptionLogs`): every attempt of the period (seed 001 §4), success or error. */
export const autoRenewalReport: ReportDefinition = {
  meta: REPORTS.autoRenewal,
  from: (c) => sql`auto_renew_logs l left join clients c on c.id = l.client_id and c.club_id = ${c.clubId}`,
  at: sql`l.at`,
  where: (c) => {
    const w = [sql`l.club_id = ${c.clubId}`, ...filters(c, { clientId: sql`l.client_id` })];
    if (c.q.success !== undefined) w.push(sql`l.success = ${c.q.success}`);
    return w;
  },
  select: {
    id: sql`l.id`,
    at: sql`l.at`,
    clientId: sql`l.client_id`,
    clientNumber: sql`c.number`,
    clientName: clientName('c'),
    success: sql`l.success`,
    error: sql`l.error`,
    amount: sql`l.amount`,
    startDate: sql`l.start_date::text`,
    endDate: sql`l.end_date::text`,
    purchaseId: sql`l.purchase_id`,
    debtId: sql`l.debt_id`,
  },
  sort: {
    at: [sql`l.at`],
    client: [sql`c.last_name`, sql`c.first_name`, sql`l.at`],
    success: [sql`l.success`, sql`l.at`],
    amount: [sql`l.amount`, sql`l.at`],
  },
  tiebreak: [sql`l.id`],
  totals: {
    count: sql`count(*)::int`,
    succeeded: sql`(count(*) filter (where l.success))::int`,
    failed: sql`(count(*) filter (where not l.success))::int`,
    amount: sql`coalesce(sum(l.amount) filter (where l.success), 0)::bigint`,
  },
};

// ---------------------------------------------------------------- quick exit

/**
 * Quick exit (`GetQuickExitsReport`): the recorded quick exits of the period
 * (by exit time; docs/entrance-reasons.md "Quick exit"): the stay, the
 * outcome and the money credited back. Status filter = outcome types.
 */
export const quickExitsReport: ReportDefinition = {
  meta: REPORTS.quickExits,
  from: (c) => sql`quick_exits q
    left join clients c on c.id = q.client_id and c.club_id = ${c.clubId}
    left join terminals t on t.id = q.terminal_id and t.club_id = ${c.clubId}`,
  at: sql`q.exit_at`,
  where: (c) => {
    const w = [
      sql`q.club_id = ${c.clubId}`,
      ...filters(c, { terminalId: sql`q.terminal_id`, clientId: sql`q.client_id` }),
    ];
    if (c.q.status?.length) w.push(inList(sql`q.type`, c.q.status));
    return w;
  },
  select: {
    id: sql`q.id`,
    at: sql`q.exit_at`,
    clientId: sql`q.client_id`,
    clientNumber: sql`c.number`,
    clientName: clientName('c'),
    terminalName: sql`t.name`,
    type: sql`q.type`,
    entranceAt: sql`q.entrance_at`,
    durationMinutes: sql`q.duration_minutes`,
    rewardAmount: sql`q.reward_amount`,
  },
  sort: {
    at: [sql`q.exit_at`],
    client: [sql`c.last_name`, sql`c.first_name`, sql`q.exit_at`],
    terminal: [sql`t.name`, sql`q.exit_at`],
    type: [sql`q.type`, sql`q.exit_at`],
    durationMinutes: [sql`q.duration_minutes`, sql`q.exit_at`],
    rewardAmount: [sql`q.reward_amount`, sql`q.exit_at`],
  },
  tiebreak: [sql`q.id`],
  totals: {
    count: sql`count(*)::int`,
    rewarded: sql`(count(*) filter (where q.reward_amount > 0))::int`,
    rewardAmount: sql`coalesce(sum(q.reward_amount), 0)::bigint`,
    averageMinutes: sql`coalesce(round(avg(q.duration_minutes)), 0)::int`,
  },
  breakdowns: { byType: { by: sql`q.type`, value: sql`count(*)::int` } },
};

// ---------------------------------------------------------------- manager activity

/** Manager activity (`GetManagerActivityReport`): the audit rows of the club's staff in the period (DESIGN §10), newest first. */
export const managerActivityReport: ReportDefinition = {
  meta: REPORTS.managerActivity,
  from: (c) =>
    sql`audit_log l left join users u on u.id = l.user_id and (u.club_id = ${c.clubId} or u.club_id is null)`,
  at: sql`l.at`,
  where: (c) => [sql`l.club_id = ${c.clubId}`, ...filters(c, { userId: sql`l.user_id` })],
  select: {
    id: sql`l.id`,
    at: sql`l.at`,
    userName: sql`coalesce(nullif(u.name, ''), u.username)`,
    action: sql`l.action`,
    entity: sql`l.entity`,
    entityId: sql`l.entity_id`,
    ip: sql`l.ip`,
  },
  sort: {
    at: [sql`l.at`],
    user: [sql`coalesce(nullif(u.name, ''), u.username)`, sql`l.at`],
    action: [sql`l.action`, sql`l.at`],
    entity: [sql`l.entity`, sql`l.at`],
  },
  tiebreak: [sql`l.id`],
  totals: { count: sql`count(*)::int`, users: sql`count(distinct l.user_id)::int` },
  breakdowns: { byEntity: { by: sql`l.entity`, value: sql`count(*)::int` } },
};

// ---------------------------------------------------------------- products

/**
 * Product lines (item type 10) of the club's purchases of the period that
 * were not refunded, with the call's terminal, seller and product filters,
 * as a subquery `l`: the line's `purchase_id`, `item_id`, `name`,
 * `quantity`, `amount_before_vat`, `price_with_vat` and `first` (1 on
 * exactly one line of each purchase, else 0: `sum(l.first)` counts the
 * purchases once, and adds up over any grouping a purchase does not
 * straddle, such as its terminal). The period's purchase ids are collected
 * first (purchases_club_at) and their lines read by purchase id in one
 * index-only scan of purchase_items_purchase (`= any(array(...))`, keys in
 * order): the cost follows the club's period, never the size of
 * purchase_items (a hash join would scan every club's lines), and the
 * window needs no sort (docs/reports.md "Speed").
 */
function productLineRows(c: ReportContext): SQL {
  const purchases = [
    sql`p.club_id = ${c.clubId}`,
    notRefunded,
    sql`p.at >= ${c.range.start}`,
    sql`p.at < ${c.range.end}`,
    ...filters(c, { terminalId: sql`p.terminal_id`, userId: sql`p.user_id` }),
  ];
  return sql`(select i.purchase_id, i.item_id, i.name, i.quantity, i.amount_before_vat, i.price_with_vat,
        (row_number() over (partition by i.purchase_id) = 1)::int as first
      from purchase_items i
      where i.purchase_id = any(array(select p.id from purchases p where ${sql.join(purchases, sql` and `)}))
        and i.club_id = ${c.clubId} and i.item_type = 10
        ${c.q.productId ? sql`and i.item_id = ${c.q.productId}` : sql``}) l`;
}

/**
 * The period's product lines ({@link productLineRows}) per product, and per
 * terminal too for the matrix (`byTerminal`: the purchase's terminal, by its
 * id), as a subquery `s`: `item_id` (and `terminal_id`), `line_name` (the
 * lines' name, for a product that is gone), `purchases` (distinct),
 * `firsts`, `quantity`, `before_vat`, `total` (minor units, VAT included).
 */
function productLines(c: ReportContext, byTerminal: boolean): SQL {
  return sql`(select l.item_id${byTerminal ? sql`, p.terminal_id` : sql``},
      max(nullif(l.name, '')) as line_name,
      count(distinct l.purchase_id)::int as purchases,
      sum(l.first)::int as firsts,
      sum(l.quantity)::bigint as quantity,
      sum(l.amount_before_vat)::bigint as before_vat,
      sum(l.price_with_vat)::bigint as total
    from ${productLineRows(c)}
    ${byTerminal ? sql`join purchases p on p.id = l.purchase_id and p.club_id = ${c.clubId}` : sql``}
    group by l.item_id${byTerminal ? sql`, p.terminal_id` : sql``}) s`;
}

/** A product's current name, the lines' name when the product row is gone. */
const productName = sql`coalesce(pr.name, s.line_name)`;

/**
 * The period's product lines per product, and per terminal too for the
 * matrix (`byTerminal`), from the daily summary `product_daily` (schema.ts;
 * kept by triggers, migration 0019) by local day, terminal, seller and
 * product — every filter these reports take is one of its keys, so the cost
 * follows the number of days and products, never the period's lines. A
 * subquery `s`: `item_id` (null for lines without one), `terminal_id` (null
 * = the console), `line_name` (the greatest non-empty name of the period's
 * lines, for a product whose row is gone), `purchases` (with such a line),
 * `quantity`, `before_vat`, `total` (minor units, VAT included) and `firsts`:
 * the purchases with a product line counted once — on the row with the
 * least product id of each terminal (over all rows without `byTerminal`),
 * 0 on the others — so `sum(firsts)` counts each purchase once over any
 * grouping a purchase does not straddle (its terminal).
 */
function productCells(c: ReportContext, byTerminal: boolean): SQL {
  const w = (kinds: SQL, pid: boolean): SQL => {
    const x = [
      sql`f.club_id = ${c.clubId}`,
      sql`f.kind ${kinds}`,
      sql`f.day >= ${c.range.from}::date`,
      sql`f.day <= ${c.range.to}::date`,
    ];
    if (c.q.terminalId) x.push(sql`f.terminal_id = ${c.q.terminalId}`);
    if (c.q.userId) x.push(sql`f.user_id = ${c.q.userId}`);
    if (pid && c.q.productId) x.push(sql`f.item_id = ${c.q.productId}`);
    return sql.join(x, sql` and `);
  };
  const t = byTerminal ? sql`nullif(f.terminal_id, 0)` : sql`null::int`;
  // With a product filter a purchase counts once in its product's row; else the purchases of kind 0.
  const firsts = c.q.productId
    ? sql`k.purchases`
    : sql`case when k.item_id = min(k.item_id) over (partition by k.terminal_id) then coalesce(z.n, 0) else 0 end`;
  return sql`(select nullif(k.item_id, 0) as item_id, k.terminal_id, k.line_name, k.purchases, k.quantity, k.before_vat,
        k.total, (${firsts})::int as firsts
      from (select f.item_id, ${t} as terminal_id,
          max(f.name) filter (where f.kind = 2 and f.purchases > 0) as line_name,
          (sum(f.purchases) filter (where f.kind = 1))::int as purchases,
          (sum(f.quantity) filter (where f.kind = 1))::bigint as quantity,
          (sum(f.amount_before_vat) filter (where f.kind = 1))::bigint as before_vat,
          (sum(f.total) filter (where f.kind = 1))::bigint as total
        from product_daily f where ${w(sql`in (1, 2)`, true)}
        group by 1, 2 having sum(f.purchases) filter (where f.kind = 1) > 0) k
      ${
        c.q.productId
          ? sql``
          : sql`left join (select ${t} as terminal_id, sum(f.purchases) as n from product_daily f
              where ${w(sql`= 0`, false)} group by 1) z on z.terminal_id is not distinct from k.terminal_id`
      }) s`;
}

/**
 * Products (`GetProductsReport`): product lines (item type 10) of the
 * purchases of the period that were not refunded, one row per product, by
 * the product's current name (the line's name when the product is gone).
 * The rows come from the daily summary (`productCells`); `purchases` in the
 * totals counts each purchase once however many products it has.
 */
export const productsReport: ReportDefinition = {
  meta: REPORTS.products,
  from: (c) => sql`${productCells(c, false)}
    left join products pr on pr.id = s.item_id and pr.club_id = ${c.clubId}`,
  at: null,
  where: () => [sql`true`],
  select: {
    productId: sql`s.item_id`,
    productName,
    purchases: sql`s.purchases`,
    quantity: sql`s.quantity::int`,
    amountBeforeVat: sql`s.before_vat`,
    vat: sql`(s.total - s.before_vat)`,
    total: sql`s.total`,
  },
  sort: {
    productName: [productName],
    quantity: [sql`s.quantity`],
    total: [sql`s.total`],
  },
  tiebreak: [sql`s.item_id`],
  totals: {
    purchases: sql`coalesce(sum(s.firsts), 0)::int`,
    quantity: sql`coalesce(sum(s.quantity), 0)::int`,
    amountBeforeVat: sql`coalesce(sum(s.before_vat), 0)::bigint`,
    vat: sql`coalesce(sum(s.total - s.before_vat), 0)::bigint`,
    total: sql`coalesce(sum(s.total), 0)::bigint`,
  },
};

// ---------------------------------------------------------------- payout errors

/**
 * Payout-error (surplus) purchases (`GetPayoutErrorPurchases`): cash
 * sessions of the period whose change could not be paid out (seed 001 §4):
 * what the club owes the client.
 */
export const payoutErrorsReport: ReportDefinition = {
  ...cashTransactionsReport,
  meta: REPORTS.payoutErrors,
  where: (c) => [...cashTransactionsReport.where(c), sql`s.unpaid > 0`],
  select: { ...cashTransactionsReport.select, error: sql`s.error` },
  sort: {
    at: cashTransactionsReport.sort.at,
    terminal: cashTransactionsReport.sort.terminal,
    client: cashTransactionsReport.sort.client,
    unpaid: [sql`s.unpaid`, sql`s.started_at`],
  },
  totals: {
    count: sql`count(*)::int`,
    inserted: sql`coalesce(sum(s.inserted), 0)::bigint`,
    unpaid: sql`coalesce(sum(s.unpaid), 0)::bigint`,
  },
};

// ---------------------------------------------------------------- product summary

/**
 * Product summary (`GetProductSummaryReport`): the club's product catalogue
 * (not deleted, plus deleted products sold in the period), one row per
 * product with its price and state and what its lines (item type 10) of the
 * period's purchases that were not refunded sold: purchases, units, before
 * VAT, VAT, total (minor units) — zero for a product that did not sell.
 * Lines whose product row no longer exists are in the products report only.
 */
export const productSummaryReport: ReportDefinition = {
  meta: REPORTS.productSummary,
  // The period's product lines aggregated per product (productLines), joined to the catalogue.
  from: (c) => sql`products pr left join ${productLines(c, false)} on s.item_id = pr.id`,
  at: null,
  where: (c) => {
    const w = [sql`pr.club_id = ${c.clubId}`, sql`(pr.deleted = false or s.item_id is not null)`];
    if (c.q.productId) w.push(sql`pr.id = ${c.q.productId}`);
    return w;
  },
  select: {
    productId: sql`pr.id`,
    productName: sql`pr.name`,
    price: sql`pr.price`,
    active: sql`(pr.active and not pr.deleted)`,
    purchases: sql`coalesce(s.purchases, 0)`,
    quantity: sql`coalesce(s.quantity, 0)`,
    amountBeforeVat: sql`coalesce(s.before_vat, 0)`,
    vat: sql`coalesce(s.total - s.before_vat, 0)`,
    total: sql`coalesce(s.total, 0)`,
  },
  sort: {
    productName: [sql`pr.name`],
    quantity: [sql`coalesce(s.quantity, 0)`, sql`pr.name`],
    total: [sql`coalesce(s.total, 0)`, sql`pr.name`],
  },
  tiebreak: [sql`pr.id`],
  totals: {
    products: sql`count(*)::int`,
    sold: sql`(count(*) filter (where s.quantity > 0))::int`,
    quantity: sql`coalesce(sum(s.quantity), 0)::bigint`,
    amountBeforeVat: sql`coalesce(sum(s.before_vat), 0)::bigint`,
    vat: sql`coalesce(sum(s.total - s.before_vat), 0)::bigint`,
    total: sql`coalesce(sum(s.total), 0)::bigint`,
  },
};

// ---------------------------------------------------------------- licenses used

/**
 * Licenses used (`GetLicensesUsedReport`): License lines (item type 6) of the
 * purchases of the period that were not refunded — one row per line: who got
 * how many license-years from the club's pool, until when (the line's
 * expiry), for how much (minor units, VAT included), sold by whom.
 */
export const licensesUsedReport: ReportDefinition = {
  meta: REPORTS.licensesUsed,
  // The club's license lines (purchase_items_license, a partial index: few lines) and their purchases by id.
  from: (c) => sql`purchase_items i
    join purchases p on p.id = i.purchase_id and p.club_id = ${c.clubId}
    left join clients c on c.id = p.client_id and c.club_id = ${c.clubId}
    left join users u on u.id = p.user_id and u.club_id = ${c.clubId}`,
  at: sql`p.at`,
  where: (c) => [
    sql`i.club_id = ${c.clubId}`,
    sql`i.item_type = 6`,
    notRefunded,
    ...filters(c, { terminalId: sql`p.terminal_id`, clientId: sql`p.client_id`, userId: sql`p.user_id` }),
  ],
  select: {
    id: sql`i.id`,
    at: sql`p.at`,
    clientId: sql`p.client_id`,
    clientNumber: sql`c.number`,
    clientName: clientName('c'),
    invoiceNumber: sql`p.invoice_number`,
    quantity: sql`i.quantity`,
    licenseExpiry: sql`to_char(i.expiry, 'YYYY-MM-DD')`,
    total: sql`i.price_with_vat`,
    userName: sql`nullif(u.name, '')`,
  },
  sort: {
    at: [sql`p.at`],
    client: [sql`c.last_name`, sql`c.first_name`, sql`p.at`],
    quantity: [sql`i.quantity`, sql`p.at`],
    licenseExpiry: [sql`i.expiry`, sql`p.at`],
    total: [sql`i.price_with_vat`, sql`p.at`],
  },
  tiebreak: [sql`i.id`],
  totals: {
    count: sql`count(*)::int`,
    quantity: sql`coalesce(sum(i.quantity), 0)::int`,
    clients: sql`count(distinct p.client_id)::int`,
    total: sql`coalesce(sum(i.price_with_vat), 0)::bigint`,
  },
};

// ---------------------------------------------------------------- product matrix

/**
 * Product matrix (`GetProductMatrixReport`, "Product purchases by clubs",
 * seed 000 §2): product lines (item type 10) of the period's purchases that
 * were not refunded, one row per cell product × terminal where it was sold
 * (terminal null = sold in the console, named "Management console" in the
 * caller's `lang`): purchases, units, before VAT, VAT,
 * total (minor units). A console user sees one club, so the club axis of the
 * seed's title is the club's selling points (docs/reports.md "Decisions").
 * `byTerminal`: total per terminal name ('' = console).
 */
export const productMatrixReport: ReportDefinition = {
  meta: REPORTS.productMatrix,
  // The period's cells from the daily summary (productCells), then named.
  from: (c) => sql`${productCells(c, true)}
    left join products pr on pr.id = s.item_id and pr.club_id = ${c.clubId}
    left join terminals t on t.id = s.terminal_id and t.club_id = ${c.clubId}`,
  at: null,
  where: () => [sql`true`],
  select: {
    productId: sql`s.item_id`,
    productName,
    terminalId: sql`s.terminal_id`,
    terminalName: sql`t.name`,
    purchases: sql`s.purchases`,
    quantity: sql`s.quantity::int`,
    amountBeforeVat: sql`s.before_vat`,
    vat: sql`(s.total - s.before_vat)`,
    total: sql`s.total`,
  },
  sort: {
    productName: [productName, sql`t.name`],
    terminal: [sql`t.name`, productName],
    quantity: [sql`s.quantity`],
    total: [sql`s.total`],
  },
  tiebreak: [sql`s.item_id`, sql`s.terminal_id`],
  post: { terminalName: (v, c) => v ?? (c.q.lang === 'he' ? 'קונסולת הניהול' : 'Management console') },
  totals: {
    cells: sql`count(*)::int`,
    // Each purchase once (its lines are all at its terminal, so this also adds up per terminal).
    purchases: sql`coalesce(sum(s.firsts), 0)::int`,
    quantity: sql`coalesce(sum(s.quantity), 0)::int`,
    amountBeforeVat: sql`coalesce(sum(s.before_vat), 0)::bigint`,
    vat: sql`coalesce(sum(s.total - s.before_vat), 0)::bigint`,
    total: sql`coalesce(sum(s.total), 0)::bigint`,
  },
  breakdowns: {
    byTerminal: { by: sql`coalesce(t.name, '')`, value: sql`coalesce(sum(s.total), 0)::bigint` },
  },
  // Every total adds up over terminals: byTerminal comes from the totals' scan.
  additive: true,
};

// ---------------------------------------------------------------- excess status

/** When the excess of session `s` left the terminal: the first emptying of its cash box after the session settled. */
const excessCollectedAt = (c: ReportContext): SQL =>
  sql`(select min(r.at) from cash_resets r where r.club_id = ${c.clubId} and r.terminal_id = s.terminal_id and r.at >= s.updated_at)`;

/**
 * Excess status (`GetExcessStatusReport`): cash sessions of the period that
 * kept an excess (overpayment above the club's maxCashOverpayment,
 * docs/cash.md step 4), per client, with its state: 1 still in the
 * terminal's excess box, 2 collected (the box was emptied by
 * CreateResetCashLevels after the session settled; `collectedAt`). Status
 * filter = these states. Money in minor units.
 */
export const excessStatusReport: ReportDefinition = {
  meta: REPORTS.excessStatus,
  from: (c) => sql`(select s.*, ${excessCollectedAt(c)} as collected_at
      from cash_sessions s where s.club_id = ${c.clubId} and s.excess > 0) x
    left join clients c on c.id = x.client_id and c.club_id = ${c.clubId}
    left join terminals t on t.id = x.terminal_id and t.club_id = ${c.clubId}`,
  at: sql`x.started_at`,
  where: (c) => {
    const w = [
      sql`x.club_id = ${c.clubId}`,
      ...filters(c, { terminalId: sql`x.terminal_id`, clientId: sql`x.client_id` }),
    ];
    const st = c.q.status ?? [];
    if (st.length && !(st.includes(1) && st.includes(2))) {
      if (st.includes(1)) w.push(sql`x.collected_at is null`);
      else if (st.includes(2)) w.push(sql`x.collected_at is not null`);
      else w.push(sql`false`);
    }
    return w;
  },
  select: {
    id: sql`x.id`,
    at: sql`x.started_at`,
    terminalName: sql`t.name`,
    clientId: sql`x.client_id`,
    clientNumber: sql`c.number`,
    clientName: clientName('c'),
    amountDue: sql`x.amount_due`,
    inserted: sql`x.inserted`,
    excess: sql`x.excess`,
    excessState: sql`case when x.collected_at is null then 1 else 2 end`,
    collectedAt: sql`x.collected_at`,
  },
  sort: {
    at: [sql`x.started_at`],
    terminal: [sql`t.name`, sql`x.started_at`],
    client: [sql`c.last_name`, sql`c.first_name`, sql`x.started_at`],
    excess: [sql`x.excess`, sql`x.started_at`],
    excessState: [sql`(x.collected_at is not null)`, sql`x.started_at`],
  },
  tiebreak: [sql`x.id`],
  totals: {
    count: sql`count(*)::int`,
    excess: sql`coalesce(sum(x.excess), 0)::bigint`,
    inBox: sql`coalesce(sum(x.excess) filter (where x.collected_at is null), 0)::bigint`,
    collected: sql`coalesce(sum(x.excess) filter (where x.collected_at is not null), 0)::bigint`,
  },
  breakdowns: {
    byState: {
      by: sql`case when x.collected_at is null then 1 else 2 end`,
      value: sql`coalesce(sum(x.excess), 0)::bigint`,
    },
  },
  additive: true,
};

// ---------------------------------------------------------------- cash status

/** Value of an inventory `{denomination in agorot: pieces}` (jsonb) in minor units. */
const inventoryValue = (col: SQL): SQL =>
  sql`coalesce((select sum(k::bigint * v::bigint) from jsonb_each_text(${col}) as inv(k, v)), 0)`;

/**
 * Cash status (`GetCashStatusReport`): every terminal of the club (not
 * deleted) with the cash it holds now (docs/cash.md "Inventories"): the coin
 * hopper and bill recycler (change float), the cash box, the excess box
 * (amount and count), all of it together (`cashTotal`), the last emptying,
 * and the cash inserted in sessions begun in the period (`insertedInPeriod`).
 * The period limits only that last figure (the rows are terminals, `at: null`).
 * A terminal that never handled cash shows zeros. Money in minor units.
 */
export const cashStatusReport: ReportDefinition = {
  meta: REPORTS.cashStatus,
  from: (c) => sql`(select t.id, t.name,
        ${inventoryValue(sql`tc.coins`)} as coins,
        ${inventoryValue(sql`tc.bills`)} as bills,
        ${inventoryValue(sql`tc.cash_box`)} as cash_box,
        coalesce(tc.excess_amount, 0) as excess_amount,
        coalesce(tc.excess_count, 0) as excess_count,
        tc.last_reset_at,
        coalesce((select sum(s.inserted) from cash_sessions s
           where s.club_id = ${c.clubId} and s.terminal_id = t.id
             and s.started_at >= ${c.range.start} and s.started_at < ${c.range.end}), 0) as inserted
      from terminals t
      left join terminal_cash tc on tc.terminal_id = t.id and tc.club_id = ${c.clubId}
      where t.club_id = ${c.clubId} and t.deleted = false) k`,
  at: null,
  where: (c) => [sql`true`, ...filters(c, { terminalId: sql`k.id` })],
  select: {
    terminalId: sql`k.id`,
    terminalName: sql`k.name`,
    coins: sql`k.coins`,
    bills: sql`k.bills`,
    cashBoxTotal: sql`k.cash_box`,
    excessAmount: sql`k.excess_amount`,
    excessCount: sql`k.excess_count`,
    cashTotal: sql`(k.coins + k.bills + k.cash_box + k.excess_amount)`,
    insertedInPeriod: sql`k.inserted`,
    lastResetAt: sql`k.last_reset_at`,
  },
  sort: {
    terminal: [sql`k.name`],
    cashBoxTotal: [sql`k.cash_box`, sql`k.name`],
    cashTotal: [sql`(k.coins + k.bills + k.cash_box + k.excess_amount)`, sql`k.name`],
    insertedInPeriod: [sql`k.inserted`, sql`k.name`],
  },
  tiebreak: [sql`k.id`],
  totals: {
    terminals: sql`count(*)::int`,
    coins: sql`coalesce(sum(k.coins), 0)::bigint`,
    bills: sql`coalesce(sum(k.bills), 0)::bigint`,
    cashBoxTotal: sql`coalesce(sum(k.cash_box), 0)::bigint`,
    excessAmount: sql`coalesce(sum(k.excess_amount), 0)::bigint`,
    excessCount: sql`coalesce(sum(k.excess_count), 0)::int`,
    cashTotal: sql`coalesce(sum(k.coins + k.bills + k.cash_box + k.excess_amount), 0)::bigint`,
    insertedInPeriod: sql`coalesce(sum(k.inserted), 0)::bigint`,
  },
};

// ---------------------------------------------------------------- loaded licenses

/**
 * Loaded licenses (`GetLoadedLicensesReport`, "Licenses loaded by manager",
 * seed 000 §2): license-years added to the club's pool in the period
 * (docs/money.md "Licenses"): card orders that were paid (source 1) and bank
 * transfer requests approved and loaded by the operator (source 2, status
 * ApprovedLoaded), by the day the order or request was made. Quantity,
 * unit price, amount paid (minor units, as charged), the order code or
 * transfer reference, the user who filed the request. Status filter = sources.
 */
export const loadedLicensesReport: ReportDefinition = {
  meta: REPORTS.loadedLicenses,
  from: (c) => sql`(
    select 'o' || o.id as id, o.created_at as at, 1 as source, o.quantity, o.amount,
           case when o.quantity > 0 then o.amount / o.quantity end as price,
           o.code as reference, null::int as user_id
      from license_orders o
     where o.club_id = ${c.clubId} and o.status = 'paid'
    union all
    select 'r' || r.id, r.created_at, 2, r.quantity, r.amount, r.price, r.reference, r.user_id
      from license_requests r
     where r.club_id = ${c.clubId} and r.status = ${LicenseRequestStatus.ApprovedLoaded}
  ) l
    left join users u on u.id = l.user_id and u.club_id = ${c.clubId}`,
  at: sql`l.at`,
  where: (c) => {
    const w = [sql`true`];
    if (c.q.status?.length) w.push(inList(sql`l.source`, c.q.status));
    return w;
  },
  select: {
    id: sql`l.id`,
    at: sql`l.at`,
    source: sql`l.source`,
    quantity: sql`l.quantity`,
    price: sql`l.price`,
    amount: sql`l.amount`,
    reference: sql`nullif(l.reference, '')`,
    userName: sql`nullif(u.name, '')`,
  },
  sort: {
    at: [sql`l.at`],
    source: [sql`l.source`, sql`l.at`],
    quantity: [sql`l.quantity`, sql`l.at`],
    amount: [sql`l.amount`, sql`l.at`],
  },
  tiebreak: [sql`l.id`],
  totals: {
    count: sql`count(*)::int`,
    quantity: sql`coalesce(sum(l.quantity), 0)::int`,
    amount: sql`coalesce(sum(l.amount), 0)::bigint`,
  },
  breakdowns: { bySource: { by: sql`l.source`, value: sql`coalesce(sum(l.quantity), 0)::int` } },
  additive: true,
};

// ---------------------------------------------------------------- safer payments

/**
 * Safer payments (`GetSaferPaymentsReport`, seed 000 §2
 * /reports/app-safer-payments; docs/money.md "Clearing provider and safer
 * payments"): the club's card charges whose outcome was not known when they
 * were made (status uncertain or pending) or that the reconciliation settled
 * (`reconciled_at` set), by the instant of the charge. `saferState`:
 * 1 awaiting the provider, 2 charged and refunded (`charged-refunded`, or
 * `orphan-refunded`: approved, but the request died before its purchase),
 * 3 charged and the refund failed (`charged-refund-failed`: money taken with
 * no purchase, for the manager), 4 not charged. Amounts in minor units; the
 * status filter takes the states; `reference` is the charge's idempotency key
 * (what the provider knows it by).
 */
const saferState = sql`(case k.reconcile_result
    when 'charged-refunded' then 2 when 'orphan-refunded' then 2 when 'charged-refund-failed' then 3
    else case when k.reconciled_at is not null then 4 else 1 end end)`;
export const saferPaymentsReport: ReportDefinition = {
  meta: REPORTS.saferPayments,
  from: (c) => sql`charges k
    left join clients c on c.id = k.client_id and c.club_id = ${c.clubId}`,
  at: sql`k.created_at`,
  where: (c) => {
    const w = [
      sql`k.club_id = ${c.clubId}`,
      sql`(k.status in ('uncertain', 'pending', 'refunding') or k.reconciled_at is not null)`,
      ...filters(c, { clientId: sql`k.client_id` }),
    ];
    if (c.q.status?.length) w.push(inList(saferState, c.q.status));
    return w;
  },
  select: {
    id: sql`k.id`,
    at: sql`k.created_at`,
    clientId: sql`k.client_id`,
    clientNumber: sql`c.number`,
    clientName: clientName('c'),
    amount: sql`k.amount`,
    brand: sql`nullif(k.brand, '')`,
    lastFour: sql`nullif(k.last_four, '')`,
    saferState,
    reconciledAt: sql`k.reconciled_at`,
    reference: sql`k.idempotency_key`,
  },
  sort: {
    at: [sql`k.created_at`],
    client: [sql`c.last_name`, sql`c.first_name`, sql`k.created_at`],
    amount: [sql`k.amount`, sql`k.created_at`],
    saferState: [saferState, sql`k.created_at`],
    reconciledAt: [sql`k.reconciled_at`, sql`k.created_at`],
  },
  tiebreak: [sql`k.id`],
  totals: {
    count: sql`count(*)::int`,
    amount: sql`coalesce(sum(k.amount), 0)::bigint`,
    awaiting: sql`coalesce(sum(k.amount) filter (where ${saferState} = 1), 0)::bigint`,
    refunded: sql`coalesce(sum(k.amount) filter (where ${saferState} = 2), 0)::bigint`,
    refundFailed: sql`coalesce(sum(k.amount) filter (where ${saferState} = 3), 0)::bigint`,
    notCharged: sql`coalesce(sum(k.amount) filter (where ${saferState} = 4), 0)::bigint`,
  },
  breakdowns: { byState: { by: saferState, value: sql`count(*)::int` } },
  additive: true,
};

// ---------------------------------------------------------------- add-licenses requests

/**
 * Add-licenses requests (`GetAddLicensesRequestReport`, seed 000 §2 other
 * screens, §7; seed 001 §3 "License request (bank transfer)"): the club's
 * bank-transfer license requests filed in the period, every status
 * (LicenseRequestStatus 1 Pending … 5 CancelledByManager): licenses asked,
 * price per license-year and transfer amount (minor units), transfer date,
 * reference, payer bank ("code · name" in the caller's `lang`; branch and
 * account stay encrypted), status,
 * the user who filed it. Totals: `pending` = requests still Pending, `loaded`
 * = licenses of requests ApprovedLoaded. The status filter takes the statuses.
 */
export const addLicensesRequestsReport: ReportDefinition = {
  meta: REPORTS.addLicensesRequests,
  from: (c) => sql`license_requests r
    left join users u on u.id = r.user_id and u.club_id = ${c.clubId}`,
  at: sql`r.created_at`,
  where: (c) => {
    const w = [sql`r.club_id = ${c.clubId}`];
    if (c.q.status?.length) w.push(inList(sql`r.status`, c.q.status));
    return w;
  },
  select: {
    id: sql`r.id`,
    at: sql`r.created_at`,
    quantity: sql`r.quantity`,
    price: sql`r.price`,
    amount: sql`r.amount`,
    transferDate: sql`to_char(r.transfer_date, 'YYYY-MM-DD')`,
    reference: sql`nullif(r.reference, '')`,
    bank: sql`nullif(r.bank_code, '')`,
    status: sql`r.status`,
    userName: sql`nullif(u.name, '')`,
  },
  // The payer's bank as "code · name" in the caller's language (packages/domain banks.ts).
  post: { bank: (v, c) => (v == null ? null : `${String(v)} · ${ISRAELI_BANKS[String(v)]?.[c.q.lang] ?? ''}`.trim()) },
  sort: {
    at: [sql`r.created_at`],
    quantity: [sql`r.quantity`, sql`r.created_at`],
    amount: [sql`r.amount`, sql`r.created_at`],
    transferDate: [sql`r.transfer_date`, sql`r.created_at`],
    status: [sql`r.status`, sql`r.created_at`],
  },
  tiebreak: [sql`r.id`],
  totals: {
    count: sql`count(*)::int`,
    quantity: sql`coalesce(sum(r.quantity), 0)::int`,
    amount: sql`coalesce(sum(r.amount), 0)::bigint`,
    pending: sql`(count(*) filter (where r.status = ${LicenseRequestStatus.Pending}))::int`,
    loaded: sql`coalesce(sum(r.quantity) filter (where r.status = ${LicenseRequestStatus.ApprovedLoaded}), 0)::int`,
  },
  breakdowns: { byStatus: { by: sql`r.status`, value: sql`count(*)::int` } },
  additive: true,
};

/** Every report of the framework, registered by reports.routes.ts. */
export const REPORT_DEFINITIONS: readonly ReportDefinition[] = [
  entrancesReport,
  paymentsReport,
  purchasesReport,
  debtsReport,
  financialReport,
  cashTransactionsReport,
  cashManagementReport,
  autoRenewalReport,
  quickExitsReport,
  activitiesReport,
  clientEntrancesReport,
  managerActivityReport,
  productsReport,
  payoutErrorsReport,
  licensesUsedReport,
  productSummaryReport,
  productMatrixReport,
  excessStatusReport,
  cashStatusReport,
  loadedLicensesReport,
  saferPaymentsReport,
  addLicensesRequestsReport,
];
