import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { UserLevel } from '@venue/domain';
import { Api, createTestApp, makeUser, signedInAdmin, TEST_PASSWORD, type TestContext } from '../../../test/harness.js';
import { auditLog } from '../../db/schema.js';

describe('club settings', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => ctx.close());

  it('changes the settings of seed 000 §3 and seed 001 §3, keeps the others, and writes before and after', async () => {
    const { api, club } = await signedInAdmin(ctx);
    const group = (await api.post('/api/Group', { name: 'Self' })).json();
    const res = await api.patch(`/api/Club/${club.id}`, {
      name: 'מקווה טהרה',
      invoiceEmail: 'office@example.org',
      companyNumber: '512345679',
      addressCity: 'ירושלים',
      addressStreet: 'יפו',
      addressHouseNumber: '12א',
      creditChargeFeeType: 2,
      creditChargeFeeValue: 250,
      maxCashOverpayment: 5000,
      entrancesLimitPeople: 10,
      entrancesLimitMinutes: 5,
      selfRegisterDefaultGroupId: group.id,
      selfRegisterNoIdRequired: true,
      autoRenewDaysBefore: 3,
      isQuickExitEnabled: true,
      quickExitMinMinutes: 5,
      minChargeAmount: 1000,
      mainLanguage: 'en',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      name: 'מקווה טהרה',
      invoiceEmail: 'office@example.org',
      addressHouseNumber: '12א',
      creditChargeFeeType: 2,
      selfRegisterDefaultGroupId: group.id,
      isQuickExitEnabled: true,
      mainLanguage: 'en',
      isSaferPaymentsEnabled: true,
      subscriptionTvilotKalaQty: 14,
    });
    const current = (await api.get('/api/Club/GetCurrent')).json();
    expect(current.maxCashOverpayment).toBe(5000);
    await api.patch(`/api/Club/${club.id}`, { isUpsellEnabled: true });
    expect((await api.get('/api/Club/GetCurrent')).json()).toMatchObject({
      isUpsellEnabled: true,
      maxCashOverpayment: 5000,
    });
    const [row] = await ctx.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.clubId, club.id), eq(auditLog.entity, 'club')));
    expect(row.before).toMatchObject({ name: 'Test club', maxCashOverpayment: 0 });
    expect(row.after).toMatchObject({ name: 'מקווה טהרה', maxCashOverpayment: 5000 });
  });

  it('refuses bad values, another group, another club (404) and unknown fields', async () => {
    const { api, club } = await signedInAdmin(ctx);
    const other = await signedInAdmin(ctx);
    const foreignGroup = (await other.api.post('/api/Group', { name: 'Theirs' })).json();
    for (const body of [
      { invoiceEmail: 'not-an-email' },
      { creditChargeFeeType: 3 },
      { country: 'France' },
      { maxCashOverpayment: -1 },
      { licensesAmount: 5 },
    ]) {
      expect((await api.patch(`/api/Club/${club.id}`, body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    const g = await api.patch(`/api/Club/${club.id}`, { selfRegisterDefaultGroupId: foreignGroup.id });
    expect(g.json().details).toEqual([{ path: 'selfRegisterDefaultGroupId', message: 'unknownGroup' }]);
    expect((await api.patch(`/api/Club/${other.club.id}`, { name: 'Mine now' })).statusCode).toBe(404);
    expect((await other.api.get('/api/Club/GetCurrent')).json().name).toBe('Test club');
  });

  it('keeps operator-only settings for the operator: 403 CONTACT_MANAGER for staff, unchanged values pass', async () => {
    const { api, club } = await signedInAdmin(ctx, { licensesAmount: 50 });
    const refused = await api.patch(`/api/Club/${club.id}`, { licancesAmount: 500, currency: 840, name: 'x' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({
      code: 'CONTACT_MANAGER',
      details: { fields: ['licancesAmount', 'currency'] },
    });
    expect((await api.get('/api/Club/GetCurrent')).json()).toMatchObject({ licancesAmount: 50, name: 'Test club' });
    // The console sends the whole form: unchanged operator fields are fine.
    expect(
      (await api.patch(`/api/Club/${club.id}`, { licancesAmount: 50, currency: 376, name: 'Same' })).statusCode,
    ).toBe(200);
    const operator = await makeUser(ctx, null, { level: UserLevel.SuperUser, isAdmin: true });
    const op = new Api(ctx.app);
    await op.login(operator.username, TEST_PASSWORD, club.externalClubId);
    const res = await op.request(
      'PATCH',
      `/api/Club/${club.id}`,
      { licancesAmount: 500, licenseYearlyPrice: 1200, isKalaSubscriptionEnabled: true },
      { clubexternalid: String(club.externalClubId) },
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      licancesAmount: 500,
      licenseYearlyPrice: 1200,
      isKalaSubscriptionEnabled: true,
    });
  });

  it('needs roleEditGeneralSettings, and lists cities per country', async () => {
    const { api, club } = await signedInAdmin(ctx);
    const viewer = await makeUser(ctx, club.id, { permissions: { roleViewGeneralSettings: true } });
    const v = new Api(ctx.app);
    await v.login(viewer.username, TEST_PASSWORD, club.externalClubId);
    expect((await v.patch(`/api/Club/${club.id}`, { name: 'x' })).statusCode).toBe(403);
    const il = (await v.get('/api/Reference/Cities?country=Israel')).json();
    expect(il).toContain('ירושלים');
    expect(il).toContain('בני ברק');
    expect((await api.get('/api/Reference/Cities?country=Belgium')).json()).toContain('Antwerp');
    expect((await api.get('/api/Reference/Cities?country=Mars')).statusCode).toBe(400);
  });
});
