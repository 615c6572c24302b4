import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import {
  Api,
  createTestApp,
  makeUser,
  signedInAdmin,
  TEST_PASSWORD,
  validPersonalId,
  type TestContext,
} from '../../../test/harness.js';
import { multipart, readXlsx, xlsxOf } from '../../../test/upload.js';
import * as factory from '../../../test/factories.js';
import { auditLog, clients } from '../../db/schema.js';

describe('clients: full fields, history, import, bulk and export', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => ctx.close());

  it('stores every client field, refuses a taken enrolment code (409 PASSWORD_TAKEN) and balances in the body', async () => {
    const { api } = await signedInAdmin(ctx);
    const a = await api.post('/api/Client', {
      firstName: 'Dina',
      cardType: 2,
      specialPrice: 2500,
      clientCode: 'C-17',
      enrollPassword: '4711',
      allowEnrollFace: false,
    });
    expect(a.statusCode).toBe(200);
    expect(a.json()).toMatchObject({
      cardType: 2,
      specialPrice: 2500,
      clientCode: 'C-17',
      hasEnrollPassword: true,
      allowEnrollFingerprint: true,
      allowEnrollFace: false,
      hasFingerprint: false,
      hasPaymentMethod: false,
      debtsTotal: 0,
      childrenCount: 0,
      tempBalance: 0,
    });
    expect(a.json()).not.toHaveProperty('enrollPassword');
    const taken = await api.post('/api/Client', { firstName: 'Other', enrollPassword: '4711' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ code: 'PASSWORD_TAKEN', message: 'password taken' });
    const b = (await api.post('/api/Client', { firstName: 'Other' })).json();
    expect((await api.patch(`/api/Client/${b.id}`, { enrollPassword: '4711' })).json().code).toBe('PASSWORD_TAKEN');
    // A deleted client's code is free again.
    await api.patch(`/api/Client/${a.json().id}`, { status: 3 });
    expect((await api.patch(`/api/Client/${b.id}`, { enrollPassword: '4711' })).statusCode).toBe(200);
    // ... and restoring the first one now collides.
    expect((await api.patch(`/api/Client/${a.json().id}`, { status: 1 })).json().code).toBe('PASSWORD_TAKEN');
    const bad = await api.post('/api/Client', { firstName: 'X', balance: 100 });
    expect(bad.statusCode).toBe(400);
  });

  it('links children to a parent, refuses cycles, answers GetParents and GetClientFull with the code for editors only', async () => {
    const { api, club } = await signedInAdmin(ctx);
    const group = (await api.post('/api/Group', { name: 'Family', color: '#aa0000' })).json();
    const grand = (await api.post('/api/Client', { firstName: 'Grand' })).json();
    const parent = (
      await api.post('/api/Client', { firstName: 'Parent', parentId: grand.id, groupId: group.id })
    ).json();
    const child = (
      await api.post('/api/Client', { firstName: 'Child', parentId: parent.id, enrollPassword: '99' })
    ).json();
    const cycle = await api.patch(`/api/Client/${grand.id}`, { parentId: child.id });
    expect(cycle.statusCode).toBe(400);
    expect(cycle.json().details).toEqual([{ path: 'parentId', message: 'invalidParent' }]);
    expect((await api.patch(`/api/Client/${grand.id}`, { parentId: grand.id })).statusCode).toBe(400);
    const parents = (await api.get(`/api/Client/GetParents/${child.id}`)).json();
    expect(parents.map((p: { name: string }) => p.name)).toEqual(['Parent', 'Grand']);
    expect((await api.get(`/api/Client/GetParents/${grand.id}`)).json()).toEqual([]);
    const full = (await api.get(`/api/GetClientFull/${parent.id}`)).json();
    expect(full.group).toMatchObject({ id: group.id, name: 'Family', color: '#aa0000' });
    expect(full.parent).toMatchObject({ id: grand.id, name: 'Grand' });
    expect(full.children.map((c: { id: number }) => c.id)).toEqual([child.id]);
    expect(full.client.childrenCount).toBe(1);
    expect((await api.get(`/api/GetClientFull/${child.id}`)).json().enrollPassword).toBe('99');
    const viewer = await makeUser(ctx, club.id, { permissions: { roleViewClientsList: true } });
    const v = new Api(ctx.app);
    await v.login(viewer.username, TEST_PASSWORD, club.externalClubId);
    expect((await v.get(`/api/GetClientFull/${child.id}`)).json().enrollPassword).toBeNull();
    expect((await v.get('/api/Client/GetAllPasswords')).statusCode).toBe(403);
    const codes = (await api.get('/api/Client/GetAllPasswords')).json();
    expect(codes).toEqual([{ clientId: child.id, number: child.number, name: 'Child', enrollPassword: '99' }]);
    expect((await api.get(`/api/Client?parentId=${parent.id}`)).json().total).toBe(1);
  });

  it('derives fingerprint flags and filters by status, type, subscription and license', async () => {
    const { api, club } = await signedInAdmin(ctx);
    const a = (
      await api.post('/api/Client', {
        firstName: 'Valid',
        clientType: 2,
        subscriptionEnd: '2125-01-01',
        licenseExpiry: '2125-01-01',
      })
    ).json();
    const b = (
      await api.post('/api/Client', {
        firstName: 'Expired',
        subscriptionEnd: '2020-01-01',
        licenseExpiry: '2020-01-01',
      })
    ).json();
    const c = (await api.post('/api/Client', { firstName: 'None', status: 2 })).json();
    await factory.makeBiometricTemplate(ctx, { id: a.id, clubId: club.id });
    const names = async (q: string) =>
      (await api.get(`/api/Client?${q}`)).json().items.map((x: { firstName: string }) => x.firstName);
    expect((await api.get(`/api/Client/${a.id}`)).json().hasFingerprint).toBe(true);
    expect(await names('subscription=valid')).toEqual(['Valid']);
    expect(await names('subscription=expired')).toEqual(['Expired']);
    expect(await names('subscription=none')).toEqual(['None']);
    expect(await names('licenseExpired=true&sort=number')).toEqual(['Expired', 'None']);
    expect(await names('clientType=2')).toEqual(['Valid']);
    expect(await names('status=2')).toEqual(['None']);
    await api.patch(`/api/Client/${b.id}`, { status: 3 });
    expect(await names('status=3')).toEqual(['Expired']);
    expect(await names('sort=licenseExpiry&order=desc')).toEqual(['Valid', 'None']);
    expect(c.status).toBe(2);
  });

  it('answers a paged history of entrances, changes and purchases, newest first', async () => {
    const { api, club } = await signedInAdmin(ctx);
    const c = (await api.post('/api/Client', { firstName: 'History' })).json();
    await api.patch(`/api/Client/${c.id}`, { city: 'Safed' });
    await factory.makeEntrance(ctx, club.id, { clientId: c.id, at: new Date(Date.now() + 60_000), amount: 1500 });
    const h = (await api.get(`/api/Client/GetClientHistory/${c.id}?pageSize=2`)).json();
    expect(h.total).toBe(3);
    expect(h.items.map((i: { kind: string }) => i.kind)).toEqual(['entrance', 'change']);
    expect(h.items[0]).toMatchObject({ status: 1, amount: 1500 });
    expect(h.items[1]).toMatchObject({ action: 'update' });
    expect(h.items[1].before.city).toBe('');
    expect(h.items[1].after.city).toBe('Safed');
    const p2 = (await api.get(`/api/Client/GetClientHistory/${c.id}?pageSize=2&page=2`)).json();
    expect(p2.items.map((i: { action: string }) => i.action)).toEqual(['create']);
    expect((await api.get(`/api/Client/GetClientHistory/${c.id}?pageSize=201`)).statusCode).toBe(400);
  });

  it('imports an .xlsx: preview lists row errors and writes nothing, commit with errors is refused, fixed file imports all', async () => {
    const { api, club } = await signedInAdmin(ctx);
    await api.post('/api/Group', { name: 'נשים' });
    await api.post('/api/Client', { firstName: 'Has card', cardSerial: 'C900' });
    const header = ['שם פרטי', 'שם משפחה', 'תעודת זהות', 'טלפון', 'קבוצה', 'מספר כרטיס', 'סוף מנוי'];
    const good = ['שרה', 'לוי', validPersonalId(5), '050-1234567', 'נשים', 'C100', '2026-12-31'];
    const bad = ['', 'כהן', '123456789', '12', 'אין כזו', 'C100', '31/02/2026'];
    const taken = ['רחל', '', '', '', '', 'C900', new Date(Date.UTC(2026, 5, 1))];
    const file = await xlsxOf(header, [good, bad, taken]);
    const up = (buf: Buffer, preview: boolean, name = 'clients.xlsx') => {
      const m = multipart(buf, name);
      return api.request('POST', `/api/Client/ImportClients?preview=${preview}`, m.body, m.headers);
    };
    const preview = await up(file, true);
    expect(preview.statusCode).toBe(200);
    expect(preview.json()).toMatchObject({ preview: true, rows: 3, created: 0 });
    expect(preview.json().errors).toEqual([
      { row: 3, field: 'firstName', message: 'required' },
      { row: 3, field: 'personalId', message: 'invalidPersonalId' },
      { row: 3, field: 'phone', message: 'invalidPhone' },
      { row: 3, field: 'group', message: 'unknownGroup' },
      { row: 3, field: 'cardSerial', message: 'cardTakenInFile' },
      { row: 3, field: 'subscriptionEnd', message: 'invalidDate' },
      { row: 4, field: 'cardSerial', message: 'cardTaken' },
    ]);
    const count = async () => (await api.get('/api/Client')).json().total;
    expect(await count()).toBe(1);
    const refused = await up(file, false);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().code).toBe('IMPORT_HAS_ERRORS');
    expect(await count()).toBe(1);

    const fixed = await xlsxOf(header, [
      good,
      ['מרים', 'כהן', validPersonalId(6), '0527654321', '', 'C101', '01/02/2027'],
      ['רחל', '', '', '', '', 'C902', new Date(Date.UTC(2026, 5, 1))],
    ]);
    const done = await up(fixed, false);
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({ preview: false, rows: 3, created: 3, errors: [] });
    const list = (await api.get('/api/Client?sort=number')).json().items;
    expect(list.map((c: { number: number }) => c.number)).toEqual([1, 2, 3, 4]);
    expect(list[1]).toMatchObject({ firstName: 'שרה', phone: '+972501234567', groupName: 'נשים', cardSerial: 'C100' });
    expect(list[2].subscriptionEnd).toBe('2027-02-01');
    expect(list[3].subscriptionEnd).toBe('2026-06-01');
    const audits = await ctx.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.clubId, club.id), eq(auditLog.action, 'import')));
    expect(audits).toHaveLength(3);
  });

  it('imports a CSV with English headers, refuses no file, an empty file and a file that is neither', async () => {
    const { api } = await signedInAdmin(ctx);
    const csv = Buffer.from('\uFEFFFirst name;Last name;Phone;Card serial\nAnna;Weiss;0541234567;00123\nBen;;;\n');
    const m = multipart(csv, 'whatever.bin');
    const res = await api.request('POST', '/api/Client/ImportClients', m.body, m.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json().created).toBe(2);
    const anna = (await api.get('/api/Client?search=anna')).json().items[0];
    expect(anna).toMatchObject({ lastName: 'Weiss', cardSerial: '00123', phone: '+972541234567' });

    const none = await api.post('/api/Client/ImportClients', {});
    expect(none.statusCode).toBe(400);
    expect(none.json().code).toBe('FILE_REQUIRED');
    const empty = multipart(Buffer.alloc(0));
    expect((await api.request('POST', '/api/Client/ImportClients', empty.body, empty.headers)).json().code).toBe(
      'FILE_REQUIRED',
    );
    const png = multipart(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d, 0, 1, 2]), 'clients.xlsx');
    const wrong = await api.request('POST', '/api/Client/ImportClients', png.body, png.headers);
    expect(wrong.statusCode).toBe(415);
    expect(wrong.json().code).toBe('UNSUPPORTED_FILE_TYPE');
    const big = multipart(Buffer.alloc(6 * 1024 * 1024, 0x61), 'big.csv');
    const tooLarge = await api.request('POST', '/api/Client/ImportClients', big.body, big.headers);
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json().code).toBe('FILE_TOO_LARGE');
    const noName = multipart(Buffer.from('Phone\n0501234567\n'));
    const missing = await api.request('POST', '/api/Client/ImportClients?preview=true', noName.body, noName.headers);
    expect(missing.json().errors).toEqual([{ row: 1, field: 'firstName', message: 'missingColumn' }]);
  });

  it('serves a sample .xlsx with Hebrew headers that imports as it is', async () => {
    const { api } = await signedInAdmin(ctx);
    const res = await api.get('/api/Client/ImportSample');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const rows = await readXlsx(res.rawPayload);
    expect(rows[0][0]).toBe('שם פרטי');
    const m = multipart(res.rawPayload);
    const imported = await api.request('POST', '/api/Client/ImportClients', m.body, m.headers);
    expect(imported.json()).toMatchObject({ created: 2, errors: [] });
  });

  it('runs bulk operations in one transaction with an audit row per client, and refuses addBeats', async () => {
    const { api, club } = await signedInAdmin(ctx);
    const g = (await api.post('/api/Group', { name: 'Bulk' })).json();
    const ids: number[] = [];
    for (const end of ['2020-01-01', '2100-01-01', null]) {
      ids.push(
        (await api.post('/api/Client', { firstName: 'B', subscriptionEnd: end, cardSerial: `K${ids.length}` })).json()
          .id,
      );
    }
    const bulk = (action: string, newValue?: unknown, rows = ids) =>
      api.post('/api/Client/updateBulkClients', { rows, action, newValue });
    expect((await bulk('changeGroup', g.id)).json()).toEqual({ updated: 3 });
    expect((await api.get(`/api/Client?groupId=${g.id}`)).json().total).toBe(3);
    expect((await bulk('extendSubscription', 10)).json()).toEqual({ updated: 3 });
    const after = (await api.get('/api/Client?sort=number')).json().items;
    expect(after[1].subscriptionEnd).toBe('2100-01-11');
    for (const c of [after[0], after[2]]) {
      const d = new Date(`${c.subscriptionEnd}T00:00:00Z`).getTime() - Date.now();
      expect(d / 86_400_000).toBeGreaterThan(8);
      expect(d / 86_400_000).toBeLessThan(11);
    }
    expect((await bulk('setLicenseExpiry', '2027-01-01')).json().updated).toBe(3);
    expect((await bulk('setStatus', 3)).statusCode).toBe(400);
    expect((await bulk('setSubscriptionEnd', '2026-02-30')).statusCode).toBe(400);
    const beats = await bulk('addBeats', 100);
    expect(beats.statusCode).toBe(422);
    expect(beats.json().code).toBe('BULK_ACTION_NOT_SUPPORTED');
    // Another club's id anywhere in the list: 404, nothing changes.
    const other = await signedInAdmin(ctx);
    const foreign = (await other.api.post('/api/Client', { firstName: 'Foreign' })).json();
    expect((await bulk('delete', undefined, [...ids, foreign.id])).statusCode).toBe(404);
    expect((await api.get('/api/Client')).json().total).toBe(3);
    expect((await bulk('delete')).json().updated).toBe(3);
    expect((await api.get('/api/Client')).json().total).toBe(0);
    // A card given meanwhile to a new client: restoring all is refused whole.
    await api.post('/api/Client', { firstName: 'New holder', cardSerial: 'K0' });
    expect((await bulk('restore')).json().code).toBe('CARD_TAKEN');
    expect((await api.get('/api/Client')).json().total).toBe(1);
    expect((await bulk('restore', undefined, ids.slice(1))).json().updated).toBe(2);
    const rows = await ctx.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.clubId, club.id), eq(auditLog.entityId, String(ids[1]))));
    const bulkRows = rows.filter((r) => r.action.startsWith('bulk:'));
    expect(bulkRows.map((r) => r.action)).toEqual([
      'bulk:changeGroup',
      'bulk:extendSubscription',
      'bulk:setLicenseExpiry',
      'bulk:delete',
      'bulk:restore',
    ]);
    expect(bulkRows[0]).toMatchObject({ before: { groupId: null }, after: { groupId: g.id } });
    const [stored] = await ctx.database.db.select().from(clients).where(eq(clients.id, ids[1]));
    expect(stored.status).toBe(1);
  });

  it('exports the filtered list as a real .xlsx, and answers NO_DATA_TO_EXPORT when empty', async () => {
    const { api } = await signedInAdmin(ctx);
    for (let i = 0; i < 5; i++)
      await api.post('/api/Client', { firstName: `Export${i}`, lastName: i % 2 ? 'Odd' : 'Even' });
    const res = await api.get('/api/Client/Export?search=odd&lang=en&sort=number');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain('clients.xlsx');
    const rows = await readXlsx(res.rawPayload);
    expect(rows[0].slice(0, 3)).toEqual(['No.', 'First name', 'Last name']);
    expect(rows.slice(1).map((r) => r[1])).toEqual(['Export1', 'Export3']);
    const he = await readXlsx((await api.get('/api/Client/Export')).rawPayload);
    expect(he[0][0]).toBe('מס׳');
    expect(he).toHaveLength(6);
    const none = await api.get('/api/Client/Export?search=nobody-here');
    expect(none.statusCode).toBe(422);
    expect(none.json().code).toBe('NO_DATA_TO_EXPORT');
    const groups = await api.get('/api/Group/Export');
    expect(groups.json().code).toBe('NO_DATA_TO_EXPORT');
    await api.post('/api/Group', { name: 'Exported' });
    expect((await readXlsx((await api.get('/api/Group/Export?lang=en')).rawPayload))[1][0]).toBe('Exported');
  });
});
