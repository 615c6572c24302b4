import { z } from 'zod';
import {
  NoticeTemplate,
  NotificationChoices,
  NotificationSettings,
  NotificationTransport,
  OutboxMessage,
  OutboxQuery,
  TemplateParams,
  TemplatePreview,
  TemplatePreviewInput,
} from '../schemas/notifications.js';
import { IdParams, routes } from './route.js';

/** The club's admins (and the operator acting on a club): the notifications screen's rule. */
const open = { nav: 'notifications' } as const;
/** Changing what the club sends also needs the settings edit flag. */
const edit = { nav: 'notifications', edit: 'settings' } as const;
/** A client's choices: whoever may edit clients. */
const clientChoices = { edit: 'clients' } as const;

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
  /** The club's notice settings (sender name, quiet hours, days before renewal, low-balance threshold, kinds). */
  getSettings: {
    method: 'GET',
    path: '/api/Notification/Settings',
    response: NotificationSettings,
    access: open,
  },
  saveSettings: {
    method: 'PUT',
    path: '/api/Notification/Settings',
    body: NotificationSettings,
    response: NotificationSettings,
    access: edit,
  },
  /** Every notice's wording (the club's own or the built-in), by kind, language and channel. */
  templates: { method: 'GET', path: '/api/Notification/Template', response: z.array(NoticeTemplate), access: open },
  /** The club's own wording of one notice (kind, language and channel in the body). */
  saveTemplate: {
    method: 'PUT',
    path: '/api/Notification/Template',
    body: TemplatePreviewInput,
    response: NoticeTemplate,
    access: edit,
  },
  /** Back to the built-in wording. */
  resetTemplate: {
    method: 'POST',
    path: '/api/Notification/Template/Reset',
    body: TemplateParams,
    response: NoticeTemplate,
    access: edit,
  },
  /** A wording filled with sample values and the club's name; nothing is saved. */
  preview: {
    method: 'POST',
    path: '/api/Notification/Template/Preview',
    body: TemplatePreviewInput,
    response: TemplatePreview,
    access: open,
  },
  /** A client's notification choices (the member app edits its own; staff who edit clients too). */
  getChoices: {
    method: 'GET',
    path: '/api/Notification/Choices/:id',
    params: IdParams,
    response: NotificationChoices,
    access: clientChoices,
  },
  setChoices: {
    method: 'PUT',
    path: '/api/Notification/Choices/:id',
    params: IdParams,
    body: NotificationChoices,
    response: NotificationChoices,
    access: clientChoices,
  },
});
