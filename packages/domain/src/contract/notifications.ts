import { z } from 'zod';
import { NotificationTransport, OutboxMessage, OutboxQuery } from '../schemas/notifications.js';
import { routes } from './route.js';

/** The club's admins (and the operator acting on a club): the notifications screen's rule. */
const open = { nav: 'notifications' } as const;

/** Notices to members and the outbox (issue 37, docs/notifications.md). */
export const notifications = routes(['notifications'], {
  /** The club's outbox and delivery log, newest first: every e-mail and SMS queued, with its state. */
  outbox: {
    method: 'GET',
    path: '/api/Notification/Outbox',
    query: OutboxQuery,
    response: z.array(OutboxMessage),
    access: open,
  },
  /** Where messages go on this install: SMTP or the outbox, an SMS provider or the outbox. */
  transport: { method: 'GET', path: '/api/Notification/Transport', response: NotificationTransport, access: open },
});
