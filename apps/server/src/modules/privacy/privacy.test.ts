import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { ACCESS_ANOMALY_RECORDS } from '@venue/domain';
import {
  Api,
  createTestApp,
  makeUser,
  signedInAdmin,
  TEST_PASSWORD,
  validPersonalId,
  type TestContext,
} from '../../../test/harness.js';
import {
  credit,
  makeBiometricTemplate,
  makeClient,
  makeDebt,
  makeEntrances,
  makePaymentMethod,
  makePurchase,
  makeQuickExit,
  makeTerminal,
} from '../../../test/factories.js';
import { queryRows } from '../../db/query.js';
import { dataAccessLog } from '../../db/schema.js';
import { DATA_MAP } from '../../db/data-map.js';
import { copiedTables } from './client-data.js';

/**
 * Who looked, a client's copy and erasure (issue 39, docs/privacy.md): reads of a client's data
 * land in the access log and its report; the copy holds every row about her from every table
 * that holds her id (checked against the database's catalogue); erasure leaves no name, ID number
 * or phone of hers outside the kept tax documents.
 */
describe('privacy', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => ctx.close());

  const accessRows = (clubId: number) =>
    queryRows<{ kind: string; client_id: number | null; subject: string; route: string; ip: string; username: string }>(
      ctx.database.db,
      sql`select kind, client_id, subject, route, ip, username from data_access_log where club_id = ${clubId} order by id`,
    );

  it('writes an access row for each read of a client, none for a refused one', async () => {
    const { club, user, api } = await signedInAdmin(ctx);
    const other = await signedInAdmin(ctx);
    const c = await makeClient(ctx, club.id);
    const theirs = await makeClient(ctx, other.club.id);
    expect((await api.get(`/api/Client/${c.id}`)).statusCode).toBe(200);
    expect((await api.get(`/api/GetClientFull/${c.id}`)).statusCode).toBe(200);
    expect((await api.post('/api/Report/GetClienstEnteraces', { clientId: c.id })).statusCode).toBe(200);
    // A report over all clients is not a read of one record; another club's client is not found.
    expect((await api.post('/api/Report/GetEnteracesReport', {})).statusCode).toBe(200);
    expect((await api.get(`/api/Client/${theirs.id}`)).statusCode).toBe(404);
    const rows = await accessRows(club.id);
    expect(rows).toEqual([
      {
        kind: 'details',
        client_id: c.id,
        subject: '',
        route: 'GET /api/Client/:id',
        ip: '127.0.0.1',
        username: user.username,
      },
      {
        kind: 'details',
        client_id: c.id,
        subject: '',
        route: 'GET /api/GetClientFull/:id',
        ip: '127.0.0.1',
        username: user.username,
      },
      {
        kind: 'entrances',
        client_id: c.id,
        subject: '',
        route: 'POST /api/Report/GetClienstEnteraces',
        ip: '127.0.0.1',
        username: user.username,
      },
    ]);
    expect(await accessRows(other.club.id)).toEqual([]);

    // Who opened her record, for the security officer.
    const who = await api.get(`/api/Privacy/ClientAccess/${c.id}`);
    expect(who.statusCode).toBe(200);
    expect(who.json().map((r: { kind: string }) => r.kind)).toEqual(['entrances', 'details', 'details']);
    expect((await api.get(`/api/Privacy/ClientAccess/${theirs.id}`)).statusCode).toBe(404);
  });

  it('reports the reads to the security officer and flags a user opening hundreds of records in an hour', async () => {
    const { club, api } = await signedInAdmin(ctx);
    const snoop = await makeUser(ctx, club.id, { permissions: { roleViewClientsList: true } });
    const officer = await makeUser(ctx, club.id, { permissions: { roleSecurityOfficer: true } });
    const list = [await makeClient(ctx, club.id), await makeClient(ctx, club.id), await makeClient(ctx, club.id)];
    const snoopApi = new Api(ctx.app);
    await snoopApi.login(snoop.username, TEST_PASSWORD, club.externalClubId);
    for (const c of list) expect((await snoopApi.get(`/api/Client/${c.id}`)).statusCode).toBe(200);
    // The same user opened ACCESS_ANOMALY_RECORDS distinct records within the hour before.
    const now = Date.now();
    await ctx.database.db.insert(dataAccessLog).values(
      Array.from({ length: ACCESS_ANOMALY_RECORDS }, (_, i) => ({
        clubId: club.id,
        userId: snoop.id,
        username: snoop.username,
        kind: 'details',
        clientId: 100_000 + i,
        route: 'GET /api/Client/:id',
        at: new Date(now - 30 * 60_000 + i * 1000),
      })),
    );
    // The snoop may not read the access log; the officer may.
    expect((await snoopApi.post('/api/Report/GetDataAccessReport', {})).statusCode).toBe(403);
    const officerApi = new Api(ctx.app);
    await officerApi.login(officer.username, TEST_PASSWORD, club.externalClubId);
    const r = await officerApi.post('/api/Report/GetDataAccessReport', { pageSize: 1000 });
    expect(r.statusCode).toBe(200);
    const body = r.json();
    expect(body.totals).toMatchObject({ count: ACCESS_ANOMALY_RECORDS + 3, users: 1 });
    const mine = body.items.filter((i: { clientId: number }) => list.some((c) => c.id === i.clientId));
    expect(mine).toHaveLength(3);
    // Each of the three real reads comes after 100 others of the hour: flagged.
    for (const i of mine) expect(i).toMatchObject({ kind: 'details', anomaly: true, userName: snoop.username });
    expect(body.totals.anomalies).toBeGreaterThanOrEqual(3);
    // Another user's few reads are not anomalies.
    await api.get(`/api/Client/${list[0]!.id}`);
    const again = (await officerApi.post('/api/Report/GetDataAccessReport', { pageSize: 1000 })).json();
    const admins = again.items.filter((i: { userName: string }) => i.userName !== snoop.username);
    expect(admins).toHaveLength(1);
    expect(admins[0]).toMatchObject({ anomaly: false, recordsInHour: 1 });
  });

  it('every table holding a client id is in the copy or in the documented exclusion list', async () => {
    const cols = await queryRows<{ table: string; column: string }>(
      ctx.database.db,
      sql`select table_name as "table", column_name as "column" from information_schema.columns
        where table_schema = current_schema()
          and (column_name like '%client_id' or (table_name = 'clients' and column_name in ('id', 'parent_id')))
        order by 1, 2`,
    );
    expect(cols.length).toBeGreaterThan(10);
    const map = DATA_MAP as Record<string, { client?: unknown }>;
    for (const { table, column } of cols) {
      const rule = map[table]?.client as { excluded?: string; rows?: { columns?: string[] } } | undefined;
      expect(rule, `${table}.${column} has no client rule in db/data-map.ts`).toBeDefined();
      if (rule!.excluded) continue;
      if (rule!.rows?.columns) expect(rule!.rows.columns, `${table}.${column}`).toContain(column);
    }
    // Tables without a client column but about her purchases or entrances are covered too.
    const excluded = Object.entries(map).filter(([, a]) => a.client && 'excluded' in (a.client as object));
    for (const [t, a] of excluded) expect((a.client as { excluded: string }).excluded.length, t).toBeGreaterThan(20);
  });

  it('copies every row about a client as JSON and PDF, then erases her but for the tax documents and money', async () => {
    const { club, api } = await signedInAdmin(ctx);
    const other = await signedInAdmin(ctx);
    const db = ctx.database.db;
    const terminal = await makeTerminal(ctx, club.id);
    const FIRST = 'Yocheved';
    const LAST = 'Zilberstrom';
    const PHONE = '+972541234987';
    const PID = validPersonalId(987_654);
    const EMAIL = 'yocheved.zilberstrom@example.org';
    const created = await api.post('/api/Client', {
      firstName: FIRST,
      lastName: LAST,
      phone: PHONE,
      personalId: PID,
    });
    expect(created.statusCode).toBe(200);
    const her = created.json() as { id: number; number: number };
    // Her e-mail, as the member app keeps it (docs/members.md).
    await db.execute(sql`update clients set email = ${EMAIL} where club_id = ${club.id} and id = ${her.id}`);
    expect((await api.patch(`/api/Client/${her.id}`, { city: 'Safed' })).statusCode).toBe(200);
    const child = await makeClient(ctx, club.id, {
      parentId: her.id,
      firstName: 'Child',
      lastName: LAST,
      phone: PHONE,
    });
    const someoneElse = await makeClient(ctx, club.id, { firstName: 'Other', lastName: 'Person' });
    const ent = await makeEntrances(ctx, club.id, [
      { clientId: her.id, terminalId: terminal.id, amount: 300 },
      { clientId: child.id, payerClientId: her.id, terminalId: terminal.id },
      { clientId: someoneElse.id, terminalId: terminal.id },
    ]);
    await makeQuickExit(ctx, club.id, { clientId: her.id, terminalId: terminal.id, entranceId: ent[0]!.id });
    await credit(ctx, { id: her.id, clubId: club.id }, 5000);
    await makeBiometricTemplate(ctx, { id: her.id, clubId: club.id });
    await makePaymentMethod(ctx, { id: her.id, clubId: club.id }, { ownerName: `${FIRST} ${LAST}` });
    await makeDebt(ctx, { id: her.id, clubId: club.id }, { description: `Late fee of ${FIRST} ${LAST}` });
    const p = await makePurchase(ctx, club.id, {
      clientId: her.id,
      lines: [{ itemType: 10, unitPrice: 1000 }],
      payments: [[1, 1000]],
    });
    // Her tax document (issued at its first print): kept unchanged by erasure.
    expect((await api.get(`/api/Purchase/DocumentPdf/${p.purchase.id}`)).statusCode).toBe(200);
    expect((await api.get(`/api/Client/${her.id}`)).statusCode).toBe(200);

    const copy = await api.get(`/api/Privacy/ClientCopy/${her.id}`);
    expect(copy.statusCode).toBe(200);
    const t = copy.json().tables as Record<string, Record<string, unknown>[]>;
    expect(Object.keys(t).sort()).toEqual(
      copiedTables()
        .map((x) => x.table)
        .sort(),
    );
    expect(t.clients!.map((r) => r.id).sort()).toEqual([her.id, child.id].sort());
    expect(t.entrance_logs).toHaveLength(2);
    expect(t.quick_exits).toHaveLength(1);
    expect(t.balance_ledger).toHaveLength(1);
    expect(t.biometric_templates).toHaveLength(1);
    expect(t.biometric_templates![0]!.template_enc).toBe('[withheld]');
    expect(t.payment_methods).toHaveLength(1);
    expect(t.debts).toHaveLength(1);
    expect(t.purchases).toHaveLength(1);
    expect(t.purchase_items).toHaveLength(1);
    expect(t.purchase_payments).toHaveLength(1);
    expect(t.purchase_documents).toHaveLength(1);
    expect(t.audit_log!.map((r) => r.action)).toEqual(['create', 'update']);
    expect(t.data_access_log!.length).toBeGreaterThanOrEqual(2);
    for (const lang of ['he', 'en']) {
      const pdf = await api.get(`/api/Privacy/ClientCopyPdf/${her.id}?lang=${lang}`);
      expect(pdf.statusCode).toBe(200);
      expect(pdf.headers['content-type']).toBe('application/pdf');
      expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    }
    expect((await api.get(`/api/Privacy/ClientCopy/${(await makeClient(ctx, other.club.id)).id}`)).statusCode).toBe(
      404,
    );

    // A wrong confirmation changes nothing.
    const wrong = await api.post(`/api/Privacy/EraseClient/${her.id}`, { confirmNumber: her.number + 1 });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().code).toBe('CONFIRMATION_MISMATCH');
    expect((await api.get(`/api/Client/${her.id}`)).json()).toMatchObject({ lastName: LAST });

    const erased = await api.post(`/api/Privacy/EraseClient/${her.id}`, { confirmNumber: her.number });
    expect(erased.statusCode).toBe(200);
    expect(erased.json()).toMatchObject({
      deleted: { quick_exits: 1, biometric_templates: 1 },
      kept: { balance_ledger: 1, purchases: 1, purchase_documents: 1, debts: 1 },
    });

    // No name, ID number or phone of hers in any text of the database but the tax documents.
    const textCols = await queryRows<{ table: string; column: string }>(
      db,
      sql`select table_name as "table", column_name as "column" from information_schema.columns
        where table_schema = current_schema() and data_type in ('text', 'character varying', 'jsonb', 'json')
        order by 1, 2`,
    );
    const found: string[] = [];
    for (const { table, column } of textCols) {
      for (const v of [FIRST, LAST, PHONE, PID, EMAIL]) {
        const hits = await queryRows<{ n: number }>(
          db,
          sql`select count(*)::int as n from ${sql.identifier(table)} where ${sql.identifier(column)}::text like ${`%${v}%`}`,
        );
        if (hits[0]!.n > 0) found.push(`${table}.${column}: ${v} ×${hits[0]!.n}`);
      }
    }
    // Her tax document keeps her name (the law); her child's own row keeps the family name and phone.
    expect(found.filter((f) => !f.startsWith('purchase_documents.'))).toEqual([
      `clients.last_name: ${LAST} ×1`,
      `clients.phone: ${PHONE} ×1`,
    ]);
    const [childRow] = await queryRows<{ id: number }>(
      db,
      sql`select id from clients where club_id = ${club.id} and last_name = ${LAST}`,
    );
    expect(childRow!.id).toBe(child.id);
    // Money and counts are intact: the ledger, the purchase, the entrances (unlinked from her).
    const [n] = await queryRows<{ e: number; amount: number }>(
      db,
      sql`select count(*)::int as e, sum(amount)::int as amount from entrance_logs where club_id = ${club.id}`,
    );
    expect(n).toEqual({ e: 3, amount: 300 });
    const left = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from entrance_logs where club_id = ${club.id} and (client_id = ${her.id} or payer_client_id = ${her.id})`,
    );
    expect(left[0]!.n).toBe(0);
    const after = (await api.get(`/api/Client/${her.id}`)).json();
    expect(after).toMatchObject({ lastName: '', phone: '', personalId: '' });
  });
});
