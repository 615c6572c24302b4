import { z } from 'zod';
import { int32, idParam, money, text } from '../parts.js';

/**
 * Notices to members by e-mail and SMS and the outbox they go through
 * (issue 37, docs/notifications.md). Times of day are minutes after midnight
 * in the club's time zone; money in agorot.
 */

/** The two channels a message goes out on. */
export const NOTICE_CHANNELS = ['email', 'sms'] as const;
export type NoticeChannel = (typeof NOTICE_CHANNELS)[number];

/** The notices the server sends on money events (docs/notifications.md "Notices"). */
export const NOTICE_KINDS = [
  'renewal-coming',
  'renewed',
  'renewal-failed',
  'masav-rejected',
  'new-debt',
  'low-balance',
  'subscription-ending',
] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];

/** Every kind of message in the outbox: the notices and the member app's sign-in code. */
export const MESSAGE_KINDS = [...NOTICE_KINDS, 'member-code'] as const;

/**
 * States of an outbox message: queued (waiting, also between retries and while deferred),
 * sent, failed (retries used up or refused for good), bounced (the address was refused),
 * held (no transport configured: kept for the console only), skipped (the client opted out).
 */
export const OUTBOX_STATUSES = ['queued', 'sent', 'failed', 'bounced', 'held', 'skipped'] as const;
export type OutboxStatus = (typeof OUTBOX_STATUSES)[number];

/** Why a message waits past its time: Shabbat, a yom tov, or the club's quiet hours. */
export const DEFER_REASONS = ['shabbat', 'holiday', 'quiet'] as const;

/** GET /api/Notification/Outbox query: filters, newest first, up to `limit` rows. */
export const OutboxQuery = z.object({
  status: z.enum(OUTBOX_STATUSES).optional(),
  channel: z.enum(NOTICE_CHANNELS).optional(),
  kind: z.enum(MESSAGE_KINDS).optional(),
  clientId: idParam.optional(),
  /** Address contains (e-mail or phone). */
  to: text(100).trim().optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
export type OutboxQuery = z.infer<typeof OutboxQuery>;

/** One message of the outbox with its delivery state (the delivery log). */
export const OutboxMessage = z.object({
  id: int32,
  clientId: int32.nullable(),
  clientName: z.string().nullable(),
  channel: z.enum(NOTICE_CHANNELS),
  to: z.string(),
  kind: z.string(),
  subject: z.string(),
  text: z.string(),
  urgent: z.boolean(),
  status: z.enum(OUTBOX_STATUSES),
  attempts: int32,
  /** The earliest next send of a queued message (after a deferral or a back-off); null otherwise. */
  nextAttemptAt: z.string().nullable(),
  deferredReason: z.enum(DEFER_REASONS).nullable(),
  /** The last failure's category (smtp, network, provider, bounce, notConfigured, noAddress) and detail. */
  lastError: z.string().nullable(),
  documentId: int32.nullable(),
  sentAt: z.string().nullable(),
  createdAt: z.string(),
});
export type OutboxMessage = z.infer<typeof OutboxMessage>;

/** A client's notification choices: channels on or off, notice kinds turned off, language. */
export const NotificationChoices = z.object({
  email: z.boolean().default(true),
  sms: z.boolean().default(true),
  offKinds: z.array(z.enum(NOTICE_KINDS)).max(NOTICE_KINDS.length).default([]),
  lang: z.enum(['he', 'en']).default('he'),
});
export type NotificationChoices = z.infer<typeof NotificationChoices>;

const minuteOfDay = z.number().int().min(0).max(1439, { message: 'outOfRange' });

/** A club's notice settings (docs/notifications.md "Settings"); defaults apply to what was never saved. */
export const NotificationSettings = z.object({
  /** Notices on money events are queued at all (the member-code messages always are). */
  enabled: z.boolean().default(true),
  /** The e-mail sender's display name; '' = the club's name. */
  senderName: text(100).trim().default(''),
  /** Reply-To of the club's e-mails; '' = none. */
  replyTo: z.union([z.literal(''), z.string().trim().email({ message: 'invalidEmail' }).max(200)]).default(''),
  /** The SMS sender id shown on the phone (11 Latin letters or digits; '' = the install's). */
  smsSender: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9 ]{0,11}$/, { message: 'invalidSmsSender' })
    .default(''),
  /** Quiet hours: no message from `quietFrom` to `quietTo` (minutes; may cross midnight; equal = none). */
  quietFrom: minuteOfDay.default(22 * 60),
  quietTo: minuteOfDay.default(8 * 60),
  /** Days before a subscription's end that "renewal coming" / "subscription ending" is sent. */
  renewalDaysBefore: z.number().int().min(1).max(60, { message: 'outOfRange' }).default(7),
  /** The money balance (agorot) under which "low balance" is sent once. */
  lowBalanceThreshold: money.default(2000),
  /** The notices the club sends; the others are never queued. */
  kinds: z
    .array(z.enum(NOTICE_KINDS))
    .max(NOTICE_KINDS.length)
    .default([...NOTICE_KINDS]),
});
export type NotificationSettings = z.infer<typeof NotificationSettings>;

/** Params of a template: its kind, language and channel. */
export const TemplateParams = z.object({
  kind: z.enum(NOTICE_KINDS),
  lang: z.enum(['he', 'en']),
  channel: z.enum(NOTICE_CHANNELS),
});
export type TemplateParams = z.infer<typeof TemplateParams>;

/** A club's wording of one notice: `{{name}}`-style fields (docs/notifications.md "Templates"). */
export const NoticeTemplateInput = z.object({
  subject: text(200).trim().default(''),
  body: text(4000).trim().min(1, { message: 'required' }),
});
export type NoticeTemplateInput = z.infer<typeof NoticeTemplateInput>;

/** A template as the console shows it: the club's own, or the built-in default (`custom` false). */
export const NoticeTemplate = TemplateParams.extend({
  subject: z.string(),
  body: z.string(),
  custom: z.boolean(),
  /** The fields the body may name. */
  fields: z.array(z.string()),
});
export type NoticeTemplate = z.infer<typeof NoticeTemplate>;

/** POST /api/Notification/Template/Preview: a wording filled with sample values (not saved). */
export const TemplatePreviewInput = TemplateParams.extend(NoticeTemplateInput.shape);
export type TemplatePreviewInput = z.infer<typeof TemplatePreviewInput>;

/** What a preview shows: the filled subject and text, and the SMS length in parts. */
export const TemplatePreview = z.object({
  subject: z.string(),
  text: z.string(),
  html: z.string().nullable(),
  smsParts: int32,
});
export type TemplatePreview = z.infer<typeof TemplatePreview>;

/** Where outgoing messages go on this install (operator's env/config): shown in the console. */
export const NotificationTransport = z.object({
  email: z.enum(['smtp', 'outbox']),
  sms: z.enum(['provider', 'outbox']),
  smsProvider: z.string().nullable(),
  dkim: z.boolean(),
});
export type NotificationTransport = z.infer<typeof NotificationTransport>;
