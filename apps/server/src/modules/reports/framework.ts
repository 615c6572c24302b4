import type { FastifyContextConfig, FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { sql, type SQL } from 'drizzle-orm';
import {
  CURRENCY_SYMBOL,
  ReportQuery,
  ReportResult,
  type ReportColumnMeta,
  type ReportId,
  type ReportMeta,
  type ReportValueType,
  type PermissionFlag,
} from '@venue/domain';
import type { Db } from '../../db/index.js';
import { queryRows } from '../../db/query.js';
import { onReader } from '../../lib/replica-route.js';
import { AppError } from '../../lib/errors.js';
import { sendXlsx, type XlsxCell, type XlsxColumn, type XlsxValue } from '../../lib/xlsx.js';
import { clubZoneSql, localRange, toInstants, withClubZone, type ResolvedRange } from './report-range.js';
import {
  exportCell,
  exportFormat,
  exportHeader,
  exportTitle,
  exportTotalLabel,
  type CellContext,
} from './report-labels.js';

/** The zone of the operator's cross-club reports (catalogue `operator: true`; docs/operator.md). */
export const OPERATOR_REPORT_ZONE = 'Asia/Jerusalem';

/**
 * Runs zone-dependent work of a report: in the club's zone ({@link withClubZone}),
 * or in the operator's zone for a cross-club report, which no club's zone applies to.
 */
function inReportZone<T>(
  db: Db,
  def: ReportDefinition,
  clubId: number,
  work: (timeZone: string) => Promise<{ result: T; zone: string | null | undefined }>,
): Promise<T> {
  if (def.meta.operator) return work(OPERATOR_REPORT_ZONE).then((o) => o.result);
  return withClubZone(db, clubId, work);
}

/** The parsed body of a report call. */
export type ParsedReportQuery = z.output<typeof ReportQuery>;

/** What a definition's SQL builders receive: the signed-in club and the period as instants. */
export interface ReportContext {
  clubId: number;
  range: ResolvedRange;
  q: ParsedReportQuery;
  /**
   * Set for a page's query (a page of the call, or of an export on PGlite):
   * only the first `firstRows` rows in the call's order are read (offset +
   * limit). A `from` may use it to cut its parts early (e.g. each half of a
   * union to its first rows in that order, with the filters applied inside);
   * the totals and a cursor export never set it.
   */
  firstRows?: number;
  /** The caller's permission flags (a definition that shows more to some staff reads them; unset in benches and tests). */
  permissions?: Partial<Record<PermissionFlag, boolean>>;
  /** What the definition's {@link ReportDefinition.prepare} computed for this call (before any statement). */
  prepared?: unknown;
}

/** A breakdown of the totals: `{by: value}` over the matching rows (or over its own FROM). */
export interface BreakdownDef {
  by: SQL;
  value: SQL;
  /** Own FROM and WHERE (when the breakdown reads another table than the rows). */
  from?: (c: ReportContext) => SQL;
  where?: (c: ReportContext) => SQL[];
}

/**
 * The totals of a report read from another source than its rows, typically a
 * daily summary table (docs/reports.md "Speed"): `from` is already restricted
 * to the club, the period and the filters of the call, and the expressions
 * aggregate its rows to what the same expressions over the report's rows give.
 */
export interface SummarySource {
  /** FROM of the summary rows (club, period and filters applied). */
  from: SQL;
  /** The report's row count over them (e.g. `sum(s.n)`). */
  count: SQL;
  /** SQL per `meta.totals` key (replaces the definition's `totals`). */
  totals: Record<string, SQL>;
  /** The breakdowns that read the report's rows, over the summary rows (those with their own `from` are kept). */
  breakdowns?: Record<string, BreakdownDef>;
}

/**
 * A report (docs/reports.md): the catalogue entry of packages/domain
 * (`meta`: call, permission, columns, totals, filters) plus its SQL. The route,
 * the period, paging, sorting, totals, breakdowns and the .xlsx export are all
 * generated from it by {@link registerReport}.
 *
 * - `from`: FROM and JOINs. Joined tables must be restricted to the club in
 *   their ON clause.
 * - `at`: the instant column the period applies to; `null` when the rows are
 *   not events (a catalogue) and `from` applies `c.range` itself.
 * - `where`: the club predicate and the report's own filters (the period is added).
 * - `select`: SQL per column key of `meta.columns` (fields included).
 * - `sort`: ORDER BY expressions per sort key; `tiebreak` makes the order total.
 * - `totals`: aggregate SQL per `meta.totals` key, over all matching rows.
 * - `groupBy`: a grouped report (rows are aggregates; `select` must aggregate).
 *
 * `K` is the report's id in the catalogue: `meta` must be that report's entry
 * (definitions.ts maps every {@link ReportId} to its definition).
 */
export interface ReportDefinition<K extends ReportId = ReportId> {
  meta: ReportMeta & { readonly id: K };
  from: (c: ReportContext) => SQL;
  at: SQL | null;
  where: (c: ReportContext) => SQL[];
  select: Record<string, SQL>;
  sort: Record<string, SQL[]>;
  tiebreak: SQL[];
  totals: Record<string, SQL>;
  breakdowns?: Record<string, BreakdownDef>;
  groupBy?: SQL[];
  /**
   * Every total is a sum or a count (additive over groups): the first
   * breakdown that reads the report's own rows is then computed in the same
   * scan as the totals (one grouped query instead of two).
   */
  additive?: boolean;
  /**
   * Totals, row count and breakdowns from a summary instead of the rows, for
   * a call the summary answers exactly; null (e.g. a filter the summary does
   * not carry) aggregates the rows. The page always reads the rows.
   */
  summary?: (c: ReportContext) => SummarySource | null;
  /**
   * Work of the call in the process before its statements (e.g. the bookable minutes of the period,
   * computed from the club's schedules): its answer is `c.prepared` for every builder. Costs the call
   * the round trips it makes; prefer SQL.
   */
  prepare?: (db: Db, c: ReportContext) => Promise<unknown>;
  /** More totals from other queries (e.g. card fees of the financial report). */
  extraTotals?: (db: Db, c: ReportContext) => Promise<Record<string, number>>;
  /**
   * More totals as scalar subqueries of the totals' own statement (no statement of their own),
   * per total key; null for a call they cannot answer, which then runs `extraTotals`.
   */
  extraTotalsSql?: (c: ReportContext) => Record<string, SQL> | null;
  /** Turns a driver row's raw value into the wire value (e.g. a JSON list into a text in the caller's language). */
  post?: Partial<Record<string, (v: unknown, c: ReportContext) => unknown>>;
  /**
   * A check of the call with a round trip of its own, run together with the
   * report's statements (its error, e.g. 404, is the answer and nothing of
   * the report is returned). Prefer `guard`.
   */
  check?: (db: Db, c: ReportContext) => Promise<void>;
  /**
   * A condition of the call (e.g. the named client is the club's, seed 000
   * §7 404 for another club's client) evaluated in the totals' statement, so
   * it costs no round trip: when false, `error()` is thrown and nothing of
   * the report is returned. The report's own statements must not read
   * another club's rows either way (they are restricted to the club).
   */
  guard?: { when: (c: ReportContext) => SQL; error: () => AppError };
  /** Response schema of the route (default {@link ReportResult}); the entrance report keeps its own. */
  response?: z.ZodType;
  /** Body schema of the route (default {@link ReportQuery}). */
  body?: z.ZodType;
}

type Row = Record<string, unknown>;

function rows(db: Db, q: SQL): Promise<Row[]> {
  return queryRows<Row>(db, q);
}

const num = (v: unknown): number => (v == null ? 0 : Number(v));

/** A value from the driver as the wire type of its column: numbers, ISO instants, YYYY-MM-DD dates. */
function present(type: ReportValueType, v: unknown): unknown {
  if (v == null) return null;
  switch (type) {
    case 'datetime':
      return new Date(v as string | Date).toISOString();
    case 'date':
      return v instanceof Date ? v.toISOString().slice(0, 10) : String(v).slice(0, 10);
    case 'text':
    case 'debtSource':
    case 'auditAction':
    case 'auditEntity':
    case 'personalDataKind':
    case 'cashState':
    case 'bookingKind':
      return String(v);
    case 'bool':
      return Boolean(v);
    default:
      return Number(v);
  }
}

function sortKeyOf(c: ReportColumnMeta): string | null {
  if (!c.sortable) return null;
  return typeof c.sortable === 'string' ? c.sortable : c.key;
}

/** Sort keys a report accepts. */
export function sortKeys(meta: ReportMeta): string[] {
  return meta.columns.map(sortKeyOf).filter((k): k is string => k != null);
}

function whereOf(def: ReportDefinition, c: ReportContext): SQL {
  const parts = def.where(c);
  if (def.at) parts.push(sql`${def.at} >= ${c.range.start}`, sql`${def.at} < ${c.range.end}`);
  return sql.join(parts, sql` and `);
}

function selectList(def: ReportDefinition): SQL {
  return sql.join(
    def.meta.columns.map((col) => {
      const expr = def.select[col.key];
      if (!expr) throw new Error(`report ${def.meta.id}: no SQL for column ${col.key}`);
      return sql`${expr} as ${sql.identifier(col.key)}`;
    }),
    sql`, `,
  );
}

function orderBy(def: ReportDefinition, q: ParsedReportQuery): SQL {
  const key = q.sort ?? def.meta.defaultSort;
  const exprs = def.sort[key];
  if (!exprs || !sortKeys(def.meta).includes(key)) {
    throw new AppError('VALIDATION_ERROR', `unknown sort ${key}`, [{ path: 'sort', message: 'invalid' }]);
  }
  const dir = (q.order ?? def.meta.defaultOrder ?? 'desc') === 'asc' ? sql`asc` : sql`desc`;
  return sql.join(
    [...exprs, ...def.tiebreak].map((e) => sql`${e} ${dir}`),
    sql`, `,
  );
}

function presentRow(def: ReportDefinition, c: ReportContext, r: Row): Row {
  const out: Row = {};
  for (const col of def.meta.columns) {
    const post = def.post?.[col.key];
    out[col.key] = present(col.type, post ? post(r[col.key], c) : r[col.key]);
  }
  return out;
}

/** Required filters (400) and the sort key (400), before any query. */
function validate(def: ReportDefinition, q: ParsedReportQuery): void {
  for (const k of def.meta.required ?? []) {
    if (q[k] === undefined)
      throw new AppError('VALIDATION_ERROR', `${k} is required`, [{ path: k, message: 'required' }]);
  }
  orderBy(def, q);
}

/** What {@link summarize} gives: the totals, and the club's zone its statement read. */
interface Summary {
  total: number;
  totals: Record<string, number | Record<string, number>>;
  /** The club's zone read by the totals' statement (report-range.ts withClubZone). */
  zone: string | null;
}

/**
 * The report's totals and breakdowns over every matching row, and the row
 * count; the same statement reads the club's zone and the definition's guard
 * (no round trip of their own).
 *
 * @throws the guard's error (e.g. 404) when the guard is false.
 */
async function summarize(db: Db, def: ReportDefinition, c: ReportContext): Promise<Summary> {
  const summary = def.summary?.(c) ?? null;
  // The rows the totals aggregate: the report's own, or its summary's.
  const from = summary ? () => summary.from : def.from;
  const where = summary ? sql`true` : whereOf(def, c);
  const aggs = Object.entries(summary?.totals ?? def.totals).map(([k, e]) => sql`${e} as ${sql.identifier(k)}`);
  const count = summary
    ? summary.count
    : def.groupBy
      ? sql`(select count(*) from (select 1 from ${def.from(c)} where ${where} group by ${sql.join(def.groupBy, sql`, `)}) g)`
      : sql`count(*)`;
  const breakdowns = Object.entries(
    summary
      ? {
          ...Object.fromEntries(Object.entries(def.breakdowns ?? {}).filter(([, b]) => b.from)),
          ...summary.breakdowns,
        }
      : (def.breakdowns ?? {}),
  );
  const merged =
    def.additive && (summary || !def.groupBy) ? breakdowns.find(([, b]) => !b.from && !b.where) : undefined;
  // The breakdowns not computed in the totals' scan: each a constant subquery of the totals'
  // statement, its groups as a JSON list of [key, value] in key order (no statement of its own).
  const others = breakdowns.filter((e) => e !== merged);
  const lists = others.map(([, b], i) => {
    const bWhere = b.where ? sql.join(b.where(c), sql` and `) : where;
    return sql`(select coalesce(json_agg(json_build_array("__bd".k, "__bd".v) order by "__bd".k), '[]'::json)
      from (select ${b.by} as k, ${b.value} as v from ${(b.from ?? from)(c)} where ${bWhere} group by 1) "__bd")
      as ${sql.identifier(`__b${i}`)}`;
  });
  const extraSql = Object.entries(def.extraTotalsSql?.(c) ?? {});
  const extraCols = extraSql.map(([, e], i) => sql`${e} as ${sql.identifier(`__x${i}`)}`);
  // Constant subqueries (one evaluation per statement): the club's zone, the guard, those breakdowns
  // and the extra totals written as SQL.
  const club = sql.join(
    [
      sql`${clubZoneSql(c.clubId)} as "__tz"`,
      sql`${def.guard ? def.guard.when(c) : sql`true`} as "__ok"`,
      ...lists,
      ...extraCols,
    ],
    sql`, `,
  );
  const aggregate = async (): Promise<Row[]> => {
    const totalsList = sql`${count}::int as "__total"${aggs.length ? sql`, ${sql.join(aggs, sql`, `)}` : sql``}`;
    if (!merged) return rows(db, sql`select ${totalsList}, ${club} from ${from(c)} where ${where}`);
    // One scan: totals per breakdown group, summed here (every total is additive). The zone and the
    // guard on a row of their own that the groups join, so the statement has a row even without
    // groups (a statement of its own for an empty period cost a round trip).
    const all = await rows(
      db,
      sql`select g.*, k.* from (select ${club}) k left join (select ${merged[1].by} as "__k", ${merged[1].value} as "__v", ${totalsList}
        from ${from(c)} where ${where} group by 1) g on true order by g."__k"`,
    );
    const groups = all.filter((g) => g.__total != null);
    const sumRow: Row = { ...all[0], __total: 0 };
    for (const t of def.meta.totals) sumRow[t.key] = 0;
    for (const g of groups) {
      sumRow.__total = num(sumRow.__total) + num(g.__total);
      for (const t of def.meta.totals) sumRow[t.key] = num(sumRow[t.key]) + num(g[t.key]);
    }
    sumRow.__breakdown = Object.fromEntries(groups.map((g) => [String(g.__k), num(g.__v)]));
    return [sumRow];
  };
  // The totals' statement and the extra totals are independent: run together (on PostgreSQL each on
  // its own pooled connection).
  const [[agg], extra] = await Promise.all([
    aggregate(),
    def.extraTotals && extraSql.length === 0 ? def.extraTotals(db, c) : Promise.resolve({}),
  ]);
  const totals: Record<string, number | Record<string, number>> = {};
  for (const t of def.meta.totals) totals[t.key] = num(agg?.[t.key]);
  if (merged) totals[merged[0]] = agg.__breakdown as Record<string, number>;
  others.forEach(([key], i) => {
    const list = (agg?.[`__b${i}`] ?? []) as [unknown, unknown][];
    totals[key] = Object.fromEntries(list.map(([k, v]) => [String(k), num(v)]));
  });
  Object.assign(totals, extra);
  extraSql.forEach(([key], i) => (totals[key] = num(agg?.[`__x${i}`])));
  if (!(agg?.__ok === true || agg?.__ok === 't')) throw def.guard!.error();
  return { total: num(agg?.__total), totals, zone: agg?.__tz == null ? null : String(agg.__tz) };
}

/** The report's rows in its order: all of them (an export), or a page ({@link pageQuery}). */
function rowsQuery(def: ReportDefinition, c: ReportContext): SQL {
  const group = def.groupBy ? sql` group by ${sql.join(def.groupBy, sql`, `)}` : sql``;
  return sql`select ${selectList(def)} from ${def.from(c)} where ${whereOf(def, c)}${group} order by ${orderBy(def, c.q)}`;
}

/** One page of the report's rows (the `from` may cut its parts to the first offset + limit rows). */
function pageQuery(def: ReportDefinition, call: ReportContext, limit: number, offset: number): SQL {
  return sql`${rowsQuery(def, { ...call, firstRows: offset + limit })} limit ${limit} offset ${offset}`;
}

/**
 * Runs a report: one page of rows (server paging and sorting) and the totals
 * over all matching rows (docs/reports.md "Behaviour of every report").
 * Period → instants in the club's time zone (report-range.ts);
 * 400 VALIDATION_ERROR for a bad range or an unknown sort key.
 */
export async function runReport(
  db: Db,
  def: ReportDefinition,
  clubId: number,
  q: ParsedReportQuery,
  now: Date = new Date(),
  permissions?: ReportContext['permissions'],
): Promise<ReportResult> {
  validate(def, q);
  // The club's zone: this process's last reading, confirmed by the totals' statement (report-range.ts withClubZone).
  return inReportZone(db, def, clubId, async (tz) => {
    const range = toInstants(localRange(q, tz, now), tz);
    const c: ReportContext = { clubId, range, q, permissions };
    if (def.prepare) c.prepared = await def.prepare(db, c);
    // Totals, the page and the definition's check are independent: asked together.
    const [sum, page] = await Promise.all([
      summarize(db, def, c),
      rows(db, pageQuery(def, c, q.pageSize, (q.page - 1) * q.pageSize)),
      def.check?.(db, c),
    ]);
    const items = page.map((r) => presentRow(def, c, r));
    return {
      result: { items, total: sum.total, totals: sum.totals, range: { from: range.from, to: range.to } },
      zone: sum.zone,
    };
  });
}

/** Rows of an export in batches of `size` by LIMIT/OFFSET (PGlite: one connection, no long transaction). */
async function* offsetBatches(db: Db, def: ReportDefinition, c: ReportContext, size: number): AsyncIterable<Row[]> {
  for (let offset = 0; ; offset += size) {
    const list = (await rows(db, pageQuery(def, c, size, offset))).map((r) => presentRow(def, c, r));
    if (list.length > 0) yield list;
    if (list.length < size) return;
  }
}

class CursorStopped extends Error {}

/**
 * Rows an export fetches at a time: small enough that parsing and presenting
 * one batch is a short piece of synchronous work beside the gate's decisions
 * (bench/gate-under-export.bench.mjs), large enough that round trips do not
 * dominate.
 */
export const EXPORT_BATCH_ROWS = 500;

/**
 * Rows of a query in batches of `size` through a server-side cursor
 * (DECLARE … FETCH in a transaction of its own, on one pooled connection):
 * one pass over the rows however many there are, a batch fetched only when
 * the previous one was taken, so at most one batch is in memory. When the
 * consumer stops early (the client went away) the transaction is rolled back.
 */
export async function* cursorBatches(db: Db, query: SQL, size = EXPORT_BATCH_ROWS): AsyncGenerator<Row[]> {
  const queue: ({ rows: Row[] } | { done: true } | { error: unknown })[] = [];
  let requested = 0;
  let fetched = 0;
  let stopped = false;
  // Who waits: the producer for a request, the consumer for a batch.
  const wake: { producer?: () => void; consumer?: () => void } = {};
  const push = (m: (typeof queue)[number]) => {
    queue.push(m);
    const w = wake.consumer;
    wake.consumer = undefined;
    w?.();
  };
  const producer = db
    .transaction(async (tx) => {
      await tx.execute(sql`declare report_export no scroll cursor for ${query}`);
      for (;;) {
        while (requested <= fetched && !stopped) await new Promise<void>((r) => (wake.producer = r));
        if (stopped) throw new CursorStopped();
        const list = await queryRows<Row>(tx, sql.raw(`fetch ${size} from report_export`));
        fetched++;
        push({ rows: list });
        if (list.length < size) return;
      }
    })
    .then(
      () => push({ done: true }),
      (error: unknown) => push(error instanceof CursorStopped ? { done: true } : { error }),
    );
  try {
    for (;;) {
      requested++;
      const w = wake.producer;
      wake.producer = undefined;
      w?.();
      while (queue.length === 0) await new Promise<void>((r) => (wake.consumer = r));
      const m = queue.shift()!;
      if ('error' in m) throw m.error;
      if ('done' in m) return;
      if (m.rows.length > 0) yield m.rows;
    }
  } finally {
    stopped = true;
    wake.producer?.();
    await producer;
  }
}

/** Rows of an export, presented, in batches: a cursor on PostgreSQL, LIMIT/OFFSET batches on PGlite. */
async function* exportBatches(
  db: Db,
  kind: 'postgres' | 'pglite',
  def: ReportDefinition,
  c: ReportContext,
  size = EXPORT_BATCH_ROWS,
): AsyncIterable<Row[]> {
  if (kind !== 'postgres') {
    yield* offsetBatches(db, def, c, size);
    return;
  }
  for await (const list of cursorBatches(db, rowsQuery(def, c), size)) yield list.map((r) => presentRow(def, c, r));
}

/**
 * Registers `POST /api/Report/<call>` and `POST /api/Report/<call>/Export`
 * (.xlsx, streamed, headers and labels in `lang`, a totals row last; 422
 * NO_DATA_TO_EXPORT when no row matches), both with the report's permission and
 * its navigation entry's rule of seed 000 §6 (club setting, club class) — or,
 * for the operator's cross-club reports, the operator only.
 */
export function registerReport(app: FastifyInstance, def: ReportDefinition): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { database } = app.deps;
  // A cross-club report is the operator's alone; a club's report takes its permission and menu rule.
  // Both calls read only: from the replica when one is configured and fresh enough (db/replica.ts).
  const config: FastifyContextConfig = def.meta.operator
    ? { operator: true, readsReplica: true }
    : { permission: def.meta.permission, nav: def.meta.navKey, readsReplica: true };
  // A report of one client's entrances is a read of her history (the access log, issue 39).
  if (def.meta.personalData) config.personalData = def.meta.personalData;
  const tags = ['reports'];
  r.post(
    `/api/Report/${def.meta.call}`,
    { config, schema: { tags, body: def.body ?? ReportQuery, response: { 200: def.response ?? ReportResult } } },
    async (req) =>
      onReader(database, req, (db) =>
        runReport(db, def, req.auth.clubId, ReportQuery.parse(req.body ?? {}), undefined, req.auth.permissions),
      ),
  );
  r.post(`/api/Report/${def.meta.call}/Export`, { config, schema: { tags, body: ReportQuery } }, async (req, reply) => {
    const q = req.body;
    validate(def, q);
    // The totals (with the club's zone and the guard, as runReport), the check and the club's currency first, together.
    // The export streams from the reader its totals were read from (the replica's rows are a consistent
    // snapshot within its cursor's transaction, like the primary's).
    const { db, c, total, totals, currency } = await onReader(database, req, (db) =>
      inReportZone(db, def, req.auth.clubId, async (tz) => {
        const c: ReportContext = {
          clubId: req.auth.clubId,
          range: toInstants(localRange(q, tz), tz),
          q,
          permissions: req.auth.permissions,
        };
        if (def.prepare) c.prepared = await def.prepare(db, c);
        const [sum, , club] = await Promise.all([
          summarize(db, def, c),
          def.check?.(db, c),
          rows(db, sql`select currency from clubs where id = ${c.clubId}`),
        ]);
        const currency = Number(club[0]?.currency ?? 376);
        return { result: { db, c, total: sum.total, totals: sum.totals, currency }, zone: sum.zone };
      }),
    );
    if (total === 0) throw new AppError('NO_DATA_TO_EXPORT', 'No data to export');
    const cells: CellContext = {
      lang: q.lang,
      timeZone: c.range.timeZone,
      currencySymbol: CURRENCY_SYMBOL[currency] ?? '₪',
    };
    const sheet = exportSheet(def.meta, totals, total, cells);
    async function* withTotals(): AsyncIterable<Row[]> {
      yield* exportBatches(db, database.kind, def, c);
      yield sheet.tail;
    }
    return sendXlsx(
      reply,
      {
        filename: `${def.meta.id}-${c.range.from}-${c.range.to}.xlsx`,
        sheet: exportTitle(def.meta.id, q.lang).slice(0, 31),
        rtl: q.lang === 'he',
        columns: sheet.columns,
      },
      withTotals(),
    );
  });
}

/** A row after the report's rows: cells by column index (the totals row and the summary). */
type TailRow = Row & { __tail: XlsxCell[] };

/**
 * The sheet of an export (docs/reports.md "Formats and exports"): a column
 * per shown column of the catalogue (header in `lang`, typed cells with
 * their number format), then, after the rows, the totals row (the word
 * "Totals" and each total under its column, bold) and a summary of every
 * total and breakdown as label and value (the row count, counts and sums
 * that have no column, amount per method…).
 */
export function exportSheet(
  meta: ReportMeta,
  totals: Record<string, number | Record<string, number>>,
  total: number,
  cells: CellContext,
): { columns: XlsxColumn<Row>[]; tail: TailRow[] } {
  const shown = meta.columns.filter((col) => !col.field);
  const columns: XlsxColumn<Row>[] = shown.map((col, i) => ({
    header: exportHeader(col.key, cells.lang),
    width: col.type === 'datetime' ? 18 : col.type === 'text' ? 24 : 14,
    numFmt: exportFormat(col.type, col.key, cells),
    value: (row) => ('__tail' in row ? (row as TailRow).__tail[i] : exportCell(col.type, row[col.key], cells)),
  }));
  const tail: TailRow[] = [];
  const bold = (value: XlsxCell, numFmt?: string): XlsxCell =>
    value !== null && typeof value === 'object' && !(value instanceof Date)
      ? { ...value, bold: true }
      : { value, numFmt, bold: true };
  // The totals row: each total under its column.
  const under = shown.map((col) => {
    const t = meta.totals.find((x) => x.key === col.key);
    return t ? bold(exportCell(t.type, totals[t.key], cells), exportFormat(t.type, t.key, cells)) : null;
  });
  under[0] = bold(exportTitle('totals', cells.lang));
  tail.push({ __tail: under });
  // The summary: the row count, then every total and every breakdown group, as label and value.
  const line = (label: string, value: XlsxCell, numFmt?: string) => {
    const row: XlsxCell[] = shown.map(() => null);
    row[0] = label;
    if (shown.length > 1) row[1] = { value: value as XlsxValue, numFmt };
    tail.push({ __tail: row });
  };
  tail.push({ __tail: shown.map(() => null) });
  if (!meta.totals.some((t) => t.key === 'count')) line(exportTotalLabel('count', cells.lang), total, '#,##0');
  for (const t of meta.totals) {
    line(
      exportTotalLabel(t.key, cells.lang),
      exportCell(t.type, totals[t.key], cells),
      exportFormat(t.type, t.key, cells),
    );
  }
  for (const b of meta.breakdowns ?? []) {
    const groups = totals[b.key];
    if (!groups || typeof groups !== 'object') continue;
    for (const [k, v] of Object.entries(groups)) {
      const group =
        b.by === 'text'
          ? k || exportTitle('console', cells.lang)
          : exportCell(b.by, Number.isNaN(Number(k)) ? k : Number(k), cells);
      line(
        `${exportTotalLabel(b.key, cells.lang)}: ${String(group)}`,
        exportCell(b.type, v, cells),
        exportFormat(b.type, b.key, cells),
      );
    }
  }
  return { columns, tail };
}
