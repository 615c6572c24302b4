import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { Api, createTestApp, makeClub, signedInAdmin, type TestContext } from '../../../test/harness.js';
import * as factory from '../../../test/factories.js';
import { startMemberSession } from '../../lib/member-sessions.js';
import { balanceLedger, debts, memberCheckouts, purchases } from '../../db/schema.js';

/**
 * The member app's routes (issue 37; docs/members.md) on a real database:
 * what a member sees is hers or her children's only (anything else 404), a
 * member token reaches no staff route and a staff token no member route (401),
 * and paying on the sandbox provider's hosted page makes a purchase of the
 * console's path with its tax document.
 */
describe('member app: /api/Member', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => ctx.close());

  /** An Api carrying a member token of a fresh session of `contact` (club and client bound when given). */
  async function memberApi(contact: string, clubId: number | null, clientId: number | null) {
    const ms = await startMemberSession(ctx.database.db, { contact, clubId, clientId, ip: '', ttlSeconds: 3600 });
    const api = new Api(ctx.app);
    api.token = await ctx.app.jwt.sign({ sub: 0, tv: 0, ms });
    return api;
  }

  /** A club with a parent, her child, and another member with her own money and entrances. */
  async function family() {
    const { club, api: staff } = await signedInAdmin(ctx);
    const group = await factory.makeGroupWithSchedule(ctx, club.id, { name: 'Morning swimmers' }, [
      { fromTime: 6 * 60, toTime: 9 * 60 },
    ]);
    const phone = `+97250${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
    const mother = await factory.makeClient(ctx, club.id, {
      firstName: 'Miriam',
      phone,
      groupId: group.id,
      ...factory.SUBSCRIBED,
    });
    const child = await factory.makeClient(ctx, club.id, { firstName: 'Dina', parentId: mother.id, phone });
    const other = await factory.makeClient(ctx, club.id, { firstName: 'Other', phone: '+972501111111' });
    const member = await memberApi(phone, club.id, mother.id);
    return { club, staff, group, phone, mother, child, other, member };
  }

  it('shows the member, her children, her subscription with the week of real hours and her money', async () => {
    const f = await family();
    const debt = await factory.makeDebt(ctx, f.mother, { amount: 2500, description: 'Towels' });
    await factory.makeDebt(ctx, f.other, { amount: 999 });
    const me = await f.member.get('/api/Member/Me');
    expect(me.statusCode, me.body).toBe(200);
    expect(me.json()).toMatchObject({
      club: { clubId: f.club.id },
      member: { id: f.mother.id, firstName: 'Miriam', groupName: 'Morning swimmers', debt: 2500 },
    });
    expect(me.json().children.map((c: { id: number }) => c.id)).toEqual([f.child.id]);

    const sub = (await f.member.get(`/api/Member/Subscription/${f.mother.id}`)).json();
    expect(sub).toMatchObject({ clientId: f.mother.id, groupName: 'Morning swimmers', subscriptionEnd: '2125-01-01' });
    expect(sub.week).toHaveLength(7);
    // The group's one row, 06:00–09:00 every day, is what the week shows.
    for (const day of sub.week) expect(day.windows).toEqual([expect.objectContaining({ from: 360, to: 540 })]);

    const money = (await f.member.get(`/api/Member/Money/${f.mother.id}`)).json();
    expect(money.debts).toEqual([expect.objectContaining({ id: debt.id, open: 2500, description: 'Towels' })]);
    // A child's page is hers to see.
    expect((await f.member.get(`/api/Member/Subscription/${f.child.id}`)).statusCode).toBe(200);
  });

  it("answers 404 for another member's id on every {id} route, and for another member's document", async () => {
    const f = await family();
    const elsewhere = await factory.makeClient(ctx, (await makeClub(ctx)).id, { phone: f.phone });
    const { purchase } = await factory.makePurchase(ctx, f.club.id, {
      clientId: f.other.id,
      lines: [{ itemType: 2, unitPrice: 1000 }],
      payments: [[0, 1000]],
    });
    const doc = await f.staff.get(`/api/Purchase/DocumentPdf/${purchase.id}`);
    expect(doc.statusCode, doc.body).toBe(200);
    const [otherDoc] = (await f.staff.get(`/api/Purchase/Documents/${purchase.id}`)).json();
    for (const id of [f.other.id, elsewhere.id, 999999]) {
      for (const path of ['Subscription', 'Money', 'Entrances', 'Documents']) {
        const res = await f.member.get(`/api/Member/${path}/${id}`);
        expect(res.statusCode, `${path}/${id}`).toBe(404);
      }
      const pay = await f.member.post('/api/Member/Checkout', { clientId: id, kind: 'load', amount: 1000 });
      expect(pay.statusCode).toBe(404);
    }
    expect((await f.member.get(`/api/Member/Document/${otherDoc.id}/Pdf`)).statusCode).toBe(404);
  });

  it('lists her own entrances only, not those of another member or of her child', async () => {
    const f = await family();
    const at = new Date();
    await factory.makeEntrances(ctx, f.club.id, [
      { clientId: f.mother.id, at, status: 1, reason: 0, identificationKind: 'card' },
      { clientId: f.mother.id, at, status: 1, reason: 0, identificationKind: 'card' },
      { clientId: f.other.id, at, status: 1, reason: 0, identificationKind: 'card' },
      { clientId: f.child.id, at, status: 1, reason: 0, identificationKind: 'card', payerClientId: f.mother.id },
    ]);
    const mine = (await f.member.get(`/api/Member/Entrances/${f.mother.id}`)).json();
    expect(mine).toHaveLength(2);
    expect((await f.member.get(`/api/Member/Entrances/${f.child.id}`)).json()).toHaveLength(1);
  });

  it('keeps the kinds apart: a member token is 401 on a staff route, a staff token 401 on a member route', async () => {
    const f = await family();
    expect((await f.member.get('/api/Client')).statusCode).toBe(401);
    expect((await f.member.get('/api/Account/GetCurrent')).statusCode).toBe(401);
    expect((await f.staff.get('/api/Member/Me')).statusCode).toBe(401);
    expect((await f.staff.get(`/api/Member/Money/${f.mother.id}`)).statusCode).toBe(401);
    // Signed out, the member token stops.
    expect((await f.member.post('/api/Member/Logout')).statusCode).toBe(200);
    expect((await f.member.get('/api/Member/Me')).statusCode).toBe(401);
  });

  it('lets a member of several clubs pick the club, and only hers', async () => {
    const f = await family();
    const second = await makeClub(ctx);
    await factory.makeClient(ctx, second.id, { firstName: 'Miriam', phone: f.phone });
    const api = await memberApi(f.phone, null, null);
    expect((await api.get('/api/Member/Me')).statusCode).toBe(404);
    const clubs = (await api.get('/api/Member/Clubs')).json();
    expect(clubs.map((c: { clubId: number }) => c.clubId).sort()).toEqual([f.club.id, second.id].sort());
    expect((await api.post('/api/Member/Club', { clubId: (await makeClub(ctx)).id })).statusCode).toBe(404);
    expect((await api.post('/api/Member/Club', { clubId: second.id })).statusCode).toBe(200);
    expect((await api.get('/api/Member/Me')).json().club.clubId).toBe(second.id);
  });

  it('updates her own phone and e-mail, refusing a bad phone with a field error', async () => {
    const f = await family();
    const bad = await f.member.patch('/api/Member/Contact', { phone: '12' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details).toEqual([expect.objectContaining({ path: 'phone', message: 'invalidPhone' })]);
    const ok = await f.member.patch('/api/Member/Contact', { phone: '052-555-1234', email: 'Miriam@Example.com' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ phone: '+972525551234', email: 'miriam@example.com' });
  });

  it('turns her own notices by e-mail off, which the club’s staff then see; a wrong value changes nothing', async () => {
    const f = await family();
    expect((await f.member.get('/api/Member/NotificationChoices')).json()).toMatchObject({ email: true, sms: true });
    const bad = await f.member.patch('/api/Member/NotificationChoices', { email: 'no' });
    expect(bad.statusCode).toBe(400);
    expect((await f.member.patch('/api/Member/NotificationChoices', { clientId: f.other.id })).statusCode).toBe(400);
    const off = await f.member.patch('/api/Member/NotificationChoices', { email: false });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toMatchObject({ email: false, sms: true });
    // Read back through the staff side (docs/notifications.md "Opting out"): hers, not another client's.
    expect((await f.staff.get(`/api/Notification/Choices/${f.mother.id}`)).json()).toMatchObject({ email: false });
    expect((await f.staff.get(`/api/Notification/Choices/${f.other.id}`)).json()).toMatchObject({ email: true });
  });

  /** Opens the hosted page of a checkout and submits a card on it, as the member's browser does. */
  async function payOnHostedPage(url: string, card: string) {
    const page = await ctx.app.inject({ method: 'GET', url });
    expect(page.statusCode).toBe(200);
    return ctx.app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ number: card, expiry: '12/35', cvv: '123' }).toString(),
    });
  }

  it('pays a debt on the hosted page: one purchase of the console path, the debt closed, a document to download', async () => {
    const f = await family();
    const debt = await factory.makeDebt(ctx, f.mother, { amount: 4500 });
    const start = await f.member.post('/api/Member/Checkout', { clientId: f.mother.id, kind: 'debt', debtId: debt.id });
    expect(start.statusCode, start.body).toBe(200);
    const { code, url, amount } = start.json();
    expect(amount).toBe(4500);
    expect(url).toMatch(/^\/sandbox\/hosted\/pay\?r=/);
    // The page shows the amount; a changed address is not the provider's.
    expect((await ctx.app.inject({ method: 'GET', url })).body).toContain('₪45.00');
    expect((await ctx.app.inject({ method: 'GET', url: url.slice(0, -2) + 'xx' })).statusCode).toBe(404);
    const done = await payOnHostedPage(url, '4242 4242 4242 4242');
    expect(done.statusCode, done.body).toBe(303);
    expect(done.headers.location).toBe(`/m/#/checkout/${code}`);
    const state = (await f.member.get(`/api/Member/Checkout/${code}`)).json();
    expect(state).toMatchObject({ status: 'paid', amount: 4500, reason: null });
    expect(state.documentId).toBeGreaterThan(0);
    const [d] = await ctx.database.db.select().from(debts).where(eq(debts.id, debt.id));
    expect(d.paid).toBe(4500);
    const [p] = await ctx.database.db.select().from(purchases).where(eq(purchases.id, state.purchaseId));
    expect(p).toMatchObject({ clientId: f.mother.id, total: 4500, source: 'member' });
    const pdf = await f.member.get(`/api/Member/Document/${state.documentId}/Pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 4).toString()).toBe('%PDF');
    const docs = (await f.member.get(`/api/Member/Documents/${f.mother.id}`)).json();
    expect(docs).toEqual([expect.objectContaining({ id: state.documentId, total: 4500 })]);
    // A purchase at the desk whose document nobody printed yet is listed with its document too.
    const desk = await f.staff.post('/api/Client/AdminPurchase', {
      clientId: f.mother.id,
      purchaseItems: [{ itemType: 2, unitPrice: 2000 }],
      payments: [{ method: 0, amount: 2000 }],
      idempotencyKey: `member-desk-${f.mother.id}`,
    });
    expect(desk.statusCode, desk.body).toBe(200);
    const both = (await f.member.get(`/api/Member/Documents/${f.mother.id}`)).json();
    expect(both.map((d: { total: number }) => d.total)).toEqual([2000, 4500]);
    expect(both[0].number).toBe(desk.json().invoiceNumber);
    // The provider's callback again (a retry) changes nothing: one purchase.
    const [row] = await ctx.database.db.select().from(memberCheckouts).where(eq(memberCheckouts.code, code));
    expect(row.status).toBe('paid');
    const again = await payOnHostedPage(url, '4242 4242 4242 4242');
    expect(again.statusCode).toBe(303);
    const all = await ctx.database.db.select().from(purchases).where(eq(purchases.clientId, f.mother.id));
    expect(all.filter((x) => x.source === 'member')).toHaveLength(1);
  });

  it('loads the balance of her child, paid by her (ledger row on the child), and fails a declined card', async () => {
    const f = await family();
    const start = (
      await f.member.post('/api/Member/Checkout', { clientId: f.child.id, kind: 'load', amount: 3000 })
    ).json();
    expect((await payOnHostedPage(start.url, '4242424242424242')).statusCode).toBe(303);
    const state = (await f.member.get(`/api/Member/Checkout/${start.code}`)).json();
    expect(state.status).toBe('paid');
    const [p] = await ctx.database.db.select().from(purchases).where(eq(purchases.id, state.purchaseId));
    expect(p.clientId).toBe(f.child.id);
    const ledger = await ctx.database.db.select().from(balanceLedger).where(eq(balanceLedger.clientId, f.child.id));
    expect(ledger.reduce((s, l) => s + l.delta, 0)).toBeGreaterThanOrEqual(3000);
    expect((await f.member.get(`/api/Member/Money/${f.child.id}`)).json().balance).toBe(
      ledger.filter((l) => l.kind === 'money').reduce((s, l) => s + l.delta, 0),
    );

    const declined = (
      await f.member.post('/api/Member/Checkout', { clientId: f.mother.id, kind: 'load', amount: 1000 })
    ).json();
    expect((await payOnHostedPage(declined.url, '4000000000000002')).statusCode).toBe(303);
    const failed = (await f.member.get(`/api/Member/Checkout/${declined.code}`)).json();
    expect(failed).toMatchObject({ status: 'failed', purchaseId: null });
    expect(failed.reason).toBeTruthy();
  });

  it('renews her subscription on the hosted page at the renewal price, moving the end date', async () => {
    const f = await family();
    const bought = await f.staff.post('/api/Client/AdminPurchase', {
      clientId: f.child.id,
      purchaseItems: [{ itemType: 1, unitPrice: 9000, subscription: { period: 'month' } }],
      payments: [{ method: 0, amount: 9000 }],
      idempotencyKey: `member-renew-${f.child.id}`,
    });
    expect(bought.statusCode, bought.body).toBe(200);
    const before = (await f.member.get(`/api/Member/Subscription/${f.child.id}`)).json();
    expect(before.renewPrice).toBeGreaterThan(0);
    const start = await f.member.post('/api/Member/Checkout', { clientId: f.child.id, kind: 'renew' });
    expect(start.statusCode, start.body).toBe(200);
    expect(start.json().amount).toBe(before.renewPrice);
    expect((await payOnHostedPage(start.json().url, '5555555555554444')).statusCode).toBe(303);
    expect((await f.member.get(`/api/Member/Checkout/${start.json().code}`)).json().status).toBe('paid');
    const after = (await f.member.get(`/api/Member/Subscription/${f.child.id}`)).json();
    expect(after.subscriptionEnd > before.subscriptionEnd).toBe(true);
  });

  it('refuses a callback not signed by the provider (401) and a checkout code of another member (404)', async () => {
    const f = await family();
    const start = (
      await f.member.post('/api/Member/Checkout', { clientId: f.mother.id, kind: 'load', amount: 1000 })
    ).json();
    const forged = await ctx.app.inject({
      method: 'POST',
      url: '/api/Member/PaymentCallback',
      payload: { reference: start.code, status: 'approved', token: 'sbx_ok_4242_x', signature: 'ab'.repeat(32) },
    });
    expect(forged.statusCode).toBe(401);
    expect(forged.json().code).toBe('BAD_SIGNATURE');
    const stranger = await memberApi('+972501111111', f.club.id, f.other.id);
    expect((await stranger.get(`/api/Member/Checkout/${start.code}`)).statusCode).toBe(404);
  });
});
