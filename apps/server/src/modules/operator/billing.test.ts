import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { eq } from 'drizzle-orm';
import { LicenseRequestStatus, type ClubCharge, type LiveMessage, type OperatorTerminal } from '@venue/domain';
import {
  Api,
  createTestApp,
  signedInAdmin,
  signedInOperator,
  TEST_DB,
  type TestContext,
} from '../../../test/harness.js';
import * as factory from '../../../test/factories.js';
import { auditLog, charges, clubCharges } from '../../db/schema.js';
import { clearingProvider } from '../../integrations/clearing/sandbox.js';
import type { SandboxProvider } from '../../integrations/clearing/sandbox.js';
import { markTerminalConnected, touchLastConnection } from '../terminals/link.service.js';
import { expectedLoadDate } from '../licenses/licenses.service.js';

/**
 * Issue 17 "Charging clubs", "Terminal fleet", operator-only settings and the
 * club's live license feed (seed 000 §7 POST /Club/StartChargeClub; docs/operator.md).
 */
describe(`operator: charging clubs, fleet, settings (${TEST_DB})`, () => {
  let ctx: TestContext;
  let operator: Api;
  let base: string;
  const year = 2026;
  beforeAll(async () => {
    ctx = await createTestApp();
    base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const op = await signedInOperator(ctx);
    operator = op.api;
  });
  afterAll(async () => ctx.close());

  const captured = (token: string) => (clearingProvider() as SandboxProvider).captured.get(token) ?? 0;
  const setPrice = (clubId: number, licenseYearlyPrice: number) =>
    operator.patch(`/api/Operator/Club/${clubId}/Settings`, { licenseYearlyPrice });

  it('charges the stored card once per club and year; a repeat answers the same attempt', async () => {
    const a = await signedInAdmin(ctx);
    const card = await factory.makeClubCard(ctx, a.club.id);
    expect((await setPrice(a.club.id, 2500)).statusCode).toBe(200);
    const first = await operator.post(`/api/Operator/Club/${a.club.id}/StartChargeClub`, { year, quantity: 12 });
    expect(first.statusCode, first.body).toBe(200);
    const c1 = first.json() as ClubCharge;
    expect(c1).toMatchObject({
      clubId: a.club.id,
      year,
      attempt: 1,
      quantity: 12,
      price: 2500,
      amount: 30000,
      status: 'approved',
      lastFour: '4242',
    });
    // Again, and twice at once: the same attempt, no money moved again.
    const again = await Promise.all([
      operator.post(`/api/Operator/Club/${a.club.id}/StartChargeClub`, { year, quantity: 12 }),
      operator.post(`/api/Operator/Club/${a.club.id}/StartChargeClub`, { year }),
    ]);
    for (const r of again) expect(r.json()).toMatchObject({ id: c1.id, status: 'approved' });
    expect(captured(card.token)).toBe(30000);
    const rows = await ctx.database.db.select().from(clubCharges).where(eq(clubCharges.clubId, a.club.id));
    expect(rows).toHaveLength(1);
    const [ch] = await ctx.database.db.select().from(charges).where(eq(charges.id, rows[0].chargeId!));
    expect(ch).toMatchObject({
      amount: 30000,
      status: 'approved',
      idempotencyKey: `club-yearly:${a.club.id}:${year}:1`,
    });
    // Another year is another charge.
    const next = await operator.post(`/api/Operator/Club/${a.club.id}/StartChargeClub`, {
      year: year + 1,
      quantity: 1,
    });
    expect(next.json()).toMatchObject({ attempt: 1, year: year + 1, amount: 2500, status: 'approved' });
    expect(captured(card.token)).toBe(32500);
    // Audited in the club under the operator.
    const audits = await ctx.database.db.select().from(auditLog).where(eq(auditLog.clubId, a.club.id));
    expect(audits.filter((x) => x.entity === 'clubCharge')).toHaveLength(2);
  });

  it('a failed charge is visible to the operator and the club; the next attempt after it charges', async () => {
    const b = await signedInAdmin(ctx);
    // No stored card: an attempt recorded as noCard, nothing charged.
    const none = await operator.post(`/api/Operator/Club/${b.club.id}/StartChargeClub`, { year, quantity: 3 });
    expect(none.json()).toMatchObject({ attempt: 1, status: 'noCard', lastFour: '' });
    await factory.makeClubCard(ctx, b.club.id, '4000000000009995');
    const declined = await operator.post(`/api/Operator/Club/${b.club.id}/StartChargeClub`, { year, quantity: 3 });
    expect(declined.json()).toMatchObject({ attempt: 2, status: 'declined', error: expect.any(String) });
    // The operator's list of failed charges and the club's own page both show it.
    const failed = (
      await operator.get(`/api/Operator/ClubCharge?failed=true&clubId=${b.club.id}`)
    ).json() as ClubCharge[];
    expect(failed.map((c) => c.status)).toEqual(['declined', 'noCard']);
    const own = (await b.api.get('/api/License/Charges')).json() as {
      card: { lastFour: string };
      charges: ClubCharge[];
    };
    expect(own.card.lastFour).toBe('9995');
    expect(own.card).not.toHaveProperty('token');
    expect(own.charges[0]).toMatchObject({ status: 'declined', attempt: 2 });
    // A new card: the third attempt charges.
    const good = await factory.makeClubCard(ctx, b.club.id);
    const ok = await operator.post(`/api/Operator/Club/${b.club.id}/StartChargeClub`, { year, quantity: 3 });
    expect(ok.json()).toMatchObject({ attempt: 3, status: 'approved', lastFour: '4242' });
    expect(captured(good.token)).toBe(ok.json().amount);
  });

  it('defaults the quantity to the clients licensed in the year; refuses nothing to charge and unknown clubs', async () => {
    const c = await signedInAdmin(ctx);
    await factory.makeClubCard(ctx, c.club.id);
    const empty = await operator.post(`/api/Operator/Club/${c.club.id}/StartChargeClub`, { year });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().details).toEqual([{ path: 'quantity', message: 'nothingToCharge' }]);
    await factory.makeClient(ctx, c.club.id, { licenseExpiry: `${year}-06-30` });
    await factory.makeClient(ctx, c.club.id, { licenseExpiry: `${year + 1}-01-10` });
    await factory.makeClient(ctx, c.club.id, { licenseExpiry: `${year - 1}-12-31` });
    const r = await operator.post(`/api/Operator/Club/${c.club.id}/StartChargeClub`, { year });
    expect(r.json()).toMatchObject({ quantity: 2, status: 'approved' });
    expect((await operator.post(`/api/Operator/Club/${987654}/StartChargeClub`, { year })).statusCode).toBe(404);
    expect((await operator.post(`/api/Operator/Club/${c.club.id}/StartChargeClub`, { year: 1999 })).statusCode).toBe(
      400,
    );
  });

  it('lists every club’s terminals with state, last connection and version; filters offline ones', async () => {
    const a = await signedInAdmin(ctx);
    const b = await signedInAdmin(ctx);
    await factory.makeScriptVersion(ctx, { version: '99.0.0' });
    const on = await factory.makeTerminal(ctx, a.club.id, { name: 'Gate A' });
    const off = await factory.makeTerminal(ctx, b.club.id, { name: 'Gate B' });
    const never = await factory.makeTerminal(ctx, b.club.id, { name: 'Gate C' });
    await markTerminalConnected(ctx.database.db, on.id, ctx.bus.instanceId, new Date(), undefined, '38.0.0');
    await markTerminalConnected(ctx.database.db, off.id, ctx.bus.instanceId, new Date(), undefined, '99.0.0');
    await touchLastConnection(ctx.database.db, off.id, new Date(Date.now() - 3600_000));
    const all = (await operator.get('/api/Operator/Terminal')).json() as OperatorTerminal[];
    const byId = new Map(all.map((t) => [t.id, t]));
    expect(byId.get(on.id)).toMatchObject({
      externalClubId: a.club.externalClubId,
      online: true,
      softwareVersion: '38.0.0',
      outdated: true,
      lastConnection: expect.any(String),
    });
    expect(byId.get(off.id)).toMatchObject({ online: false, softwareVersion: '99.0.0', outdated: false });
    expect(byId.get(never.id)).toMatchObject({ online: false, lastConnection: null, softwareVersion: null });
    const offline = (await operator.get('/api/Operator/Terminal?offline=true')).json() as OperatorTerminal[];
    expect(offline.map((t) => t.id)).toEqual(expect.arrayContaining([off.id, never.id]));
    expect(offline.some((t) => t.id === on.id)).toBe(false);
    const online = (await operator.get('/api/Operator/Terminal?offline=false')).json() as OperatorTerminal[];
    expect(online.map((t) => t.id)).toContain(on.id);
    expect(online.every((t) => t.online)).toBe(true);
  });

  it('the operator edits the operator-only settings; the club sees them and may not change them', async () => {
    const a = await signedInAdmin(ctx);
    const r = await operator.patch(`/api/Operator/Club/${a.club.id}/Settings`, {
      licenseYearlyPrice: 4200,
      isKalaSubscriptionEnabled: true,
      subscriptionTvilotKalaQty: 20,
    });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({
      licenseYearlyPrice: 4200,
      isKalaSubscriptionEnabled: true,
      subscriptionTvilotKalaQty: 20,
    });
    const club = (await a.api.get('/api/Club/GetCurrent')).json();
    expect(club).toMatchObject({ licenseYearlyPrice: 4200, subscriptionTvilotKalaQty: 20 });
    const self = await a.api.patch(`/api/Club/${a.club.id}`, { licenseYearlyPrice: 1 });
    expect(self.statusCode).toBe(403);
    expect(self.json().code).toBe('CONTACT_MANAGER');
    // The pool is not a setting here (loads are a ledger): refused, nothing changed.
    const pool = await operator.patch(`/api/Operator/Club/${a.club.id}/Settings`, { licancesAmount: 99 });
    expect(pool.statusCode).toBe(400);
    expect((await operator.get(`/api/Operator/Club/${a.club.id}/Settings`)).json().licancesAmount).toBe(
      a.club.licensesAmount,
    );
    expect((await operator.get('/api/Operator/Club/987654/Settings')).statusCode).toBe(404);
  });

  it('a club admin gets 403 on the new operator calls', async () => {
    const { api, club } = await signedInAdmin(ctx);
    expect((await api.post(`/api/Operator/Club/${club.id}/StartChargeClub`, { year })).statusCode).toBe(403);
    expect((await api.get('/api/Operator/ClubCharge')).statusCode).toBe(403);
    expect((await api.get('/api/Operator/Terminal')).statusCode).toBe(403);
    expect((await api.get(`/api/Operator/Club/${club.id}/Settings`)).statusCode).toBe(403);
    expect((await api.patch(`/api/Operator/Club/${club.id}/Settings`, { currency: 840 })).statusCode).toBe(403);
  });

  it('acting on club A, the operator cannot reach club B’s requests or charges through club routes', async () => {
    const a = await signedInAdmin(ctx);
    const b = await signedInAdmin(ctx);
    const rb = await factory.makeLicenseRequest(ctx, b.club.id);
    await factory.makeClubCard(ctx, b.club.id);
    await operator.post(`/api/Operator/Club/${b.club.id}/StartChargeClub`, { year, quantity: 1 });
    const asA = { clubExternalId: String(a.club.externalClubId) };
    const list = await operator.request('GET', '/api/getLicenseRequest/', undefined, asA);
    expect(list.statusCode).toBe(200);
    expect((list.json() as { id: number }[]).some((r) => r.id === rb.id)).toBe(false);
    const cancel = await operator.request('PATCH', `/api/AddLicensesRequest/${rb.id}`, { status: 5 }, asA);
    expect(cancel.statusCode).toBe(404);
    const billing = await operator.request('GET', '/api/License/Charges', undefined, asA);
    expect(billing.json()).toEqual({ card: null, charges: [] });
    const own = (await b.api.get('/api/getLicenseRequest/')).json() as { id: number; status: number }[];
    expect(own.find((r) => r.id === rb.id)?.status).toBe(LicenseRequestStatus.Pending);
  });

  it('tells the club’s console live when the operator answers its request; shows the expected load date', async () => {
    const a = await signedInAdmin(ctx);
    const other = await signedInAdmin(ctx);
    const req = await factory.makeLicenseRequest(ctx, a.club.id, {
      quantity: 40,
      createdAt: new Date('2026-04-01T09:00:00+03:00'),
    });
    const listed = (await a.api.get('/api/getLicenseRequest/')).json() as { id: number; expectedLoadDate: string }[];
    // Wednesday 1 April 2026 (erev Pesach): the 2nd is yom tov, Friday and Saturday are not business days.
    expect(listed.find((r) => r.id === req.id)?.expectedLoadDate).toBe('2026-04-07');
    // The day in Israel counts: 22:30 UTC on Wednesday 4 March is Thursday 5 March in Israel → Sun 8, Mon 9, Tue 10.
    expect(expectedLoadDate(new Date('2026-03-04T22:30:00Z'))).toBe('2026-03-10');
    const feeds = await Promise.all([a.api, other.api].map((api) => openFeed(api)));
    const res = await operator.post(`/api/Operator/LicenseRequest/${req.id}/Decide`, { status: 2 });
    expect(res.statusCode).toBe(200);
    const end = Date.now() + 3000;
    while (!feeds[0].got.some((m) => m.type === 'licenses') && Date.now() < end)
      await new Promise((r) => setTimeout(r, 20));
    expect(feeds[0].got.filter((m) => m.type === 'licenses')).toEqual([
      { type: 'licenses', requestId: req.id, status: LicenseRequestStatus.ApprovedLoaded },
    ]);
    expect(feeds[1].got.some((m) => m.type === 'licenses')).toBe(false);
    const after = (await a.api.get('/api/getLicenseRequest/')).json() as {
      id: number;
      expectedLoadDate: string | null;
    }[];
    expect(after.find((r) => r.id === req.id)).toMatchObject({ status: 2, expectedLoadDate: null });
    for (const f of feeds) f.ws.close();
  });

  async function openFeed(api: Api): Promise<{ ws: WebSocket; got: LiveMessage[] }> {
    const ws = new WebSocket(`${base.replace('http', 'ws')}/api/live`);
    const got: LiveMessage[] = [];
    await new Promise<void>((resolve, reject) => {
      ws.on('open', () => ws.send(JSON.stringify({ type: 'auth', token: api.token })));
      ws.on('message', (d) => {
        const m = JSON.parse(d.toString()) as LiveMessage;
        got.push(m);
        if (m.type === 'ready') resolve();
      });
      ws.on('error', reject);
    });
    return { ws, got };
  }
});
