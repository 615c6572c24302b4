import { z } from 'zod';
import { eventId, id, idParam, int32, requiredId, text } from '../parts.js';
import { KALA_CLUB_FROM, USA_CLUB_FROM } from '../enums.js';
import { TERMINAL_MESSAGE_TYPES } from '../gate.js';

/**
 * Messages and incidents (docs/messages.md): feedback categories of a club
 * (seed 001 §3 "Feedback category", seed 000 §7 /FeedbackCategory) and the
 * operator's global messages with their per-user read status (seed 000 §3,
 * §4, §7 /GlobalMessage).
 */

// ---------------------------------------------------------------- enumerations (seed 000 §3)

/** Terminal mode, the type of a feedback category (seed 000 §3): what an incident is about. */
export const TERMINAL_MODES = ['Maintenance', 'Experience'] as const;
export type TerminalMode = (typeof TERMINAL_MODES)[number];

/** Message read status (seed 000 §3): Unreaded 0, Readed 1 (the seed's spelling). */
export const MessageReadStatus = { Unreaded: 0, Readed: 1 } as const;
export type MessageReadStatus = (typeof MessageReadStatus)[keyof typeof MessageReadStatus];

/** Message popup kinds (seed 000 §3): the same three as terminal messages. */
export const GLOBAL_MESSAGE_KINDS = TERMINAL_MESSAGE_TYPES;
export type GlobalMessageKind = (typeof GLOBAL_MESSAGE_KINDS)[number];

// ---------------------------------------------------------------- feedback categories

/** An id of the external reporting system (its category, severity, location): a positive 32-bit integer. */
const reportingId = id;

const categoryFields = {
  name: text(100).trim().min(1, { message: 'required' }),
  type: z.enum(TERMINAL_MODES, { message: 'required' }),
  reportingSystemCategoryId: reportingId,
  defaultSeverityId: reportingId,
  reportingSystemLocationId: reportingId.nullable().default(null),
};

/**
 * The club's id the seed's console adds to a category's body (seed 000 §7
 * "GET and POST /FeedbackCategory (clubId is added to the payload)"):
 * accepted when well formed (a positive 32-bit integer, else 400 like any
 * field), never trusted — the club is always the session's, and the service
 * drops it before anything is stored or audited (docs/messages.md).
 */
const bodyClubId = id.optional();

/**
 * POST /api/FeedbackCategory. Required (seed 001 §5): name, type, reporting
 * system category id and default severity id; the location id is optional.
 * `clubId` is accepted and ignored (see `bodyClubId`).
 */
export const FeedbackCategoryInput = z.strictObject({ ...categoryFields, clubId: bodyClubId });
export type FeedbackCategoryInput = z.infer<typeof FeedbackCategoryInput>;

/** PATCH /api/FeedbackCategory/{id}: any subset of the fields; left-out fields stay as stored. */
export const FeedbackCategoryPatch = z
  .strictObject({
    name: categoryFields.name,
    type: categoryFields.type,
    reportingSystemCategoryId: categoryFields.reportingSystemCategoryId,
    defaultSeverityId: categoryFields.defaultSeverityId,
    reportingSystemLocationId: reportingId.nullable(),
    clubId: bodyClubId,
  })
  .partial();
export type FeedbackCategoryPatch = z.infer<typeof FeedbackCategoryPatch>;

/** A feedback category as the API answers it. */
export const FeedbackCategory = z.object({
  id: int32,
  clubId: int32,
  name: z.string(),
  type: z.enum(TERMINAL_MODES),
  reportingSystemCategoryId: int32,
  defaultSeverityId: int32,
  reportingSystemLocationId: int32.nullable(),
  updatedAt: z.string(),
});
export type FeedbackCategory = z.infer<typeof FeedbackCategory>;

// ---------------------------------------------------------------- global messages

/**
 * Who a global message is for: every club, a class of clubs by external id
 * (regular below 4000, USA 4000–6999, kala 7000 and above; seed 000 §9) or
 * the clubs listed in `externalClubIds`.
 */
export const MESSAGE_AUDIENCES = ['all', 'regular', 'usa', 'kala', 'clubs'] as const;
export type MessageAudience = (typeof MESSAGE_AUDIENCES)[number];

/** Whether a message for `audience` (and `externalClubIds` when it is 'clubs') reaches the club `externalClubId`. */
export function audienceIncludes(
  m: { audience: MessageAudience; externalClubIds: readonly number[] },
  externalClubId: number,
): boolean {
  switch (m.audience) {
    case 'all':
      return true;
    case 'regular':
      return externalClubId < USA_CLUB_FROM;
    case 'usa':
      return externalClubId >= USA_CLUB_FROM && externalClubId < KALA_CLUB_FROM;
    case 'kala':
      return externalClubId >= KALA_CLUB_FROM;
    case 'clubs':
      return m.externalClubIds.includes(externalClubId);
  }
}

/** An instant (ISO 8601 with a time zone, e.g. `2026-11-26T08:00:00Z`). */
const instant = z.iso.datetime({ offset: true, message: 'invalidDate' });

const messageFields = {
  title: text(200).trim().min(1, { message: 'required' }),
  /** Rich text (HTML); the server keeps only safe tags and attributes (docs/messages.md "Sanitising"). */
  body: text(20_000).default(''),
  kind: z.enum(GLOBAL_MESSAGE_KINDS).default('Basic'),
  audience: z.enum(MESSAGE_AUDIENCES).default('all'),
  /** External club ids, for audience 'clubs' (at least one then; ignored otherwise). */
  externalClubIds: z.array(id).max(1000, { message: 'tooLong' }).default([]),
  /** From when clubs see it; null: at once. */
  publishAt: instant.nullable().default(null),
  /** Until when clubs see it (exclusive); null: no expiry. Must be after `publishAt`. */
  expiresAt: instant.nullable().default(null),
};

/** POST /api/GlobalMessage (operator only). Audience 'clubs' needs a club; an expiry at or before publication is 400. */
export const GlobalMessageInput = z.strictObject(messageFields);
export type GlobalMessageInput = z.infer<typeof GlobalMessageInput>;

/** PATCH /api/GlobalMessage/{id} (operator only): any subset of the fields. */
export const GlobalMessagePatch = z
  .strictObject({
    title: messageFields.title,
    body: text(20_000),
    kind: z.enum(GLOBAL_MESSAGE_KINDS),
    audience: z.enum(MESSAGE_AUDIENCES),
    externalClubIds: z.array(id).max(1000, { message: 'tooLong' }),
    publishAt: instant.nullable(),
    expiresAt: instant.nullable(),
  })
  .partial();
export type GlobalMessagePatch = z.infer<typeof GlobalMessagePatch>;

/** A global message as the operator sees it (GET/POST/PATCH /api/GlobalMessage). */
export const GlobalMessageRecord = z.object({
  id: int32,
  title: z.string(),
  body: z.string(),
  kind: z.enum(GLOBAL_MESSAGE_KINDS),
  audience: z.enum(MESSAGE_AUDIENCES),
  externalClubIds: z.array(int32),
  publishAt: z.string(),
  expiresAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type GlobalMessageRecord = z.infer<typeof GlobalMessageRecord>;

/** A message as a club's user sees it; `status` is the user's read status (absent in GetAllMessages). */
export const ClubMessage = z.object({
  id: int32,
  title: z.string(),
  body: z.string(),
  kind: z.enum(GLOBAL_MESSAGE_KINDS),
  publishAt: z.string(),
  expiresAt: z.string().nullable(),
  status: z.union([z.literal(MessageReadStatus.Unreaded), z.literal(MessageReadStatus.Readed)]).optional(),
  readAt: z.string().nullable().optional(),
});
export type ClubMessage = z.infer<typeof ClubMessage>;

/** Path `{externalClubId}`: the caller's own club (another club's id answers 404). */
export const ClubMessagesParams = z.object({ externalClubId: idParam });
/** Path `{externalClubId}/{userId}`: the caller's own club and own user id (another user's id answers 403). */
export const UserMessagesParams = z.object({
  externalClubId: idParam,
  userId: idParam,
});
/** Path `{messageId}/{externalClubId}/{userId}`. */
export const MessageStatusParams = UserMessagesParams.extend({ messageId: idParam });
/** Path `{userId}` of GET /Club/GetCurrentWithUserUnreadMessages. */
export const UserIdParams = z.object({ userId: idParam });

/** Answer of PUT UpdateMessageStatus / MarkAllMessagesAsRead: how many messages changed to read. */
export const MarkedRead = z.object({ updated: z.number().int() });
export type MarkedRead = z.infer<typeof MarkedRead>;

// ---------------------------------------------------------------- incident reports

/** Where an incident was reported: at a terminal by a client, or in the console by staff. */
export const INCIDENT_SOURCES = ['terminal', 'console'] as const;
export type IncidentSource = (typeof INCIDENT_SOURCES)[number];
/** An incident is open until a staff member marks it handled. */
export const INCIDENT_STATUSES = ['open', 'handled'] as const;
export type IncidentStatus = (typeof INCIDENT_STATUSES)[number];

/** POST /api/Incident: staff report an incident in one of the club's categories, optionally at a terminal. */
export const IncidentInput = z.strictObject({
  categoryId: requiredId,
  note: text(500).trim().default(''),
  terminalId: id.nullable().default(null),
});
export type IncidentInput = z.infer<typeof IncidentInput>;

/** GET /api/Incident?status=open|handled|all (default open), newest first. */
export const IncidentListQuery = z.object({ status: z.enum([...INCIDENT_STATUSES, 'all']).default('open') });

/** An incident as the console lists it. Severity: the category's default severity id at the time of the report. */
export const Incident = z.object({
  id: int32,
  categoryId: int32,
  categoryName: z.string(),
  type: z.enum(TERMINAL_MODES),
  severityId: int32,
  source: z.enum(INCIDENT_SOURCES),
  terminalId: int32.nullable(),
  terminalName: z.string().nullable(),
  note: z.string(),
  status: z.enum(INCIDENT_STATUSES),
  createdAt: z.string(),
  handledAt: z.string().nullable(),
  handledBy: z.string().nullable(),
});
export type Incident = z.infer<typeof Incident>;

/**
 * Terminal → server: a client reports an incident at the terminal
 * (docs/terminal-protocol.md "Incident reports"). A resend with the same
 * eventId is stored once and answered again.
 */
export const TerminalIncident = z.object({
  type: z.literal('incident'),
  eventId,
  categoryId: id,
  note: text(500).trim().default(''),
});
export type TerminalIncident = z.infer<typeof TerminalIncident>;

/** Server → terminal: the report is stored (`incidentId`). A refusal is an `error` with code INCIDENT_REFUSED and the eventId. */
export const ServerIncidentReported = z.object({
  type: z.literal('incident-reported'),
  eventId,
  incidentId: int32,
});
export type ServerIncidentReported = z.infer<typeof ServerIncidentReported>;

// ---------------------------------------------------------------- the reporting system's webhook

/**
 * PUT /api/Incident/Webhook (operator only): where a club's incidents are
 * sent (docs/messages.md "Webhook"). `secret` (16–200 characters) signs each
 * delivery; left out, the stored one is kept. An empty `url` turns sending off.
 */
export const IncidentWebhookInput = z.strictObject({
  url: text(500)
    .trim()
    .refine((u) => u === '' || /^https?:\/\/[^\s/]+/i.test(u), { message: 'invalid' }),
  secret: text(200).min(16, { message: 'tooShort' }).optional(),
  enabled: z.boolean().default(true),
});
export type IncidentWebhookInput = z.infer<typeof IncidentWebhookInput>;

/** The club's webhook as the operator sees it: never the secret, only whether one is stored. */
export const IncidentWebhookView = z.object({
  url: z.string(),
  enabled: z.boolean(),
  hasSecret: z.boolean(),
  updatedAt: z.string().nullable(),
});
export type IncidentWebhookView = z.infer<typeof IncidentWebhookView>;

/** States of one delivery: waiting (also between retries), delivered (2xx), failed (retries used up). */
export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

/** GET /api/Incident/Deliveries: the delivery log, newest first. */
export const IncidentDelivery = z.object({
  id: int32,
  incidentId: int32,
  status: z.enum(DELIVERY_STATUSES),
  attempts: int32,
  lastStatusCode: int32.nullable(),
  /** The last failed attempt's category: refused (not a public address), timeout, network, http (see lastStatusCode), notSet. */
  lastError: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  createdAt: z.string(),
});
export type IncidentDelivery = z.infer<typeof IncidentDelivery>;
