import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { and, eq } from 'drizzle-orm';
import type { LiveMessage } from '@venue/domain';
import { Api, createTestApp, signedInAdmin, type TestContext } from '../../../test/harness.js';
import * as factory from '../../../test/factories.js';
import { auditLog, incidents } from '../../db/schema.js';
import { TerminalClient, TerminalError } from '../../../../terminal/src/client.js';
import { reportIncident } from '../../../../terminal/src/gate.js';

/** Incident reports (issue 16; docs/messages.md "Incident reports"): console, terminal, live, handling. */
describe('incident reports', () => {
  let ctx: TestContext;
  let base: string;
  const open: { close(): unknown }[] = [];
  const incidentsOn = { settings: { isIncidentReportEnabled: true } };
  beforeAll(async () => {
    ctx = await createTestApp();
    base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    for (const o of open) o.close();
    await ctx.close();
  });

  async function terminalOf(clubId: number, approved = true) {
    const serial = `INC-${clubId}-${Math.random().toString(36).slice(2, 8)}`;
    const t = await factory.makeTerminal(ctx, clubId, { serial, name: `Gate ${serial}`, approved });
    const tc = new TerminalClient({
      url: base,
      serial,
      secret: factory.TERMINAL_SECRET,
      timeoutMs: 5000,
      heartbeat: false,
    });
    open.push(tc);
    await tc.connect();
    return { t, tc };
  }

  it('staff report in the console, list the open ones, mark one handled (audited, with who and when)', async () => {
    const { api, club, user } = await signedInAdmin(ctx, incidentsOn);
    const towels = await factory.makeFeedbackCategory(ctx, club.id, { name: 'Towels missing', defaultSeverityId: 4 });
    const gate = await factory.makeTerminal(ctx, club.id, { serial: `C-${club.id}`, name: 'Main gate' });
    const res = await api.post('/api/Incident', { categoryId: towels.id, note: ' none left ', terminalId: gate.id });
    expect(res.statusCode).toBe(200);
    const inc = res.json();
    expect(inc).toMatchObject({
      categoryName: 'Towels missing',
      type: 'Maintenance',
      severityId: 4,
      source: 'console',
      terminalName: 'Main gate',
      note: 'none left',
      status: 'open',
      handledBy: null,
    });
    expect((await api.get('/api/Incident')).json()).toMatchObject({ total: 1, items: [{ id: inc.id }] });
    const handled = (await api.request('PUT', `/api/Incident/Handle/${inc.id}`)).json();
    expect(handled).toMatchObject({ status: 'handled', handledBy: user.name, handledAt: expect.any(String) });
    // Handling twice changes nothing.
    expect((await api.request('PUT', `/api/Incident/Handle/${inc.id}`)).json().handledAt).toBe(handled.handledAt);
    expect((await api.get('/api/Incident')).json().total).toBe(0);
    expect((await api.get('/api/Incident?status=handled')).json().items[0].id).toBe(inc.id);
    expect((await api.get('/api/Incident?status=all')).json().total).toBe(1);
    const rows = await ctx.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.clubId, club.id), eq(auditLog.entity, 'incident')));
    expect(rows.map((r) => r.action)).toEqual(['create', 'handle']);
  });

  it('refuses bad input (400), another club’s or a deleted category or terminal (404), changing nothing', async () => {
    const a = await signedInAdmin(ctx, incidentsOn);
    const b = await signedInAdmin(ctx, incidentsOn);
    const mine = await factory.makeFeedbackCategory(ctx, a.club.id);
    const deleted = await factory.makeFeedbackCategory(ctx, a.club.id, { deleted: true });
    const theirs = await factory.makeFeedbackCategory(ctx, b.club.id);
    const theirGate = await factory.makeTerminal(ctx, b.club.id, { serial: `B-${b.club.id}` });
    for (const body of [
      {},
      { categoryId: 0 },
      { categoryId: mine.id, note: 'x'.repeat(501) },
      { categoryId: mine.id, clubId: 1 },
    ]) {
      expect((await a.api.post('/api/Incident', body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    // An empty category is "required", not "invalid identifier" (issue 34); a malformed one is invalid.
    expect((await a.api.post('/api/Incident', { note: 'x' })).json().details).toEqual([
      { path: 'categoryId', message: 'required' },
    ]);
    expect((await a.api.post('/api/Incident', { categoryId: 'abc' })).json().details).toEqual([
      { path: 'categoryId', message: 'invalidId' },
    ]);
    expect((await a.api.get('/api/Incident?status=closed')).statusCode).toBe(400);
    for (const body of [
      { categoryId: theirs.id },
      { categoryId: deleted.id },
      { categoryId: mine.id, terminalId: theirGate.id },
    ]) {
      const res = await a.api.post('/api/Incident', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(404);
      expect(res.json().code).toBe('NOT_FOUND');
    }
    const theirIncident = (await b.api.post('/api/Incident', { categoryId: theirs.id })).json();
    const handle = await a.api.request('PUT', `/api/Incident/Handle/${theirIncident.id}`);
    expect(handle.statusCode).toBe(404);
    expect((await a.api.get('/api/Incident?status=all')).json().total).toBe(0);
    const [row] = await ctx.database.db.select().from(incidents).where(eq(incidents.id, theirIncident.id));
    expect(row.status).toBe('open');
  });

  it('answers 401 without a session and 403 when the club has incident reports off', async () => {
    const anon = new Api(ctx.app);
    expect((await anon.get('/api/Incident')).statusCode).toBe(401);
    expect((await anon.post('/api/Incident', { categoryId: 1 })).statusCode).toBe(401);
    const off = await signedInAdmin(ctx);
    expect((await off.api.get('/api/Incident')).statusCode).toBe(403);
    expect((await off.api.post('/api/Incident', { categoryId: 1 })).statusCode).toBe(403);
    expect((await off.api.request('PUT', '/api/Incident/Handle/1')).statusCode).toBe(403);
  });

  it('a client reports at the terminal: stored once per eventId, live on the club’s console feed', async () => {
    const { api, club } = await signedInAdmin(ctx, incidentsOn);
    const cold = await factory.makeFeedbackCategory(ctx, club.id, { name: 'Water too cold', type: 'Experience' });
    const ws = new WebSocket(`${base.replace('http', 'ws')}/api/live`);
    open.push(ws);
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
    const { t, tc } = await terminalOf(club.id);
    const first = await reportIncident(tc, { categoryId: cold.id, note: 'pool 2', eventId: 'inc-1' });
    const again = await reportIncident(tc, { categoryId: cold.id, note: 'pool 2', eventId: 'inc-1' });
    expect(again.incidentId).toBe(first.incidentId);
    const list = (await api.get('/api/Incident')).json();
    expect(list.total).toBe(1);
    expect(list.items[0]).toMatchObject({
      id: first.incidentId,
      source: 'terminal',
      terminalId: t.id,
      categoryName: 'Water too cold',
      type: 'Experience',
      note: 'pool 2',
    });
    const end = Date.now() + 3000;
    while (!got.some((m) => m.type === 'incident') && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    expect(got.filter((m) => m.type === 'incident')).toEqual([{ type: 'incident', id: first.incidentId }]);
  });

  it('refuses a terminal report when reports are off, the terminal is not approved or the category is not the club’s', async () => {
    const on = await signedInAdmin(ctx, incidentsOn);
    const off = await signedInAdmin(ctx);
    const catOn = await factory.makeFeedbackCategory(ctx, on.club.id);
    const catOff = await factory.makeFeedbackCategory(ctx, off.club.id);
    const cases = [
      { ...(await terminalOf(off.club.id)), categoryId: catOff.id },
      { ...(await terminalOf(on.club.id, false)), categoryId: catOn.id },
      { ...(await terminalOf(on.club.id)), categoryId: catOff.id },
    ];
    for (const c of cases) {
      const err = await reportIncident(c.tc, { categoryId: c.categoryId }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(TerminalError);
      expect((err as TerminalError).code).toBe('INCIDENT_REFUSED');
    }
    expect(await ctx.database.db.select().from(incidents).where(eq(incidents.clubId, on.club.id))).toEqual([]);
  });
});
