import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { Api, createTestApp, makeClub, type TestContext } from '../../../test/harness.js';
import * as factory from '../../../test/factories.js';
import { memberCodes, notificationOutbox } from '../../db/schema.js';
import { listOutbox } from '../notifications/outbox.js';

/**
 * Sign-in by one-time code (issue 37; docs/members.md "Sign-in", "Limits"):
 * the code goes out through the outbox (read back here as the console reads
 * it), is stored hashed, signs in once, dies at its 5th wrong try or after 10
 * minutes; the limits are per contact and address and never lock a member out.
 */
describe('member sign-in by one-time code', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => ctx.close());

  let seq = 0;
  /** A fresh phone on file (Israeli mobile, local spelling) and its E.164 form. */
  function phone() {
    const n = `${Date.now() % 1e6}${seq++}`.padStart(7, '0').slice(-7);
    return { local: `054-${n}`, e164: `+97254${n}` };
  }

  /** An API caller from its own address. */
  function from(ip: string) {
    const api = new Api(ctx.app);
    api.remoteAddress = ip;
    return api;
  }

  /** The code the outbox holds for `e164` in `clubId` (the latest). */
  async function codeFor(clubId: number, e164: string): Promise<string> {
    const [m] = await listOutbox(ctx.database.db, clubId, { kind: 'member-code', to: e164 });
    expect(m, 'a member-code message in the outbox').toBeDefined();
    expect(m.urgent).toBe(true);
    return /\b(\d{6})\b/.exec(m.text)![1];
  }

  it('sends a code to the phone on file, stores only its hash, and signs in once with it', async () => {
    const club = await makeClub(ctx);
    const p = phone();
    const member = await factory.makeClient(ctx, club.id, { firstName: 'Rivka', phone: p.e164 });
    const api = from('10.1.0.1');
    const sent = await api.post('/api/Member/RequestCode', { contact: p.local, language: 'en' });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toEqual({ ok: true, channel: 'sms', expiresInSeconds: 600 });
    const code = await codeFor(club.id, p.e164);
    const [m] = await listOutbox(ctx.database.db, club.id, { kind: 'member-code', to: p.e164 });
    expect(m).toMatchObject({ channel: 'sms', clientId: member.id });
    expect(m.text).toContain('Test club');
    const rows = await ctx.database.db.select().from(memberCodes).where(eq(memberCodes.contact, p.e164));
    expect(rows).toHaveLength(1);
    expect(rows[0].codeHash).not.toContain(code);
    expect(rows[0].codeHash).toMatch(/^[0-9a-f]{64}$/);

    const res = await api.post('/api/Member/SignIn', { contact: p.local, code });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ clubId: club.id, clubs: [{ clubId: club.id, name: 'Test club' }] });
    api.token = res.json().token;
    expect((await api.get('/api/Member/Me')).json().member.id).toBe(member.id);
    // Used: the same code again is refused.
    const again = await from('10.1.0.1').post('/api/Member/SignIn', { contact: p.local, code });
    expect(again.statusCode).toBe(401);
    expect(again.json().code).toBe('MEMBER_CODE_WRONG');
  });

  it('answers the same for a contact not on file, sending nothing', async () => {
    const p = phone();
    const res = await from('10.1.0.2').post('/api/Member/RequestCode', { contact: p.local });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true, channel: 'sms', expiresInSeconds: 600 });
    const queued = await ctx.database.db.select().from(notificationOutbox).where(eq(notificationOutbox.to, p.e164));
    expect(queued).toEqual([]);
    const bad = await from('10.1.0.2').post('/api/Member/RequestCode', { contact: 'not a phone' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details).toEqual([expect.objectContaining({ path: 'contact', message: 'invalidPhone' })]);
  });

  it('sends by e-mail to the e-mail on file; a member of two clubs picks the club', async () => {
    const a = await makeClub(ctx);
    const b = await makeClub(ctx);
    const email = `Leah.${seq++}@Example.org`;
    await factory.makeClient(ctx, a.id, { email });
    await factory.makeClient(ctx, b.id, { email: email.toLowerCase() });
    const api = from('10.1.0.3');
    expect((await api.post('/api/Member/RequestCode', { contact: email })).json().channel).toBe('email');
    const [m] = await listOutbox(ctx.database.db, a.id, { kind: 'member-code' });
    expect(m).toMatchObject({ channel: 'email', to: email.toLowerCase() });
    const code = /\b(\d{6})\b/.exec(m.text)![1];
    const res = (await api.post('/api/Member/SignIn', { contact: email, code })).json();
    expect(res.clubId).toBeNull();
    expect(res.clubs.map((c: { clubId: number }) => c.clubId).sort()).toEqual([a.id, b.id].sort());
    api.token = res.token;
    expect((await api.post('/api/Member/Club', { clubId: b.id })).statusCode).toBe(200);
    expect((await api.get('/api/Member/Me')).json().club.clubId).toBe(b.id);
  });

  it('spends a code at its 5th wrong try, and delays the guessing address, not the member', async () => {
    const club = await makeClub(ctx);
    const p = phone();
    await factory.makeClient(ctx, club.id, { phone: p.e164 });
    const attacker = from('10.2.0.1');
    expect((await attacker.post('/api/Member/RequestCode', { contact: p.e164 })).statusCode).toBe(200);
    const code = await codeFor(club.id, p.e164);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      const r = await attacker.post('/api/Member/SignIn', { contact: p.e164, code: wrong });
      expect(r.statusCode).toBe(401);
    }
    // The 5th wrong try spent the code: the right one no longer signs in …
    const [row] = await ctx.database.db.select().from(memberCodes).where(eq(memberCodes.contact, p.e164));
    expect(row.tries).toBe(5);
    // … and the guessing address is now delayed (the staff sign-in's throttle).
    const locked = await attacker.post('/api/Member/SignIn', { contact: p.e164, code });
    expect(locked.statusCode).toBe(429);
    expect(locked.json().code).toBe('LOGIN_LOCKED');
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    // The member, from her own address, asks for a new code and signs in.
    const member = from('10.2.0.2');
    expect((await member.post('/api/Member/RequestCode', { contact: p.local })).statusCode).toBe(200);
    const fresh = await codeFor(club.id, p.e164);
    const ok = await member.post('/api/Member/SignIn', { contact: p.local, code: fresh });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('refuses an expired code (10 minutes) and an earlier code once a new one was sent', async () => {
    const club = await makeClub(ctx);
    const p = phone();
    await factory.makeClient(ctx, club.id, { phone: p.e164 });
    const api = from('10.3.0.1');
    await api.post('/api/Member/RequestCode', { contact: p.e164 });
    const first = await codeFor(club.id, p.e164);
    await api.post('/api/Member/RequestCode', { contact: p.e164 });
    const second = await codeFor(club.id, p.e164);
    if (first !== second)
      expect((await api.post('/api/Member/SignIn', { contact: p.e164, code: first })).statusCode).toBe(401);
    await ctx.database.db
      .update(memberCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(memberCodes.contact, p.e164));
    const late = await api.post('/api/Member/SignIn', { contact: p.e164, code: second });
    expect(late.statusCode).toBe(401);
    expect(late.json().code).toBe('MEMBER_CODE_WRONG');
  });

  it('limits codes per contact and address (3 per 15 minutes) without keeping another address from its code', async () => {
    const club = await makeClub(ctx);
    const p = phone();
    await factory.makeClient(ctx, club.id, { phone: p.e164 });
    const flood = from('10.4.0.1');
    for (let i = 0; i < 3; i++)
      expect((await flood.post('/api/Member/RequestCode', { contact: p.e164 })).statusCode).toBe(200);
    const fourth = await flood.post('/api/Member/RequestCode', { contact: p.e164 });
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json().code).toBe('MEMBER_CODE_LIMIT');
    expect(Number(fourth.headers['retry-after'])).toBeGreaterThan(0);
    // Under sustained requests from many addresses (10 in the hour), every address keeps one code an hour.
    for (let i = 0; i < 7; i++)
      expect((await from(`10.4.1.${i}`).post('/api/Member/RequestCode', { contact: p.e164 })).statusCode).toBe(200);
    const member = from('10.4.9.9');
    expect((await member.post('/api/Member/RequestCode', { contact: p.e164 })).statusCode).toBe(200);
    expect((await member.post('/api/Member/RequestCode', { contact: p.e164 })).statusCode).toBe(429);
    const code = await codeFor(club.id, p.e164);
    expect((await member.post('/api/Member/SignIn', { contact: p.e164, code })).statusCode).toBe(200);
    const sent = await ctx.database.db
      .select()
      .from(notificationOutbox)
      .where(and(eq(notificationOutbox.to, p.e164), eq(notificationOutbox.kind, 'member-code')));
    expect(sent).toHaveLength(11);
  });
});
