import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { Api, createTestApp, makeOpenGate, signedInAdmin, TEST_DB, type TestContext } from '../../test/harness.js';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { EventBus } from '../lib/event-bus.js';
import { isDatabaseUnavailable } from '../lib/error-handler.js';
import { openDatabase } from './index.js';
import { TerminalClient } from '../../../terminal/src/client.js';

/**
 * Degrade, never refuse (docs/operations.md "Database outage"): database
 * faults the server did not recognise before — a database that does not
 * allow connections (SQLSTATE 55000), a gate statement stalled behind a lock
 * — make the gate answer DECIDE_OFFLINE at once, so the terminal admits by
 * its valid list, and the console answer 503 with Retry-After. Before, 55000
 * refused every entrance (GENERAL_ERROR) and the console answered 500; a
 * stalled statement kept each member waiting 5–7 s.
 */
const onPostgres = TEST_DB === 'postgres';

describe('which errors mean "the database cannot be used now"', () => {
  it('classifies by SQLSTATE class and code, never the request-caused ones', () => {
    const e = (code: string) => Object.assign(new Error('x'), { code });
    for (const code of [
      '55000',
      '53300',
      '53100',
      '57P01',
      '57P03',
      '57P04',
      '57014',
      '08006',
      '28P01',
      '3D000',
      '58030',
    ])
      expect(isDatabaseUnavailable(e(code)), code).toBe(true);
    for (const code of ['22003', '23505', '23503', '40001', '42P01', '42703', 'P0001'])
      expect(isDatabaseUnavailable(e(code)), code).toBe(false);
    expect(isDatabaseUnavailable(new Error('Cannot use a pool after calling end on the pool'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('wrapped', { cause: e('55000') }))).toBe(true);
  });
});

describe.skipIf(!onPostgres)('database faults under the gate and the console (PostgreSQL)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => ctx?.close());

  /** The server on its own pools over this file's database, a connected terminal and an admin link to `postgres`. */
  async function rig(card: string) {
    const { club } = await signedInAdmin(ctx);
    const { terminal: t } = await makeOpenGate(ctx, club.id, { card, serial: `F-${card}`, secret: 'fault-secret' });
    const database = await openDatabase({ databaseUrl: ctx.database.url!, poolSize: 3 });
    const config = { ...loadConfig({}), logLevel: 'silent', loginRateLimit: 1000 };
    const app = await buildApp({ config, database, bus: new EventBus() });
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const tc = new TerminalClient({ url: base, serial: t.serial, secret: 'fault-secret', heartbeat: false });
    await tc.connect();
    await new Promise<void>((r) => (tc.validList ? r() : tc.once('valid-list', () => r())));
    const url = new URL(ctx.database.url!);
    const name = decodeURIComponent(url.pathname.slice(1));
    url.pathname = '/postgres';
    const admin = new pg.Client({ connectionString: url.toString() });
    await admin.connect();
    return {
      tc,
      api: new Api(app),
      name,
      admin,
      async close() {
        await tc.close();
        await app.close();
        await database.close();
        await admin.end();
      },
    };
  }

  it('a database that does not allow connections (55000): the gate admits by its list at once; the console answers 503', async () => {
    const r = await rig('FAULT-55000');
    const ident = (await r.admin.query('select quote_ident($1) as q', [r.name])).rows[0].q as string;
    try {
      expect((await r.tc.present({ kind: 'card', value: 'FAULT-55000' })).status).toBe(1);
      await r.admin.query(`alter database ${ident} allow_connections false`);
      await r.admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [r.name]);
      const started = Date.now();
      const during = await r.tc.present({ kind: 'card', value: 'FAULT-55000' }, { eventId: 'fault-55000-1' });
      expect(during).toMatchObject({ status: 1, offline: true });
      expect(Date.now() - started).toBeLessThan(1_500);
      const res = await r.api.post('/api/Account', { username: 'x', password: 'y', externalClubId: 1 });
      expect(res.statusCode, res.body).toBe(503);
      expect(res.json().code).toBe('DATABASE_UNAVAILABLE');
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      await r.admin.query(`alter database ${ident} allow_connections true`);
      await r.close();
    }
  }, 60_000);

  it('a gate statement stalled behind a lock: DECIDE_OFFLINE within a second, admitted by the list', async () => {
    const r = await rig('FAULT-STALL');
    const locker = new pg.Client({ connectionString: ctx.database.url! });
    await locker.connect();
    try {
      expect((await r.tc.present({ kind: 'card', value: 'FAULT-STALL' })).status).toBe(1);
      await locker.query('begin');
      await locker.query('lock table clients in access exclusive mode');
      const started = Date.now();
      const during = await r.tc.present({ kind: 'card', value: 'FAULT-STALL' }, { eventId: 'fault-stall-1' });
      const waited = Date.now() - started;
      expect(during).toMatchObject({ status: 1, offline: true });
      expect(waited).toBeLessThan(1_200);
    } finally {
      await locker.query('rollback').catch(() => undefined);
      await locker.end();
      await r.close();
    }
  }, 60_000);

  it('a console call behind a lock that is not released: 503 with Retry-After after the lock limit, not a hang', async () => {
    const r = await rig('FAULT-LOCK');
    const locker = new pg.Client({ connectionString: ctx.database.url! });
    await locker.connect();
    try {
      await locker.query('begin');
      await locker.query('lock table users in access exclusive mode');
      const res = await Promise.race([
        r.api.post('/api/Account', { username: 'x', password: 'y', externalClubId: 1 }),
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error('the console call still waits after 30 s')), 30_000),
        ),
      ]);
      expect(res.statusCode, res.body).toBe(503);
      expect(res.json().code).toBe('DATABASE_UNAVAILABLE');
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      await locker.query('rollback').catch(() => undefined);
      await locker.end();
      await r.close();
    }
  }, 60_000);
});
