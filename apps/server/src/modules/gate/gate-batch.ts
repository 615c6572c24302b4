import { EntranceStatus, RAPID_REENTRY_SECONDS, type Identification } from '@venue/domain';
import { DB_LIMITS, gatePoolOf, type Db } from '../../db/index.js';
import { ReadDeadlines } from '../../db/read-deadline.js';
import { Batcher } from './batcher.js';
import type { CheckInStatement } from '../appointments/booking-gate.js';

/**
 * The gate's two database statements, batched across concurrent entrances
 * (modules/gate/batcher.ts; docs/gate-benchmark.md "Group commit"): the decision's
 * read for many identifications in one statement, and the log rows of
 * decisions that move no money in one multi-row INSERT. Each statement is a
 * named prepared statement on PostgreSQL (planned once per connection).
 *
 * Only for a database handle that is a pool (pg.Pool) or PGlite; inside a
 * transaction the caller uses the unbatched statements.
 */

/** Runs SQL text with positional parameters on the handle's own client, returning rows. */
type RawQuery = (name: string, text: string, values: unknown[]) => Promise<Record<string, unknown>[]>;

interface PgPoolLike {
  query(cfg: { name: string; text: string; values: unknown[] }): Promise<{ rows: Record<string, unknown>[] }>;
  totalCount: number;
}
interface PgliteLike {
  query(text: string, values: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  waitReady: Promise<void>;
}

function rawQueryOf(db: Db): { query: RawQuery; kind: 'postgres' | 'pglite' } | null {
  const client = (db as unknown as { $client?: unknown }).$client;
  if (!client || typeof client !== 'object') return null;
  if ('totalCount' in client && typeof (client as PgPoolLike).query === 'function') {
    // The gate's own pool (generic plans, db/index.ts) when the handle has one.
    const pool = (gatePoolOf(db) as PgPoolLike | undefined) ?? (client as PgPoolLike);
    // The client-side read limit (a partition): one sweep for all statements in flight, not a timer each.
    const deadlines = new ReadDeadlines(DB_LIMITS.gateStatementMs + DB_LIMITS.gateReadGraceMs, 100);
    return {
      kind: 'postgres',
      query: async (name, text, values) => (await deadlines.run(pool.query({ name, text, values }))).rows,
    };
  }
  if ('waitReady' in client && typeof (client as PgliteLike).query === 'function') {
    const lite = client as PgliteLike;
    return { kind: 'pglite', query: async (_name, text, values) => (await lite.query(text, values)).rows };
  }
  return null;
}

/** Which shape of client match an identification needs (one statement per shape); `id`: the front desk's chosen client. */
export type MatchShape = 'card' | 'code' | 'codeOrNumber' | 'biometric' | 'id';

/** One identification to read: the decision's input keys. */
export interface ReadItem {
  clubId: number;
  terminalId: number;
  shape: MatchShape;
  value: string;
  /** The client number when `value` is all digits (codeOrNumber); the client id (id). */
  number: number | null;
  /** Template kind and keyed HMAC (biometric). */
  kind: string | null;
  mac: string | null;
  at: Date;
}

/** One row of the batched read, as PostgreSQL returns it (column names below). */
export type ReadRow = Record<string, unknown>;

const MATCH: Record<MatchShape, string> = {
  card: `c.card_serial = q.value and c.card_serial <> ''`,
  code: `c.client_code = q.value and c.client_code <> ''`,
  codeOrNumber: `((c.client_code = q.value and c.client_code <> '') or c.number = q.number)`,
  biometric: `c.id = (select bt.client_id from biometric_templates bt
      where bt.club_id = q.club_id and bt.kind = q.kind and bt.template_mac = q.mac)`,
  id: `c.id = q.number`,
};

/**
 * The read of `processEntrance` for N identifications: per input row (column
 * `i`, 1-based), the terminal with its club's settings and location (t_*,
 * club_*; null when not a live terminal of the club) and the client the
 * identification names (not deleted) with its group (g_*, not deleted), the
 * group's own and linked schedule rows (`rows`, json), the client's approved
 * entrances of the 2 days before `at` (`recent`: [[epoch ms, payment type]]),
 * its last approved entrance (`last_at`), its parent (`parent`, json) and the
 * parent's subscription entrances of those 2 days (`parent_recent`).
 *
 * Every part is a lookup by an index that leads with the outer row's key
 * (lateral subqueries, `limit 1` where PostgreSQL would otherwise flatten
 * them into a join, one union arm per index), so the plan does not depend
 * on table statistics: the gate's sessions use generic plans built once per
 * connection (db/index.ts), possibly while the tables are still empty, with
 * `enable_seqscan=off`.
 */
function readText(shape: MatchShape): string {
  return `select q.i::int as i,
  t.id as t_id, t.name as t_name, t.approved as t_approved, t.gate_open_seconds as t_gate_open_seconds,
  t.door_state as t_door_state, cl.settings as club_settings, cl.location as club_location, c.*
from unnest($1::int[], $2::int[], $3::text[], $4::int[], $5::text[], $6::text[], $7::timestamptz[])
  with ordinality as q(club_id, terminal_id, value, number, kind, mac, at, i)
left join lateral (
  select t.id, t.club_id, t.name, t.approved, t.gate_open_seconds, t.door_state from terminals t
  where t.id = q.terminal_id and t.club_id = q.club_id and t.deleted = false
  limit 1
) t on true
left join lateral (select cl.settings, cl.location from clubs cl where cl.id = t.club_id limit 1) cl on true
left join lateral (
  select c.id, c.number, c.first_name, c.last_name, c.status, c.client_type,
    c.subscription_start::text as subscription_start, c.subscription_end::text as subscription_end,
    c.license_expiry::text as license_expiry, c.balance, c.group_id, c.bonus_entries, c.special_price,
    (select json_build_object('id', p.id, 'status', p.status, 'subscriptionStart', p.subscription_start,
        'subscriptionEnd', p.subscription_end, 'balance', p.balance)
      from clients p where p.id = c.parent_id and p.club_id = q.club_id and p.status <> 3) as parent,
    (select coalesce(json_agg((extract(epoch from p.at) * 1000)::float8), '[]'::json) from (
      select el.at from entrance_logs el
        where c.parent_id is not null and el.client_id = c.parent_id and el.club_id = q.club_id
          and el.status = 1 and el.payment_type = 1 and el.at > q.at - interval '2 days' and el.at <= q.at
      union all
      select el.at from entrance_logs el
        where c.parent_id is not null and el.payer_client_id = c.parent_id and el.client_id is distinct from c.parent_id
          and el.club_id = q.club_id and el.status = 1 and el.payment_type = 1
          and el.at > q.at - interval '2 days' and el.at <= q.at) p) as parent_recent,
    g.id as g_id, g.name as g_name, g.allow_entrance as g_allow_entrance, g.entrance_state as g_entrance_state,
    g.delay_between_entries_minutes as g_delay, g.max_entries_per_day as g_max_per_day,
    g.max_entries_per_day_per_subscriber as g_max_per_subscriber, g.new_day_start_hour as g_new_day_start_hour,
    (select el.at from entrance_logs el
      where el.client_id = c.id and el.status = 1 and el.at <= q.at
      order by el.at desc limit 1) as last_at,
    (select coalesce(json_agg(json_build_array((extract(epoch from el.at) * 1000)::float8, el.payment_type)), '[]'::json)
      from entrance_logs el
      where el.client_id = c.id and el.status = 1 and el.at > q.at - interval '2 days' and el.at <= q.at) as recent,
    (select json_agg(s) from (
      select s.* from schedules s where s.club_id = q.club_id and s.group_id = g.id
      union all
      select s.* from schedule_to_group sg
        cross join lateral (select s.* from schedules s where s.id = sg.schedule_id and s.club_id = q.club_id limit 1) s
        where sg.club_id = q.club_id and sg.group_id = g.id and s.group_id is distinct from g.id) s) as rows
  from clients c
  left join lateral (
    select g.* from groups g where g.id = c.group_id and g.club_id = q.club_id and g.deleted = false limit 1
  ) g on true
  where c.club_id = q.club_id and c.status <> 3 and ${MATCH[shape]}
  order by (c.client_code = q.value) desc
  limit 1
) c on true`;
}

/**
 * Identification → the read's match shape and keys (`system` identifies no client: null). `desk`
 * is the front desk's chosen client, by id (modules/gate/entrance.service.ts DeskIdentification).
 */
export function readItemFor(
  clubId: number,
  terminalId: number,
  ident: Identification | { kind: 'desk'; value: string },
  at: Date,
  mac: string | null,
): ReadItem | null {
  const base = { clubId, terminalId, value: ident.value, number: null, kind: null, mac: null, at };
  if (ident.kind === 'card') return { ...base, shape: 'card' };
  if (ident.kind === 'desk')
    return /^\d{1,10}$/.test(ident.value) ? { ...base, shape: 'id', number: Number(ident.value) } : null;
  if (ident.kind === 'code') {
    // The client's own code (seed 001 §3 "client code") first, else the client number.
    return /^\d{1,9}$/.test(ident.value)
      ? { ...base, shape: 'codeOrNumber', number: Number(ident.value) }
      : { ...base, shape: 'code' };
  }
  if (ident.kind === 'fingerprint' || ident.kind === 'face')
    return { ...base, shape: 'biometric', kind: ident.kind, mac };
  return null;
}

async function readBatch(query: RawQuery, items: ReadItem[]): Promise<ReadRow[]> {
  // One statement per shape present (usually one: cards).
  const out: ReadRow[] = new Array<ReadRow>(items.length);
  const shapes = new Set(items.map((x) => x.shape));
  await Promise.all(
    [...shapes].map(async (shape) => {
      const idx = items.flatMap((x, i) => (x.shape === shape ? [i] : []));
      const sel = idx.map((i) => items[i]!);
      const rows = await query(`gate_read_${shape}`, readText(shape), [
        sel.map((x) => x.clubId),
        sel.map((x) => x.terminalId),
        sel.map((x) => x.value),
        sel.map((x) => x.number),
        sel.map((x) => x.kind),
        sel.map((x) => x.mac),
        sel.map((x) => x.at.toISOString()),
      ]);
      for (const r of rows) out[idx[Number(r.i) - 1]!] = r;
    }),
  );
  return out;
}

/** An entrance_logs row of a decision that moves no money. */
export interface LogItem {
  clubId: number;
  terminalId: number;
  clientId: number | null;
  groupId: number | null;
  at: Date;
  status: number;
  reason: number;
  identificationKind: string;
  amount: number;
  paymentType: number;
  /** The terminal's event id; null (history, tests) inserts the row on its own, unbatched. */
  eventId: string | null;
  payerClientId: number | null;
  /**
   * For an approval the rapid re-entry rule applies to: the reason to store
   * with status 13 when the client's guard (client_entry_guard) shows another
   * approval within the window; null or absent for every other row.
   */
  rapidReason?: number | null;
}

/** What an inserted log row became: its id and the status stored (13 when the guard refused the approval). */
export interface Logged {
  id: number;
  status: number;
}

/** Thrown for a log row whose (terminal, event id) was already recorded: a resend. */
export class DuplicateEvent extends Error {}

/**
 * The log rows of a batch, and — one person, one moment — the client's
 * guard for each approval the rapid re-entry rule applies to
 * (`rapid_reason` set): the guard row moves to this approval only when it is
 * at least RAPID_REENTRY_SECONDS away from the last one; otherwise, and for
 * every later approval of the same client in the same batch, the row is
 * stored as status 13 with `rapid_reason`. One statement: the guard's row
 * lock orders two approvals of one client whichever identification,
 * terminal, connection or server instance they come from.
 */
const INSERT_TEXT = `with q as (
  select * from unnest($1::int[], $2::int[], $3::int[], $4::int[], $5::timestamptz[], $6::smallint[], $7::smallint[],
    $8::text[], $9::int[], $10::smallint[], $11::text[], $12::int[], $13::smallint[]) with ordinality
    as q(club_id, terminal_id, client_id, group_id, at, status, reason, identification_kind, amount, payment_type,
      event_id, payer_client_id, rapid_reason, n)
), candidate as (
  select distinct on (client_id) club_id, client_id, at, n from q
  where rapid_reason is not null and client_id is not null
  order by client_id, at, n
), guarded as (
  insert into client_entry_guard as g (club_id, client_id, at)
  select club_id, client_id, at from candidate
  on conflict (club_id, client_id) do update set at = greatest(g.at, excluded.at)
    where abs(extract(epoch from excluded.at - g.at)) >= ${RAPID_REENTRY_SECONDS}
  returning client_id
)
insert into entrance_logs (club_id, terminal_id, client_id, group_id, at, status, reason,
    identification_kind, amount, payment_type, event_id, payer_client_id)
  select q.club_id, q.terminal_id, q.client_id, q.group_id, q.at,
    case when r.refused then ${EntranceStatus.RapidReEntry} else q.status end,
    case when r.refused then q.rapid_reason else q.reason end,
    q.identification_kind, q.amount, q.payment_type, q.event_id, q.payer_client_id
  from q cross join lateral (select q.rapid_reason is not null and q.client_id is not null and not exists (
      select 1 from candidate c join guarded using (client_id) where c.n = q.n) as refused) r
  order by q.n
  on conflict (club_id, terminal_id, event_id) do nothing
  returning id, terminal_id, event_id, status`;

async function insertBatch(query: RawQuery, items: LogItem[]): Promise<(Logged | Error)[]> {
  const col = <K extends keyof LogItem>(k: K) => items.map((x) => x[k]);
  const rows = await query('gate_log_insert_guarded', INSERT_TEXT, [
    col('clubId'),
    col('terminalId'),
    col('clientId'),
    col('groupId'),
    items.map((x) => x.at.toISOString()),
    col('status'),
    col('reason'),
    col('identificationKind'),
    col('amount'),
    col('paymentType'),
    col('eventId'),
    col('payerClientId'),
    items.map((x) => x.rapidReason ?? null),
  ]);
  const logged = (r: Record<string, unknown>): Logged => ({ id: Number(r.id), status: Number(r.status) });
  if (items.length === 1) {
    // Alone in its statement (and the only way a row without an event id is inserted): no matching needed.
    return [rows[0] ? logged(rows[0]) : new DuplicateEvent()];
  }
  const byKey = new Map(rows.map((r) => [`${String(r.terminal_id)}\u0000${String(r.event_id)}`, logged(r)]));
  // Two rows of one batch with the same event id: the first inserted it, the second is the resend.
  const taken = new Set<string>();
  return items.map((x) => {
    const key = `${x.terminalId}\u0000${x.eventId}`;
    const row = byKey.get(key);
    if (row == null || taken.has(key)) return new DuplicateEvent();
    taken.add(key);
    return row;
  });
}

/** One log row in its own statement (rows without an event id cannot be told apart in a batch's RETURNING). */
async function insertOne(query: RawQuery, item: LogItem): Promise<Logged> {
  const [r] = await insertBatch(query, [item]);
  if (r instanceof Error) throw r;
  return r!;
}

/** The gate's read and log insert on one database handle. */
export interface GateStatements {
  /** The read row of one identification (see `readText`). */
  read(item: ReadItem): Promise<ReadRow>;
  /** Inserts one log row (and its client's guard); its id and stored status, or rejects with DuplicateEvent for a resend. */
  insert(item: LogItem): Promise<Logged>;
  /** Checks in the client's booking nearest to the admission within the window (see CHECK_IN_TEXT). */
  checkIn(item: CheckInItem): Promise<CheckedIn>;
  /** Batches and items sent so far (zeros when unbatched, in a transaction). */
  stats(): { read: { batches: number; items: number }; insert: { batches: number; items: number } };
}
const perDb = new WeakMap<Db, GateStatements>();

/** A booking check-in at the gate and its answer: the shapes of booking-gate.ts's CheckInStatement. */
export type CheckInItem = Parameters<CheckInStatement>[0];
export type CheckedIn = Awaited<ReturnType<CheckInStatement>>;

/**
 * The gate's booking check-ins of a batch in one statement: for each admission the client's
 * `booked` booking starting nearest to it within its window becomes `checkedIn` (two admissions
 * of one client in one batch: the first takes it). One commit for the batch instead of one per
 * admission (bench/appointments.bench.mjs: a burst of first admissions at the evening's start).
 */
const CHECK_IN_TEXT = `with x as (
  select * from unnest($1::int[], $2::int[], $3::timestamptz[], $4::timestamptz[], $5::timestamptz[]) with ordinality
    as x(club_id, client_id, at, f, u, n)
), pick as (
  select distinct on (b.id) x.n, b.id, x.at from x cross join lateral (
    select b.id from bookings b where b.club_id = x.club_id and b.client_id = x.client_id and b.status = 'booked'
      and b.starts_at >= x.f and b.starts_at <= x.u
    order by abs(extract(epoch from b.starts_at - x.at)) limit 1) b
  order by b.id, x.n
), upd as (
  update bookings b set status = 'checkedIn', checked_in_at = p.at, remind_day_at = null, remind_hour_at = null
  from pick p where b.id = p.id and b.status = 'booked'
  returning b.id, b.starts_at
)
select p.n, u.id, u.starts_at from pick p join upd u on u.id = p.id`;

async function checkInBatch(query: RawQuery, items: CheckInItem[]): Promise<CheckedIn[]> {
  const rows = await query('gate_booking_check_in', CHECK_IN_TEXT, [
    items.map((x) => x.clubId),
    items.map((x) => x.clientId),
    items.map((x) => x.at.toISOString()),
    items.map((x) => x.from.toISOString()),
    items.map((x) => x.until.toISOString()),
  ]);
  const byN = new Map(rows.map((r) => [Number(r.n), r]));
  return items.map((_, i) => {
    const r = byN.get(i + 1);
    return r ? { id: Number(r.id), startsAt: new Date(r.starts_at as string | Date) } : null;
  });
}

/**
 * The gate statements of a database handle. On a pool (PostgreSQL) or PGlite
 * they are batched: on PostgreSQL up to 4 batches of each kind run at once
 * (GATE_BATCHES_IN_FLIGHT; with the flush after the event loop's turn, 4 gave
 * 2 082–2 440 decisions/s against 981–1 203 for 2 on a quiet machine,
 * docs/gate-benchmark.md; the pool has 10 connections by default, the rest
 * serve everything else); PGlite runs one statement at a time anyway. Inside a transaction (the demo
 * history's exact mode) each call is its own statement on the transaction's
 * connection.
 *
 * @throws Error when the handle is neither (not a Drizzle node-postgres or PGlite handle).
 */
export function gateStatements(db: Db): GateStatements {
  const cached = perDb.get(db);
  if (cached) return cached;
  let statements: GateStatements;
  const raw = rawQueryOf(db);
  if (raw) {
    const inFlight = raw.kind === 'postgres' ? Number(process.env.GATE_BATCHES_IN_FLIGHT ?? 4) : 1;
    const read = new Batcher<ReadItem, ReadRow>((items) => readBatch(raw.query, items), inFlight);
    const insert = new Batcher<LogItem, Logged>((items) => insertBatch(raw.query, items), inFlight);
    const checkIn = new Batcher<CheckInItem, CheckedIn>((items) => checkInBatch(raw.query, items), inFlight);
    statements = {
      stats: () => ({ read: { ...read.stats }, insert: { ...insert.stats } }),
      read: (x) => read.submit(x),
      checkIn: (x) => checkIn.submit(x),
      insert: (x) => (x.eventId == null ? insertOne(raw.query, x) : insert.submit(x)),
    };
  } else {
    const query = txQueryOf(db);
    const none = { batches: 0, items: 0 };
    statements = {
      stats: () => ({ read: none, insert: none }),
      read: async (x) => (await readBatch(query, [x]))[0]!,
      insert: (x) => insertOne(query, x),
      checkIn: async (x) => (await checkInBatch(query, [x]))[0]!,
    };
  }
  perDb.set(db, statements);
  return statements;
}

/** The connection of a Drizzle transaction (node-postgres PoolClient or PGlite Transaction). */
function txQueryOf(db: Db): RawQuery {
  const client = (db as unknown as { session?: { client?: unknown } }).session?.client as
    PgPoolLike | PgliteLike | undefined;
  if (client && typeof client.query === 'function') {
    // PGlite's Transaction has exec(); node-postgres's PoolClient takes the config form that names the statement.
    if ('exec' in client) {
      const lite = client as unknown as PgliteLike;
      return async (_name, text, values) => (await lite.query(text, values)).rows;
    }
    const pg = client as unknown as PgPoolLike;
    return async (name, text, values) => (await pg.query({ name, text, values })).rows;
  }
  throw new Error('gateStatements: not a node-postgres or PGlite handle');
}
