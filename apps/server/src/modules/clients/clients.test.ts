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
import { auditLog, clients } from '../../db/schema.js';

describe('clients', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => ctx.close());

  async function clientCount(clubId: number): Promise<number> {
    return (await ctx.database.db.select().from(clients).where(eq(clients.clubId, clubId))).length;
  }

  it('creates clients with the next number of the club, the phone in E.164 and the presented shape', async () => {
    const { api, club } = await signedInAdmin(ctx);
    const group = (await api.post('/api/Group', { name: 'Women' })).json();
    const a = await api.post('/api/Client', {
      firstName: 'Sarah',
      lastName: 'Levi',
      phone: '050-123-4567',
      personalId: validPersonalId(1),
      groupId: group.id,
      subscriptionStart: '2025-01-01',
      subscriptionEnd: '2125-01-01',
      cardSerial: 'AB12',
    });
    expect(a.statusCode).toBe(200);
    expect(a.json()).toMatchObject({
      number: 1,
      name: 'Sarah Levi',
      phone: '+972501234567',
      groupId: group.id,
      groupName: 'Women',
      subscriptionStart: '2025-01-01',
      subscriptionEnd: '2125-01-01',
      status: 1,
      balance: 0,
    });
    expect(a.json().createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    const b = await api.post('/api/Client', { firstName: 'רחל' });
    expect(b.json()).toMatchObject({ number: 2, name: 'רחל', lastName: '', phone: '', groupId: null, groupName: null });
    const [row] = await ctx.database.db
      .select()
      .from(auditLog)
      .where(
        and(eq(auditLog.clubId, club.id), eq(auditLog.entity, 'client'), eq(auditLog.entityId, String(a.json().id))),
      );
    expect(row).toMatchObject({ action: 'create' });
    expect((row.after as { cardSerial: string }).cardSerial).toBe('…AB12');
  });

  it('numbers clients of one club without gaps or repeats under concurrent creation, each club from 1', async () => {
    const { api, club } = await signedInAdmin(ctx);
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => api.post('/api/Client', { firstName: `C${i}` })),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(12).fill(200));
    expect(results.map((r) => r.json().number).sort((x, y) => x - y)).toEqual(
      Array.from({ length: 12 }, (_, i) => i + 1),
    );
    expect(await clientCount(club.id)).toBe(12);
    const other = await signedInAdmin(ctx);
    expect((await other.api.post('/api/Client', { firstName: 'First' })).json().number).toBe(1);
  });

  it('searches name, phone (any form), personal ID, card serial and number, with paging and total', async () => {
    const { api } = await signedInAdmin(ctx);
    await api.post('/api/Client', {
      firstName: 'Miriam',
      lastName: 'Cohen',
      phone: '+972501234567',
      personalId: validPersonalId(7),
      cardSerial: 'CAFE01',
    });
    await api.post('/api/Client', { firstName: 'Dina', lastName: 'Katz', phone: '0529876543' });
    await api.post('/api/Client', { firstName: 'Esther', lastName: 'Cohen-Levi' });
    for (let i = 0; i < 7; i++) await api.post('/api/Client', { firstName: `Filler${i}`, lastName: 'Zed' });
    const names = async (q: string) =>
      (await api.get(`/api/Client?${q}`)).json().items.map((c: { name: string }) => c.name);

    expect(await names('search=0501234567')).toEqual(['Miriam Cohen']);
    expect(await names('search=050-123-4567')).toEqual(['Miriam Cohen']);
    expect(await names(`search=${encodeURIComponent('+972501234567')}`)).toEqual(['Miriam Cohen']);
    expect(await names('search=1234567')).toEqual(['Miriam Cohen']);
    expect(await names('search=cohen&sort=firstName')).toEqual(['Esther Cohen-Levi', 'Miriam Cohen']);
    expect(await names('search=miriam%20coh')).toEqual(['Miriam Cohen']);
    expect(await names(`search=${validPersonalId(7)}`)).toEqual(['Miriam Cohen']);
    expect(await names('search=cafe01')).toEqual(['Miriam Cohen']);
    expect(await names('search=2')).toContain('Dina Katz'); // client number 2
    expect(await names('search=%25')).toEqual([]); // LIKE wildcards are literal

    const page = await api.get('/api/Client?search=zed&page=2&pageSize=3&sort=firstName&order=desc');
    expect(page.json().total).toBe(7);
    expect(page.json().items.map((c: { firstName: string }) => c.firstName)).toEqual(['Filler3', 'Filler2', 'Filler1']);
  });

  it('sorts by number, name, createdAt and subscriptionEnd (no end last both ways), and refuses an unknown sort', async () => {
    const { api } = await signedInAdmin(ctx);
    await api.post('/api/Client', { firstName: 'B', lastName: 'Alon', subscriptionEnd: '2026-05-01' });
    await api.post('/api/Client', { firstName: 'A', lastName: 'Alon' });
    await api.post('/api/Client', { firstName: 'C', lastName: 'Ben', subscriptionEnd: '2025-05-01' });
    const order = async (q: string) =>
      (await api.get(`/api/Client?${q}`)).json().items.map((c: { number: number }) => c.number);
    expect(await order('sort=number&order=desc')).toEqual([3, 2, 1]);
    expect(await order('sort=name')).toEqual([2, 1, 3]);
    expect(await order('sort=createdAt&order=desc')).toEqual([3, 2, 1]);
    expect(await order('sort=subscriptionEnd')).toEqual([3, 1, 2]);
    expect(await order('sort=subscriptionEnd&order=desc')).toEqual([1, 3, 2]);
    const bad = await api.get('/api/Client?sort=nonsense');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('VALIDATION_ERROR');
    expect((await api.get('/api/Client?pageSize=501')).statusCode).toBe(400);
  });

  it('hides deleted clients unless showDeleted, and filters by group', async () => {
    const { api } = await signedInAdmin(ctx);
    const g = (await api.post('/api/Group', { name: 'Men' })).json();
    const kept = (await api.post('/api/Client', { firstName: 'Kept', groupId: g.id })).json();
    const gone = (await api.post('/api/Client', { firstName: 'Gone', groupId: g.id })).json();
    await api.post('/api/Client', { firstName: 'Other' });
    expect((await api.patch(`/api/Client/${gone.id}`, { status: 3 })).json().status).toBe(3);
    const ids = async (q: string) => (await api.get(`/api/Client?${q}`)).json().items.map((c: { id: number }) => c.id);
    expect(await ids('')).not.toContain(gone.id);
    expect(await ids('showDeleted=false')).not.toContain(gone.id);
    expect(await ids('showDeleted=true')).toContain(gone.id);
    expect(await ids(`groupId=${g.id}`)).toEqual([kept.id]);
    expect(await ids(`groupId=${g.id}&showDeleted=true`)).toEqual([kept.id, gone.id]);
    // A deleted client is still readable by id (restore is possible, seed 001 §4).
    expect((await api.get(`/api/Client/${gone.id}`)).json().status).toBe(3);
  });

  it('refuses a card serial held by a non-deleted client of the club (409 CARD_TAKEN), also on restore', async () => {
    const { api, club } = await signedInAdmin(ctx);
    const first = (await api.post('/api/Client', { firstName: 'One', cardSerial: 'F00D' })).json();
    const dup = await api.post('/api/Client', { firstName: 'Two', cardSerial: 'F00D' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().code).toBe('CARD_TAKEN');
    const second = (await api.post('/api/Client', { firstName: 'Two' })).json();
    expect((await api.patch(`/api/Client/${second.id}`, { cardSerial: 'F00D' })).statusCode).toBe(409);
    // The same card in another club is fine.
    const other = await signedInAdmin(ctx);
    expect((await other.api.post('/api/Client', { firstName: 'Else', cardSerial: 'F00D' })).statusCode).toBe(200);
    // Deleting the holder frees the card; restoring the holder then collides.
    await api.patch(`/api/Client/${first.id}`, { status: 3 });
    expect((await api.patch(`/api/Client/${second.id}`, { cardSerial: 'F00D' })).statusCode).toBe(200);
    const restore = await api.patch(`/api/Client/${first.id}`, { status: 1 });
    expect(restore.statusCode).toBe(409);
    expect(restore.json().code).toBe('CARD_TAKEN');
    // Saving a client with its own card again is not a conflict.
    expect((await api.patch(`/api/Client/${second.id}`, { cardSerial: 'F00D', city: 'Bnei Brak' })).statusCode).toBe(
      200,
    );
    expect(await clientCount(club.id)).toBe(2);
  });

  it('refuses a group of another club or a deleted group, changing nothing', async () => {
    const { api, club } = await signedInAdmin(ctx);
    const other = await signedInAdmin(ctx);
    const foreign = (await other.api.post('/api/Group', { name: 'Theirs' })).json();
    const res = await api.post('/api/Client', { firstName: 'X', groupId: foreign.id });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ path: 'groupId', message: 'unknownGroup' }],
    });
    const mine = (await api.post('/api/Group', { name: 'Mine' })).json();
    await api.delete(`/api/Group/${mine.id}`);
    expect((await api.post('/api/Client', { firstName: 'X', groupId: mine.id })).statusCode).toBe(400);
    const c = (await api.post('/api/Client', { firstName: 'Y' })).json();
    expect((await api.patch(`/api/Client/${c.id}`, { groupId: foreign.id })).statusCode).toBe(400);
    expect((await api.get(`/api/Client/${c.id}`)).json().groupId).toBeNull();
    expect(await clientCount(club.id)).toBe(1);
  });

  it('answers 400 VALIDATION_ERROR with details for bad input and creates nothing', async () => {
    const { api, club } = await signedInAdmin(ctx);
    const cases: [object, string][] = [
      [{ firstName: '' }, 'firstName'],
      [{ firstName: 'A', personalId: '123456789' }, 'personalId'],
      [{ firstName: 'A', phone: '12' }, 'phone'],
      [{ firstName: 'A', subscriptionEnd: '2025-02-30' }, 'subscriptionEnd'],
      [{ firstName: 'A', subscriptionStart: '2025-03-01', subscriptionEnd: '2025-02-01' }, 'subscriptionEnd'],
      [{ firstName: 'A', cardSerial: 'a b' }, 'cardSerial'],
      [{ firstName: 'A', groupId: 99999999999 }, 'groupId'],
      [{ firstName: 'A', balance: 500 }, ''],
      [{ firstName: 'A', clubId: 1 }, ''],
    ];
    for (const [body, path] of cases) {
      const res = await api.post('/api/Client', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().code).toBe('VALIDATION_ERROR');
      expect(Array.isArray(res.json().details)).toBe(true);
      if (path) expect(res.json().details.map((d: { path: string }) => d.path)).toContain(path);
    }
    expect(await clientCount(club.id)).toBe(0);
  });

  it('patches only the given fields, refuses unknown fields (balance, clubId) and audits before and after', async () => {
    const { api, club } = await signedInAdmin(ctx);
    const c = (
      await api.post('/api/Client', { firstName: 'Leah', lastName: 'Mizrahi', city: 'Haifa', clientType: 2 })
    ).json();
    const res = await api.patch(`/api/Client/${c.id}`, { phone: '0541112222', lastName: 'Peretz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      name: 'Leah Peretz',
      phone: '+972541112222',
      city: 'Haifa',
      clientType: 2,
      number: c.number,
    });
    for (const body of [{ balance: 100 }, { clubId: 999 }, { number: 5 }, { role: 1 }]) {
      const bad = await api.patch(`/api/Client/${c.id}`, body);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().code).toBe('VALIDATION_ERROR');
    }
    const [row] = await ctx.database.db.select().from(clients).where(eq(clients.id, c.id));
    expect(row).toMatchObject({ balance: 0, clubId: club.id, number: c.number });
    const audits = await ctx.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'client'), eq(auditLog.entityId, String(c.id)), eq(auditLog.action, 'update')));
    expect(audits).toHaveLength(1);
    expect(audits[0].before).toMatchObject({ lastName: 'Mizrahi' });
    expect(audits[0].after).toMatchObject({ lastName: 'Peretz' });
    expect(audits[0].userId).not.toBeNull();
  });

  it("answers 404 for another club's client and for an unknown id, 400 for a malformed id", async () => {
    const { api } = await signedInAdmin(ctx);
    const other = await signedInAdmin(ctx);
    const theirs = (await other.api.post('/api/Client', { firstName: 'Theirs' })).json();
    expect((await api.get(`/api/Client/${theirs.id}`)).statusCode).toBe(404);
    const patch = await api.patch(`/api/Client/${theirs.id}`, { firstName: 'Mine' });
    expect(patch.statusCode).toBe(404);
    expect(patch.json().code).toBe('NOT_FOUND');
    expect((await other.api.get(`/api/Client/${theirs.id}`)).json().firstName).toBe('Theirs');
    expect((await api.get('/api/Client/999999')).statusCode).toBe(404);
    expect((await api.get('/api/Client/abc')).statusCode).toBe(400);
    expect((await api.get('/api/Client/99999999999')).statusCode).toBe(400);
    expect((await api.get('/api/Client')).json().items).toEqual([]);
  });

  it('needs a sign-in, the list permission to read and the edit permission to change', async () => {
    const { api: admin, club } = await signedInAdmin(ctx);
    const c = (await admin.post('/api/Client', { firstName: 'A' })).json();
    const anon = new Api(ctx.app);
    expect((await anon.get('/api/Client')).statusCode).toBe(401);
    expect((await anon.post('/api/Client', {})).statusCode).toBe(401);
    const viewer = await makeUser(ctx, club.id, { permissions: { roleViewClientsList: true } });
    const api = new Api(ctx.app);
    await api.login(viewer.username, TEST_PASSWORD, club.externalClubId);
    expect((await api.get('/api/Client')).statusCode).toBe(200);
    expect((await api.get(`/api/Client/${c.id}`)).statusCode).toBe(200);
    expect((await api.post('/api/Client', { firstName: 'B' })).statusCode).toBe(403);
    expect((await api.patch(`/api/Client/${c.id}`, { firstName: 'B' })).statusCode).toBe(403);
  });
});
