import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/harness.js';
import { queryRows } from './query.js';

/**
 * Ready to shard by club (issue 20, docs/scaling.md "The rule for tables"):
 * reads the migrated database's catalogue (pg_constraint, pg_index,
 * pg_attribute — the same on PGlite and PostgreSQL) and checks the
 * conditions Citus puts on tables distributed by `club_id`:
 *
 * - every table is either club-owned (it has a `club_id` column) or listed
 *   below as a reference table, with its reason;
 * - a club-owned table's `club_id` is NOT NULL (Citus refuses a NULL
 *   distribution column), its primary key includes `club_id`, and so does
 *   every unique constraint and unique index (uniqueness is enforced per
 *   shard only);
 * - a foreign key between two club-owned tables maps `club_id` to
 *   `club_id` (both rows on the same shard: colocation);
 * - no reference table has a foreign key to a club-owned table (Citus allows
 *   distributed → reference, never reference → distributed).
 */

/**
 * Tables replicated whole to every node in the Citus plan (create_reference_table):
 * small, read everywhere, written rarely. A new table that is neither
 * club-owned nor listed here fails the test: decide which it is.
 */
export const REFERENCE_TABLES: Record<string, string> = {
  clubs: 'the club directory itself (id is the distribution value of every other table)',
  users:
    "staff accounts: the service operator's (level SuperUser) have no club, so club_id is nullable; sign-in finds a user by club and name",
  server_state: 'generated secrets and flags shared by every instance',
  login_failures: 'sign-in back-off by "<externalClubId>|<name>", read before the club is known',
  sessions:
    "sign-in sessions of users (a reference table: the operator's have no club); looked up by id on every request, written at sign-in, sign-out and at most once a minute of activity",
  member_codes:
    "members' one-time sign-in codes, keyed by the phone or e-mail they went to: asked before a club is chosen (a contact may be on file in several clubs)",
  member_sessions:
    'member sessions (docs/members.md): opened by the code before a club is chosen, then bound to one; looked up by id on every member request',
  global_messages: "the operator's messages to many clubs",
  global_message_reads: 'read marks of global messages per user (both reference tables)',
  script_versions: 'terminal software versions published by the operator',
  sandbox_clearing_books:
    "the sandbox card provider's own books (a stand-in for the provider's side, keyed by its idempotency key, which names no club); never joined with the product's tables",
};

interface Column {
  table: string;
  column: string;
  attnum: number;
  notnull: boolean;
}
interface Constraint {
  table: string;
  name: string;
  type: 'p' | 'u' | 'f';
  keys: number[];
  ref_table: string | null;
  ref_keys: number[] | null;
}
interface UniqueIndex {
  table: string;
  name: string;
  keys: number[];
}

let db: Awaited<ReturnType<typeof openTestDatabase>>;
let columns: Column[];
let constraints: Constraint[];
let uniqueIndexes: UniqueIndex[];

beforeAll(async () => {
  db = await openTestDatabase();
  const tables = sql`select c.oid from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind in ('r', 'p')`;
  columns = await queryRows<Column & Record<string, unknown>>(
    db.db,
    sql`select a.attrelid::regclass::text as "table", a.attname as "column", a.attnum::int as attnum,
          a.attnotnull as notnull
        from pg_attribute a where a.attrelid in (${tables}) and a.attnum > 0 and not a.attisdropped`,
  );
  constraints = await queryRows<Constraint & Record<string, unknown>>(
    db.db,
    sql`select k.conrelid::regclass::text as "table", k.conname as name, k.contype::text as type,
          k.conkey::int[] as keys, case when k.confrelid = 0 then null else k.confrelid::regclass::text end as ref_table,
          k.confkey::int[] as ref_keys
        from pg_constraint k where k.conrelid in (${tables}) and k.contype in ('p', 'u', 'f')`,
  );
  // Unique indexes that are not a constraint's (CREATE UNIQUE INDEX, partial or on expressions):
  // indkey lists 0 for an expression, so an expression over club_id does not count as club_id.
  uniqueIndexes = await queryRows<UniqueIndex & Record<string, unknown>>(
    db.db,
    sql`select i.indrelid::regclass::text as "table", x.relname as name,
          string_to_array(i.indkey::text, ' ')::int[] as keys
        from pg_index i join pg_class x on x.oid = i.indexrelid
        where i.indrelid in (${tables}) and i.indisunique
          and not exists (select 1 from pg_constraint k where k.conindid = i.indexrelid)`,
  );
}, 120_000);

afterAll(async () => {
  await db?.dropAll();
});

function clubIdOf(table: string): Column | undefined {
  return columns.find((c) => c.table === table && c.column === 'club_id');
}
const isReference = (table: string) => table in REFERENCE_TABLES;
const isClubOwned = (table: string) => !isReference(table) && clubIdOf(table) !== undefined;
const allTables = () => [...new Set(columns.map((c) => c.table))].sort();

describe('the schema is ready to be distributed by club_id (Citus)', () => {
  it('reads a catalogue with the tables it expects', () => {
    // A guard against a query that finds nothing (then every rule below would pass).
    expect(allTables()).toEqual(expect.arrayContaining(['clients', 'entrance_logs', 'purchases', 'clubs']));
    expect(constraints.filter((k) => k.type === 'f').length).toBeGreaterThan(10);
  });

  it('every table is club-owned or a listed reference table', () => {
    const unclassified = allTables().filter((t) => !isReference(t) && !clubIdOf(t));
    expect(unclassified, 'tables with no club_id that are not listed in REFERENCE_TABLES').toEqual([]);
    const gone = Object.keys(REFERENCE_TABLES).filter((t) => !allTables().includes(t));
    expect(gone, 'REFERENCE_TABLES names a table that does not exist').toEqual([]);
  });

  it("a club-owned table's club_id is NOT NULL", () => {
    const nullable = allTables().filter((t) => isClubOwned(t) && !clubIdOf(t)!.notnull);
    expect(nullable).toEqual([]);
  });

  it('every primary key, unique constraint and unique index of a club-owned table includes club_id', () => {
    const bad: string[] = [];
    for (const t of allTables().filter(isClubOwned)) {
      const clubId = clubIdOf(t)!.attnum;
      for (const k of constraints.filter((k) => k.table === t && (k.type === 'p' || k.type === 'u'))) {
        if (!k.keys.includes(clubId)) bad.push(`${t}.${k.name}`);
      }
      for (const i of uniqueIndexes.filter((i) => i.table === t)) {
        if (!i.keys.includes(clubId)) bad.push(`${t}.${i.name}`);
      }
    }
    expect(bad, 'unique keys without club_id').toEqual([]);
  });

  it('every foreign key between club-owned tables maps club_id to club_id', () => {
    const bad: string[] = [];
    for (const k of constraints.filter((k) => k.type === 'f' && isClubOwned(k.table) && isClubOwned(k.ref_table!))) {
      const from = clubIdOf(k.table)!.attnum;
      const to = clubIdOf(k.ref_table!)!.attnum;
      const at = k.keys.indexOf(from);
      if (at < 0 || k.ref_keys![at] !== to) bad.push(`${k.table}.${k.name} → ${k.ref_table}`);
    }
    expect(bad, 'foreign keys that do not carry club_id').toEqual([]);
  });

  it('no reference table has a foreign key to a club-owned table', () => {
    const bad = constraints
      .filter((k) => k.type === 'f' && isReference(k.table) && isClubOwned(k.ref_table!))
      .map((k) => `${k.table}.${k.name} → ${k.ref_table}`);
    expect(bad).toEqual([]);
  });
});
