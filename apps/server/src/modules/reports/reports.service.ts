import { and, asc, desc, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import { EntranceStatus, type EntranceReport, type EntranceRow, type ReportFilter } from '@venue/domain';
import type { Db } from '../../db/index.js';
import { clients, entranceLogs, groups, terminals } from '../../db/schema.js';
import { resolveReportRange } from './report-range.js';

/**
 * The entrance report (seed 000 §7 `POST /Report/GetEnteracesReport`, seed
 * 001 §2 filters).
 *
 * - The period resolves to an inclusive local-date range in the club's time
 *   zone, and that to the instants [start, end) (see report-range.ts).
 * - Filters: terminal, group (the group logged with the entrance), client,
 *   statuses.
 * - `totals` come from one aggregate query grouped by status: count, approved
 *   (status 1), failed (statuses 2–13), amount (sum of `amount`, agorot) and
 *   the count per status. `total` is the number of matching rows.
 * - `items` is one page, joined with the client's name and number, the
 *   group's name and the terminal's name.
 *
 * Both queries use the (club_id, at) index of entrance_logs, so a page of a
 * month of a busy club reads only that club's rows of that month.
 */
export async function entranceReport(
  db: Db,
  clubId: number,
  filter: ReportFilter,
  now: Date = new Date(),
): Promise<EntranceReport> {
  const range = await resolveReportRange(db, clubId, filter, now);
  const where: SQL[] = [
    eq(entranceLogs.clubId, clubId),
    gte(entranceLogs.at, range.start),
    lt(entranceLogs.at, range.end),
  ];
  if (filter.terminalId) where.push(eq(entranceLogs.terminalId, filter.terminalId));
  if (filter.groupId) where.push(eq(entranceLogs.groupId, filter.groupId));
  if (filter.clientId) where.push(eq(entranceLogs.clientId, filter.clientId));
  if (filter.status && filter.status.length > 0) where.push(inArray(entranceLogs.status, filter.status));
  const cond = and(...where);

  const agg = await db
    .select({
      status: entranceLogs.status,
      n: sql<number>`count(*)::int`,
      amount: sql<number>`coalesce(sum(${entranceLogs.amount}), 0)::int`,
    })
    .from(entranceLogs)
    .where(cond)
    .groupBy(entranceLogs.status);

  const byStatus: Record<string, number> = {};
  let count = 0;
  let approved = 0;
  let failed = 0;
  let amount = 0;
  for (const a of agg) {
    const n = Number(a.n);
    byStatus[String(a.status)] = n;
    count += n;
    amount += Number(a.amount);
    if (a.status === EntranceStatus.Approved) approved += n;
    else if (a.status >= 2 && a.status <= 13) failed += n;
  }

  const dir = filter.order === 'asc' ? asc : desc;
  const clientName = sql<string | null>`nullif(trim(${clients.firstName} || ' ' || ${clients.lastName}), '')`;
  const order: SQL[] =
    filter.sort === 'status'
      ? [dir(entranceLogs.status), dir(entranceLogs.at), dir(entranceLogs.id)]
      : filter.sort === 'client'
        ? [dir(clients.lastName), dir(clients.firstName), dir(entranceLogs.at), dir(entranceLogs.id)]
        : filter.sort === 'terminal'
          ? [dir(terminals.name), dir(entranceLogs.at), dir(entranceLogs.id)]
          : [dir(entranceLogs.at), dir(entranceLogs.id)];

  const items =
    count === 0
      ? []
      : await db
          .select({
            id: entranceLogs.id,
            at: entranceLogs.at,
            clientId: entranceLogs.clientId,
            clientNumber: clients.number,
            clientName,
            groupName: groups.name,
            terminalId: entranceLogs.terminalId,
            terminalName: terminals.name,
            status: entranceLogs.status,
            reason: entranceLogs.reason,
            identificationKind: entranceLogs.identificationKind,
            amount: entranceLogs.amount,
            paymentType: entranceLogs.paymentType,
          })
          .from(entranceLogs)
          .leftJoin(clients, and(eq(clients.id, entranceLogs.clientId), eq(clients.clubId, clubId)))
          .leftJoin(groups, and(eq(groups.id, entranceLogs.groupId), eq(groups.clubId, clubId)))
          .leftJoin(terminals, and(eq(terminals.id, entranceLogs.terminalId), eq(terminals.clubId, clubId)))
          .where(cond)
          .orderBy(...order)
          .limit(filter.pageSize)
          .offset((filter.page - 1) * filter.pageSize);

  return {
    items: items.map(presentRow),
    total: count,
    totals: { count, approved, failed, amount, byStatus },
    range: { from: range.from, to: range.to },
  };
}

function presentRow(r: {
  id: number;
  at: Date;
  clientId: number | null;
  clientNumber: number | null;
  clientName: string | null;
  groupName: string | null;
  terminalId: number | null;
  terminalName: string | null;
  status: number;
  reason: number;
  identificationKind: string;
  amount: number;
  paymentType: number;
}): EntranceRow {
  return { ...r, id: Number(r.id), at: new Date(r.at).toISOString() };
}
