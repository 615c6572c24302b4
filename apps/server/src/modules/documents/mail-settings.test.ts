import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import { simpleParser } from 'mailparser';
import { createTestApp, signedInAdmin, type TestContext } from '../../../test/harness.js';

/**
 * The SMTP settings screen's API (issue 18; docs/money.md "E-mail to the invoice e-mail"): the
 * settings with the club's invoice e-mail, the password write-only, translated validation keys
 * that change nothing, and "send test e-mail" through a local SMTP server.
 */
describe('invoice mail settings and the test e-mail', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => ctx.close());

  it('saves host, port, security, user, write-only password, from and invoice e-mail; sends a test e-mail', async () => {
    const received: { to: string; raw: Buffer }[] = [];
    const server = new SMTPServer({
      authOptional: false,
      allowInsecureAuth: true,
      disabledCommands: ['STARTTLS'],
      onAuth(auth, _s, cb) {
        if (auth.username === 'mailer' && auth.password === 'pa55') cb(null, { user: auth.username });
        else cb(new Error('bad login'));
      },
      onData(stream, session, cb) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          received.push({ to: session.envelope.rcptTo.map((r) => r.address).join(','), raw: Buffer.concat(chunks) });
          cb();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.server.address() as { port: number }).port;
    try {
      const { api } = await signedInAdmin(ctx, { settings: { country: 'Israel' } });
      const empty = (await api.get('/api/Club/InvoiceMailSettings')).json();
      expect(empty).toMatchObject({ host: '', port: 587, secure: false, invoiceEmail: '', passwordSet: false });
      expect((await api.post('/api/Club/InvoiceMailSettings/Test')).json().code).toBe('MAIL_NOT_CONFIGURED');

      // Bad input: each field's translated key, nothing saved.
      for (const [body, path, message] of [
        [{ host: 'smtp example', port: 25 }, 'host', 'invalidHost'],
        [{ host: 'smtp.example.org', port: 70000 }, 'port', 'invalidPort'],
        [{ host: 'smtp.example.org', from: 'nobody' }, 'from', 'invalidEmail'],
        [{ host: 'smtp.example.org', invoiceEmail: 'x@' }, 'invoiceEmail', 'invalidEmail'],
      ] as const) {
        const bad = await api.request('PUT', '/api/Club/InvoiceMailSettings', body);
        expect(bad.statusCode, bad.body).toBe(400);
        expect(bad.json().code).toBe('VALIDATION_ERROR');
        expect(bad.json().details).toContainEqual(expect.objectContaining({ path, message }));
      }
      expect((await api.get('/api/Club/InvoiceMailSettings')).json()).toEqual(empty);

      const saved = await api.request('PUT', '/api/Club/InvoiceMailSettings', {
        host: '127.0.0.1',
        port,
        secure: false,
        user: 'mailer',
        password: 'pa55',
        from: 'club@club.example',
        invoiceEmail: 'office@club.example',
      });
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.body).not.toContain('pa55');
      const read = await api.get('/api/Club/InvoiceMailSettings');
      expect(read.body).not.toContain('pa55');
      expect(read.json()).toMatchObject({
        host: '127.0.0.1',
        port,
        user: 'mailer',
        invoiceEmail: 'office@club.example',
        passwordSet: true,
      });
      // The invoice e-mail is the club setting the documents use.
      expect((await api.get('/api/Club/GetCurrent')).body).toContain('office@club.example');

      const sent = await api.post('/api/Club/InvoiceMailSettings/Test');
      expect(sent.statusCode, sent.body).toBe(200);
      expect(sent.json().to).toBe('office@club.example');
      expect(received).toHaveLength(1);
      const mail = await simpleParser(received[0].raw);
      expect(mail.from?.text).toBe('club@club.example');
      expect(mail.text).toContain('דוא״ל בדיקה');

      // Saving without a password keeps the stored one; a wrong one is the server's refusal (502).
      const again = await api.request('PUT', '/api/Club/InvoiceMailSettings', {
        host: '127.0.0.1',
        port,
        user: 'mailer',
      });
      expect(again.json()).toMatchObject({ passwordSet: true, invoiceEmail: 'office@club.example' });
      expect((await api.post('/api/Club/InvoiceMailSettings/Test')).statusCode).toBe(200);
      await api.request('PUT', '/api/Club/InvoiceMailSettings', {
        host: '127.0.0.1',
        port,
        user: 'mailer',
        password: 'no',
      });
      const refused = await api.post('/api/Club/InvoiceMailSettings/Test');
      expect(refused.statusCode).toBe(502);
      expect(refused.json().code).toBe('MAIL_SEND_FAILED');
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
