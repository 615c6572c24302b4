import type { NotificationTransport } from '@venue/domain';
import type { NotifyConfig } from '../../config.js';

/**
 * Where messages go on this install (the operator's environment, docs/notifications.md "Install
 * settings"): SMTP or the outbox only, an SMS provider or the outbox only, and whether e-mail is
 * DKIM-signed. Never a password, token or key.
 */
export function transportOf(n: NotifyConfig): NotificationTransport {
  return {
    email: n.smtp ? 'smtp' : 'outbox',
    sms: n.sms ? 'provider' : 'outbox',
    smsProvider: n.sms?.provider ?? null,
    dkim: Boolean(n.smtp && n.dkim),
  };
}
