import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';
import { isoDate, localParts, plusDays } from '@venue/domain';
import { createTestApp, signedInAdmin, type TestContext } from '../../../test/harness.js';
import { SANDBOX_CARDS } from '../../integrations/clearing/sandbox.js';
import { loadNotifyConfig } from '../../config.js';
import { clients } from '../../db/schema.js';
import { documentAttachment } from '../documents/document-attachment.js';
import { deliverDue } from './delivery.js';
import { smtpSender } from './email.js';
import { listOutbox } from './outbox.js';
import { scanNotices } from './scan.js';

const today = () => isoDate(localParts(new Date(), 'Asia/Jerusalem'));

/**
 * Notices hooked into the money code (docs/notifications.md "Notices"): the scan's "renewal coming",
 * the renewal run's "renewed" (with its tax document attached) and "renewal failed", templates
 * edited per club with a preview, and notices turned off per kind.
 */
describe('notices on money events', () => {
  let ctx: TestContext;
  let smtp: SMTPServer;
  const mails: ParsedMail[] = [];
  let send: ReturnType<typeof smtpSender>;
  beforeAll(async () => {
    ctx = await createTestApp();
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, _s, cb) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => void simpleParser(Buffer.concat(chunks)).then((m) => (mails.push(m), cb())));
      },
    });
    await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', r));
    const port = (smtp.server.address() as AddressInfo).port;
    send = smtpSender(
      loadNotifyConfig({ SMTP_HOST: '127.0.0.1', SMTP_PORT: String(port), SMTP_FROM: 'n@venue.test' }, 3000),
    );
  });
  afterAll(async () => {
    await new Promise<void>((r) => smtp.close(() => r()));
    await ctx.close();
  });

  async function member(
    api: Awaited<ReturnType<typeof signedInAdmin>>['api'],
    card: string,
    groupId: number,
    email: string,
  ) {
    const c = (await api.post('/api/Client', { firstName: 'Renew', groupId, phone: '0541234567' })).json();
    await ctx.database.db.update(clients).set({ email }).where(eq(clients.id, c.id));
    const pm = await api.post('/api/CreditCard', {
      kind: 'card',
      clientId: c.id,
      card: { number: card, expiry: '12/39', cvv: '123' },
    });
    expect(pm.statusCode, pm.body).toBe(200);
    const buy = await api.post('/api/Client/AdminPurchase', {
      clientId: c.id,
      purchaseItems: [
        { itemType: 1, unitPrice: 30000, subscription: { period: 'month', start: plusDays(today(), -29) } },
      ],
      payments: [{ method: 0, amount: 30000 }],
      idempotencyKey: `sub-${c.id}`,
    });
    expect(buy.statusCode, buy.body).toBe(200);
    return c as { id: number };
  }

  it('renewal coming, renewed with the document, renewal failed with a pay link', async () => {
    const { api, club } = await signedInAdmin(ctx, { settings: { autoRenewDaysBefore: 5, autoRenewDaysAfter: 2 } });
    const g = (await api.post('/api/Group', { name: 'G', subscriptionEndType: 4 })).json();
    await api.patch('/api/AutoRenew/Settings', { method: 1 });
    const good = await member(api, SANDBOX_CARDS.approve, g.id, 'good@example.org');
    const bad = await member(api, SANDBOX_CARDS.decline, g.id, 'bad@example.org');
    // The club's own English-free wording of "renewal coming" by SMS, previewed first.
    const body = '{{club}}: {{name}}, המנוי עד {{endDate}}. {{payLink}}';
    const preview = await api.post('/api/Notification/Template/Preview', {
      kind: 'renewal-coming',
      lang: 'he',
      channel: 'sms',
      subject: '',
      body,
    });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json().text).toBe(`${club.name}: דינה, המנוי עד 31/12/2026. http://localhost:3000/m`);
    expect(preview.json().smsParts).toBe(1);
    const saved = await api.request('PUT', '/api/Notification/Template', {
      kind: 'renewal-coming',
      lang: 'he',
      channel: 'sms',
      subject: '',
      body,
    });
    expect(saved.json()).toMatchObject({ custom: true, body });

    // The hourly scan: both end within 7 days and have a card.
    await scanNotices(ctx.database.db);
    const coming = await listOutbox(ctx.database.db, club.id, { kind: 'renewal-coming' });
    expect(coming.map((m) => m.channel).sort()).toEqual(['email', 'email', 'sms', 'sms']);
    const sms = coming.find((m) => m.channel === 'sms' && m.clientId === good.id)!;
    expect(sms.text).toMatch(new RegExp(`^${club.name}: Renew, המנוי עד \\d\\d/\\d\\d/\\d{4}\\. http`));
    // A second scan sends nothing again.
    await scanNotices(ctx.database.db);
    expect(await listOutbox(ctx.database.db, club.id, { kind: 'renewal-coming' })).toHaveLength(4);

    const run = (await api.post('/api/AutoRenew/DoAutoRenrenew')).json();
    expect(run).toMatchObject({ renewed: 1, failed: 1 });
    const renewed = await listOutbox(ctx.database.db, club.id, { kind: 'renewed', channel: 'email' });
    expect(renewed).toHaveLength(1);
    expect(renewed[0]).toMatchObject({ clientId: good.id, to: 'good@example.org' });
    expect(renewed[0].documentId).not.toBeNull();
    const failed = await listOutbox(ctx.database.db, club.id, { kind: 'renewal-failed', channel: 'sms' });
    expect(failed).toHaveLength(1);
    expect(failed[0].clientId).toBe(bad.id);
    expect(failed[0].text).toContain('/m');
    expect(failed[0].text).toContain('300.00');

    // Sent over SMTP: "renewed" carries the tax document as a PDF.
    const weekday = new Date('2026-12-01T09:00:00Z');
    for (let i = 0; i < 3; i++)
      await deliverDue(
        ctx.database.db,
        { email: send, sms: null, smsSender: '', publicUrl: 'http://localhost:3000', documentPdf: documentAttachment },
        weekday,
      );
    const mail = mails.find(
      (m) => m.to && JSON.stringify(m.to).includes('good@example.org') && m.subject === `${club.name}: המנוי חודש`,
    );
    expect(mail, 'renewed e-mail').toBeDefined();
    expect(mail!.attachments).toHaveLength(1);
    expect(mail!.attachments[0].contentType).toBe('application/pdf');
    expect(mail!.attachments[0].content.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('queues nothing for a kind the club or the member turned off', async () => {
    const { api, club } = await signedInAdmin(ctx);
    const c = (await api.post('/api/Client', { firstName: 'Off', phone: '0541112222' })).json();
    const settings = (await api.get('/api/Notification/Settings')).json();
    const put = await api.request('PUT', '/api/Notification/Settings', { ...settings, kinds: ['renewed'] });
    expect(put.statusCode, put.body).toBe(200);
    await api.post('/api/Debts', { clientId: c.id, amount: 100, description: 'x' });
    expect(await listOutbox(ctx.database.db, club.id)).toHaveLength(0);
    await api.request('PUT', '/api/Notification/Settings', { ...settings });
    const choice = await api.request('PUT', `/api/Notification/Choices/${c.id}`, {
      email: true,
      sms: true,
      offKinds: ['new-debt'],
      lang: 'en',
    });
    expect(choice.statusCode, choice.body).toBe(200);
    await api.post('/api/Debts', { clientId: c.id, amount: 100, description: 'x' });
    expect(await listOutbox(ctx.database.db, club.id)).toHaveLength(0);
    await api.request('PUT', `/api/Notification/Choices/${c.id}`, { email: true, sms: true, offKinds: [], lang: 'en' });
    await api.post('/api/Debts', { clientId: c.id, amount: 100, description: 'x' });
    const [m] = await listOutbox(ctx.database.db, club.id);
    expect(m).toMatchObject({ kind: 'new-debt', channel: 'sms' });
    expect(m.text).toMatch(/^.+: a debt of ₪1\.00 was registered\. Pay here: http/);
  });
});
