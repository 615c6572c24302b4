import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { eq } from 'drizzle-orm';
import { UserLevel, type LiveMessage } from '@venue/domain';
import {
  Api,
  createTestApp,
  makeClub,
  makeUser,
  signedInAdmin,
  TEST_PASSWORD,
  type TestContext,
} from '../../../test/harness.js';
import { makeGlobalMessage } from '../../../test/factories.js';
import { auditLog, globalMessageReads } from '../../db/schema.js';
import { sanitizeMessageBody } from './sanitize.js';

/** Seed 000 §3, §4, §7 "Global messages"; docs/messages.md. */
describe('global messages', () => {
  let ctx: TestContext;
  let operator: Api;
  beforeAll(async () => {
    ctx = await createTestApp();
    const anyClub = await makeClub(ctx);
    const op = await makeUser(ctx, null, { level: UserLevel.SuperUser, isAdmin: true });
    operator = new Api(ctx.app);
    expect((await operator.login(op.username, TEST_PASSWORD, anyClub.externalClubId)).statusCode).toBe(200);
  });
  afterAll(async () => ctx.close());

  /** A signed-in user of the club and the paths of their inbox. */
  async function member(clubOpts: Parameters<typeof makeClub>[1] = {}) {
    const s = await signedInAdmin(ctx, clubOpts);
    const ext = s.club.externalClubId;
    const me = s.user.id;
    return {
      ...s,
      all: () => s.api.get(`/api/GlobalMessage/GetAllMessages/${ext}`),
      byUser: () => s.api.get(`/api/GlobalMessage/GetAllMessagesByUser/${ext}/${me}`),
      unread: () => s.api.get(`/api/GlobalMessage/GetUnreadMessages/${ext}/${me}`),
      markRead: (id: number) => s.api.request('PUT', `/api/GlobalMessage/UpdateMessageStatus/${id}/${ext}/${me}`),
      markAll: () => s.api.request('PUT', `/api/GlobalMessage/MarkAllMessagesAsRead/${ext}/${me}`),
    };
  }
  const titles = (res: { json(): unknown }) => (res.json() as { title: string }[]).map((m) => m.title);

  it('the operator writes to all clubs, a class of clubs or chosen clubs; each club sees only its own', async () => {
    const regular = await member();
    const usa = await member({ externalClubId: 4000 + Math.floor(Math.random() * 2999) });
    const kala = await member({ externalClubId: 7000 + Math.floor(Math.random() * 2999) });
    const tag = `t${Date.now()}`;
    const send = (title: string, extra: object = {}) =>
      operator.post('/api/GlobalMessage', { title: `${tag} ${title}`, body: '<p>Hello</p>', ...extra });
    expect((await send('all')).statusCode).toBe(200);
    expect((await send('regular', { audience: 'regular' })).statusCode).toBe(200);
    expect((await send('usa', { audience: 'usa', kind: 'Extra' })).statusCode).toBe(200);
    expect((await send('kala', { audience: 'kala' })).statusCode).toBe(200);
    const chosen = await send('chosen', {
      audience: 'clubs',
      externalClubIds: [kala.club.externalClubId],
      kind: 'Popup',
    });
    expect(chosen.json()).toMatchObject({
      audience: 'clubs',
      externalClubIds: [kala.club.externalClubId],
      kind: 'Popup',
    });
    const mine = (res: { json(): unknown }) =>
      titles(res)
        .filter((t) => t.startsWith(tag))
        .map((t) => t.slice(tag.length + 1));
    expect(mine(await regular.all()).sort()).toEqual(['all', 'regular']);
    expect(mine(await usa.all()).sort()).toEqual(['all', 'usa']);
    expect(mine(await kala.all()).sort()).toEqual(['all', 'chosen', 'kala']);
    expect((await kala.all()).json()[0]).toMatchObject({ kind: 'Popup', body: '<p>Hello</p>' });
    // The operator's list holds them all; audited without a club.
    const list = (await operator.get('/api/GlobalMessage')).json();
    expect(list.items.filter((m: { title: string }) => m.title.startsWith(tag))).toHaveLength(5);
    const audits = await ctx.database.db.select().from(auditLog).where(eq(auditLog.entity, 'globalMessage'));
    expect(audits.length).toBeGreaterThanOrEqual(5);
  });

  it('shows a message from its publication until its expiry only', async () => {
    const m = await member({ externalClubId: 3000 + Math.floor(Math.random() * 999) });
    const hour = 3600_000;
    await makeGlobalMessage(ctx, {
      title: 'future',
      audience: 'clubs',
      externalClubIds: [m.club.externalClubId],
      publishAt: new Date(Date.now() + hour),
    });
    await makeGlobalMessage(ctx, {
      title: 'expired',
      audience: 'clubs',
      externalClubIds: [m.club.externalClubId],
      publishAt: new Date(Date.now() - 2 * hour),
      expiresAt: new Date(Date.now() - hour),
    });
    await makeGlobalMessage(ctx, {
      title: 'current',
      audience: 'clubs',
      externalClubIds: [m.club.externalClubId],
      expiresAt: new Date(Date.now() + hour),
    });
    expect(titles(await m.all()).filter((t) => ['future', 'expired', 'current'].includes(t))).toEqual(['current']);
    expect(titles(await m.unread())).toContain('current');
    expect(titles(await m.unread())).not.toContain('future');
  });

  it('keeps read status per user: unread → read one at a time or all at once', async () => {
    const m = await member();
    const only = { audience: 'clubs' as const, externalClubIds: [m.club.externalClubId] };
    // Messages of the other tests to every club are read first.
    await m.markAll();
    const a = await makeGlobalMessage(ctx, { title: 'A', ...only });
    const b = await makeGlobalMessage(ctx, { title: 'B', ...only, kind: 'Popup' });
    await makeGlobalMessage(ctx, { title: 'C', ...only });
    expect(titles(await m.unread())).toEqual(['C', 'B', 'A']);
    const abc = async () =>
      ((await m.byUser()).json() as { title: string; status: number; readAt: string | null }[]).filter(
        (x) => x.title.length === 1,
      );
    expect((await abc()).map((x) => x.status)).toEqual([0, 0, 0]);
    expect((await m.markRead(b.id)).json()).toEqual({ updated: 1 });
    expect((await m.markRead(b.id)).json()).toEqual({ updated: 0 });
    expect(titles(await m.unread())).toEqual(['C', 'A']);
    const byUser = await abc();
    expect(byUser.map((x) => [x.title, x.status])).toEqual([
      ['C', 0],
      ['B', 1],
      ['A', 0],
    ]);
    expect(byUser[1].readAt).toEqual(expect.any(String));
    // Another user of the same club still has all three unread.
    const colleague = await makeUser(ctx, m.club.id, {});
    const other = new Api(ctx.app);
    await other.login(colleague.username, TEST_PASSWORD, m.club.externalClubId);
    const theirs = await other.get(`/api/GlobalMessage/GetUnreadMessages/${m.club.externalClubId}/${colleague.id}`);
    expect(titles(theirs).filter((t) => t.length === 1)).toEqual(['C', 'B', 'A']);
    // The club with the unread messages: the seed's club field `messages` (seed 000 §3 "messages: list").
    const club = (await m.api.get(`/api/Club/GetCurrentWithUserUnreadMessages/${m.user.id}`)).json();
    expect(club).toMatchObject({ id: m.club.id, externalClubId: m.club.externalClubId });
    expect(club.messages.map((x: { id: number }) => x.id)).toEqual([expect.any(Number), a.id]);
    expect(club.messages[1]).toMatchObject({ title: 'A', kind: 'Basic', status: 0, readAt: null });
    // It is read, not a setting: a settings patch naming it is refused and changes nothing.
    const patch = await m.api.patch(`/api/Club/${m.club.id}`, { messages: [] });
    expect(patch.statusCode).toBe(400);
    expect((await m.markAll()).json()).toEqual({ updated: 2 });
    expect((await m.unread()).json()).toEqual([]);
    expect((await m.markAll()).json()).toEqual({ updated: 0 });
    expect((await m.api.get(`/api/Club/GetCurrentWithUserUnreadMessages/${m.user.id}`)).json().messages).toEqual([]);
  });

  it("does not count a message as unread for the operator who wrote it (the operator's bell); a colleague's counts", async () => {
    const club = await makeClub(ctx);
    const ext = club.externalClubId;
    const me = await makeUser(ctx, null, { level: UserLevel.SuperUser, isAdmin: true });
    const writer = new Api(ctx.app);
    expect((await writer.login(me.username, TEST_PASSWORD, ext)).statusCode).toBe(200);
    // The operator acts on the club of the header, as the console sends it.
    const h = { clubExternalId: String(ext) };
    const unread = async () =>
      (await writer.request('GET', `/api/GlobalMessage/GetUnreadMessages/${ext}/${me.id}`, undefined, h)).json() as {
        title: string;
      }[];
    await writer.request('PUT', `/api/GlobalMessage/MarkAllMessagesAsRead/${ext}/${me.id}`, undefined, h);
    const only = { audience: 'clubs', externalClubIds: [ext] };
    const mine = (await writer.post('/api/GlobalMessage', { title: 'Mine', kind: 'Popup', ...only })).json();
    const colleagues = (await operator.post('/api/GlobalMessage', { title: "A colleague's", ...only })).json();
    expect((await unread()).map((m) => m.title)).toEqual(["A colleague's"]);
    const club2 = (
      await writer.request('GET', `/api/Club/GetCurrentWithUserUnreadMessages/${me.id}`, undefined, h)
    ).json();
    expect(club2.messages.map((m: { id: number }) => m.id)).toEqual([colleagues.id]);
    // In the inbox it is read, since it was written.
    const all = (
      await writer.request('GET', `/api/GlobalMessage/GetAllMessagesByUser/${ext}/${me.id}`, undefined, h)
    ).json() as { id: number; status: number; readAt: string | null }[];
    expect(all.find((m) => m.id === mine.id)).toMatchObject({ status: 1, readAt: expect.any(String) });
    expect(all.find((m) => m.id === colleagues.id)).toMatchObject({ status: 0, readAt: null });
    // A club user of that club gets both as unread.
    const admin = await makeUser(ctx, club.id, { isAdmin: true });
    const member = new Api(ctx.app);
    await member.login(admin.username, TEST_PASSWORD, ext);
    const theirs = (await member.get(`/api/GlobalMessage/GetUnreadMessages/${ext}/${admin.id}`)).json() as {
      title: string;
    }[];
    expect(theirs.map((m) => m.title).filter((t) => t === 'Mine' || t === "A colleague's")).toEqual([
      "A colleague's",
      'Mine',
    ]);
    // Mark all read writes no row for the operator's own message.
    await writer.request('PUT', `/api/GlobalMessage/MarkAllMessagesAsRead/${ext}/${me.id}`, undefined, h);
    const rows = await ctx.database.db.select().from(globalMessageReads).where(eq(globalMessageReads.userId, me.id));
    expect(rows.map((r) => r.messageId)).not.toContain(mine.id);
    expect(rows.map((r) => r.messageId)).toContain(colleagues.id);
  });

  it("never lets a user read or mark another user's or another club's messages (403 user, 404 club), changing nothing", async () => {
    const a = await member();
    const b = await member();
    const colleague = await makeUser(ctx, a.club.id, {});
    const forB = await makeGlobalMessage(ctx, {
      title: 'for B',
      audience: 'clubs',
      externalClubIds: [b.club.externalClubId],
    });
    const forA = await makeGlobalMessage(ctx, {
      title: 'for A',
      audience: 'clubs',
      externalClubIds: [a.club.externalClubId],
    });
    const before = await ctx.database.db.select().from(globalMessageReads);
    const ea = a.club.externalClubId;
    const eb = b.club.externalClubId;
    const put = (url: string) => a.api.request('PUT', url);
    const expectCode = async (res: Promise<{ statusCode: number; json(): { code: string } }>, status: number) => {
      const r = await res;
      expect(r.statusCode).toBe(status);
      expect(r.json().code).toBe(status === 404 ? 'NOT_FOUND' : 'NOT_AUTHORIZED');
    };
    for (const userId of [colleague.id, b.user.id]) {
      await expectCode(a.api.get(`/api/GlobalMessage/GetAllMessagesByUser/${ea}/${userId}`), 403);
      await expectCode(a.api.get(`/api/GlobalMessage/GetUnreadMessages/${ea}/${userId}`), 403);
      await expectCode(put(`/api/GlobalMessage/UpdateMessageStatus/${forA.id}/${ea}/${userId}`), 403);
      await expectCode(put(`/api/GlobalMessage/MarkAllMessagesAsRead/${ea}/${userId}`), 403);
      await expectCode(a.api.get(`/api/Club/GetCurrentWithUserUnreadMessages/${userId}`), 403);
    }
    for (const userId of [a.user.id, b.user.id]) {
      await expectCode(a.api.get(`/api/GlobalMessage/GetAllMessagesByUser/${eb}/${userId}`), 404);
      await expectCode(a.api.get(`/api/GlobalMessage/GetUnreadMessages/${eb}/${userId}`), 404);
      await expectCode(put(`/api/GlobalMessage/UpdateMessageStatus/${forB.id}/${eb}/${userId}`), 404);
      await expectCode(put(`/api/GlobalMessage/MarkAllMessagesAsRead/${eb}/${userId}`), 404);
    }
    await expectCode(a.api.get(`/api/GlobalMessage/GetAllMessages/${eb}`), 404);
    // A message not published to the caller's club is not found through the caller's own path either.
    await expectCode(put(`/api/GlobalMessage/UpdateMessageStatus/${forB.id}/${ea}/${a.user.id}`), 404);
    expect(titles(await a.all())).not.toContain('for B');
    expect(await ctx.database.db.select().from(globalMessageReads)).toEqual(before);
    // Malformed path parameters are 400, never 500.
    for (const url of [
      `/api/GlobalMessage/GetAllMessages/abc`,
      `/api/GlobalMessage/GetUnreadMessages/${ea}/0`,
      `/api/GlobalMessage/GetUnreadMessages/${ea}/99999999999`,
    ]) {
      expect((await a.api.get(url)).statusCode, url).toBe(400);
    }
  });

  it('answers 401 without a session and 403 to club users on the operator calls', async () => {
    const anon = new Api(ctx.app);
    expect((await anon.get('/api/GlobalMessage/GetAllMessages/1')).statusCode).toBe(401);
    expect((await anon.request('PUT', '/api/GlobalMessage/MarkAllMessagesAsRead/1/1')).statusCode).toBe(401);
    expect((await anon.get('/api/Club/GetCurrentWithUserUnreadMessages/1')).statusCode).toBe(401);
    expect((await anon.post('/api/GlobalMessage', { title: 'x' })).statusCode).toBe(401);
    const { api } = await signedInAdmin(ctx);
    for (const res of [
      await api.get('/api/GlobalMessage'),
      await api.post('/api/GlobalMessage', { title: 'x' }),
      await api.patch('/api/GlobalMessage/1', { title: 'x' }),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('NOT_AUTHORIZED');
    }
  });

  it('validates the operator’s message: title, kind, audience, a club list, dates in order', async () => {
    const at = (h: number) => new Date(Date.now() + h * 3600_000).toISOString();
    const cases: [object, string][] = [
      [{ title: '' }, 'title'],
      [{ body: 'x' }, 'title'],
      [{ title: 'x', kind: 'Loud' }, 'kind'],
      [{ title: 'x', audience: 'moon' }, 'audience'],
      [{ title: 'x', audience: 'clubs' }, 'externalClubIds'],
      [{ title: 'x', audience: 'clubs', externalClubIds: [0] }, 'externalClubIds'],
      [{ title: 'x', publishAt: '2026-02-30T10:00:00Z' }, 'publishAt'],
      [{ title: 'x', publishAt: at(2), expiresAt: at(1) }, 'expiresAt'],
      [{ title: 'x', clubId: 1 }, 'unknownField'],
    ];
    for (const [body, field] of cases) {
      const res = await operator.post('/api/GlobalMessage', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().code).toBe('VALIDATION_ERROR');
      expect(JSON.stringify(res.json()), JSON.stringify(body)).toContain(field);
    }
    const made = (await operator.post('/api/GlobalMessage', { title: 'later', publishAt: at(1) })).json();
    expect((await operator.patch(`/api/GlobalMessage/${made.id}`, { expiresAt: at(0.5) })).statusCode).toBe(400);
    const changed = await operator.patch(`/api/GlobalMessage/${made.id}`, { title: 'sooner', expiresAt: at(3) });
    expect(changed.json()).toMatchObject({ title: 'sooner', expiresAt: expect.any(String) });
    expect((await operator.get(`/api/GlobalMessage/${made.id}`)).json().title).toBe('sooner');
    expect((await operator.patch('/api/GlobalMessage/2147483647', { title: 'x' })).statusCode).toBe(404);
  });

  it('stores only safe rich text: no scripts, handlers, styles or javascript: links', async () => {
    const dirty =
      '<p dir="rtl" onclick="steal()">שלום <b>bold</b><script>alert(1)</script></p>' +
      '<a href="javascript:alert(1)">x</a><a href="https://example.org">ok</a><img src=x onerror=alert(1)>' +
      '<iframe src="https://evil"></iframe><style>body{}</style><ul><li>one</li></ul>';
    const res = await operator.post('/api/GlobalMessage', { title: 'rich', body: dirty });
    const body: string = res.json().body;
    expect(body).not.toMatch(/script|onclick|onerror|javascript:|<img|<iframe|<style/i);
    expect(body).toContain('<p dir="rtl">שלום <b>bold</b></p>');
    expect(body).toContain('<a href="https://example.org" target="_blank" rel="noopener noreferrer">ok</a>');
    expect(body).toContain('<ul><li>one</li></ul>');
    expect(sanitizeMessageBody('<a href="//evil.example">x</a>')).toBe(
      '<a target="_blank" rel="noopener noreferrer">x</a>',
    );
  });

  it("stores the console editor's markup unchanged and still cleans what is mixed into it", async () => {
    // What MessageEditor.tsx (TipTap) writes: dir on top-level blocks and on chosen ones, headings 2 and 3,
    // marks, lists, a quote, links.
    const edited =
      '<h2 dir="auto">עדכון</h2><h3 dir="rtl">פרטים</h3>' +
      '<p dir="auto">שלום <strong>מודגש</strong> <em>נטוי</em> <u>קו</u> <s>מחוק</s><br>שורה</p>' +
      '<ul dir="auto"><li><p>אחת</p></li><li dir="ltr"><p dir="ltr">two</p></li></ul>' +
      '<ol dir="ltr"><li dir="ltr"><p dir="ltr">one</p></li></ol>' +
      '<blockquote dir="auto"><p>ציטוט</p></blockquote><p dir="auto"></p>' +
      '<p dir="ltr"><a target="_blank" rel="noopener noreferrer" href="https://example.org/a?b=1&amp;c=2">link</a> ' +
      '<a target="_blank" rel="noopener noreferrer" href="mailto:office@example.org">mail</a></p>';
    const made = await operator.post('/api/GlobalMessage', { title: 'edited', body: edited });
    expect(made.statusCode).toBe(200);
    const stored: string = made.json().body;
    // sanitize-html writes the link's attributes in its own order and `<br />`; the rest is byte for byte.
    const norm = (html: string) =>
      html.replace(/<a [^>]*href="([^"]*)"[^>]*>/g, '<a href="$1">').replace(/<br \/>/g, '<br>');
    expect(norm(stored)).toBe(norm(edited));
    expect(stored).toContain('target="_blank"');
    // Read back as the clubs read it, and again after an edit (PATCH sanitises too).
    expect((await operator.get(`/api/GlobalMessage/${made.json().id}`)).json().body).toBe(stored);
    const dirty =
      '<p dir="sideways" style="color:red" onmouseover="x()">a</p><h2 dir="rtl" onclick="x()">b</h2>' +
      '<ul dir="auto" style="x"><li dir="ltr" class="c"><p dir="auto"><a href="javascript:alert(1)" onclick="x()">c</a>' +
      '<a href="JaVaScRiPt:alert(1)">d</a><a href="data:text/html,x">e</a></p></li></ul><script>alert(1)</script>' +
      '<svg onload="x()"></svg><h1 dir="ltr">f</h1><img src="x" onerror="x()">';
    const patched = await operator.patch(`/api/GlobalMessage/${made.json().id}`, { body: dirty });
    expect(patched.statusCode).toBe(200);
    const clean: string = patched.json().body;
    expect(clean).not.toMatch(/script|style=|on\w+=|javascript:|data:|<svg|<img|class=|sideways/i);
    expect(clean).toBe(
      '<p>a</p><h2 dir="rtl">b</h2><ul dir="auto"><li dir="ltr"><p dir="auto">' +
        '<a target="_blank" rel="noopener noreferrer">c</a><a target="_blank" rel="noopener noreferrer">d</a>' +
        '<a target="_blank" rel="noopener noreferrer">e</a></p></li></ul><h1 dir="ltr">f</h1>',
    );
  });

  it('tells the live feed of each club the message reaches, at once', async () => {
    const base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const a = await member();
    const b = await member();
    const sockets: WebSocket[] = [];
    const listen = async (token: string) => {
      const ws = new WebSocket(`${base.replace('http', 'ws')}/api/live`);
      sockets.push(ws);
      const got: LiveMessage[] = [];
      await new Promise<void>((resolve, reject) => {
        ws.on('open', () => ws.send(JSON.stringify({ type: 'auth', token })));
        ws.on('message', (d) => {
          const m = JSON.parse(d.toString()) as LiveMessage;
          got.push(m);
          if (m.type === 'ready') resolve();
        });
        ws.on('error', reject);
      });
      return got;
    };
    try {
      const gotA = await listen(a.api.token!);
      const gotB = await listen(b.api.token!);
      const res = await operator.post('/api/GlobalMessage', {
        title: 'live',
        kind: 'Popup',
        audience: 'clubs',
        externalClubIds: [a.club.externalClubId],
      });
      const id = res.json().id;
      const end = Date.now() + 3000;
      while (!gotA.some((m) => m.type === 'message') && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
      expect(gotA).toContainEqual({ type: 'message', id, kind: 'Popup' });
      expect(gotB.some((m) => m.type === 'message')).toBe(false);
    } finally {
      for (const ws of sockets) ws.close();
    }
  });
});
