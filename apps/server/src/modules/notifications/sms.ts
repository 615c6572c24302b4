import { normalizePhone } from '@venue/domain';
import { SendFailure } from './email.js';
import type { NotifyConfig } from '../../config.js';

/**
 * SMS through a provider (docs/notifications.md "SMS providers"). A provider is one function: send
 * a text to a phone number under a sender id, resolve with the provider's id of the message, or
 * throw SendFailure (bounce: the number was refused; permanent: a request the provider will never
 * accept — wrong credentials, a sender it does not know; retry: anything that may pass later).
 */
export interface SmsProvider {
  readonly name: string;
  send(m: { to: string; text: string; sender: string; reference: string }): Promise<{ id: string }>;
}

/**
 * An Israeli mobile number in the local form the providers take (05XXXXXXXX), or null when it is
 * not one: read by the project's one phone rule (`normalizePhone`, libphonenumber-js), then local.
 */
export function israeliMobile(phone: string): string | null {
  const e164 = normalizePhone(phone, 'IL');
  return e164 && /^\+9725\d{8}$/.test(e164) ? `0${e164.slice(4)}` : null;
}

const xmlEscape = (s: string) =>
  s.replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!);

/**
 * InforU (inforu.co.il), its published "SMS Gateway Interface" (the XML-over-HTTP-POST API,
 * versions 4.5–5.0): POST `application/x-www-form-urlencoded` to `SendMessageXml.ashx` with one field
 * `InforuXML` holding
 * `<Inforu><User><Username/><ApiToken/></User><Content Type="sms"><Message/></Content>
 *  <Recipients><PhoneNumber/></Recipients><Settings><Sender/><CustomerMessageId/></Settings></Inforu>`;
 * the answer is `<Result><Status>1</Status><Description/><NumberOfRecipients/></Result>`, Status 1
 * meaning accepted and a negative Status an error named by Description.
 */
export function inforuProvider(cfg: NonNullable<NotifyConfig['sms']>, timeoutMs = 15_000): SmsProvider {
  return {
    name: 'inforu',
    async send({ to, text, sender, reference }) {
      const phone = israeliMobile(to);
      if (!phone) throw new SendFailure('bounce', 'invalidNumber');
      const xml =
        `<Inforu><User><Username>${xmlEscape(cfg.user)}</Username><ApiToken>${xmlEscape(cfg.token)}</ApiToken></User>` +
        `<Content Type="sms"><Message>${xmlEscape(text)}</Message></Content>` +
        `<Recipients><PhoneNumber>${phone}</PhoneNumber></Recipients>` +
        `<Settings><Sender>${xmlEscape(sender)}</Sender><CustomerMessageId>${xmlEscape(reference)}</CustomerMessageId></Settings></Inforu>`;
      let res: Response;
      try {
        res = await fetch(cfg.url, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
          body: new URLSearchParams({ InforuXML: xml }).toString(),
          redirect: 'error',
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (err) {
        throw new SendFailure('retry', `network: ${(err as Error).message}`.slice(0, 300));
      }
      const body = await res.text();
      if (res.status >= 500 || res.status === 429) throw new SendFailure('retry', `http ${res.status}`);
      if (res.status >= 400) throw new SendFailure('permanent', `http ${res.status}`);
      const status = Number(/<Status>\s*(-?\d+)\s*<\/Status>/.exec(body)?.[1] ?? NaN);
      const description = /<Description>([^<]*)<\/Description>/.exec(body)?.[1]?.trim() ?? '';
      const recipients = Number(/<NumberOfRecipients>\s*(\d+)\s*<\/NumberOfRecipients>/.exec(body)?.[1] ?? NaN);
      if (status === 1 && recipients !== 0) return { id: reference };
      if (status === 1) throw new SendFailure('bounce', `inforu: ${description || 'no recipient accepted'}`);
      if (Number.isNaN(status)) throw new SendFailure('retry', 'inforu: unreadable answer');
      throw new SendFailure('retry', `inforu ${status}: ${description}`.slice(0, 300));
    },
  };
}

/** The install's SMS provider (null without SMS_* settings: messages are held in the outbox). */
export function smsProviderOf(n: NotifyConfig): SmsProvider | null {
  return n.sms?.provider === 'inforu' ? inforuProvider(n.sms) : null;
}
