import { sql, type SQL } from 'drizzle-orm';
import { PurchasePaymentStatus } from '@venue/domain';
import type { ReportContext } from './framework.js';
import { searchCondition } from '../clients/clients.service.js';

/** SQL pieces shared by the report definitions (defs/*.ts). */

/** `col in (v1, v2, …)`; the list must not be empty. */
export const inList = (col: SQL, values: readonly number[]): SQL =>
  sql`${col} in (${sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  )})`;

/** A client's display name (first and last name of the client row `alias`), null when both are empty. */
export const clientName = (alias: string): SQL =>
  sql`nullif(trim(${sql.raw(alias)}.first_name || ' ' || ${sql.raw(alias)}.last_name), '')`;

/**
 * The client search of a report (`client`, issue 19: name, client number, ID
 * number or card — the client list's search, clients.service.ts
 * `searchCondition`): the row's client is one of the club's clients the
 * search finds. Empty when not set.
 */
export function clientSearch(c: ReportContext, clientCol: SQL): SQL[] {
  const cond = c.q.client ? searchCondition(c.q.client) : undefined;
  if (!cond) return [];
  return [sql`${clientCol} in (select clients.id from clients where clients.club_id = ${c.clubId} and ${cond})`];
}

/** Common optional filters: each applies only when set and when the report lists it. */
export function filters(
  c: ReportContext,
  cols: Partial<Record<'terminalId' | 'clientId' | 'userId' | 'groupId', SQL>>,
): SQL[] {
  const out: SQL[] = [];
  if (c.q.terminalId && cols.terminalId) out.push(sql`${cols.terminalId} = ${c.q.terminalId}`);
  if (c.q.clientId && cols.clientId) out.push(sql`${cols.clientId} = ${c.q.clientId}`);
  if (c.q.userId && cols.userId) out.push(sql`${cols.userId} = ${c.q.userId}`);
  if (c.q.groupId && cols.groupId) out.push(sql`${cols.groupId} = ${c.q.groupId}`);
  return out;
}

/**
 * A purchase (alias `p`) that counts as income: neither refunded nor cancelled (PurchasePaymentStatus;
 * docs/money.md "MASAV: rejected, then paid another way").
 */
export const notRefunded = sql.raw(
  `p.payment_status not in (${PurchasePaymentStatus.Refunded}, ${PurchasePaymentStatus.Cancelled})`,
);

/**
 * The name of a terminal, group or seller of a row, of the row's own club
 * (the row is the report's club's): a subquery by primary key, evaluated for
 * the page's rows only, instead of a join that costs more to plan (≈ 2 ms for
 * a 5-table join against ≈ 0.3 ms) than to run.
 */
export const nameOf = (table: 'terminals' | 'groups' | 'users', id: SQL, clubId: SQL): SQL =>
  sql`(select x.name from ${sql.raw(table)} x where x.id = ${id} and x.club_id = ${clubId})`;

/**
 * The summary rows (schema.ts activity_daily, merged, and activity_daily_delta,
 * written since the last compaction; migrations 0016/0017) of the club, the
 * period's local days and the filters the summary carries: terminal, group
 * (entrances) and status; the subquery `s` with the summary's columns. A
 * report's range is whole local days in the club's zone (report-range.ts),
 * the same days as the summary's.
 */
export function activityDaily(
  c: ReportContext,
  kinds: readonly (1 | 2)[],
  opts: { group?: boolean; status?: boolean },
): SQL {
  const w = [
    sql`s.club_id = ${c.clubId}`,
    sql`s.day >= ${c.range.from}::date`,
    sql`s.day <= ${c.range.to}::date`,
    inList(sql`s.kind`, kinds),
  ];
  if (c.q.terminalId) w.push(sql`s.terminal_id = ${c.q.terminalId}`);
  if (opts.group && c.q.groupId) w.push(sql`s.group_id = ${c.q.groupId}`);
  if (opts.status && c.q.status?.length) w.push(inList(sql`s.status`, c.q.status));
  const where = sql.join(w, sql` and `);
  return sql`(select s.kind, s.status, s.n, s.amount from activity_daily s where ${where}
    union all
    select s.kind, s.status, s.n, s.amount from activity_daily_delta s where ${where}) s`;
}
