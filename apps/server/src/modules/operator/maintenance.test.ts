import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { MAINTENANCE_ROW_LIMIT } from '@venue/domain';
import {
  Api,
  createTestApp,
  signedInAdmin,
  signedInOperator,
  TEST_DB,
  type TestContext,
} from '../../../test/harness.js';
import { makeScriptVersion } from '../../../test/factories.js';
import { auditLog } from '../../db/schema.js';
import { singleQueryStatement } from './maintenance-sql.js';

const PASSWORD = 'maintenance-pass-123';

/** Seed 000 §7 GET /Club/GetScriptVersionList, POST /Db/ExecuteSql; DESIGN §10; docs/operator.md. */
describe(`operator maintenance (${TEST_DB})`, () => {
  let ctx: TestContext;
  let operator: Api;
  let operatorId: number;
  beforeAll(async () => {
    ctx = await createTestApp();
    const op = await signedInOperator(ctx);
    operatorId = op.user.id;
    operator = op.api;
  });
  afterAll(async () => ctx.close());

  const run = (data: string, password = PASSWORD) => operator.post('/api/Db/ExecuteSql', { data, password });

  describe('script versions', () => {
    it('the operator publishes, changes and withdraws versions; every club user lists them newest first', async () => {
      const created = await operator.post('/api/ScriptVersion', {
        version: '38.1.0',
        notes: 'Faster gate',
        fileUrl: 'https://updates.example.com/38.1.0.zip',
      });
      expect(created.statusCode, created.body).toBe(200);
      const v = created.json();
      expect(v).toMatchObject({ version: '38.1.0', notes: 'Faster gate' });
      const again = await operator.post('/api/ScriptVersion', {
        version: '38.1.0',
        fileUrl: 'https://x.example/a',
      });
      expect(again.statusCode).toBe(409);

      const patched = await operator.patch(`/api/ScriptVersion/${v.id}`, { notes: 'Faster gate, fixes' });
      expect(patched.statusCode).toBe(200);
      expect(patched.json().notes).toBe('Faster gate, fixes');

      const { api } = await signedInAdmin(ctx);
      const list = await api.get('/api/Club/GetScriptVersionList');
      expect(list.statusCode).toBe(200);
      expect(list.json().map((x: { version: string }) => x.version)).toContain('38.1.0');
      expect(list.json()[0].version).toBe('38.1.0');

      expect((await operator.delete(`/api/ScriptVersion/${v.id}`)).statusCode).toBe(200);
      expect((await operator.delete(`/api/ScriptVersion/${v.id}`)).statusCode).toBe(404);
      expect((await operator.patch(`/api/ScriptVersion/${v.id}`, { notes: 'x' })).statusCode).toBe(404);
      const audited = await ctx.database.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.entity, 'scriptVersion'), eq(auditLog.entityId, String(v.id))));
      expect(audited.map((a) => a.action).sort()).toEqual(['create', 'delete', 'update']);
      expect(audited.every((a) => a.userId === operatorId && a.clubId === 0)).toBe(true); // club 0: the operator outside any club (docs/scaling.md)
    });

    it('refuses a bad label, a non-http URL and unknown fields with field codes, changing nothing', async () => {
      const bad = await operator.post('/api/ScriptVersion', { version: 'v1 beta', fileUrl: 'ftp://x/y' });
      expect(bad.statusCode).toBe(400);
      const paths = bad.json().details.map((d: { path: string; message: string }) => `${d.path}:${d.message}`);
      expect(paths).toEqual(expect.arrayContaining(['version:invalidVersion', 'fileUrl:invalidUrl']));
      const extra = await operator.post('/api/ScriptVersion', {
        version: '1.0.0',
        fileUrl: 'https://x.example/a',
        clubId: 5,
      });
      expect(extra.statusCode).toBe(400);
    });

    it('answers 403 to a club admin on every write, 401 without a session', async () => {
      const v = await makeScriptVersion(ctx);
      const { api } = await signedInAdmin(ctx);
      const body = { version: '9.9.9', fileUrl: 'https://x.example/a' };
      expect((await api.post('/api/ScriptVersion', body)).statusCode).toBe(403);
      expect((await api.patch(`/api/ScriptVersion/${v.id}`, { notes: 'x' })).statusCode).toBe(403);
      expect((await api.delete(`/api/ScriptVersion/${v.id}`)).statusCode).toBe(403);
      expect((await new Api(ctx.app).get('/api/Club/GetScriptVersionList')).statusCode).toBe(401);
    });
  });

  describe('maintenance query', () => {
    it('answers 404 while no maintenance password is configured', async () => {
      ctx.app.deps.config.maintenancePassword = undefined;
      expect((await run('select 1 as one')).statusCode).toBe(404);
    });

    describe('with a password configured', () => {
      beforeAll(() => {
        ctx.app.deps.config.maintenancePassword = PASSWORD;
      });
      afterAll(() => {
        ctx.app.deps.config.maintenancePassword = undefined;
      });

      it('runs one query and writes its text to the audit journal under the operator', async () => {
        const res = await run("select 1 as one, 'a;b' as two; -- trailing comment");
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json()).toEqual({
          columns: ['one', 'two'],
          rows: [{ one: 1, two: 'a;b' }],
          rowCount: 1,
          truncated: false,
        });
        const [row] = await ctx.database.db
          .select()
          .from(auditLog)
          .where(and(eq(auditLog.entity, 'maintenanceSql'), eq(auditLog.userId, operatorId)))
          .orderBy(auditLog.id)
          .limit(1);
        expect(row.after).toMatchObject({ statement: expect.stringContaining("'a;b'"), outcome: 'ok' });
      });

      it(`cuts the answer at ${MAINTENANCE_ROW_LIMIT} rows`, async () => {
        const res = await run('select g from generate_series(1, 5000) g');
        expect(res.statusCode).toBe(200);
        expect(res.json()).toMatchObject({ rowCount: MAINTENANCE_ROW_LIMIT, truncated: true });
      });

      it('refuses writes, multiple statements, a wrong password and bad SQL with their codes', async () => {
        const code = async (data: string, password?: string) => {
          const r = await run(data, password);
          return `${r.statusCode} ${r.json().code}`;
        };
        expect(await code('select 1', 'wrong-password-1')).toBe('422 WRONG_PASSWORD');
        expect(await code('select 1; select 2')).toBe('422 SQL_MULTIPLE_STATEMENTS');
        expect(await code('select 1; delete from clubs')).toBe('422 SQL_MULTIPLE_STATEMENTS');
        expect(await code('delete from clubs')).toBe('422 SQL_NOT_READ_ONLY');
        expect(await code('update users set disabled = true')).toBe('422 SQL_NOT_READ_ONLY');
        expect(await code('/* x */ drop table clubs')).toBe('422 SQL_NOT_READ_ONLY');
        expect(await code('with d as (delete from clubs returning *) select * from d')).toBe('422 SQL_NOT_READ_ONLY');
        expect(await code('select * from clubs for update')).toBe('422 SQL_NOT_READ_ONLY');
        expect(await code("select nextval('clubs_id_seq')")).toBe('422 SQL_NOT_READ_ONLY');
        expect(await code('select * from no_such_table')).toBe('422 SQL_ERROR');
        expect(await code("select 'open")).toBe('400 VALIDATION_ERROR');
        expect(await code('')).toBe('400 VALIDATION_ERROR');
        // Nothing changed: the clubs are all there.
        const count = await run('select count(*)::int as n from clubs');
        expect(count.json().rows[0].n).toBeGreaterThan(0);
        const refused = await ctx.database.db.select().from(auditLog).where(eq(auditLog.entity, 'maintenanceSql'));
        expect(refused.some((a) => (a.after as { outcome: string }).outcome === 'SQL_NOT_READ_ONLY')).toBe(true);
      });

      // PGlite runs no timers: statement_timeout is PostgreSQL's (docs/operator.md).
      it.skipIf(TEST_DB !== 'postgres')(
        'stops a query that runs longer than its time limit',
        async () => {
          const r = await run('select pg_sleep(7)');
          expect(`${r.statusCode} ${r.json().code}`).toBe('422 SQL_TIMEOUT');
        },
        15_000,
      );

      it('answers 403 to a club admin, even with the right password', async () => {
        const { api } = await signedInAdmin(ctx);
        expect((await api.post('/api/Db/ExecuteSql', { data: 'select 1', password: PASSWORD })).statusCode).toBe(403);
      });
    });
  });

  it('finds the one statement lexically: literals, quoted names, dollar quotes and comments', () => {
    expect(singleQueryStatement('select 1;')).toBe('select 1');
    expect(singleQueryStatement("select ';' as x ;; ")).toBe("select ';' as x");
    expect(singleQueryStatement('select $$;$$, $t$ ; $t$, "a;b" from x -- ;\n')).toContain('from x');
    expect(singleQueryStatement("select E'\\';' as x")).toBe("select E'\\';' as x");
    expect(() => singleQueryStatement('select 1 /* ; */ ; select 2')).toThrow('Only one statement');
    expect(() => singleQueryStatement('insert into x values (1)')).toThrow('read-only');
    expect(() => singleQueryStatement('/* unterminated')).toThrow('Unterminated');
  });
});
