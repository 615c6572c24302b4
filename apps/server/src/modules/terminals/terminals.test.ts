import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { Api, createTestApp, makeUser, signedInAdmin, TEST_PASSWORD, type TestContext } from '../../../test/harness.js';
import { auditLog, terminals } from '../../db/schema.js';
import { newTerminalSecret, terminalKey, verifyTerminalSecret } from './terminal-secret.js';

let serialSeq = 0;
const serial = () => `VT-${process.pid}-${++serialSeq}`;

describe('terminals', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => ctx.close());

  it('registers a terminal not yet approved, shows its secret once and stores only a hash', async () => {
    const { api } = await signedInAdmin(ctx);
    const s = serial();
    const res = await api.post('/api/Terminal', { serial: s, name: 'Entrance' });
    expect(res.statusCode).toBe(200);
    const t = res.json();
    expect(t).toMatchObject({
      serial: s,
      name: 'Entrance',
      approved: false,
      isMain: false,
      gateOpenSeconds: 5,
      doorState: 2,
      connected: false,
      lastConnection: null,
    });
    expect(t.secret).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    const [row] = await ctx.database.db.select().from(terminals).where(eq(terminals.id, t.id));
    expect(row.secretHash).not.toContain(t.secret);
    expect(row.secretHash.startsWith('hmac$')).toBe(true);
    expect(await verifyTerminalSecret(await terminalKey(ctx.database.db), t.secret, row.secretHash)).toBe(true);
    expect(await verifyTerminalSecret(await terminalKey(ctx.database.db), `${t.secret}x`, row.secretHash)).toBe(false);
    const read = (await api.get(`/api/Terminal/${t.id}`)).json();
    expect(read).not.toHaveProperty('secret');
    expect(read).not.toHaveProperty('secretHash');
    const list = (await api.get('/api/Terminal')).json();
    expect(list.total).toBe(1);
    expect(list.items[0]).not.toHaveProperty('secret');
    const [audit] = await ctx.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'terminal'), eq(auditLog.entityId, String(t.id))));
    expect(JSON.stringify(audit)).not.toContain(t.secret);
  });

  it('refuses a serial used by any terminal, of any club (409 CONFLICT)', async () => {
    const { api } = await signedInAdmin(ctx);
    const other = await signedInAdmin(ctx);
    const s = serial();
    expect((await api.post('/api/Terminal', { serial: s, name: 'A' })).statusCode).toBe(200);
    for (const caller of [api, other.api]) {
      const dup = await caller.post('/api/Terminal', { serial: s, name: 'B' });
      expect(dup.statusCode).toBe(409);
      expect(dup.json().code).toBe('CONFLICT');
    }
    expect((await other.api.get('/api/Terminal')).json().total).toBe(0);
  });

  it('reports connection from the registry and the last connection as an ISO time', async () => {
    const { api } = await signedInAdmin(ctx);
    const t = (await api.post('/api/Terminal', { serial: serial(), name: 'Gate' })).json();
    const at = new Date('2025-06-01T10:00:00Z');
    await ctx.database.db.update(terminals).set({ lastConnection: at }).where(eq(terminals.id, t.id));
    const socket = { terminalId: t.id, clubId: 0, send: () => {}, connectedAt: new Date() };
    ctx.app.deps.terminals.register(socket);
    try {
      expect((await api.get(`/api/Terminal/${t.id}`)).json()).toMatchObject({
        connected: true,
        lastConnection: at.toISOString(),
      });
    } finally {
      ctx.app.deps.terminals.unregister(socket);
    }
    expect((await api.get('/api/Terminal')).json().items[0].connected).toBe(false);
  });

  it('approves with PATCH {approved: true} (audit action approve), edits settings, keeps one main terminal', async () => {
    const { api, club } = await signedInAdmin(ctx);
    const a = (await api.post('/api/Terminal', { serial: serial(), name: 'A', isMain: true })).json();
    const b = (await api.post('/api/Terminal', { serial: serial(), name: 'B' })).json();
    const approved = await api.patch(`/api/Terminal/${b.id}`, { approved: true });
    expect(approved.json()).toMatchObject({ approved: true, name: 'B', gateOpenSeconds: 5 });
    const edited = await api.patch(`/api/Terminal/${b.id}`, {
      name: 'Back door',
      gateOpenSeconds: 8,
      doorState: 3,
      isMain: true,
    });
    expect(edited.json()).toMatchObject({
      approved: true,
      name: 'Back door',
      gateOpenSeconds: 8,
      doorState: 3,
      isMain: true,
    });
    expect((await api.get(`/api/Terminal/${a.id}`)).json().isMain).toBe(false);
    const list = (await api.get('/api/Terminal')).json().items;
    expect(list[0].id).toBe(b.id);
    const actions = (
      await ctx.database.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.clubId, club.id), eq(auditLog.entity, 'terminal'), eq(auditLog.entityId, String(b.id))))
    ).map((r) => r.action);
    expect(actions.sort()).toEqual(['approve', 'create', 'update']);
  });

  it('refuses unknown or invalid fields, serial changes included, changing nothing', async () => {
    const { api } = await signedInAdmin(ctx);
    const t = (await api.post('/api/Terminal', { serial: serial(), name: 'T' })).json();
    for (const body of [
      { serial: 'NEW' },
      { secretHash: 'x' },
      { gateOpenSeconds: 0 },
      { doorState: 5 },
      { name: '' },
    ]) {
      const r = await api.patch(`/api/Terminal/${t.id}`, body);
      expect(r.statusCode, JSON.stringify(body)).toBe(400);
      expect(r.json().code).toBe('VALIDATION_ERROR');
    }
    expect((await api.post('/api/Terminal', { serial: 'bad serial', name: 'x' })).statusCode).toBe(400);
    const { secret: _secret, ...shown } = t;
    expect((await api.get(`/api/Terminal/${t.id}`)).json()).toEqual(shown);
  });

  it("answers 404 for another club's terminal", async () => {
    const { api } = await signedInAdmin(ctx);
    const other = await signedInAdmin(ctx);
    const theirs = (await other.api.post('/api/Terminal', { serial: serial(), name: 'Theirs' })).json();
    expect((await api.get(`/api/Terminal/${theirs.id}`)).statusCode).toBe(404);
    expect((await api.patch(`/api/Terminal/${theirs.id}`, { approved: true })).statusCode).toBe(404);
    expect((await other.api.get(`/api/Terminal/${theirs.id}`)).json().approved).toBe(false);
  });

  it('lets any signed-in user read terminals, and only roleEditTerminals change them', async () => {
    const { api: admin, club } = await signedInAdmin(ctx);
    const t = (await admin.post('/api/Terminal', { serial: serial(), name: 'T' })).json();
    expect((await new Api(ctx.app).get('/api/Terminal')).statusCode).toBe(401);
    const plain = await makeUser(ctx, club.id);
    const api = new Api(ctx.app);
    await api.login(plain.username, TEST_PASSWORD, club.externalClubId);
    expect((await api.get('/api/Terminal')).statusCode).toBe(200);
    expect((await api.get(`/api/Terminal/${t.id}`)).statusCode).toBe(200);
    expect((await api.post('/api/Terminal', { serial: serial(), name: 'X' })).statusCode).toBe(403);
    expect((await api.patch(`/api/Terminal/${t.id}`, { approved: true })).statusCode).toBe(403);
  });
});

describe('newTerminalSecret', () => {
  it('issues 192-bit base64url secrets that a command line never reads as an option', () => {
    // 4 000 draws: about 62 would start with '-' if nothing prevented it.
    const secrets = Array.from({ length: 4000 }, () => newTerminalSecret());
    expect(secrets.every((s) => /^[A-Za-z0-9_][A-Za-z0-9_-]{31}$/.test(s))).toBe(true);
    expect(new Set(secrets).size).toBe(4000);
  });
});
