// Hand-tuned SQL for the reports of bench/report-framework.bench.mjs that its
// own HAND table does not cover, by report id: (clubId, range, query) => SQL[],
// the same figures as the framework's first page with totals (the 50 rows of
// the default sort, the row count, every total and breakdown), written for
// that report only, each in ONE statement: the totals and the page as JSON
// (`totals`: the report's total keys, `__total` and the breakdowns; `page`:
// the rows with the report's column keys, before the framework's wire
// formatting). bench/report-hand-check.mjs compares them with the framework.
import { sql } from 'drizzle-orm';

/** One statement: `totals` (a one-row aggregate) and `page` (the first 50 rows), as JSON. */
const one = (totals, page) =>
  sql`with t as (${totals}), pg as (${page}) select (select row_to_json(t) from t) as totals,
      (select coalesce(json_agg(pg), '[]') from pg) as page`;

const name = (a) => sql.raw(`nullif(trim(${a}.first_name || ' ' || ${a}.last_name), '')`);

const paidIn = (clubId, r) =>
  sql`p.club_id = ${clubId} and p.payment_status <> 3 and p.at >= ${r.start} and p.at < ${r.end}`;
/**
 * Product lines (item type 10) of the period's purchases that were not refunded: the purchase ids of
 * the period first, then their lines by purchase id in one index-only scan (`= any(array(...))`), and
 * the purchase itself (`p`, by id) only when its terminal is needed.
 */
const productLines = (clubId, r, withPurchase = false) =>
  sql`purchase_items i ${withPurchase ? sql`join purchases p on p.id = i.purchase_id` : sql``}
      where i.purchase_id = any(array(select p.id from purchases p where ${paidIn(clubId, r)}))
        and i.club_id = ${clubId} and i.item_type = 10`;

/** The club's product_daily rows (migration 0019) of the given kinds and the period's local days. */
const productDays = (clubId, r, kinds) =>
  sql`f.club_id = ${clubId} and f.kind in ${sql.raw(kinds)} and f.day >= ${r.from}::date and f.day <= ${r.to}::date`;

export const HAND_MORE = {
  debts: (clubId, r) => [
    one(
      sql`select count(*)::int "__total", count(*)::int count, coalesce(sum(amount), 0)::bigint amount,
            coalesce(sum(paid), 0)::bigint paid, coalesce(sum(greatest(amount - paid, 0)), 0)::bigint open
          from debts where club_id = ${clubId} and not deleted and created_at >= ${r.start} and created_at < ${r.end}`,
      sql`select d.id, d.created_at at, d.client_id "clientId", c.number "clientNumber", ${name('c')} "clientName",
            nullif(d.description, '') description, d.source, nullif(d.return_reason, '') "returnReason", d.amount,
            d.paid, greatest(d.amount - d.paid, 0) open,
            nullif(u.name, '') "userName"
          from debts d left join clients c on c.id = d.client_id and c.club_id = ${clubId}
            left join users u on u.id = d.user_id and u.club_id = ${clubId}
          where d.club_id = ${clubId} and not d.deleted and d.created_at >= ${r.start} and d.created_at < ${r.end}
          order by d.created_at desc, d.id desc limit 50`,
    ),
  ],
  cashTransactions: (clubId, r) => [
    one(
      sql`select count(*)::int "__total", count(*)::int count, coalesce(sum(inserted), 0)::bigint inserted,
            coalesce(sum(credited), 0)::bigint credited, coalesce(sum(change_due), 0)::bigint "changeDue",
            coalesce(sum(unpaid), 0)::bigint unpaid, coalesce(sum(excess), 0)::bigint excess
          from cash_sessions where club_id = ${clubId} and started_at >= ${r.start} and started_at < ${r.end}`,
      sql`select s.id, s.started_at at, t.name "terminalName", s.client_id "clientId", c.number "clientNumber",
            ${name('c')} "clientName", s.state, s.amount_due "amountDue", s.inserted, s.credited,
            s.change_due "changeDue", s.unpaid, s.excess
          from cash_sessions s left join clients c on c.id = s.client_id and c.club_id = ${clubId}
            left join terminals t on t.id = s.terminal_id and t.club_id = ${clubId}
          where s.club_id = ${clubId} and s.started_at >= ${r.start} and s.started_at < ${r.end}
          order by s.started_at desc, s.id desc limit 50`,
    ),
  ],
  cashManagement: (clubId, r) => [
    one(
      sql`select coalesce(sum(n), 0)::int "__total", coalesce(sum(n), 0)::int count, coalesce(sum(box), 0)::bigint "cashBoxTotal",
            coalesce(sum(ea), 0)::bigint "excessAmount", coalesce(sum(ec), 0)::int "excessCount",
            coalesce(json_object_agg(k, box) filter (where k is not null), '{}') "byTerminal"
          from (select coalesce(t.name, '#' || r.terminal_id) k, count(*) n, sum(r.cash_box_total) box,
                  sum(r.excess_amount) ea, sum(r.excess_count) ec
                from cash_resets r left join terminals t on t.id = r.terminal_id and t.club_id = ${clubId}
                where r.club_id = ${clubId} and r.at >= ${r.start} and r.at < ${r.end} group by 1) g`,
      sql`select r.id, r.at, t.name "terminalName", nullif(u.name, '') "userName", r.cash_box_total "cashBoxTotal",
            r.excess_amount "excessAmount", r.excess_count "excessCount"
          from cash_resets r left join terminals t on t.id = r.terminal_id and t.club_id = ${clubId}
            left join users u on u.id = r.user_id and u.club_id = ${clubId}
          where r.club_id = ${clubId} and r.at >= ${r.start} and r.at < ${r.end}
          order by r.at desc, r.id desc limit 50`,
    ),
  ],
  autoRenewal: (clubId, r) => [
    one(
      sql`select count(*)::int "__total", count(*)::int count, (count(*) filter (where success))::int succeeded,
            (count(*) filter (where not success))::int failed, coalesce(sum(amount) filter (where success), 0)::bigint amount
          from auto_renew_logs where club_id = ${clubId} and at >= ${r.start} and at < ${r.end}`,
      sql`select l.id, l.at, l.client_id "clientId", c.number "clientNumber", ${name('c')} "clientName", l.success,
            l.error, l.amount, l.start_date::text "startDate", l.end_date::text "endDate", l.purchase_id "purchaseId",
            l.debt_id "debtId"
          from auto_renew_logs l left join clients c on c.id = l.client_id and c.club_id = ${clubId}
          where l.club_id = ${clubId} and l.at >= ${r.start} and l.at < ${r.end}
          order by l.at desc, l.id desc limit 50`,
    ),
  ],
  quickExits: (clubId, r) => [
    one(
      sql`select coalesce(sum(n), 0)::int "__total", coalesce(sum(n), 0)::int count, coalesce(sum(rw), 0)::int rewarded, coalesce(sum(ra), 0)::bigint "rewardAmount",
            coalesce(round(sum(dm)::numeric / nullif(sum(dn), 0)), 0)::int "averageMinutes",
            coalesce(json_object_agg(type, n) filter (where type is not null), '{}') "byType"
          from (select type, count(*) n, count(*) filter (where reward_amount > 0) rw, sum(reward_amount) ra,
                  sum(duration_minutes) dm, count(duration_minutes) dn
                from quick_exits where club_id = ${clubId} and exit_at >= ${r.start} and exit_at < ${r.end} group by type) g`,
      sql`select q.id, q.exit_at at, q.client_id "clientId", c.number "clientNumber", ${name('c')} "clientName",
            t.name "terminalName", q.type, q.entrance_at "entranceAt", q.duration_minutes "durationMinutes",
            q.reward_amount "rewardAmount"
          from quick_exits q left join clients c on c.id = q.client_id and c.club_id = ${clubId}
            left join terminals t on t.id = q.terminal_id and t.club_id = ${clubId}
          where q.club_id = ${clubId} and q.exit_at >= ${r.start} and q.exit_at < ${r.end}
          order by q.exit_at desc, q.id desc limit 50`,
    ),
  ],
  managerActivity: (clubId, r) => [
    one(
      sql`select coalesce(sum(n), 0)::int "__total", coalesce(sum(n), 0)::int count,
            (select count(distinct user_id)::int from audit_log
              where club_id = ${clubId} and at >= ${r.start} and at < ${r.end}) users,
            coalesce(json_object_agg(entity, n) filter (where entity is not null), '{}') "byEntity"
          from (select entity, count(*) n from audit_log
                where club_id = ${clubId} and at >= ${r.start} and at < ${r.end} group by entity) g`,
      sql`select l.id, l.at, coalesce(nullif(u.name, ''), u.username) "userName", l.action, l.entity,
            l.entity_id "entityId", l.ip
          from audit_log l left join users u on u.id = l.user_id and (u.club_id = ${clubId} or u.club_id is null)
          where l.club_id = ${clubId} and l.at >= ${r.start} and l.at < ${r.end}
          order by l.at desc, l.id desc limit 50`,
    ),
  ],
  // The daily summary product_daily: per product (kind 1, names of kind 2) and the purchases with a product line (kind 0).
  products: (clubId, r) => [
    sql`with s as (
          select nullif(f.item_id, 0) item_id, max(f.name) filter (where f.kind = 2 and f.purchases > 0) line_name,
                 (sum(f.purchases) filter (where f.kind = 1))::int purchases, sum(f.quantity)::bigint quantity,
                 sum(f.amount_before_vat)::bigint before_vat, sum(f.total)::bigint total
          from product_daily f where ${productDays(clubId, r, '(1, 2)')}
          group by f.item_id having sum(f.purchases) filter (where f.kind = 1) > 0),
        pg as (
          select s.item_id "productId", coalesce(pr.name, s.line_name) "productName", s.purchases, s.quantity::int quantity,
                 s.before_vat "amountBeforeVat", s.total - s.before_vat vat, s.total
          from s left join products pr on pr.id = s.item_id and pr.club_id = ${clubId}
          order by s.total desc, s.item_id desc limit 50)
        select (select json_build_object('__total', count(*),
                  'purchases', (select coalesce(sum(f.purchases), 0) from product_daily f where ${productDays(clubId, r, '(0)')}),
                  'quantity', coalesce(sum(quantity), 0), 'amountBeforeVat', coalesce(sum(before_vat), 0),
                  'vat', coalesce(sum(total - before_vat), 0), 'total', coalesce(sum(total), 0))
                from s) totals,
               (select coalesce(json_agg(pg), '[]') from pg) page`,
  ],
  payoutErrors: (clubId, r) => [
    one(
      sql`select count(*)::int "__total", count(*)::int count, coalesce(sum(inserted), 0)::bigint inserted,
            coalesce(sum(unpaid), 0)::bigint unpaid
          from cash_sessions where club_id = ${clubId} and started_at >= ${r.start} and started_at < ${r.end} and unpaid > 0`,
      sql`select s.id, s.started_at at, t.name "terminalName", s.client_id "clientId", c.number "clientNumber",
            ${name('c')} "clientName", s.state, s.amount_due "amountDue", s.inserted, s.credited,
            s.change_due "changeDue", s.unpaid, s.excess, s.error
          from cash_sessions s left join clients c on c.id = s.client_id and c.club_id = ${clubId}
            left join terminals t on t.id = s.terminal_id and t.club_id = ${clubId}
          where s.club_id = ${clubId} and s.started_at >= ${r.start} and s.started_at < ${r.end} and s.unpaid > 0
          order by s.started_at desc, s.id desc limit 50`,
    ),
  ],
  productSummary: (clubId, r) => [
    sql`with s as (
          select i.item_id, count(distinct i.purchase_id)::int purchases, sum(i.quantity)::bigint quantity,
                 sum(i.amount_before_vat)::bigint before_vat, sum(i.price_with_vat)::bigint total
          from ${productLines(clubId, r)} group by i.item_id),
        k as (
          select pr.id, pr.name, pr.price, pr.active and not pr.deleted active, coalesce(s.purchases, 0) purchases,
                 coalesce(s.quantity, 0) quantity, coalesce(s.before_vat, 0) before_vat, coalesce(s.total, 0) total
          from products pr left join s on s.item_id = pr.id
          where pr.club_id = ${clubId} and (not pr.deleted or s.item_id is not null)),
        pg as (
          select id "productId", name "productName", price, active, purchases, quantity, before_vat "amountBeforeVat",
                 total - before_vat vat, total
          from k order by total desc, name desc, id desc limit 50)
        select (select json_build_object('__total', count(*), 'products', count(*), 'sold', count(*) filter (where quantity > 0),
                  'quantity', coalesce(sum(quantity), 0), 'amountBeforeVat', coalesce(sum(before_vat), 0),
                  'vat', coalesce(sum(total - before_vat), 0), 'total', coalesce(sum(total), 0)) from k) totals,
               (select coalesce(json_agg(pg), '[]') from pg) page`,
  ],
  // The club's license lines (partial index purchase_items_license) and their purchases of the period, read
  // once: the totals over all, clients and sellers named for the page only.
  licensesUsed: (clubId, r) => [
    sql`with l as materialized (
          select i.id, p.at, p.client_id, p.user_id, p.invoice_number, i.quantity, i.expiry, i.price_with_vat
          from purchase_items i join purchases p on p.id = i.purchase_id
          where i.club_id = ${clubId} and i.item_type = 6 and ${paidIn(clubId, r)}),
        pg as (
          select l.id, l.at, l.client_id "clientId", c.number "clientNumber", ${name('c')} "clientName",
                 l.invoice_number "invoiceNumber", l.quantity, to_char(l.expiry, 'YYYY-MM-DD') "licenseExpiry",
                 l.price_with_vat total, nullif(u.name, '') "userName"
          from (select * from l order by at desc, id desc limit 50) l
            left join clients c on c.id = l.client_id and c.club_id = ${clubId}
            left join users u on u.id = l.user_id and u.club_id = ${clubId}
          order by l.at desc, l.id desc)
        select (select json_build_object('__total', count(*), 'count', count(*), 'quantity', coalesce(sum(quantity), 0),
                  'clients', count(distinct client_id), 'total', coalesce(sum(price_with_vat), 0)) from l) totals,
               (select coalesce(json_agg(pg), '[]') from pg) page`,
  ],
  // The daily summary product_daily per cell (kind 1, names of kind 2) and the purchases with a product line (kind 0).
  productMatrix: (clubId, r) => [
    sql`with s as (
          select nullif(f.item_id, 0) item_id, nullif(f.terminal_id, 0) terminal_id,
                 max(f.name) filter (where f.kind = 2 and f.purchases > 0) line_name,
                 (sum(f.purchases) filter (where f.kind = 1))::int purchases, sum(f.quantity)::bigint quantity,
                 sum(f.amount_before_vat)::bigint before_vat, sum(f.total)::bigint total
          from product_daily f where ${productDays(clubId, r, '(1, 2)')}
          group by f.item_id, f.terminal_id having sum(f.purchases) filter (where f.kind = 1) > 0),
        k as (
          select s.*, coalesce(pr.name, s.line_name) product_name, t.name terminal_name
          from s left join products pr on pr.id = s.item_id and pr.club_id = ${clubId}
            left join terminals t on t.id = s.terminal_id and t.club_id = ${clubId}),
        pg as (
          select item_id "productId", product_name "productName", terminal_id "terminalId", terminal_name "terminalName",
                 purchases, quantity::int quantity, before_vat "amountBeforeVat", total - before_vat vat, total
          from k order by product_name, terminal_name, item_id, terminal_id limit 50),
        bt as (select coalesce(terminal_name, '') k, sum(total) v from k group by 1)
        select (select json_build_object('__total', count(*), 'cells', count(*),
                  'purchases', (select coalesce(sum(f.purchases), 0) from product_daily f where ${productDays(clubId, r, '(0)')}),
                  'quantity', coalesce(sum(quantity), 0), 'amountBeforeVat', coalesce(sum(before_vat), 0),
                  'vat', coalesce(sum(total - before_vat), 0), 'total', coalesce(sum(total), 0),
                  'byTerminal', (select coalesce(json_object_agg(k, v), '{}') from bt)) from k) totals,
               (select coalesce(json_agg(pg), '[]') from pg) page`,
  ],
  excessStatus: (clubId, r) => [
    sql`with x as (
          select s.id, s.started_at, s.terminal_id, s.client_id, s.amount_due, s.inserted, s.excess,
                 (select min(r.at) from cash_resets r where r.club_id = ${clubId} and r.terminal_id = s.terminal_id
                    and r.at >= s.updated_at) collected_at
          from cash_sessions s
          where s.club_id = ${clubId} and s.excess > 0 and s.started_at >= ${r.start} and s.started_at < ${r.end}),
        pg as (
          select x.id, x.started_at at, t.name "terminalName", x.client_id "clientId", c.number "clientNumber",
                 ${name('c')} "clientName", x.amount_due "amountDue", x.inserted, x.excess,
                 case when x.collected_at is null then 1 else 2 end "excessState", x.collected_at "collectedAt"
          from x left join clients c on c.id = x.client_id and c.club_id = ${clubId}
            left join terminals t on t.id = x.terminal_id and t.club_id = ${clubId}
          order by x.started_at desc, x.id desc limit 50)
        select (select json_build_object('__total', count(*), 'count', count(*), 'excess', coalesce(sum(excess), 0),
                  'inBox', coalesce(sum(excess) filter (where collected_at is null), 0),
                  'collected', coalesce(sum(excess) filter (where collected_at is not null), 0),
                  'byState', (select coalesce(json_object_agg(k, v), '{}') from (
                     select case when collected_at is null then 1 else 2 end k, sum(excess) v from x group by 1) b)) from x) totals,
               (select coalesce(json_agg(pg), '[]') from pg) page`,
  ],
  cashStatus: (clubId, r) => [
    sql`with k as (
          select t.id, t.name,
                 coalesce((select sum(k::bigint * v::bigint) from jsonb_each_text(tc.coins) as inv(k, v)), 0) coins,
                 coalesce((select sum(k::bigint * v::bigint) from jsonb_each_text(tc.bills) as inv(k, v)), 0) bills,
                 coalesce((select sum(k::bigint * v::bigint) from jsonb_each_text(tc.cash_box) as inv(k, v)), 0) cash_box,
                 coalesce(tc.excess_amount, 0) excess_amount, coalesce(tc.excess_count, 0) excess_count, tc.last_reset_at,
                 coalesce(s.inserted, 0) inserted
          from terminals t
            left join terminal_cash tc on tc.terminal_id = t.id and tc.club_id = ${clubId}
            left join (select terminal_id, sum(inserted) inserted from cash_sessions
                       where club_id = ${clubId} and started_at >= ${r.start} and started_at < ${r.end} group by 1) s
              on s.terminal_id = t.id
          where t.club_id = ${clubId} and not t.deleted),
        pg as (
          select id "terminalId", name "terminalName", coins, bills, cash_box "cashBoxTotal", excess_amount "excessAmount",
                 excess_count "excessCount", coins + bills + cash_box + excess_amount "cashTotal", inserted "insertedInPeriod",
                 last_reset_at "lastResetAt"
          from k order by name, id limit 50)
        select (select json_build_object('__total', count(*), 'terminals', count(*), 'coins', coalesce(sum(coins), 0),
                  'bills', coalesce(sum(bills), 0), 'cashBoxTotal', coalesce(sum(cash_box), 0),
                  'excessAmount', coalesce(sum(excess_amount), 0), 'excessCount', coalesce(sum(excess_count), 0),
                  'cashTotal', coalesce(sum(coins + bills + cash_box + excess_amount), 0),
                  'insertedInPeriod', coalesce(sum(inserted), 0)) from k) totals,
               (select coalesce(json_agg(pg), '[]') from pg) page`,
  ],
  loadedLicenses: (clubId, r) => [
    sql`with l as (
          select 'o' || o.id id, o.created_at at, 1 source, o.quantity, o.amount,
                 case when o.quantity > 0 then o.amount / o.quantity end price, o.code reference, null::int user_id
          from license_orders o
          where o.club_id = ${clubId} and o.status = 'paid' and o.created_at >= ${r.start} and o.created_at < ${r.end}
          union all
          select 'r' || q.id, q.created_at, 2, q.quantity, q.amount, q.price, q.reference, q.user_id
          from license_requests q
          where q.club_id = ${clubId} and q.status = 2 and q.created_at >= ${r.start} and q.created_at < ${r.end}),
        pg as (
          select l.id, l.at, l.source, l.quantity, l.price, l.amount, nullif(l.reference, '') reference,
                 nullif(u.name, '') "userName"
          from l left join users u on u.id = l.user_id and u.club_id = ${clubId}
          order by l.at desc, l.id desc limit 50)
        select (select json_build_object('__total', count(*), 'count', count(*), 'quantity', coalesce(sum(quantity), 0),
                  'amount', coalesce(sum(amount), 0),
                  'bySource', (select coalesce(json_object_agg(source, q), '{}') from (
                     select source, sum(quantity) q from l group by 1) b)) from l) totals,
               (select coalesce(json_agg(pg), '[]') from pg) page`,
  ],
  saferPayments: (clubId, r) => [
    sql`with k as (
          select k.id, k.created_at, k.client_id, k.amount, k.brand, k.last_four, k.reconciled_at, k.idempotency_key,
                 case k.reconcile_result when 'charged-refunded' then 2 when 'charged-refund-failed' then 3
                   else case when k.reconciled_at is not null then 4 else 1 end end st
          from charges k
          where k.club_id = ${clubId} and (k.status in ('uncertain', 'pending') or k.reconciled_at is not null)
            and k.created_at >= ${r.start} and k.created_at < ${r.end}),
        pg as (
          select k.id, k.created_at at, k.client_id "clientId", c.number "clientNumber", ${name('c')} "clientName",
                 k.amount, nullif(k.brand, '') brand, nullif(k.last_four, '') "lastFour", k.st "saferState",
                 k.reconciled_at "reconciledAt", k.idempotency_key reference
          from k left join clients c on c.id = k.client_id and c.club_id = ${clubId}
          order by k.created_at desc, k.id desc limit 50)
        select (select json_build_object('__total', count(*), 'count', count(*), 'amount', coalesce(sum(amount), 0),
                  'awaiting', coalesce(sum(amount) filter (where st = 1), 0), 'refunded', coalesce(sum(amount) filter (where st = 2), 0),
                  'refundFailed', coalesce(sum(amount) filter (where st = 3), 0),
                  'notCharged', coalesce(sum(amount) filter (where st = 4), 0),
                  'byState', (select coalesce(json_object_agg(st, n), '{}') from (select st, count(*) n from k group by 1) b))
                from k) totals,
               (select coalesce(json_agg(pg), '[]') from pg) page`,
  ],
  addLicensesRequests: (clubId, r) => [
    one(
      sql`select coalesce(sum(n), 0)::int "__total", coalesce(sum(n), 0)::int count, coalesce(sum(q), 0)::int quantity, coalesce(sum(a), 0)::bigint amount,
            coalesce(sum(n) filter (where status = 1), 0)::int pending, coalesce(sum(q) filter (where status = 2), 0)::int loaded,
            coalesce(json_object_agg(status, n) filter (where status is not null), '{}') "byStatus"
          from (select status, count(*) n, sum(quantity) q, sum(amount) a from license_requests
                where club_id = ${clubId} and created_at >= ${r.start} and created_at < ${r.end} group by status) g`,
      sql`select r.id, r.created_at at, r.quantity, r.price, r.amount, to_char(r.transfer_date, 'YYYY-MM-DD') "transferDate",
            nullif(r.reference, '') reference, nullif(r.bank_code, '') bank, r.status, nullif(u.name, '') "userName"
          from license_requests r left join users u on u.id = r.user_id and u.club_id = ${clubId}
          where r.club_id = ${clubId} and r.created_at >= ${r.start} and r.created_at < ${r.end}
          order by r.created_at desc, r.id desc limit 50`,
    ),
  ],
};
