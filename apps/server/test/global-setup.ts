import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

/**
 * Migrates once per test run instead of once per test file (issue "A
 * ten-minute CI"; model: immich's server/test/medium/globalSetup.ts).
 *
 * - PGlite: an in-memory database is migrated here and its data directory
 *   written as a tarball; each file's database starts from it
 *   (`openDatabase({ pgliteSnapshot })`, test/harness.ts).
 * - PostgreSQL (`TEST_DB=postgres`): a template database is migrated here;
 *   each file's database is `CREATE DATABASE … TEMPLATE` of it, a file copy
 *   (0.4 s against 5 s to migrate), and the template is dropped at the end.
 *
 * What the workers need is handed over with `project.provide` (read with
 * `inject` in the harness).
 */
declare module 'vitest' {
  export interface ProvidedContext {
    /** Path of the migrated PGlite data directory tarball. */
    pgliteSnapshot: string;
    /** Name of the migrated PostgreSQL template database. */
    pgTemplate: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const { openDatabase } = await import('../src/db/index.js');
  // The project's own TEST_DB (vitest.config.ts `server-pg`) or the caller's.
  if ((project.config.env?.TEST_DB ?? process.env.TEST_DB) === 'postgres') {
    const { default: pg } = await import('pg');
    const base = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
    const name = `venue_template_${process.pid}_${Date.now().toString(36)}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(base);
    url.pathname = `/${name}`;
    const d = await openDatabase({ databaseUrl: url.toString(), poolSize: 1, gatePoolSize: 1 });
    await d.close();
    project.provide('pgTemplate', name);
    project.provide('pgliteSnapshot', '');
    return async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    };
  }
  const d = await openDatabase({ dataDir: 'memory://' });
  const dir = mkdtempSync(path.join(tmpdir(), 'venue-test-snapshot-'));
  const file = path.join(dir, 'pgdata.tar');
  // The client behind drizzle: dumpDataDir is PGlite's own.
  const client = (d.db as unknown as { $client: { dumpDataDir(c: 'none'): Promise<Blob> } }).$client;
  writeFileSync(file, Buffer.from(await (await client.dumpDataDir('none')).arrayBuffer()));
  await d.close();
  project.provide('pgliteSnapshot', file);
  project.provide('pgTemplate', '');
  return async () => rmSync(dir, { recursive: true, force: true });
}
