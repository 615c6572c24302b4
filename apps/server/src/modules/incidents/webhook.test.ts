import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { UserLevel } from '@venue/domain';
import { Api, createTestApp, makeUser, signedInAdmin, TEST_PASSWORD, type TestContext } from '../../../test/harness.js';
import * as factory from '../../../test/factories.js';
import { auditLog, incidentDeliveries, incidentWebhooks } from '../../db/schema.js';
import { lookup } from 'node:dns/promises';
import { hostname } from 'node:os';
import { backoffMs, deliverDue, MAX_ATTEMPTS, publicSender, setWebhook, signDelivery } from './webhook.service.js';
import type { Actor } from '../../lib/actor.js';
import { urlRefusal } from '../../lib/outbound.js';

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
  /** The sender with the loopback receiver allowed (WEBHOOK_ALLOW_ADDRESSES=127.0.0.1). */
  const send = publicSender({ allow: ['127.0.0.1'] });

  beforeAll(async () => {
    // The test's receiver listens on loopback: allowed here as an on-premise receiver would be.
    ctx = await createTestApp({ webhookAllow: ['127.0.0.1'] });
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
    expect(await deliverDue(ctx.database.db, t0, send)).toBe(1);
    let [log] = (await api.get('/api/Incident/Deliveries')).json();
    expect(log).toMatchObject({ incidentId: incident.id, status: 'pending', attempts: 1, lastStatusCode: 500 });
    expect(new Date(log.nextAttemptAt).getTime()).toBe(t0.getTime() + backoffMs(1));
    // Not due before the backoff.
    expect(await deliverDue(ctx.database.db, new Date(t0.getTime() + 10_000), send)).toBe(0);
    const t1 = new Date(t0.getTime() + backoffMs(1));
    expect(await deliverDue(ctx.database.db, t1, send)).toBe(1);
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
      expect(await deliverDue(ctx.database.db, new Date(now), send)).toBeGreaterThanOrEqual(1);
      now += backoffMs(i);
    }
    const [d] = await ctx.database.db.select().from(incidentDeliveries).where(eq(incidentDeliveries.clubId, club.id));
    expect(d).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS, nextAttemptAt: null });
    expect(d.lastError).toBe('network');
    expect(await deliverDue(ctx.database.db, new Date(now + BACKOFF_DAY), send)).toBe(0);

    const quiet = await signedInAdmin(ctx, { settings: { isIncidentReportEnabled: true } });
    const c = await factory.makeFeedbackCategory(ctx, quiet.club.id);
    await quiet.api.post('/api/Incident', { categoryId: c.id });
    expect(
      await ctx.database.db.select().from(incidentDeliveries).where(eq(incidentDeliveries.clubId, quiet.club.id)),
    ).toEqual([]);
  });

  it('refuses, at save, URLs that do not reach the public internet or carry credentials', async () => {
    const policy = { allow: [] as string[] };
    const port = new URL(receiverUrl).port;
    const internal = [
      'http://127.0.0.1/x',
      'http://127.1/x',
      'http://0x7f.1/x',
      'http://2130706433/x',
      'http://0177.0.0.1/x',
      'http://[::1]/x',
      'http://[::ffff:127.0.0.1]/x',
      'http://localhost/x',
      `http://localhost:${port}/incidents`,
      'http://0.0.0.0/x',
      'http://169.254.169.254/latest/meta-data/',
      'http://10.1.2.3/x',
      'http://172.16.0.1/x',
      'http://192.168.1.1/x',
      'http://100.64.0.1/x',
      'http://[fe80::1]/x',
      'http://[fd00::1]/x',
      'http://metadata.internal/x',
    ];
    for (const url of internal) expect([url, urlRefusal(url, policy)]).toEqual([url, 'webhookAddress']);
    expect(urlRefusal('https://user:pw@hooks.example.com/x', policy)).toBe('webhookCredentials');
    expect(urlRefusal('ftp://hooks.example.com/x', policy)).toBe('webhookUrl');
    expect(urlRefusal('https://hooks.example.com/incidents', policy)).toBeNull();
    expect(urlRefusal('https://8.8.8.8/x', policy)).toBeNull();
    // An on-premise receiver the operator listed.
    expect(urlRefusal('http://10.1.2.3/x', { allow: ['10.1.0.0/16'] })).toBeNull();
    // Through the API: a 400 naming the field, nothing stored.
    const { opCall } = await clubWithOperator();
    for (const url of ['http://169.254.169.254/latest/meta-data/', 'http://10.0.0.5/', 'https://u:p@example.com/']) {
      const res = await opCall('PUT', '/api/Incident/Webhook', { url, secret: SECRET });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().details[0].path).toBe('url');
    }
    expect((await opCall('GET', '/api/Incident/Webhook')).json().url).toBe('');
  });

  it('refuses, at send, an address that is not public after DNS; the log shows a category, not the socket error', async () => {
    const { api, club, category } = await clubWithOperator();
    // Stored before the rule (or a name that now resolves to loopback): a loopback address by name.
    const name = hostname();
    const { address } = await lookup(name);
    const target = address.startsWith('127.') ? name : 'localhost';
    const operator = { clubId: club.id, userId: 0, ip: '127.0.0.1' } as Actor;
    await setWebhook(
      ctx.database.db,
      operator,
      { url: 'https://hooks.example.com/x', secret: SECRET, enabled: true },
      { allow: [] },
    );
    await ctx.database.db
      .update(incidentWebhooks)
      .set({ url: `http://${target}:${new URL(receiverUrl).port}/incidents` })
      .where(eq(incidentWebhooks.clubId, club.id));
    await api.post('/api/Incident', { categoryId: category.id, note: 'rebind' });
    received.length = 0;
    expect(await deliverDue(ctx.database.db, new Date(Date.now() + 1000), publicSender({ allow: [] }))).toBe(1);
    expect(received).toHaveLength(0);
    const [log] = (await api.get('/api/Incident/Deliveries')).json();
    expect(log).toMatchObject({ status: 'pending', lastError: 'refused', lastStatusCode: null });
  });

  it('backs off 30 s, 1 min, 2 min … up to an hour', () => {
    expect([1, 2, 3, 4, 8, 20].map(backoffMs)).toEqual([30_000, 60_000, 120_000, 240_000, 3_600_000, 3_600_000]);
  });
});

const BACKOFF_DAY = 24 * 3600_000;
