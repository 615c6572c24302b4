import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { openDatabase, type Database } from '../db/index.js';
import { openTestDatabase, signedInAdmin, TEST_DB, type TestContext } from '../../test/harness.js';
import { validList } from '../modules/terminals/offline.service.js';

/**
 * A club's location changed on instance A reaches instance B (docs/calendar.md
 * "How a change propagates"): B drops the club's cached offline valid list
 * (gate-push `location` over LISTEN/NOTIFY), so its terminals get a list
 * read in the new time zone at their next list tick. Only on PostgreSQL (two
 * instances cannot share a PGlite database).
 */
const onPostgres = TEST_DB === 'postgres';

let shared: Awaited<ReturnType<typeof openTestDatabase>>;
let second: Database;
let a: FastifyInstance;
let b: FastifyInstance;
const config = { ...loadConfig({}), logLevel: 'silent', loginRateLimit: 1000 };

beforeAll(async () => {
  if (!onPostgres) return;
  shared = await openTestDatabase();
  second = await openDatabase({ databaseUrl: shared.url!, poolSize: 3 });
  a = await buildApp({ config, database: shared });
  b = await buildApp({ config, database: second });
  await a.listen({ port: 0, host: '127.0.0.1' });
  await b.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  if (!onPostgres) return;
  await a?.close();
  await b?.close();
  await second?.close();
  await shared?.dropAll();
});

describe.skipIf(!onPostgres)('a location change on one instance (PostgreSQL only)', () => {
  it('drops the club’s offline valid list on the other instance', async () => {
    const ctxA = { app: a, database: shared } as unknown as TestContext;
    const { api, club } = await signedInAdmin(ctxA);
    const before = validList(second.db, club.id);
    await before;
    expect(validList(second.db, club.id)).toBe(before); // cached on B
    expect((await api.patch(`/api/Club/${club.id}`, { location: { city: 'Sydney' } })).statusCode).toBe(200);
    const end = Date.now() + 5000;
    while (validList(second.db, club.id) === before) {
      if (Date.now() > end) throw new Error('B kept the list of the old location');
      await new Promise((r) => setTimeout(r, 20));
    }
  });
});
