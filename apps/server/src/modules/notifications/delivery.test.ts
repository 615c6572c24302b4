import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';
import { JERUSALEM, localToInstant, parseIsoDate } from '@venue/domain';
import { createTestApp, signedInAdmin, type TestContext } from '../../../test/harness.js';
import * as factory from '../../../test/factories.js';
import { loadNotifyConfig } from '../../config.js';
import { backoffMs, deliverDue, MAX_ATTEMPTS, type Transports } from './delivery.js';
import { smtpSender } from './email.js';
import { listOutbox, queueMessage } from './outbox.js';
import { getNotificationChoices } from './settings.js';
import { inforuProvider } from './sms.js';

/** A wall-clock moment in Jerusalem. */
const jerusalem = (date: string, hhmm: string) => {
  const [h, m] = hhmm.split(':').map(Number);
  return localToInstant(parseIsoDate(date), h * 3600 + m * 60, JERUSALEM.timeZone);
};

/**
 * The delivery worker with real parts (docs/notifications.md): an SMTP server started here receives
 * each e-mail and mailparser reads it; a local HTTP server answers as InforU's SendMessageXml.ashx.
 */
describe('notification delivery', () => {
  let ctx: TestContext;
  let smtp: SMTPServer;
  let smtpPort = 0;
  const mails: { rcpt: string; mail: ParsedMail }[] = [];
  /** SMTP recipients the test server refuses (550). */
  const refuse = new Set<string>();
  let inforu: Server;
  let inforuUrl = '';
  const smsRequests: string[] = [];
  /** InforU answers, in turn (then Status 1). */
  const smsAnswers: { http?: number; status?: number; description?: string }[] = [];
  let transports: Transports;

  const savedUrl = process.env.PUBLIC_URL;
  beforeAll(async () => {
    // Links in notices are made when they are queued, from the install's PUBLIC_URL.
    process.env.PUBLIC_URL = 'https://venue.example';
    ctx = await createTestApp();
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onRcptTo(address, _s, cb) {
        if (refuse.has(address.address)) {
          const err = Object.assign(new Error('no such user'), { responseCode: 550 });
          cb(err);
        } else cb();
      },
      onData(stream, session, cb) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          void simpleParser(Buffer.concat(chunks)).then((mail) => {
            mails.push({ rcpt: session.envelope.rcptTo.map((r) => r.address).join(','), mail });
            cb();
          });
        });
      },
    });
    await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', r));
    smtpPort = (smtp.server.address() as AddressInfo).port;
    inforu = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        smsRequests.push(new URLSearchParams(body).get('InforuXML') ?? '');
        const a = smsAnswers.shift() ?? {};
        res.statusCode = a.http ?? 200;
        res.setHeader('content-type', 'text/xml');
        res.end(
          `<Result><Status>${a.status ?? 1}</Status><Description>${a.description ?? 'Message accepted successfully'}</Description><NumberOfRecipients>${(a.status ?? 1) === 1 ? 1 : 0}</NumberOfRecipients></Result>`,
        );
      });
    });
    await new Promise<void>((r) => inforu.listen(0, '127.0.0.1', r));
    inforuUrl = `http://127.0.0.1:${(inforu.address() as AddressInfo).port}/SendMessageXml.ashx`;
    const notify = loadNotifyConfig(
      {
        SMTP_HOST: '127.0.0.1',
        SMTP_PORT: String(smtpPort),
        SMTP_FROM: 'notices@venue.test',
        SMS_PROVIDER: 'inforu',
        SMS_API_URL: inforuUrl,
        SMS_USER: 'club-user',
        SMS_TOKEN: 'token-123',
        SMS_SENDER: 'Venue',
        PUBLIC_URL: 'https://venue.example',
      },
      3000,
    );
    transports = {
      email: smtpSender(notify),
      sms: inforuProvider(notify.sms!),
      smsSender: 'Venue',
      publicUrl: notify.publicUrl,
    };
  });
  afterAll(async () => {
    if (savedUrl === undefined) delete process.env.PUBLIC_URL;
    else process.env.PUBLIC_URL = savedUrl;
    await new Promise<void>((r) => smtp.close(() => r()));
    inforu.close();
    await ctx.close();
  });

  it('defers a notice due on Shabbat to after havdalah, and sends it then over SMTP (fixed clock)', async () => {
    const { club, api } = await signedInAdmin(ctx);
    const client = await factory.makeClient(ctx, club.id, { firstName: 'Dina', email: 'dina@example.org', phone: '' });
    // A debt registered at the desk queues "new debt" (debts.service createDebt).
    const res = await api.post('/api/Debts', { clientId: client.id, amount: 12_50, description: 'Towel' });
    expect(res.statusCode).toBe(200);
    const [queued] = await listOutbox(ctx.database.db, club.id, { kind: 'new-debt' });
    expect(queued).toMatchObject({ channel: 'email', to: 'dina@example.org', status: 'queued' });
    expect(queued.text).toContain('12.50');

    // Friday 4 December 2026, 16:30 in Jerusalem: after candle lighting (15:57).
    const friday = jerusalem('2026-12-04', '16:30');
    await deliverDue(ctx.database.db, transports, friday);
    let [m] = await listOutbox(ctx.database.db, club.id, { kind: 'new-debt' });
    expect(m.status).toBe('queued');
    expect(m.deferredReason).toBe('shabbat');
    const havdalah = new Date(m.nextAttemptAt!);
    expect(havdalah > jerusalem('2026-12-05', '17:00')).toBe(true);
    expect(havdalah < jerusalem('2026-12-05', '17:30')).toBe(true);
    expect(mails.filter((x) => x.rcpt === 'dina@example.org')).toHaveLength(0);

    // Saturday noon: not due, nothing sent.
    await deliverDue(ctx.database.db, transports, jerusalem('2026-12-05', '12:00'));
    expect(mails.filter((x) => x.rcpt === 'dina@example.org')).toHaveLength(0);

    // After havdalah it goes out, from the club's name, with the unsubscribe link.
    await deliverDue(ctx.database.db, transports, new Date(havdalah.getTime() + 60_000));
    [m] = await listOutbox(ctx.database.db, club.id, { kind: 'new-debt' });
    expect(m.status).toBe('sent');
    expect(m.attempts).toBe(1);
    const got = mails.filter((x) => x.rcpt === 'dina@example.org');
    expect(got).toHaveLength(1);
    const mail = got[0].mail;
    expect(mail.from?.value[0]).toMatchObject({ name: club.name, address: 'notices@venue.test' });
    expect(mail.subject).toBe(`${club.name}: חוב חדש`);
    expect(mail.text).toContain('https://venue.example/m');
    const line = mail.headerLines.find((h) => h.key === 'list-unsubscribe')?.line ?? '';
    const unsubscribe = line.replace(/^List-Unsubscribe:\s*/i, '').trim();
    expect(unsubscribe).toMatch(/^<https:\/\/venue\.example\/unsubscribe\/\d+\.\d+\.email\.[\w-]{43}>$/);
    expect(mail.html).toContain('dir="rtl"');

    // The link's page changes nothing; its button (POST) turns e-mail off, and the next notice is not queued.
    const path = unsubscribe.slice('<https://venue.example'.length, -1);
    const page = await ctx.app.inject({ method: 'GET', url: path });
    expect(page.statusCode).toBe(200);
    expect((await getNotificationChoices(ctx.database.db, club.id, client.id)).email).toBe(true);
    const done = await ctx.app.inject({ method: 'POST', url: path });
    expect(done.statusCode).toBe(200);
    expect((await getNotificationChoices(ctx.database.db, club.id, client.id)).email).toBe(false);
    const forged = await ctx.app.inject({ method: 'POST', url: path.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')) });
    expect(forged.statusCode).toBe(404);
    await api.post('/api/Debts', { clientId: client.id, amount: 500, description: 'Soap' });
    expect(await listOutbox(ctx.database.db, club.id, { kind: 'new-debt' })).toHaveLength(1);
  });

  it('sends a sign-in code at once even on Shabbat, and holds messages without a transport', async () => {
    const { club } = await signedInAdmin(ctx);
    const friday = jerusalem('2026-12-04', '20:00');
    const code = await queueMessage(ctx.database.db, {
      clubId: club.id,
      channel: 'email',
      to: 'member@example.org',
      kind: 'member-code',
      subject: 'Code',
      text: 'Your code: 482913',
      urgent: true,
    });
    await deliverDue(ctx.database.db, transports, friday);
    const [sent] = await listOutbox(ctx.database.db, club.id, { kind: 'member-code' });
    expect(sent).toMatchObject({ id: code.id, status: 'sent', deferredReason: null });
    expect(mails.some((x) => x.rcpt === 'member@example.org' && x.mail.text?.includes('482913'))).toBe(true);

    await queueMessage(ctx.database.db, {
      clubId: club.id,
      channel: 'sms',
      to: '0541234567',
      kind: 'member-code',
      text: '1',
      urgent: true,
    });
    await deliverDue(ctx.database.db, { ...transports, sms: null, email: null }, friday);
    const [held] = await listOutbox(ctx.database.db, club.id, { channel: 'sms' });
    expect(held).toMatchObject({ status: 'held', lastError: 'notConfigured' });
  });

  it('bounces an address the SMTP server refuses', async () => {
    const { club } = await signedInAdmin(ctx);
    refuse.add('gone@example.org');
    await queueMessage(ctx.database.db, {
      clubId: club.id,
      channel: 'email',
      to: 'gone@example.org',
      kind: 'member-code',
      subject: 's',
      text: 't',
      urgent: true,
    });
    await deliverDue(ctx.database.db, transports, new Date());
    const [m] = await listOutbox(ctx.database.db, club.id);
    expect(m.status).toBe('bounced');
    expect(m.lastError).toMatch(/^550/);
  });

  it('sends SMS through the InforU adapter, retries with back-off, and gives up after the last attempt', async () => {
    const { club } = await signedInAdmin(ctx);
    // Tuesday 1 December 2026, 11:00: no Shabbat, no quiet hours.
    let now = jerusalem('2026-12-01', '11:00');
    const { id } = await queueMessage(ctx.database.db, {
      clubId: club.id,
      channel: 'sms',
      to: '+972 54-123-4567',
      kind: 'member-code',
      text: 'הקוד שלך: 123456 <&>',
      urgent: true,
    });
    smsRequests.length = 0;
    await deliverDue(ctx.database.db, transports, now);
    let [m] = await listOutbox(ctx.database.db, club.id);
    expect(m).toMatchObject({ id, status: 'sent', attempts: 1 });
    expect(smsRequests).toHaveLength(1);
    const xml = smsRequests[0];
    expect(xml).toContain('<Username>club-user</Username><ApiToken>token-123</ApiToken>');
    expect(xml).toContain('<PhoneNumber>0541234567</PhoneNumber>');
    expect(xml).toContain('<Message>הקוד שלך: 123456 &lt;&amp;&gt;</Message>');
    expect(xml).toContain('<Sender>Venue</Sender>');

    // A provider error, then HTTP 503: retried after 1 and 2 minutes; then refused until the last attempt.
    await queueMessage(ctx.database.db, {
      clubId: club.id,
      channel: 'sms',
      to: '0529876543',
      kind: 'member-code',
      text: 'x',
      urgent: true,
    });
    smsAnswers.push({ status: -13, description: 'User quota exceeded' }, { http: 503 });
    await deliverDue(ctx.database.db, transports, now);
    [m] = await listOutbox(ctx.database.db, club.id);
    expect(m).toMatchObject({ status: 'queued', attempts: 1, lastError: 'inforu -13: User quota exceeded' });
    expect(new Date(m.nextAttemptAt!).getTime() - now.getTime()).toBe(backoffMs(1));
    now = new Date(now.getTime() + backoffMs(1));
    await deliverDue(ctx.database.db, transports, now);
    [m] = await listOutbox(ctx.database.db, club.id);
    expect(m).toMatchObject({ status: 'queued', attempts: 2, lastError: 'http 503' });
    expect(backoffMs(2)).toBe(2 * backoffMs(1));
    for (let i = 2; i < MAX_ATTEMPTS; i++) {
      smsAnswers.push({ status: -1, description: 'Failed' });
      now = new Date(now.getTime() + backoffMs(i));
      await deliverDue(ctx.database.db, transports, now);
    }
    [m] = await listOutbox(ctx.database.db, club.id);
    expect(m).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS });

    // A number that is not an Israeli mobile is bounced without calling the provider.
    const before = smsRequests.length;
    await queueMessage(ctx.database.db, {
      clubId: club.id,
      channel: 'sms',
      to: '03-1234567',
      kind: 'member-code',
      text: 'x',
      urgent: true,
    });
    await deliverDue(ctx.database.db, transports, now);
    [m] = await listOutbox(ctx.database.db, club.id);
    expect(m).toMatchObject({ status: 'bounced', lastError: 'invalidNumber' });
    expect(smsRequests.length).toBe(before);
  });
});
