import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { LicenseRequestStatus } from '@venue/domain';
import {
  Api,
  createTestApp,
  signedInAdmin,
  signedInOperator,
  TEST_DB,
  type TestContext,
} from '../../../test/harness.js';
import * as factory from '../../../test/factories.js';
import { auditLog, clubs, licenseLoads } from '../../db/schema.js';

/** Issue 17 "Licenses"; seed 001 §3 "License request", §4 statuses; docs/operator.md. */
describe(`operator: licenses (${TEST_DB})`, () => {
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

  const pool = async (clubId: number) =>
    (await ctx.database.db.select().from(clubs).where(eq(clubs.id, clubId)))[0].licensesAmount;

  it('queues every club’s requests pending first; approve loads once, reject needs a reason, cancel', async () => {
    const a = await signedInAdmin(ctx, { licensesAmount: 5 });
    const b = await signedInAdmin(ctx, { licensesAmount: 0 });
    const done = await factory.makeLicenseRequest(ctx, a.club.id, { status: LicenseRequestStatus.CancelledByCustomer });
    const ra = await factory.makeLicenseRequest(ctx, a.club.id, { quantity: 40 });
    const rb = await factory.makeLicenseRequest(ctx, b.club.id, { quantity: 50 });
    const list = (await operator.get('/api/Operator/LicenseRequest')).json() as { id: number; status: number }[];
    const ids = list.map((r) => r.id);
    expect(ids.indexOf(ra.id)).toBeLessThan(ids.indexOf(done.id));
    expect(ids.indexOf(rb.id)).toBeLessThan(ids.indexOf(done.id));
    expect(list.find((r) => r.id === rb.id)).toMatchObject({ externalClubId: b.club.externalClubId, quantity: 50 });
    const pending = (await operator.get('/api/Operator/LicenseRequest?status=1')).json() as { status: number }[];
    expect(pending.every((r) => r.status === 1)).toBe(true);

    const approve = await operator.post(`/api/Operator/LicenseRequest/${ra.id}/Decide`, { status: 2 });
    expect(approve.statusCode, approve.body).toBe(200);
    expect(approve.json()).toMatchObject({ status: 2, decidedAt: expect.any(String) });
    expect(await pool(a.club.id)).toBe(45);
    // Once only: the request is no longer pending.
    expect((await operator.post(`/api/Operator/LicenseRequest/${ra.id}/Decide`, { status: 2 })).statusCode).toBe(404);
    expect(await pool(a.club.id)).toBe(45);
    // The club sees the new status in its own list.
    const own = (await a.api.get('/api/getLicenseRequest/')).json() as { id: number; status: number }[];
    expect(own.find((r) => r.id === ra.id)?.status).toBe(2);

    const noReason = await operator.post(`/api/Operator/LicenseRequest/${rb.id}/Decide`, { status: 3 });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().details).toEqual([expect.objectContaining({ path: 'reason', message: 'required' })]);
    const reject = await operator.post(`/api/Operator/LicenseRequest/${rb.id}/Decide`, {
      status: 3,
      reason: 'Transfer not received',
    });
    expect(reject.json()).toMatchObject({ status: 3, reason: 'Transfer not received' });
    expect(await pool(b.club.id)).toBe(0);

    const rc = await factory.makeLicenseRequest(ctx, b.club.id);
    expect((await operator.post(`/api/Operator/LicenseRequest/${rc.id}/Decide`, { status: 5 })).json().status).toBe(5);
    expect((await operator.post(`/api/Operator/LicenseRequest/${rc.id}/Decide`, { status: 4 })).statusCode).toBe(400);
    const audited = await ctx.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'licenseRequest'), eq(auditLog.entityId, String(ra.id))));
    expect(audited).toEqual([expect.objectContaining({ clubId: a.club.id, userId: operatorId })]);
  });

  it('shows the reference file inline with its sniffed type', async () => {
    const { club } = await signedInAdmin(ctx);
    const r = await factory.makeLicenseRequest(ctx, club.id);
    const res = await operator.get(`/api/Operator/LicenseRequest/${r.id}/File`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toContain('inline');
    expect(res.body).toBe('%PDF-');
    expect((await operator.get('/api/Operator/LicenseRequest/2147483000/File')).statusCode).toBe(404);
  });

  it('loads licenses into a club with a reason, in a ledger', async () => {
    const { club } = await signedInAdmin(ctx, { licensesAmount: 3 });
    const res = await operator.post(`/api/Operator/Club/${club.id}/LoadLicenses`, { quantity: 20, reason: 'Goodwill' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().licensesAmount).toBe(23);
    const loads = await ctx.database.db.select().from(licenseLoads).where(eq(licenseLoads.clubId, club.id));
    expect(loads).toEqual([expect.objectContaining({ quantity: 20, reason: 'Goodwill', userId: operatorId })]);
    const bad = await operator.post(`/api/Operator/Club/${club.id}/LoadLicenses`, { quantity: 0, reason: ' ' });
    expect(bad.statusCode).toBe(400);
    expect(await pool(club.id)).toBe(23);
    expect(
      (await operator.post('/api/Operator/Club/2147483000/LoadLicenses', { quantity: 1, reason: 'x' })).statusCode,
    ).toBe(404);
  });

  it('answers 403 to a club admin on every operator license call', async () => {
    const { api, club } = await signedInAdmin(ctx);
    const r = await factory.makeLicenseRequest(ctx, club.id);
    expect((await api.get('/api/Operator/LicenseRequest')).statusCode).toBe(403);
    expect((await api.get(`/api/Operator/LicenseRequest/${r.id}/File`)).statusCode).toBe(403);
    expect((await api.post(`/api/Operator/LicenseRequest/${r.id}/Decide`, { status: 2 })).statusCode).toBe(403);
    const load = await api.post(`/api/Operator/Club/${club.id}/LoadLicenses`, { quantity: 5, reason: 'x' });
    expect(load.statusCode).toBe(403);
    expect(await pool(club.id)).toBe(100);
  });
});
