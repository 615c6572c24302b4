import { and, desc, eq, gt, inArray, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import {
  audienceIncludes,
  KALA_CLUB_FROM,
  MessageReadStatus,
  USA_CLUB_FROM,
  type ClubMessage,
  type ClubWithUnreadMessages,
  type GlobalMessageInput,
  type GlobalMessageKind,
  type GlobalMessagePatch,
  type GlobalMessageRecord,
  type MarkedRead,
  type MessageAudience,
} from '@venue/domain';
import type { Actor } from '../../lib/actor.js';
import type { Db } from '../../db/index.js';
import { globalMessageReads, globalMessages } from '../../db/schema.js';
import { audit } from '../../lib/audit.js';
import { forbidden, notFound } from '../../lib/errors.js';
import { assertValid } from '../../lib/validation.js';
import type { EventBus } from '../../lib/event-bus.js';
import { getClubRow, presentClub } from '../club/club.service.js';
import { sanitizeMessageBody } from './sanitize.js';

/**
 * Global messages (seed 000 §3 "global message", §4 "unread to read, one at a
 * time or all at once", §7 /GlobalMessage; docs/messages.md). The service
 * operator writes them to all clubs, a class of clubs or chosen clubs; a
 * club's users read those published to their club, each with their own read
 * status (a `global_message_reads` row means Readed 1; none, Unreaded 0).
 *
 * Path parameters never widen access: `{externalClubId}` must be the caller's
 * club (else 404 NOT_FOUND, as any other club's id) and `{userId}` the caller
 * (else 403 NOT_AUTHORIZED, whoever that id is). See `ownInbox`.
 */

type Row = typeof globalMessages.$inferSelect;

/**
 * Checks that the path names the caller's own club and, when given, the
 * caller's own user id.
 * @throws AppError NOT_FOUND (404) when `externalClubId` is not the caller's club
 * @throws AppError NOT_AUTHORIZED (403) when `userId` is not the caller
 */
export function ownInbox(actor: Actor, externalClubId: number, userId?: number): void {
  if (externalClubId !== actor.externalClubId) throw notFound('club');
  if (userId !== undefined && userId !== actor.userId) throw forbidden();
}

/** The class of a club by its external id (seed 000 §9): regular < 4000 ≤ USA < 7000 ≤ kala. */
function clubClass(externalClubId: number): MessageAudience {
  if (externalClubId >= KALA_CLUB_FROM) return 'kala';
  return externalClubId >= USA_CLUB_FROM ? 'usa' : 'regular';
}

/** Messages published to the club `externalClubId` at `now`: published, not expired, audience includes the club. */
function visibleTo(externalClubId: number, now: Date): SQL {
  return and(
    lte(globalMessages.publishAt, now),
    or(isNull(globalMessages.expiresAt), gt(globalMessages.expiresAt, now)),
    or(
      inArray(globalMessages.audience, ['all', clubClass(externalClubId)]),
      and(
        eq(globalMessages.audience, 'clubs'),
        sql`${globalMessages.externalClubIds} @> ${JSON.stringify([externalClubId])}::jsonb`,
      ),
    ),
  )!;
}

function presentForClub(r: Row, read?: { readAt: Date | null }): ClubMessage {
  return {
    id: r.id,
    title: r.title,
    body: r.body,
    kind: r.kind as GlobalMessageKind,
    publishAt: r.publishAt.toISOString(),
    expiresAt: r.expiresAt?.toISOString() ?? null,
    ...(read
      ? {
          status: read.readAt ? MessageReadStatus.Readed : MessageReadStatus.Unreaded,
          readAt: read.readAt?.toISOString() ?? null,
        }
      : {}),
  };
}

function presentRecord(r: Row): GlobalMessageRecord {
  return {
    id: r.id,
    title: r.title,
    body: r.body,
    kind: r.kind as GlobalMessageKind,
    audience: r.audience as MessageAudience,
    externalClubIds: r.externalClubIds,
    publishAt: r.publishAt.toISOString(),
    expiresAt: r.expiresAt?.toISOString() ?? null,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

/** GET /GlobalMessage/GetAllMessages/{externalClubId}: the messages published to the caller's club, newest first, without read status. */
export async function listClubMessages(db: Db, actor: Actor, externalClubId: number): Promise<ClubMessage[]> {
  ownInbox(actor, externalClubId);
  const rows = await db
    .select()
    .from(globalMessages)
    .where(visibleTo(externalClubId, new Date()))
    .orderBy(desc(globalMessages.publishAt), desc(globalMessages.id));
  return rows.map((r) => presentForClub(r));
}

/**
 * GET /GlobalMessage/GetAllMessagesByUser/{externalClubId}/{userId} (and, with
 * `unreadOnly`, GetUnreadMessages): the club's messages with the caller's read
 * status, newest first.
 */
export async function listUserMessages(
  db: Db,
  actor: Actor,
  externalClubId: number,
  userId: number,
  unreadOnly = false,
): Promise<ClubMessage[]> {
  ownInbox(actor, externalClubId, userId);
  return userMessages(db, externalClubId, userId, unreadOnly);
}

/**
 * The club's messages with the user's read status. A message the user wrote
 * (an operator acting on the club) is read for its writer from the moment it
 * was written, without a `global_message_reads` row: the operator's bell
 * counts what others wrote, never its own messages (issue 34).
 */
async function userMessages(db: Db, externalClubId: number, userId: number, unreadOnly: boolean) {
  const own = sql<boolean>`coalesce(${globalMessages.createdBy} = ${userId}, false)`;
  const rows = await db
    .select({ m: globalMessages, readAt: globalMessageReads.readAt, own })
    .from(globalMessages)
    .leftJoin(
      globalMessageReads,
      and(eq(globalMessageReads.messageId, globalMessages.id), eq(globalMessageReads.userId, userId)),
    )
    .where(
      and(
        visibleTo(externalClubId, new Date()),
        unreadOnly ? and(isNull(globalMessageReads.messageId), sql`not ${own}`) : undefined,
      ),
    )
    .orderBy(desc(globalMessages.publishAt), desc(globalMessages.id));
  return rows.map((r) => presentForClub(r.m, { readAt: r.readAt ?? (r.own ? r.m.createdAt : null) }));
}

/**
 * PUT /GlobalMessage/UpdateMessageStatus/{messageId}/{externalClubId}/{userId}:
 * the message becomes read for the caller (Unreaded → Readed; already read: no change).
 * @throws AppError NOT_FOUND (404) when the message is not published to the caller's club
 */
export async function markMessageRead(
  db: Db,
  actor: Actor,
  messageId: number,
  externalClubId: number,
  userId: number,
): Promise<MarkedRead> {
  ownInbox(actor, externalClubId, userId);
  const [m] = await db
    .select({ id: globalMessages.id })
    .from(globalMessages)
    .where(and(eq(globalMessages.id, messageId), visibleTo(externalClubId, new Date())));
  if (!m) throw notFound('message');
  const inserted = await db
    .insert(globalMessageReads)
    .values({ messageId, userId })
    .onConflictDoNothing()
    .returning({ id: globalMessageReads.messageId });
  return { updated: inserted.length };
}

/** PUT /GlobalMessage/MarkAllMessagesAsRead/{externalClubId}/{userId}: every message published to the club becomes read for the caller. */
export async function markAllMessagesRead(
  db: Db,
  actor: Actor,
  externalClubId: number,
  userId: number,
): Promise<MarkedRead> {
  ownInbox(actor, externalClubId, userId);
  const unread = await userMessages(db, externalClubId, userId, true);
  if (unread.length === 0) return { updated: 0 };
  const inserted = await db
    .insert(globalMessageReads)
    .values(unread.map((m) => ({ messageId: m.id, userId })))
    .onConflictDoNothing()
    .returning({ id: globalMessageReads.messageId });
  return { updated: inserted.length };
}

/**
 * GET /Club/GetCurrentWithUserUnreadMessages/{userId}: the caller's club (as
 * GET /Club/GetCurrent) with the caller's unread messages as the club's
 * `messages` (seed 000 §3 "messages: list").
 * @throws AppError NOT_AUTHORIZED (403) when `userId` is not the caller
 */
export async function clubWithUnreadMessages(db: Db, actor: Actor, userId: number): Promise<ClubWithUnreadMessages> {
  ownInbox(actor, actor.externalClubId, userId);
  const club = presentClub(await getClubRow(db, actor.clubId));
  return { ...club, messages: await userMessages(db, club.externalClubId, userId, true) };
}

// ---------------------------------------------------------------- the operator's side

/** Checks the fields that depend on each other: a club list for audience 'clubs', an expiry after publication. */
function checkMessage(v: {
  audience: MessageAudience;
  externalClubIds: number[];
  publishAt: Date;
  expiresAt: Date | null;
}) {
  if (v.audience === 'clubs' && v.externalClubIds.length === 0) {
    assertValid([{ path: 'externalClubIds', message: 'required' }]);
  }
  if (v.expiresAt && v.expiresAt <= v.publishAt) assertValid([{ path: 'expiresAt', message: 'dateRangeOrder' }]);
}

/** The operator's audit identity: no club of their own unless one is selected. */
const auditActor = (actor: Actor) => ({ ...actor, clubId: actor.clubId || null });

/** Tells the live feeds of the message's clubs, when it is published now (realtime/live.ts). */
function announce(bus: EventBus, r: Row): void {
  const now = new Date();
  if (r.publishAt > now || (r.expiresAt && r.expiresAt <= now)) return;
  bus.publish('global-message', {
    messageId: r.id,
    kind: r.kind,
    audience: r.audience,
    externalClubIds: r.externalClubIds,
  });
}

/** GET /api/GlobalMessage (operator): every message, newest first. */
export async function listGlobalMessages(db: Db): Promise<{ items: GlobalMessageRecord[]; total: number }> {
  const rows = await db.select().from(globalMessages).orderBy(desc(globalMessages.id));
  return { items: rows.map(presentRecord), total: rows.length };
}

/** GET /api/GlobalMessage/{id} (operator). @throws AppError NOT_FOUND (404) */
export async function getGlobalMessage(db: Db, id: number): Promise<GlobalMessageRecord> {
  const [r] = await db.select().from(globalMessages).where(eq(globalMessages.id, id));
  if (!r) throw notFound('message');
  return presentRecord(r);
}

/**
 * POST /api/GlobalMessage (operator): the body is sanitised, the publication
 * defaults to now. Audited; announced on the live feeds of its clubs when
 * published at once.
 * @throws AppError VALIDATION_ERROR (400) externalClubIds required for audience 'clubs'; expiresAt dateRangeOrder
 */
export async function createGlobalMessage(
  db: Db,
  bus: EventBus,
  actor: Actor,
  input: GlobalMessageInput,
): Promise<GlobalMessageRecord> {
  const values = {
    title: input.title,
    body: sanitizeMessageBody(input.body),
    kind: input.kind,
    audience: input.audience,
    externalClubIds: input.audience === 'clubs' ? [...new Set(input.externalClubIds)] : [],
    publishAt: input.publishAt ? new Date(input.publishAt) : new Date(),
    expiresAt: input.expiresAt ? new Date(input.expiresAt) : null,
  };
  checkMessage(values);
  const row = await db.transaction(async (tx) => {
    const [r] = await tx
      .insert(globalMessages)
      .values({ ...values, createdBy: actor.userId })
      .returning();
    await audit(tx, auditActor(actor), { action: 'create', entity: 'globalMessage', entityId: r.id, after: r });
    return r;
  });
  announce(bus, row);
  return presentRecord(row);
}

/**
 * PATCH /api/GlobalMessage/{id} (operator): fields left out stay as stored.
 * Read statuses are kept. Audited; announced when published now.
 * @throws AppError NOT_FOUND (404); VALIDATION_ERROR (400) as for create
 */
export async function updateGlobalMessage(
  db: Db,
  bus: EventBus,
  actor: Actor,
  id: number,
  patch: GlobalMessagePatch,
): Promise<GlobalMessageRecord> {
  const row = await db.transaction(async (tx) => {
    const [before] = await tx.select().from(globalMessages).where(eq(globalMessages.id, id)).for('update');
    if (!before) throw notFound('message');
    const audience = patch.audience ?? (before.audience as MessageAudience);
    const values = {
      ...(patch.title !== undefined ? { title: patch.title } : {}),
      ...(patch.body !== undefined ? { body: sanitizeMessageBody(patch.body) } : {}),
      ...(patch.kind !== undefined ? { kind: patch.kind } : {}),
      audience,
      externalClubIds: audience === 'clubs' ? [...new Set(patch.externalClubIds ?? before.externalClubIds)] : [],
      publishAt:
        patch.publishAt === undefined ? before.publishAt : patch.publishAt ? new Date(patch.publishAt) : new Date(),
      expiresAt: patch.expiresAt === undefined ? before.expiresAt : patch.expiresAt ? new Date(patch.expiresAt) : null,
    };
    checkMessage(values);
    const [r] = await tx
      .update(globalMessages)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(globalMessages.id, id))
      .returning();
    await audit(tx, auditActor(actor), { action: 'update', entity: 'globalMessage', entityId: id, before, after: r });
    return r;
  });
  announce(bus, row);
  return presentRecord(row);
}

/** Whether a message row reaches a club (the live feed's filter). */
export function reachesClub(m: { audience: string; externalClubIds: number[] }, externalClubId: number): boolean {
  return audienceIncludes(
    { audience: m.audience as MessageAudience, externalClubIds: m.externalClubIds },
    externalClubId,
  );
}
