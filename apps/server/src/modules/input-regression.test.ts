import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { Api, createTestApp, signedInAdmin, type TestContext } from '../../test/harness.js';
import { errorHandler } from '../lib/error-handler.js';

/**
 * Issue 11 finding 6, the probe's own examples: each answered 500 before the
 * shared schema parts, the text check of every request and the error handler;
 * each must answer 400 with the field named (or the right 200).
 */
describe('input that cannot reach the database', () => {
  let ctx: TestContext;
  let api: Api;
  let clubId: number;
  let externalClubId: number;
  let userId: number;
  beforeAll(async () => {
    ctx = await createTestApp();
    const s = await signedInAdmin(ctx);
    api = s.api;
    clubId = s.club.id;
    externalClubId = s.club.externalClubId;
    userId = s.user.id;
  });
  afterAll(async () => ctx.close());

  const field = (res: { statusCode: number; json(): { code: string; details?: { path: string }[] } }) => {
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('VALIDATION_ERROR');
    return res.json().details?.map((d) => d.path) ?? [];
  };

  it('an id above 2,147,483,647 in a body', async () => {
    expect(field(await api.post('/api/Debts', { clientId: 2147483648, amount: 100 }))).toContain('clientId');
  });

  it('a list longer than its values can be (a report filter, cash pieces): 400, never "the database is down"', async () => {
    const itemType = Array.from({ length: 10_000 }, (_, i) => i % 100);
    for (const call of ['GetFinancialReport', 'GetFinancialReport/Export'])
      expect(field(await api.post(`/api/Report/${call}`, { period: 'month', itemType }))).toContain('itemType');
    const coins = Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [String(i + 1), 1]));
    expect(field(await api.post('/api/Terminal/LoadCash/1', { coins }))).toContain('coins');
  });

  it('a NUL in a text field', async () => {
    expect(field(await api.post('/api/Client', { firstName: 'a\u0000b' }))).toContain('firstName');
  });

  it('impossible dates that match YYYY-MM-DD', async () => {
    const put = await api.request('PUT', '/api/MasavFile/Settings', {
      institutionCode: '12345678',
      sendingInstitution: '12345',
      institutionName: 'Mikveh',
    });
    expect(put.statusCode).toBe(200);
    expect(field(await api.post('/api/MasavFile?valueDate=2025-02-30'))).toContain('valueDate');
    expect(field(await api.post('/api/Report/GetEnteracesReport', { anchor: '0000-00-00' }))).toContain('anchor');
  });

  it('a lone UTF-16 surrogate in a JSON settings record', async () => {
    const res = await api.patch(`/api/User/UpdateDataGridStates/${userId}`, {
      dataGridStates: { grid: { x: '\ud800' } },
    });
    expect(field(res)).toContain('dataGridStates.grid.x');
  });

  it('the sign-in route: a club id above 2^31−1, a NUL in the user name', async () => {
    const anon = new Api(ctx.app);
    expect(
      field(await anon.post('/api/Account', { username: 'a', password: 'b', externalClubId: 2147483648 })),
    ).toContain('externalClubId');
    expect(field(await anon.post('/api/Account', { username: 'a\u0000', password: 'b', externalClubId }))).toContain(
      'username',
    );
  });

  it('GetHasavshevetDetails after another money setting was saved', async () => {
    const sumit = await api.post(`/api/Club/UpdateClubSumitSettings/${clubId}`, { companyId: '1' });
    expect(sumit.statusCode).toBe(200);
    const res = await api.get('/api/Club/GetHasavshevetDetails');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toBeNull();
  });
});

describe('the error handler', () => {
  const app = Fastify({ logger: false });
  app.setErrorHandler(errorHandler);
  const pg = (code: string) => Object.assign(new Error(`secret database text ${code}`), { code });
  app.get('/range', async () => {
    throw new Error('query failed', { cause: pg('22003') });
  });
  app.get('/unique', async () => {
    throw pg('23505');
  });
  app.get('/bug', async () => {
    throw new TypeError('secret internal text');
  });
  afterAll(async () => app.close());

  it('maps database errors caused by input to 4xx without their text, and a bug to 500 with a request id', async () => {
    const range = await app.inject('/range');
    expect([range.statusCode, range.json().code]).toEqual([400, 'VALIDATION_ERROR']);
    const unique = await app.inject('/unique');
    expect([unique.statusCode, unique.json().code]).toEqual([409, 'CONFLICT']);
    const bug = await app.inject('/bug');
    expect([bug.statusCode, bug.json().code]).toEqual([500, 'GENERAL_ERROR']);
    expect(bug.json().requestId).toBeTruthy();
    for (const r of [range, unique, bug]) expect(r.body).not.toMatch(/secret/);
  });
});
