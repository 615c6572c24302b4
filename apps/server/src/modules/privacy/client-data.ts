import { sql, type SQL } from 'drizzle-orm';
import type { ClientCopy, ErasureResult } from '@venue/domain';
import type { Db, Tx } from '../../db/index.js';
import { DATA_MAP, type ClientRule, type TableName } from '../../db/data-map.js';
import { queryRow, queryRows } from '../../db/query.js';
import { clients } from '../../db/schema.js';
import { audit } from '../../lib/audit.js';
import type { Actor } from '../../lib/actor.js';
import { AppError } from '../../lib/errors.js';
import type { EventBus } from '../../lib/event-bus.js';
import { scoped } from '../../lib/scoped.js';
import { publishDeleted } from '../biometrics/biometrics.service.js';

/**
 * A client's copy and erasure (issue 39, docs/privacy.md "A client's copy", "Erasure"), both
 * driven by the `client` rules of db/data-map.ts: a table with a client column is either read for
 * the copy (and erased as its rule says) or listed as excluded with the reason — data-map.test.ts
 * fails on a table with a client column and no rule.
 */

type Rows = { rule: Extract<ClientRule, { rows: unknown }>; table: TableName }[];

/** The tables whose rows about a client the copy holds, in the data map's order. */
export function copiedTables(): Rows {
  const out: Rows = [];
  for (const [table, a] of Object.entries(DATA_MAP) as [TableName, { client?: ClientRule }][]) {
    if (a.client && 'rows' in a.client) out.push({ rule: a.client, table });
  }
  return out;
}

/** The WHERE of a table's rows about client `id` of club `clubId` (names are the data map's constants). */
function whereOf(rule: Extract<ClientRule, { rows: unknown }>, clubId: number, id: number): SQL {
  const r = rule.rows;
  if ('columns' in r) {
    const any = sql.join(
      r.columns.map((c) => sql`${sql.identifier(c)} = ${id}`),
      sql` or `,
    );
    return sql`club_id = ${clubId} and (${any})`;
  }
  if ('viaPurchase' in r) {
    return sql`club_id = ${clubId} and purchase_id in (select id from purchases
      where club_id = ${clubId} and (client_id = ${id} or payer_client_id = ${id}))`;
  }
  return sql`club_id = ${clubId} and entity = 'client' and entity_id = ${String(id)}`;
}

/** A row as JSON values (times as ISO strings, bytes as their length), withheld columns marked. */
function present(row: Record<string, unknown>, withheld: readonly string[] = []): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) {
    if (withheld.includes(k)) out[k] = v == null || v === '' ? v : '[withheld]';
    else if (v instanceof Date) out[k] = v.toISOString();
    else if (v instanceof Uint8Array) out[k] = `[${v.length} bytes]`;
    else out[k] = v;
  }
  return out;
}

/**
 * Everything held about client `clientId` of the actor's club: for each table of the copy, its
 * rows about her as stored (oldest first by key), secrets and ciphertexts withheld. Errors:
 * NOT_FOUND for another club's client or none.
 */
export async function clientCopy(db: Db, clubId: number, clientId: number): Promise<ClientCopy> {
  await scoped(db, clubId).one(clients, clientId, 'client');
  const tables: ClientCopy['tables'] = {};
  for (const { table, rule } of copiedTables()) {
    const rows = await queryRows<Record<string, unknown>>(
      db,
      sql`select * from ${sql.identifier(table)} where ${whereOf(rule, clubId, clientId)} order by 1, 2`,
    );
    tables[table] = rows.map((r) => present(r, rule.withheld));
  }
  return { clientId, clubId, generatedAt: new Date().toISOString(), tables };
}

/** Replaces every occurrence of each value inside the strings of a JSON value (keys and numbers untouched). */
function scrubJson(v: unknown, values: readonly string[]): unknown {
  if (typeof v === 'string') return values.reduce((s, x) => s.split(x).join('[erased]'), v);
  if (Array.isArray(v)) return v.map((x) => scrubJson(x, values));
  if (v && typeof v === 'object') {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, scrubJson(x, values)]));
  }
  return v;
}

/** Text and jsonb columns of the club-owned tables (the catalogue), for the scrub. */
async function textColumns(tx: Tx): Promise<{ table: string; column: string; type: string }[]> {
  return queryRows(
    tx,
    sql`select c.table_name as "table", c.column_name as "column", c.data_type as "type"
      from information_schema.columns c
      where c.table_schema = current_schema() and c.data_type in ('text', 'character varying', 'jsonb')
        and exists (select 1 from information_schema.columns k
                    where k.table_schema = c.table_schema and k.table_name = c.table_name and k.column_name = 'club_id')
      order by 1, 2`,
  );
}

/**
 * Tables the scrub leaves: the tax documents (the law keeps them unchanged) and clients (her own
 * row is cleared field by field; her family's rows are theirs, a shared phone or address too).
 */
const KEPT_TEXT: readonly string[] = ['purchase_documents', 'clients'];

/**
 * Replaces `values` in every text and jsonb column of the club's rows (the kept tax documents
 * aside); `own` (her first and last name alone, too common to scrub everywhere) only in the
 * audit rows about her. Answers the rows changed by table.
 */
async function scrubText(
  tx: Tx,
  clubId: number,
  clientId: number,
  values: readonly string[],
  own: readonly string[],
): Promise<Record<string, number>> {
  const changed: Record<string, number> = {};
  const add = (t: string, n: number) => n > 0 && (changed[t] = (changed[t] ?? 0) + n);
  for (const { table, column, type } of await textColumns(tx)) {
    if (KEPT_TEXT.includes(table)) continue;
    const t = sql.identifier(table);
    const c = sql.identifier(column);
    const mine = table === 'audit_log' ? sql`(entity = 'client' and entity_id = ${String(clientId)})` : sql`false`;
    const like = sql.join(
      values.map((v) => sql`${c}::text like ${`%${v}%`}`),
      sql` or `,
    );
    const likeOwn = own.length
      ? sql.join(
          own.map((v) => sql`${c}::text like ${`%${v}%`}`),
          sql` or `,
        )
      : sql`false`;
    const rows = await queryRows<{ tid: string; v: unknown }>(
      tx,
      sql`select ctid::text as tid, ${c} as v from ${t}
        where club_id = ${clubId} and ((${like}) or (${mine} and (${likeOwn})))`,
    );
    for (const r of rows) {
      const scrubbed =
        type === 'jsonb'
          ? JSON.stringify(scrubJson(typeof r.v === 'string' ? JSON.parse(r.v) : r.v, [...values, ...own]))
          : (scrubJson(r.v, table === 'audit_log' ? [...values, ...own] : values) as string);
      const value = type === 'jsonb' ? sql`${scrubbed}::jsonb` : sql`${scrubbed}`;
      await tx.execute(sql`update ${t} set ${c} = ${value} where ctid = ${r.tid}::tid`);
    }
    add(table, rows.length);
  }
  return changed;
}

/** Counts a DELETE/UPDATE … RETURNING 1 statement's rows. */
async function count(tx: Tx, statement: SQL): Promise<number> {
  const r = await queryRow<{ n: number }>(
    tx,
    sql`with d as (${statement} returning 1) select count(*)::int as n from d`,
  );
  return r?.n ?? 0;
}

/**
 * Erases client `clientId` (docs/privacy.md "Erasure", rules per table in db/data-map.ts), in one
 * transaction: her row pseudonymised (every identifying value replaced, status deleted); her
 * entrances unlinked (the rows stay without her: counts and money totals unchanged; the typed
 * reasons of their overrides cleared); her quick exits, re-entry guard and biometric templates
 * deleted (the terminals told); her payment method removed and cleared; her name, ID number,
 * phone, card serial and client code replaced in every text of the club's tables, and her first
 * and last name in the audit rows about her — except the tax documents, which the law keeps
 * unchanged. Money records keep her id. Writes an audit row (`erase` of the client, no values).
 * Errors: NOT_FOUND (another club's client or none), CONFIRMATION_MISMATCH (the number typed
 * is not hers: nothing changes).
 */
export async function eraseClient(
  db: Db,
  bus: EventBus | null,
  actor: Actor,
  clientId: number,
  confirmNumber: number,
): Promise<ErasureResult> {
  const clubId = actor.clubId;
  const c = await scoped(db, clubId).one(clients, clientId, 'client');
  if (c.number !== confirmNumber) throw new AppError('CONFIRMATION_MISMATCH', 'the client number does not match');
  const fullNames = [`${c.firstName} ${c.lastName}`.trim(), `${c.lastName} ${c.firstName}`.trim()];
  const ids = [c.personalId, c.phone, c.email, c.cardSerial, c.clientCode];
  const values = [...new Set([...fullNames, ...ids].filter((v) => v.length >= 3))];
  const own = [...new Set([c.firstName, c.lastName].filter((v) => v.length >= 2))];
  const result = await db.transaction(async (tx) => {
    const deleted: Record<string, number> = {};
    const pseudonymised: Record<string, number> = {};
    const mineE = sql`club_id = ${clubId} and client_id = ${clientId}`;
    pseudonymised.entrance_overrides = await count(
      tx,
      sql`update entrance_overrides o set reason = '' from entrance_logs e
        where o.club_id = ${clubId} and e.club_id = ${clubId} and e.id = o.entrance_log_id
          and e.client_id = ${clientId} and o.reason <> ''`,
    );
    pseudonymised.entrance_logs =
      (await count(tx, sql`update entrance_logs set client_id = null where ${mineE}`)) +
      (await count(
        tx,
        sql`update entrance_logs set payer_client_id = null where club_id = ${clubId} and payer_client_id = ${clientId}`,
      ));
    deleted.quick_exits = await count(tx, sql`delete from quick_exits where ${mineE}`);
    deleted.client_entry_guard = await count(tx, sql`delete from client_entry_guard where ${mineE}`);
    const templates = await queryRows<{ id: number; kind: string }>(
      tx,
      sql`delete from biometric_templates where ${mineE} returning id, kind`,
    );
    deleted.biometric_templates = templates.length;
    pseudonymised.payment_methods = await count(
      tx,
      sql`update payment_methods set deleted = true, card_token = null, bank_enc = null, owner_name = '',
        owner_id_masked = '' where ${mineE}`,
    );
    deleted.member_sessions = await count(
      tx,
      sql`delete from member_sessions where club_id = ${clubId} and client_id = ${clientId}`,
    );
    deleted.member_codes = await count(
      tx,
      sql`delete from member_codes where contact <> '' and (contact = ${c.phone} or contact = lower(${c.email}))`,
    );
    deleted.notification_choices = await count(tx, sql`delete from notification_choices where ${mineE}`);
    // Bookings and stays are visit detail (docs/appointments.md "Privacy", docs/gate-safety.md).
    deleted.booking_waitlist = await count(tx, sql`delete from booking_waitlist where ${mineE}`);
    deleted.bookings = await count(tx, sql`delete from bookings where ${mineE}`);
    deleted.area_presence = await count(tx, sql`delete from area_presence where ${mineE}`);
    deleted.lockdown_overrides = await count(tx, sql`delete from lockdown_overrides where ${mineE}`);
    deleted.notification_outbox = await count(
      tx,
      sql`delete from notification_outbox where ${mineE} and status = 'queued'`,
    );
    await tx.execute(sql`update clients set first_name = ${`erased-${c.number}`}, last_name = '', personal_id = '',
        phone = '', email = '', city = '', address = '', card_serial = '', enroll_password = '', message_to_client = '',
        client_code = '', status = 3, allow_enroll_fingerprint = false, allow_enroll_card = false,
        allow_enroll_face = false
      where club_id = ${clubId} and id = ${clientId}`);
    pseudonymised.clients = 1;
    for (const [t, n] of Object.entries(await scrubText(tx, clubId, clientId, values, own))) {
      if (t !== 'clients') pseudonymised[t] = (pseudonymised[t] ?? 0) + n;
    }
    const kept: Record<string, number> = {};
    for (const { table, rule } of copiedTables()) {
      if (rule.erase !== 'keep') continue;
      const r = await queryRow<{ n: number }>(
        tx,
        sql`select count(*)::int as n from ${sql.identifier(table)} where ${whereOf(rule, clubId, clientId)}`,
      );
      if (r && r.n > 0) kept[table] = r.n;
    }
    await audit(tx, actor, { action: 'erase', entity: 'client', entityId: clientId });
    for (const m of [deleted, pseudonymised]) for (const k of Object.keys(m)) if (m[k] === 0) delete m[k];
    return { clientId, pseudonymised, deleted, kept, templates };
  });
  if (bus) publishDeleted(bus, clubId, c.number, result.templates);
  const { templates: _t, ...answer } = result;
  void _t;
  return answer;
}
