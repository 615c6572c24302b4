import { z } from 'zod';
import { Club } from '../schemas/club.js';
import { OkResponse, pageOf } from '../schemas/common.js';
import {
  ClubMessage,
  ClubMessagesParams,
  FeedbackCategory,
  FeedbackCategoryInput,
  FeedbackCategoryPatch,
  Incident,
  IncidentInput,
  IncidentListQuery,
  IncidentDelivery,
  IncidentWebhookInput,
  IncidentWebhookView,
  GlobalMessageInput,
  GlobalMessagePatch,
  GlobalMessageRecord,
  MarkedRead,
  MessageStatusParams,
  UserIdParams,
  UserMessagesParams,
} from '../schemas/messages.js';
import { IdParams, routes } from './route.js';

/** Feedback categories need the club's incident reports on (seed 000 §6 "Feedback categories": isIncidentReportEnabled). */
const openCategories = { nav: 'feedbackCategories' } as const;
/** Changing them also needs the settings edit flag (the seed names none; docs/messages.md). */
const editCategories = { nav: 'feedbackCategories', edit: 'settings' } as const;

/** Feedback categories of the signed-in club (seed 000 §7 "Feedback categories"; seed 001 §3, §5). */
export const feedbackCategories = routes(['feedback categories'], {
  list: { method: 'GET', path: '/api/FeedbackCategory', response: pageOf(FeedbackCategory), access: openCategories },
  get: {
    method: 'GET',
    path: '/api/FeedbackCategory/:id',
    params: IdParams,
    response: FeedbackCategory,
    access: openCategories,
  },
  create: {
    method: 'POST',
    path: '/api/FeedbackCategory',
    body: FeedbackCategoryInput,
    response: FeedbackCategory,
    access: editCategories,
  },
  update: {
    method: 'PATCH',
    path: '/api/FeedbackCategory/:id',
    params: IdParams,
    body: FeedbackCategoryPatch,
    response: FeedbackCategory,
    access: editCategories,
  },
  remove: {
    method: 'DELETE',
    path: '/api/FeedbackCategory/:id',
    params: IdParams,
    response: OkResponse,
    access: editCategories,
  },
});

/**
 * GET /Club/GetCurrentWithUserUnreadMessages/{userId}: the signed-in club with
 * the seed's club field `messages` (seed 000 §3 "Club settings": "messages:
 * list", default empty): the caller's unread global messages, newest first.
 * Read, never stored or patched (docs/messages.md "The club's messages").
 */
export const ClubWithUnreadMessages = Club.extend({ messages: z.array(ClubMessage) });
export type ClubWithUnreadMessages = z.infer<typeof ClubWithUnreadMessages>;

const operator = { operator: true } as const;

/**
 * Global messages (seed 000 §3, §4, §7 "Global messages"; docs/messages.md):
 * the five calls of a club's user — whose `{externalClubId}` must be the
 * caller's club (else 404) and `{userId}` the caller (else 403) — and the
 * operator's list, create and update.
 */
export const globalMessages = routes(['global messages'], {
  all: {
    method: 'GET',
    path: '/api/GlobalMessage/GetAllMessages/:externalClubId',
    params: ClubMessagesParams,
    response: z.array(ClubMessage),
    access: {},
  },
  allByUser: {
    method: 'GET',
    path: '/api/GlobalMessage/GetAllMessagesByUser/:externalClubId/:userId',
    params: UserMessagesParams,
    response: z.array(ClubMessage),
    access: {},
  },
  unread: {
    method: 'GET',
    path: '/api/GlobalMessage/GetUnreadMessages/:externalClubId/:userId',
    params: UserMessagesParams,
    response: z.array(ClubMessage),
    access: {},
  },
  markRead: {
    method: 'PUT',
    path: '/api/GlobalMessage/UpdateMessageStatus/:messageId/:externalClubId/:userId',
    params: MessageStatusParams,
    response: MarkedRead,
    access: {},
  },
  markAllRead: {
    method: 'PUT',
    path: '/api/GlobalMessage/MarkAllMessagesAsRead/:externalClubId/:userId',
    params: UserMessagesParams,
    response: MarkedRead,
    access: {},
  },
  clubWithUnread: {
    method: 'GET',
    path: '/api/Club/GetCurrentWithUserUnreadMessages/:userId',
    params: UserIdParams,
    response: ClubWithUnreadMessages,
    access: {},
    tags: ['club'],
  },
  /** The operator's list: every message, newest first. */
  list: { method: 'GET', path: '/api/GlobalMessage', response: pageOf(GlobalMessageRecord), access: operator },
  get: {
    method: 'GET',
    path: '/api/GlobalMessage/:id',
    params: IdParams,
    response: GlobalMessageRecord,
    access: operator,
  },
  create: {
    method: 'POST',
    path: '/api/GlobalMessage',
    body: GlobalMessageInput,
    response: GlobalMessageRecord,
    access: operator,
  },
  update: {
    method: 'PATCH',
    path: '/api/GlobalMessage/:id',
    params: IdParams,
    body: GlobalMessagePatch,
    response: GlobalMessageRecord,
    access: operator,
  },
});

/** Incidents need the club's incident reports on (navigation entry `incidents`, docs/messages.md "Incident reports"). */
const incidentAccess = { nav: 'incidents' } as const;

/** Incident reports of the signed-in club (issue 16; the seeds show no calls: our paths). */
export const incidents = routes(['incidents'], {
  list: {
    method: 'GET',
    path: '/api/Incident',
    query: IncidentListQuery,
    response: pageOf(Incident),
    access: incidentAccess,
  },
  create: { method: 'POST', path: '/api/Incident', body: IncidentInput, response: Incident, access: incidentAccess },
  handle: {
    method: 'PUT',
    path: '/api/Incident/Handle/:id',
    params: IdParams,
    response: Incident,
    access: incidentAccess,
  },
  /** The club's webhook to its reporting system (operator only: the server will call this URL). */
  getWebhook: { method: 'GET', path: '/api/Incident/Webhook', response: IncidentWebhookView, access: operator },
  setWebhook: {
    method: 'PUT',
    path: '/api/Incident/Webhook',
    body: IncidentWebhookInput,
    response: IncidentWebhookView,
    access: operator,
  },
  /** The delivery log of the club's incidents to the reporting system, newest first (at most 500). */
  deliveries: {
    method: 'GET',
    path: '/api/Incident/Deliveries',
    response: z.array(IncidentDelivery),
    access: incidentAccess,
  },
});
