import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { ClientType, EntranceState, Reason, type ServerTemplates } from '@venue/domain';
import * as factory from '../../../test/factories.js';
import { createTestApp, makeUser, signedInAdmin, Api, TEST_PASSWORD, type TestContext } from '../../../test/harness.js';
import { auditLog, biometricTemplates, clients, clubs } from '../../db/schema.js';
import { dataKeys, decrypt, deriveKeys, encrypt, mac } from '../../lib/crypto.js';
import { TerminalClient } from '../../../../terminal/src/client.js';
import { enroll, nextPush } from '../../../../terminal/src/gate.js';

/**
 * Identification by fingerprint, face, card and code; enrolment at the
 * terminal within the client's and the club's allowances; templates
 * encrypted at rest; the staff's biometric calls; template pushes to the
 * club's terminals (docs/api-gate.md "Biometrics").
 */

let ctx: TestContext;
let base: string;
let admin: Awaited<ReturnType<typeof signedInAdmin>>;
let other: Awaited<ReturnType<typeof signedInAdmin>>;
let groupId: number;
const SECRET = 'biometrics-secret';
const open: TerminalClient[] = [];
let seq = 1;
const FACE =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

async function gate(clubId: number, settings: object = { allowEnrollment: true }) {
  const serial = `BIO-${clubId}-${seq++}`;
  await factory.makeTerminal(ctx, clubId, { serial, secret: SECRET, settings });
  const tc = new TerminalClient({ url: base, serial, secret: SECRET, timeoutMs: 5000, heartbeat: false });
  open.push(tc);
  await tc.connect();
  return tc;
}

/** `Bio <n>`, a subscriber without a card whose enrolment code is `pw<n>` (n its number). */
async function client(over: Partial<typeof clients.$inferInsert> = {}, clubId = admin.club.id) {
  const n = seq++;
  return factory.makeClient(ctx, clubId, {
    number: n,
    firstName: 'Bio',
    cardSerial: '',
    groupId: clubId === admin.club.id ? groupId : null,
    ...factory.SUBSCRIBED,
    enrollPassword: `pw${n}`,
    ...over,
  });
}

beforeAll(async () => {
  ctx = await createTestApp();
  base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  admin = await signedInAdmin(ctx);
  other = await signedInAdmin(ctx);
  groupId = (await factory.makeGroup(ctx, admin.club.id, { name: 'All', entranceState: EntranceState.Opened })).id;
});

afterAll(async () => {
  for (const tc of open) await tc.close().catch(() => undefined);
  await ctx?.close();
});

describe('lib/crypto', () => {
  it('encrypts with a fresh nonce, binds the context, refuses tampering and other keys', () => {
    const k = deriveKeys('secret-1');
    const a = encrypt(k, 'template', 'ctx');
    expect(a).not.toBe(encrypt(k, 'template', 'ctx'));
    expect(a).not.toContain('template');
    expect(decrypt(k, a, 'ctx')).toBe('template');
    expect(() => decrypt(k, a, 'other')).toThrow();
    expect(() => decrypt(deriveKeys('secret-2'), a, 'ctx')).toThrow();
    const [v, iv, tag, ct] = a.split('.');
    const flipped = Buffer.from(ct, 'base64url');
    flipped[0] ^= 1;
    expect(() => decrypt(k, [v, iv, tag, flipped.toString('base64url')].join('.'), 'ctx')).toThrow();
    expect(mac(k, 'x', 'c')).toBe(mac(k, 'x', 'c'));
    expect(mac(k, 'x', 'c')).not.toBe(mac(k, 'x', 'd'));
    expect(mac(k, 'x', 'c')).not.toBe(mac(deriveKeys('secret-2'), 'x', 'c'));
  });
});

describe('enrolment at the terminal and identification', () => {
  it('enrols a fingerprint (stored encrypted), then the same template identifies the client at the gate', async () => {
    const tc = await gate(admin.club.id);
    const watcher = await gate(admin.club.id);
    const since = watcher.unsolicited.length;
    const c = await client();
    const r = await enroll(tc, {
      clientNumber: c.number,
      password: `pw${c.number}`,
      kind: 'fingerprint',
      template: 'FMD-abc-1',
    });
    expect(r).toMatchObject({ type: 'enrolled', ok: true, clientName: `Bio ${c.number}` });
    const [row] = await ctx.database.db
      .select()
      .from(biometricTemplates)
      .where(eq(biometricTemplates.id, r.templateId!));
    expect(row.templateEnc).not.toContain('FMD-abc-1');
    expect(row.templateMac).not.toContain('FMD-abc-1');
    expect(
      decrypt(
        await dataKeys(ctx.database.db),
        row.templateEnc,
        `club:${admin.club.id}:client:${c.id}:fingerprint:template`,
      ),
    ).toBe('FMD-abc-1');
    // The other terminals of the club get the template for their matcher.
    const push = (await nextPush(watcher, 'templates', { since })) as ServerTemplates;
    expect(push.changes).toEqual([
      { action: 'added', templateId: r.templateId, kind: 'fingerprint', clientNumber: c.number, template: 'FMD-abc-1' },
    ]);
    expect(await tc.present({ kind: 'fingerprint', value: 'FMD-abc-1' })).toMatchObject({
      status: 1,
      reason: Reason.EntryBySubscription,
      clientName: `Bio ${c.number}`,
    });
    expect((await tc.present({ kind: 'fingerprint', value: 'FMD-unknown' })).status).toBe(8);
    // Enrolling the same template again is harmless; for another client it is taken.
    expect(
      await enroll(tc, {
        clientNumber: c.number,
        password: `pw${c.number}`,
        kind: 'fingerprint',
        template: 'FMD-abc-1',
      }),
    ).toMatchObject({ ok: true, templateId: r.templateId });
    const d = await client();
    expect(
      await enroll(tc, {
        clientNumber: d.number,
        password: `pw${d.number}`,
        kind: 'fingerprint',
        template: 'FMD-abc-1',
      }),
    ).toMatchObject({ ok: false, code: 'TEMPLATE_TAKEN' });
    const audits = await ctx.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'biometric.fingerprint'), eq(auditLog.action, 'enroll')));
    expect(audits.some((a) => a.entityId === String(r.templateId))).toBe(true);
  });

  it('a face template of one club never identifies a client of another', async () => {
    const tc = await gate(admin.club.id);
    const c = await client();
    expect(
      await enroll(tc, {
        clientNumber: c.number,
        password: `pw${c.number}`,
        kind: 'face',
        template: 'FACE-1',
        image: FACE,
      }),
    ).toMatchObject({ ok: true });
    expect((await tc.present({ kind: 'face', value: 'FACE-1' })).status).toBe(1);
    const og = await factory.makeGroup(ctx, other.club.id, { name: 'All', entranceState: EntranceState.Opened });
    await client({ groupId: og.id }, other.club.id);
    const tcB = await gate(other.club.id);
    expect((await tcB.present({ kind: 'face', value: 'FACE-1' })).status).toBe(8);
  });

  it('enrols a card as the client’s card serial; a card of another client is taken', async () => {
    const tc = await gate(admin.club.id);
    const c = await client();
    expect(
      await enroll(tc, { clientNumber: c.number, password: `pw${c.number}`, kind: 'card', template: 'CARD-E1' }),
    ).toMatchObject({
      ok: true,
    });
    expect((await tc.present({ kind: 'card', value: 'CARD-E1' })).status).toBe(1);
    const d = await client();
    expect(
      await enroll(tc, { clientNumber: d.number, password: `pw${d.number}`, kind: 'card', template: 'CARD-E1' }),
    ).toMatchObject({
      ok: false,
      code: 'CARD_TAKEN',
    });
  });

  it('refuses a wrong password, an unknown client, and what the client, the club or the terminal do not allow', async () => {
    const tc = await gate(admin.club.id);
    const c = await client({ allowEnrollFace: false });
    const e = (over: object) =>
      enroll(tc, {
        clientNumber: c.number,
        password: `pw${c.number}`,
        kind: 'fingerprint',
        template: `T-${seq++}`,
        ...over,
      });
    expect(await e({ password: 'wrong' })).toMatchObject({ ok: false, code: 'WRONG_PASSWORD' });
    expect(await e({ clientNumber: 999_999 })).toMatchObject({ ok: false, code: 'CLIENT_NOT_FOUND' });
    expect(await e({ kind: 'face' })).toMatchObject({ ok: false, code: 'ENROLLMENT_NOT_ALLOWED' });
    const noPassword = await client({ enrollPassword: '' });
    expect(await e({ clientNumber: noPassword.number, password: 'x' })).toMatchObject({
      ok: false,
      code: 'WRONG_PASSWORD',
    });
    // The club's self-registration setting for fingerprints.
    await ctx.database.db
      .update(clubs)
      .set({ settings: { allowEnrollmentFingerprintInSelfRegister: false } })
      .where(eq(clubs.id, admin.club.id));
    expect(await e({})).toMatchObject({ ok: false, code: 'ENROLLMENT_NOT_ALLOWED' });
    await ctx.database.db.update(clubs).set({ settings: {} }).where(eq(clubs.id, admin.club.id));
    expect(await e({})).toMatchObject({ ok: true });
    // A terminal without the allowEnrollment flag.
    const plain = await gate(admin.club.id, {});
    expect(
      await enroll(plain, { clientNumber: c.number, password: `pw${c.number}`, kind: 'fingerprint', template: 'T-x' }),
    ).toMatchObject({ ok: false, code: 'ENROLLMENT_NOT_ALLOWED' });
    // A malformed enrol message answers BAD_MESSAGE with its event id and the link stays open.
    await expect(
      enroll(tc, { clientNumber: c.number, password: 'p', kind: 'face', template: 'x', image: 'not-a-data-url' }),
    ).rejects.toThrow(/BAD_MESSAGE/);
    expect((await tc.present({ kind: 'card', value: 'none' })).status).toBe(8);
  });
});

describe('staff biometric calls', () => {
  it('GetFaceImages decrypts the face images (audited); other clubs get 404; permission roleViewClientsList', async () => {
    const tc = await gate(admin.club.id);
    const c = await client();
    await enroll(tc, {
      clientNumber: c.number,
      password: `pw${c.number}`,
      kind: 'face',
      template: `F-${c.id}`,
      image: FACE,
    });
    const res = await admin.api.get(`/api/Client/GetFaceImages/${c.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().items).toEqual([{ id: expect.any(Number), image: FACE, createdAt: expect.any(String) }]);
    expect((await other.api.get(`/api/Client/GetFaceImages/${c.id}`)).statusCode).toBe(404);
    const views = await ctx.database.db.select().from(auditLog).where(eq(auditLog.entity, 'biometric.faceImages'));
    expect(views.some((v) => v.entityId === String(c.id))).toBe(true);
    const viewer = await makeUser(ctx, admin.club.id, { permissions: { roleViewClientsList: false } });
    const api = new Api(ctx.app);
    await api.login(viewer.username, TEST_PASSWORD, admin.club.externalClubId);
    expect((await api.get(`/api/Client/GetFaceImages/${c.id}`)).statusCode).toBe(403);
  });

  it('DeleteFmd deletes one template, audited, terminals told; 404 for another club', async () => {
    const tc = await gate(admin.club.id);
    const c = await client();
    const r = await enroll(tc, {
      clientNumber: c.number,
      password: `pw${c.number}`,
      kind: 'fingerprint',
      template: `D-${c.id}`,
    });
    expect((await other.api.delete(`/api/DeleteFmd/${r.templateId}`)).statusCode).toBe(404);
    const since = tc.unsolicited.length;
    const res = await admin.api.delete(`/api/DeleteFmd/${r.templateId}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ deleted: 1 });
    const push = (await nextPush(tc, 'templates', {
      since,
      where: (m) => m.changes.some((x) => x.action === 'deleted'),
    })) as ServerTemplates;
    expect(push.changes).toEqual([
      { action: 'deleted', templateId: r.templateId, kind: 'fingerprint', clientNumber: c.number },
    ]);
    expect((await tc.present({ kind: 'fingerprint', value: `D-${c.id}` })).status).toBe(8);
    expect((await admin.api.delete(`/api/DeleteFmd/${r.templateId}`)).statusCode).toBe(404);
    const [a] = await ctx.database.db
      .select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.entity, 'biometric.fingerprint'),
          eq(auditLog.action, 'delete'),
          eq(auditLog.entityId, String(r.templateId)),
        ),
      );
    expect(a.userId).toBe(admin.user.id);
  });

  it('DeleteBiometricDataForClient deletes every template of the client; refused for a technician', async () => {
    const tc = await gate(admin.club.id);
    const c = await client();
    for (const [kind, template] of [
      ['fingerprint', `A-${c.id}`],
      ['fingerprint', `B-${c.id}`],
      ['face', `C-${c.id}`],
    ] as const) {
      expect(await enroll(tc, { clientNumber: c.number, password: `pw${c.number}`, kind, template })).toMatchObject({
        ok: true,
      });
    }
    expect((await other.api.delete(`/api/Client/DeleteBiometricDataForClient/${c.id}`)).statusCode).toBe(404);
    const res = await admin.api.delete(`/api/Client/DeleteBiometricDataForClient/${c.id}`);
    expect(res.json()).toEqual({ deleted: 3 });
    expect(
      await ctx.database.db.select().from(biometricTemplates).where(eq(biometricTemplates.clientId, c.id)),
    ).toEqual([]);

    const tech = await client({ clientType: ClientType.Technician });
    await enroll(tc, {
      clientNumber: tech.number,
      password: `pw${tech.number}`,
      kind: 'fingerprint',
      template: `T-${tech.id}`,
    });
    const refused = await admin.api.delete(`/api/Client/DeleteBiometricDataForClient/${tech.id}`);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().code).toBe('TECHNICIAN_BIOMETRIC_PROTECTED');
    const [t] = await ctx.database.db.select().from(biometricTemplates).where(eq(biometricTemplates.clientId, tech.id));
    expect((await admin.api.delete(`/api/DeleteFmd/${t.id}`)).json().code).toBe('TECHNICIAN_BIOMETRIC_PROTECTED');
    expect((await tc.present({ kind: 'fingerprint', value: `T-${tech.id}` })).status).toBe(1);
  });
});
