import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { openTestDatabase } from '../../test/harness.js';
import type { Database } from './index.js';
import { queryRows } from './query.js';
import { DATA_MAP } from './data-map.js';
import { renderDatabaseDefinition } from './data-map-doc.js';

/** The database definition stays true (issue 39): every table annotated, the document current. */
describe('database definition', () => {
  let database: Database & { dropAll(): Promise<void> };
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => database.dropAll());

  it('annotates every table of the database and no other', async () => {
    const rows = await queryRows<{ name: string }>(
      database.db,
      sql`select table_name as name from information_schema.tables
        where table_schema = current_schema() and table_type = 'BASE TABLE' order by 1`,
    );
    expect(Object.keys(DATA_MAP).sort()).toEqual(rows.map((r) => r.name).sort());
  });

  it('names the columns of the client rules as they are', async () => {
    for (const [table, a] of Object.entries(DATA_MAP) as [string, { client?: { rows?: { columns?: string[] } } }][]) {
      for (const column of a.client?.rows?.columns ?? []) {
        const r = await queryRows(
          database.db,
          sql`select 1 from information_schema.columns
            where table_schema = current_schema() and table_name = ${table} and column_name = ${column}`,
        );
        expect(r, `${table}.${column}`).toHaveLength(1);
      }
    }
  });

  it('docs/database-definition.md is the generated one (npm run -w apps/server db:definition)', () => {
    const file = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../docs/database-definition.md');
    expect(readFileSync(file, 'utf8')).toBe(renderDatabaseDefinition());
  });
});
