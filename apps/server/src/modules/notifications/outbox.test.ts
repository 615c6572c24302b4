import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, createTestApp, makeUser, signedInAdmin, TEST_PASSWORD, type TestContext } from '../../../test/harness.js';
import * as factory from '../../../test/factories.js';
import { listOutbox, queueMessage } from './outbox.js';

/** The outbox (docs/notifications.md "The outbox"): queued rows, read by the club's admins only. */
describe('notification outbox', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => ctx.close());

  it('queues a message and lists it newest first, for its club only', async () => {
    const a = await signedInAdmin(ctx);
    const b = await signedInAdmin(ctx);
    const client = await factory.makeClient(ctx, a.club.id, { firstName: 'Dina', lastName: 'Levi' });
    const db = ctx.database.db;
    const first = await queueMessage(db, {
      clubId: a.club.id,
      clientId: client.id,
      channel: 'sms',
      to: '+972541234567',
      kind: 'member-code',
      text: 'Your code: 123456',
      urgent: true,
    });
    const second = await queueMessage(db, {
      clubId: a.club.id,
      channel: 'email',
      to: 'dina@example.org',
      kind: 'new-debt',
      subject: 'A new debt',
      text: 'You owe 10.00',
    });
    expect(second.id).toBeGreaterThan(first.id);
    const rows = await listOutbox(db, a.club.id);
    expect(rows.map((r) => r.id)).toEqual([second.id, first.id]);
    expect(rows[1]).toMatchObject({
      channel: 'sms',
      kind: 'member-code',
      status: 'queued',
      urgent: true,
      clientName: 'Dina Levi',
      text: 'Your code: 123456',
    });
    expect((await listOutbox(db, a.club.id, { channel: 'sms' })).map((r) => r.id)).toEqual([first.id]);
    expect((await listOutbox(db, a.club.id, { to: '054' })).length).toBe(0);
    expect((await listOutbox(db, a.club.id, { to: '97254' })).map((r) => r.id)).toEqual([first.id]);
    expect(await listOutbox(db, b.club.id)).toEqual([]);

    // Over HTTP: the club's admin reads its own outbox; another club's admin sees none of it.
    const res = await a.api.get('/api/Notification/Outbox?kind=member-code');
    expect(res.statusCode).toBe(200);
    expect(res.json().map((r: { id: number }) => r.id)).toEqual([first.id]);
    expect((await b.api.get('/api/Notification/Outbox')).json()).toEqual([]);
    const transport = await a.api.get('/api/Notification/Transport');
    expect(transport.json()).toEqual({ email: 'outbox', sms: 'outbox', smsProvider: null, dkim: false });
  });

  it('is refused to a user who is not the club admin', async () => {
    const a = await signedInAdmin(ctx);
    const clerk = await makeUser(ctx, a.club.id, { isAdmin: false, permissions: { roleViewClientsList: true } });
    const api = new Api(ctx.app);
    await api.login(clerk.username, TEST_PASSWORD, a.club.externalClubId);
    expect((await api.get('/api/Notification/Outbox')).statusCode).toBe(403);
  });
});
