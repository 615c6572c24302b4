import type { NotifyConfig } from '../../config.js';

/**
 * E-mail over SMTP with nodemailer (MIT-0), the install's settings (docs/notifications.md "Install
 * settings"): one pooled transport per process, DKIM-signed when DKIM_* are set. nodemailer is loaded
 * at the first e-mail, not at every start (bench/restart.bench.mjs).
 */

/** One e-mail as the worker hands it over. */
export interface EmailMessage {
  /** Display name of the sender (the club's), the address is the install's SMTP_FROM. */
  fromName: string;
  replyTo?: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
  attachments?: { filename: string; content: Buffer; contentType: string }[];
  headers?: Record<string, string>;
}

/** Why an SMTP send failed: `bounce` (the server refused the recipient: 5xx on RCPT), `permanent` (another 5xx), `retry` (4xx, network, timeout). */
export class SendFailure extends Error {
  constructor(
    readonly kind: 'bounce' | 'permanent' | 'retry',
    message: string,
  ) {
    super(message);
  }
}

/** Sends one e-mail; resolves with the SMTP message id, throws SendFailure. */
export type EmailSender = (m: EmailMessage) => Promise<{ messageId: string }>;

type SmtpError = Error & { code?: string; responseCode?: number; response?: string };

/** The category of a nodemailer error (see SendFailure). */
export function classifySmtpError(err: SmtpError): SendFailure {
  const code = err.responseCode ?? 0;
  const text = (err.response ?? err.message).slice(0, 300);
  if (code >= 500 && err.code === 'EENVELOPE') return new SendFailure('bounce', `${code} ${text}`);
  if (code >= 500) return new SendFailure('permanent', `${code} ${text}`);
  return new SendFailure('retry', code ? `${code} ${text}` : `${err.code ?? 'network'}: ${text}`);
}

/** The install's SMTP sender (null without SMTP_HOST: messages are held in the outbox). */
export function smtpSender(n: NotifyConfig): EmailSender | null {
  const smtp = n.smtp;
  if (!smtp) return null;
  let transport: Promise<import('nodemailer').Transporter> | null = null;
  const open = async () => {
    const { default: nodemailer } = await import('nodemailer');
    return nodemailer.createTransport({
      host: smtp.host,
      port: smtp.port,
      secure: smtp.secure,
      auth: smtp.user ? { user: smtp.user, pass: smtp.pass } : undefined,
      pool: true,
      maxConnections: 2,
      connectionTimeout: 15_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
      ...(n.dkim ? { dkim: n.dkim } : {}),
    });
  };
  return async (m) => {
    transport ??= open();
    const t = await transport;
    try {
      const info = await t.sendMail({
        from: { name: m.fromName, address: smtp.from },
        to: m.to,
        replyTo: m.replyTo || undefined,
        subject: m.subject,
        text: m.text,
        html: m.html,
        attachments: m.attachments,
        headers: m.headers,
      });
      if (info.rejected?.length)
        throw Object.assign(new Error('recipient refused'), { code: 'EENVELOPE', responseCode: 550 });
      return { messageId: info.messageId };
    } catch (err) {
      throw err instanceof SendFailure ? err : classifySmtpError(err as SmtpError);
    }
  };
}
