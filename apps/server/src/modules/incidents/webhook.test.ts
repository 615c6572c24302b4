import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { UserLevel } from '@venue/domain';
import { Api, createTestApp, makeUser, signedInAdmin, TEST_PASSWORD, type TestContext } from '../../../test/harness.js';
import * as factory from '../../../test/factories.js';
import { auditLog, incidentDeliveries, incidentWebhooks } from '../../db/schema.js';
import { backoffMs, deliverDue, MAX_ATTEMPTS, signDelivery } from './webhook.service.js';

/** The webhook to the reporting system (docs/messages.md "Webhook"): signed, retried with backoff, logged. */
describe('incident webhook', () => {
  let ctx: TestContext;
  let operatorUser: Awaited<ReturnType<typeof makeUser>>;
  let receiver: Server;
  let receiverUrl: string;
  const received: { headers: IncomingHttpHeaders; body: string }[] = [];
  /** Statuses the receiver answers, in turn (then 200). */
  const answers: number[] = [];
  const SECRET = 'reporting-system-secret-1';

  beforeAll(async () => {
    ctx = await createTestApp();
    operatorUser = await makeUser(ctx, null, { level: UserLevel.SuperUser, isAdmin: true });
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        res.statusCode = answers.shift() ?? 200;
        res.end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/incidents`;
  });
  afterAll(async () => {
    receiver.close();
    await ctx.close();
  });

  /** A club with incident reports on, its admin, a category, and the operator acting on it. */
  async function clubWithOperator() {
    const s = await signedInAdmin(ctx, { settings: { isIncidentReportEnabled: true } });
    const category = await factory.makeFeedbackCategory(ctx, s.club.id, {
      reportingSystemCategoryId: 77,
      defaultSeverityId: 3,
      reportingSystemLocationId: 9,
    });
    const op = new Api(ctx.app);
    await op.login(operatorUser.username, TEST_PASSWORD, s.club.externalClubId);
    const header = { clubexternalid: String(s.club.externalClubId) };
    const opCall = (method: string, url: string, body?: unknown) => op.request(method, url, body, header);
    return { ...s, category, opCall };
  }

  it('only the operator sets it; the secret is stored encrypted and never answered', async () => {
    const { api, club, opCall } = await clubWithOperator();
    expect((await api.get('/api/Incident/Webhook')).statusCode).toBe(403);
    expect((await api.request('PUT', '/api/Incident/Webhook', { url: receiverUrl, secret: SECRET })).statusCode).toBe(
      403,
    );
    for (const body of [{ url: 'ftp://x.example' }, { url: receiverUrl, secret: 'short' }, { url: receiverUrl }]) {
      const res = await opCall('PUT', '/api/Incident/Webhook', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    const set = await opCall('PUT', '/api/Incident/Webhook', { url: receiverUrl, secret: SECRET });
    expect(set.json()).toEqual({ url: receiverUrl, enabled: true, hasSecret: true, updatedAt: expect.any(String) });
    expect(JSON.stringify((await opCall('GET', '/api/Incident/Webhook')).json())).not.toContain(SECRET);
    const [row] = await ctx.database.db.select().from(incidentWebhooks).where(eq(incidentWebhooks.clubId, club.id));
    expect(row.secretEnc).toMatch(/^v1\./);
    expect(row.secretEnc).not.toContain(SECRET);
    // Changing the URL keeps the secret.
    expect((await opCall('PUT', '/api/Incident/Webhook', { url: `${receiverUrl}?v=2` })).json().hasSecret).toBe(true);
    const audits = await ctx.database.db.select().from(auditLog).where(eq(auditLog.entity, 'incidentWebhook'));
    expect(JSON.stringify(audits)).not.toContain(SECRET);
  });

  it('sends a new incident signed, retries a failure after the backoff, and logs each delivery', async () => {
    const { api, club, category, opCall } = await clubWithOperator();
    await opCall('PUT', '/api/Incident/Webhook', { url: receiverUrl, secret: SECRET });
    const incident = (await api.post('/api/Incident', { categoryId: category.id, note: 'no towels' })).json();
    const t0 = new Date(Date.now() + 1000);
    received.length = 0;
    answers.push(500);
    expect(await deliverDue(ctx.database.db, t0)).toBe(1);
    let [log] = (await api.get('/api/Incident/Deliveries')).json();
    expect(log).toMatchObject({ incidentId: incident.id, status: 'pending', attempts: 1, lastStatusCode: 500 });
    expect(new Date(log.nextAttemptAt).getTime()).toBe(t0.getTime() + backoffMs(1));
    // Not due before the backoff.
    expect(await deliverDue(ctx.database.db, new Date(t0.getTime() + 10_000))).toBe(0);
    const t1 = new Date(t0.getTime() + backoffMs(1));
    expect(await deliverDue(ctx.database.db, t1)).toBe(1);
    [log] = (await api.get('/api/Incident/Deliveries')).json();
    expect(log).toMatchObject({ status: 'delivered', attempts: 2, lastStatusCode: 200, nextAttemptAt: null });

    expect(received).toHaveLength(2);
    const { headers, body } = received[1];
    const timestamp = Number(headers['x-venue-timestamp']);
    expect(timestamp).toBe(Math.floor(t1.getTime() / 1000));
    expect(headers['x-venue-signature']).toBe(signDelivery(SECRET, timestamp, body));
    expect(headers['x-venue-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(JSON.parse(body)).toMatchObject({
      incidentId: incident.id,
      externalClubId: club.externalClubId,
      categoryId: 77,
      severityId: 3,
      locationId: 9,
      note: 'no towels',
      source: 'console',
    });
    // Another club sees none of it.
    const other = await signedInAdmin(ctx, { settings: { isIncidentReportEnabled: true } });
    expect((await other.api.get('/api/Incident/Deliveries')).json()).toEqual([]);
  });

  it('gives up after the last attempt when the system cannot be reached; sends nothing without a webhook', async () => {
    const { api, club, category, opCall } = await clubWithOperator();
    await opCall('PUT', '/api/Incident/Webhook', { url: 'http://127.0.0.1:9/unreachable', secret: SECRET });
    await api.post('/api/Incident', { categoryId: category.id });
    let now = Date.now() + 1000;
    for (let i = 1; i <= MAX_ATTEMPTS; i++) {
      expect(await deliverDue(ctx.database.db, new Date(now))).toBeGreaterThanOrEqual(1);
      now += backoffMs(i);
    }
    const [d] = await ctx.database.db.select().from(incidentDeliveries).where(eq(incidentDeliveries.clubId, club.id));
    expect(d).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS, nextAttemptAt: null });
    expect(d.lastError).toBeTruthy();
    expect(await deliverDue(ctx.database.db, new Date(now + BACKOFF_DAY))).toBe(0);

    const quiet = await signedInAdmin(ctx, { settings: { isIncidentReportEnabled: true } });
    const c = await factory.makeFeedbackCategory(ctx, quiet.club.id);
    await quiet.api.post('/api/Incident', { categoryId: c.id });
    expect(
      await ctx.database.db.select().from(incidentDeliveries).where(eq(incidentDeliveries.clubId, quiet.club.id)),
    ).toEqual([]);
  });

  it('backs off 30 s, 1 min, 2 min … up to an hour', () => {
    expect([1, 2, 3, 4, 8, 20].map(backoffMs)).toEqual([30_000, 60_000, 120_000, 240_000, 3_600_000, 3_600_000]);
  });
});

const BACKOFF_DAY = 24 * 3600_000;
