import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import {
  Api,
  createTestApp,
  makeClub,
  signedInAdmin,
  signedInOperator,
  TEST_DB,
  TEST_PASSWORD,
  type TestContext,
} from '../../../test/harness.js';
import * as factory from '../../../test/factories.js';
import { auditLog } from '../../db/schema.js';
import { authenticateTerminal } from '../terminals/link.service.js';

/** Issue 17 "Clubs"; docs/operator.md. */
describe(`operator: clubs (${TEST_DB})`, () => {
  let ctx: TestContext;
  let operator: Api;
  let operatorId: number;
  /** External ids unique to this run, in each class. */
  const base = 100 + Math.floor(Math.random() * 800);
  beforeAll(async () => {
    ctx = await createTestApp();
    const op = await signedInOperator(ctx);
    operatorId = op.user.id;
    operator = op.api;
  });
  afterAll(async () => ctx.close());

  it('creates a club with the country defaults and a first admin whose generated password signs in', async () => {
    const res = await operator.post('/api/Operator/Club', { externalClubId: 4000 + base, name: 'Brooklyn Mikveh' });
    expect(res.statusCode, res.body).toBe(200);
    const { club, username, password } = res.json();
    expect(club).toMatchObject({
      externalClubId: 4000 + base,
      class: 'usa',
      country: 'USA',
      licensesAmount: 0,
      terminalsTotal: 0,
      disabledAt: null,
    });
    expect(username).toBe('admin');
    expect(password).toMatch(/^[A-Za-z0-9_-]{16}$/);
    const admin = new Api(ctx.app);
    expect((await admin.login(username, password, 4000 + base)).statusCode).toBe(200);
    const current = await admin.get('/api/Club/GetCurrent');
    expect(current.json()).toMatchObject({ name: 'Brooklyn Mikveh' });

    const again = await operator.post('/api/Operator/Club', { externalClubId: 4000 + base, name: 'Again' });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('CLUB_EXISTS');
    const [row] = await ctx.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'club'), eq(auditLog.clubId, club.id), eq(auditLog.action, 'create')));
    expect(row.userId).toBe(operatorId);
  });

  it('refuses a bad club with field codes and creates nothing', async () => {
    const res = await operator.post('/api/Operator/Club', { externalClubId: 0, name: ' ', country: 'Mars', x: 1 });
    expect(res.statusCode).toBe(400);
    expect((await operator.get(`/api/Operator/Club?search=${encodeURIComponent('Mars')}`)).json()).toEqual([]);
  });

  it('lists clubs with class, country, licenses, active clients, terminals and last activity; filters them', async () => {
    const club = await makeClub(ctx, { externalClubId: 7000 + base, licensesAmount: 7 });
    const c = await factory.makeClient(ctx, club.id);
    await factory.makeEntrance(ctx, club.id, { clientId: c.id });
    await factory.makeTerminal(ctx, club.id, { connectedInstance: 'x', lastConnection: new Date() });
    await factory.makeTerminal(ctx, club.id, {});
    const res = await operator.get(`/api/Operator/Club?class=kala&search=${7000 + base}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual([
      expect.objectContaining({
        externalClubId: 7000 + base,
        class: 'kala',
        country: 'Israel',
        licensesAmount: 7,
        activeClients: 1,
        terminalsOnline: 1,
        terminalsTotal: 2,
        lastActivity: expect.any(String),
      }),
    ]);
    expect((await operator.get(`/api/Operator/Club?class=regular&search=${7000 + base}`)).json()).toEqual([]);
    expect((await operator.get(`/api/Operator/Club?country=USA&search=${7000 + base}`)).json()).toEqual([]);
    expect((await operator.get('/api/Operator/Club?class=moon')).statusCode).toBe(400);
  });

  it('disables a club: its users cannot sign in, their tokens stop, its terminals are refused; re-enabling restores all', async () => {
    const { club, user, api } = await signedInAdmin(ctx);
    const t = await factory.makeTerminal(ctx, club.id);
    const off = await operator.post(`/api/Operator/Club/${club.id}/Disable`);
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().disabledAt).toEqual(expect.any(String));
    expect((await api.get('/api/Club/GetCurrent')).statusCode).toBe(401);
    const again = await new Api(ctx.app).login(user.username, TEST_PASSWORD, club.externalClubId);
    expect(again.statusCode).toBe(403);
    expect(again.json().code).toBe('CLUB_DISABLED');
    expect(await authenticateTerminal(ctx.database.db, t.serial, factory.TERMINAL_SECRET)).toBeNull();
    // The operator still acts on it; nothing was deleted.
    const asOperator = await operator.request('GET', '/api/Club/GetCurrent', undefined, {
      clubExternalId: String(club.externalClubId),
    });
    expect(asOperator.statusCode).toBe(200);

    const on = await operator.post(`/api/Operator/Club/${club.id}/Enable`);
    expect(on.json().disabledAt).toBeNull();
    expect((await new Api(ctx.app).login(user.username, TEST_PASSWORD, club.externalClubId)).statusCode).toBe(200);
    expect(await authenticateTerminal(ctx.database.db, t.serial, factory.TERMINAL_SECRET)).not.toBeNull();
    const audited = await ctx.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'club'), eq(auditLog.clubId, club.id)));
    expect(audited.map((a) => a.action)).toEqual(['disable', 'enable']);
    expect((await operator.post('/api/Operator/Club/2147483000/Disable')).statusCode).toBe(404);
  });

  it('acting on club A, the operator cannot reach club B’s data through a club route; it acts under its own name', async () => {
    const a = await makeClub(ctx);
    const b = await makeClub(ctx);
    const clientB = await factory.makeClient(ctx, b.id);
    const asA = (method: string, url: string, body?: unknown) =>
      operator.request(method, url, body, { clubExternalId: String(a.externalClubId) });
    expect((await asA('GET', `/api/Client/${clientB.id}`)).statusCode).toBe(404);
    expect((await asA('PATCH', `/api/Client/${clientB.id}`, { firstName: 'X' })).statusCode).toBe(404);
    const asB = await operator.request('GET', `/api/Client/${clientB.id}`, undefined, {
      clubExternalId: String(b.externalClubId),
    });
    expect(asB.statusCode).toBe(200);
    const group = await asA('POST', '/api/Group', { name: 'Operator group' });
    expect(group.statusCode, group.body).toBe(200);
    const [row] = await ctx.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.clubId, a.id), eq(auditLog.entity, 'group')));
    expect(row.userId).toBe(operatorId);
  });

  it('answers 403 to a club admin on every operator call', async () => {
    const { api, club } = await signedInAdmin(ctx);
    expect((await api.get('/api/Operator/Club')).statusCode).toBe(403);
    expect((await api.post('/api/Operator/Club', { externalClubId: 9999, name: 'X' })).statusCode).toBe(403);
    expect((await api.post(`/api/Operator/Club/${club.id}/Disable`)).statusCode).toBe(403);
    expect((await api.post(`/api/Operator/Club/${club.id}/Enable`)).statusCode).toBe(403);
  });
});
