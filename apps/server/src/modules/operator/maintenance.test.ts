import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
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
    it('answers 404 while no maintenance password or no maintenance role is configured', async () => {
      ctx.app.deps.config.maintenancePassword = undefined;
      ctx.app.deps.config.maintenanceDatabaseUrl = ctx.database.url ?? 'postgres://x@127.0.0.1/x';
      expect((await run('select 1 as one')).statusCode).toBe(404);
      ctx.app.deps.config.maintenancePassword = PASSWORD;
      ctx.app.deps.config.maintenanceDatabaseUrl = undefined;
      expect((await run('select 1 as one')).statusCode).toBe(404);
      ctx.app.deps.config.maintenancePassword = undefined;
    });

    // The maintenance query runs on its own read-only login role (docs/operator.md): PostgreSQL only.
    describe.skipIf(TEST_DB !== 'postgres')('with a password and a maintenance role configured', () => {
      const ROLE = 'venue_maintenance_test';
      let roleUrl: string;
      beforeAll(async () => {
        const db = ctx.database.db;
        const dbName = decodeURIComponent(new URL(ctx.database.url!).pathname.slice(1));
        // The setup docs/operator.md gives, for this test database (the role is the cluster's: made once).
        await db.execute(
          sql.raw(`do $$ begin
            create role ${ROLE} login nosuperuser nocreatedb nocreaterole noreplication nobypassrls;
          exception when duplicate_object then null; end $$`),
        );
        await db.execute(sql.raw(`grant connect on database "${dbName}" to ${ROLE}`));
        await db.execute(sql.raw(`grant usage on schema public to ${ROLE}`));
        await db.execute(sql.raw(`grant select on all tables in schema public to ${ROLE}`));
        await db.execute(sql.raw(`revoke select on server_state, users from ${ROLE}`));
        await db.execute(
          sql.raw(`do $$ begin execute (select 'grant select (' || string_agg(quote_ident(column_name), ', ')
            || ') on users to ${ROLE}' from information_schema.columns
            where table_schema = 'public' and table_name = 'users' and column_name <> 'password_hash'); end $$`),
        );
        const u = new URL(ctx.database.url!);
        u.username = ROLE;
        u.password = '';
        roleUrl = u.toString();
        ctx.app.deps.config.maintenancePassword = PASSWORD;
        ctx.app.deps.config.maintenanceDatabaseUrl = roleUrl;
      });
      afterAll(() => {
        ctx.app.deps.config.maintenancePassword = undefined;
        ctx.app.deps.config.maintenanceDatabaseUrl = undefined;
      });
      const code = async (data: string, password?: string) => {
        const r = await run(data, password);
        return `${r.statusCode} ${r.json().code}`;
      };

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

      it('refuses writes, multiple statements and bad SQL with their codes', async () => {
        expect(await code('select 1; select 2')).toBe('422 SQL_MULTIPLE_STATEMENTS');
        expect(await code('select 1; delete from clubs')).toBe('422 SQL_MULTIPLE_STATEMENTS');
        expect(await code('delete from clubs')).toBe('422 SQL_NOT_READ_ONLY');
        expect(await code('update users set disabled = true')).toBe('422 SQL_NOT_READ_ONLY');
        expect(await code('/* x */ drop table clubs')).toBe('422 SQL_NOT_READ_ONLY');
        expect(await code('with d as (delete from clubs returning *) select * from d')).toBe('422 SQL_NOT_READ_ONLY');
        expect(await code('select * from clubs for update')).toMatch(/^422 SQL_NOT_(READ_ONLY|PERMITTED)$/);
        expect(await code("select nextval('clubs_id_seq')")).toMatch(/^422 SQL_NOT_(READ_ONLY|PERMITTED)$/);
        expect(await code('select * from no_such_table')).toBe('422 SQL_ERROR');
        expect(await code("select 'open")).toBe('400 VALIDATION_ERROR');
        expect(await code('')).toBe('400 VALIDATION_ERROR');
        // Nothing changed: the clubs are all there.
        const count = await run('select count(*)::int as n from clubs');
        expect(count.json().rows[0].n).toBeGreaterThan(0);
        const refused = await ctx.database.db.select().from(auditLog).where(eq(auditLog.entity, 'maintenanceSql'));
        expect(refused.some((a) => (a.after as { outcome: string }).outcome === 'SQL_NOT_READ_ONLY')).toBe(true);
      });

      it('cannot read the keys, password hashes or files, nor create large objects; the rest of users reads', async () => {
        expect(await code('select * from server_state')).toBe('422 SQL_NOT_PERMITTED');
        expect(await code('select password_hash from users')).toBe('422 SQL_NOT_PERMITTED');
        expect(await code("select pg_read_file('/etc/hostname')")).toBe('422 SQL_NOT_PERMITTED');
        expect(await code("select pg_ls_dir('.')")).toBe('422 SQL_NOT_PERMITTED');
        expect(await code("select lo_import('/etc/hostname')")).toMatch(/^422 SQL_NOT_(READ_ONLY|PERMITTED)$/);
        // A large object made inside the query's transaction is gone with it (always rolled back).
        const objects = async () =>
          (
            (await ctx.database.db.execute(sql`select count(*)::int as n from pg_largeobject_metadata`)) as unknown as {
              rows: { n: number }[];
            }
          ).rows[0].n;
        const before = await objects();
        await code('select lo_create(0)');
        expect(await objects()).toBe(before);
        expect(await code("select set_config('role', 'postgres', false)")).toMatch(/^422 SQL_(NOT_PERMITTED|ERROR)$/);
        expect(await code("select set_config('session_authorization', 'postgres', false)")).toMatch(
          /^422 SQL_(NOT_PERMITTED|ERROR)$/,
        );
        expect(await code('select username from users limit 1')).toBe('200 undefined');
      });

      it("refuses to run on a role that is not read-only by construction (the server's superuser)", async () => {
        ctx.app.deps.config.maintenanceDatabaseUrl = ctx.database.url!;
        try {
          const r = await run('select 1');
          expect(`${r.statusCode} ${r.json().code}`).toBe('422 SQL_NOT_CONFIGURED');
          expect(r.json().details.unsafe).toContain('superuser');
        } finally {
          ctx.app.deps.config.maintenanceDatabaseUrl = roleUrl;
        }
      });

      it('stops a query that runs longer than its time limit', async () => {
        expect(await code('select pg_sleep(7)')).toBe('422 SQL_TIMEOUT');
      }, 15_000);

      it('answers 403 to a club admin, even with the right password', async () => {
        const { api } = await signedInAdmin(ctx);
        expect((await api.post('/api/Db/ExecuteSql', { data: 'select 1', password: PASSWORD })).statusCode).toBe(403);
      });

      it('five wrong passwords make the operator wait, even with the right one; each is audited', async () => {
        const other = await signedInOperator(ctx);
        const call = (password: string) => other.api.post('/api/Db/ExecuteSql', { data: 'select 1', password });
        for (let i = 0; i < 5; i++) expect((await call('wrong-password-1')).json().code).toBe('WRONG_PASSWORD');
        const locked = await call(PASSWORD);
        expect(locked.statusCode).toBe(429);
        expect(locked.json().code).toBe('TOO_MANY_REQUESTS');
        const rows = await ctx.database.db
          .select()
          .from(auditLog)
          .where(and(eq(auditLog.entity, 'maintenanceSql'), eq(auditLog.userId, other.user.id)));
        expect(rows.map((r) => (r.after as { outcome: string }).outcome)).toEqual([
          ...Array(5).fill('WRONG_PASSWORD'),
          'TOO_MANY_REQUESTS',
        ]);
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
