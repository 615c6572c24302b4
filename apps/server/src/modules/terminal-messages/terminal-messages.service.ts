import type { Actor } from '../../lib/actor.js';
import { desc, eq, gte, isNull, or, sql } from 'drizzle-orm';
import {
  isoDate,
  localParts,
  type ServerMessages,
  type TerminalMessageInput,
  type TerminalMessagePatch,
  type TerminalMessageRecord,
} from '@venue/domain';
import type { Db } from '../../db/index.js';
import { clubs, terminalMessages } from '../../db/schema.js';
import { audit } from '../../lib/audit.js';
import { scoped } from '../../lib/scoped.js';
import { assertValid, dateErrors } from '../../lib/validation.js';
import type { EventBus } from '../../lib/event-bus.js';
import { clubLocation } from '../club/club.service.js';

/**
 * Terminal messages (seed 001 §3 "Terminal message", seed 000 §7
 * /TerminalMessage): what the club's terminals show between a start and an
 * end date while active. Every change is audited and pushed to the club's
 * connected terminals (`messages`, docs/terminal-protocol.md).
 */

type Row = typeof terminalMessages.$inferSelect;

/** Today's date (YYYY-MM-DD) in the club's time zone. */
async function clubToday(db: Db, clubId: number): Promise<string> {
  const [c] = await db.select({ location: clubs.location }).from(clubs).where(eq(clubs.id, clubId));
  const p = localParts(new Date(), clubLocation({ location: c?.location ?? null }).timeZone);
  return isoDate(p);
}

const showing = (r: Row, today: string) =>
  r.active && (r.startDate == null || r.startDate <= today) && (r.endDate == null || r.endDate >= today);

function present(r: Row, today: string): TerminalMessageRecord {
  return {
    id: r.id,
    name: r.name,
    title: r.title,
    type: r.type as TerminalMessageRecord['type'],
    content: r.content,
    startDate: r.startDate,
    endDate: r.endDate,
    displaySeconds: r.displaySeconds,
    active: r.active,
    showing: showing(r, today),
    updatedAt: r.updatedAt.toISOString(),
  };
}

function checkDates(v: { startDate?: string | null; endDate?: string | null }): void {
  assertValid(dateErrors(v, ['startDate', 'endDate']));
  if (v.startDate && v.endDate && v.endDate < v.startDate) {
    assertValid([{ path: 'endDate', message: 'endBeforeStart' }]);
  }
}

/** GET /api/TerminalMessage: every message of the club, newest first. */
export async function listTerminalMessages(db: Db, clubId: number) {
  const [rows, today] = await Promise.all([
    db
      .select()
      .from(terminalMessages)
      .where(scoped(db, clubId).where(terminalMessages))
      .orderBy(desc(terminalMessages.id)),
    clubToday(db, clubId),
  ]);
  return { items: rows.map((r) => present(r, today)), total: rows.length };
}

/** GET /api/TerminalMessage/{id}; 404 for another club's id. */
export async function getTerminalMessage(db: Db, clubId: number, id: number): Promise<TerminalMessageRecord> {
  return present(await scoped(db, clubId).one(terminalMessages, id, 'terminal message'), await clubToday(db, clubId));
}

/**
 * POST /api/TerminalMessage. Dates are inclusive days in the club's time
 * zone; an end before the start is 400 (endDate: endBeforeStart). Audited;
 * pushed to the club's terminals.
 */
export async function createTerminalMessage(
  db: Db,
  bus: EventBus,
  actor: Actor,
  input: TerminalMessageInput,
): Promise<TerminalMessageRecord> {
  checkDates(input);
  const clubId = actor.clubId;
  const row = await db.transaction(async (tx) => {
    const [r] = await tx
      .insert(terminalMessages)
      .values({ ...input, clubId })
      .returning();
    await audit(tx, actor, { action: 'create', entity: 'terminalMessage', entityId: r.id, after: r });
    return r;
  });
  bus.publish('gate-push', { clubId, what: 'messages' });
  return present(row, await clubToday(db, clubId));
}

/** PATCH /api/TerminalMessage/{id}: fields left out stay as stored. 404 for another club's id. Audited; pushed. */
export async function updateTerminalMessage(
  db: Db,
  bus: EventBus,
  actor: Actor,
  id: number,
  patch: TerminalMessagePatch,
): Promise<TerminalMessageRecord> {
  const clubId = actor.clubId;
  const before = await scoped(db, clubId).one(terminalMessages, id, 'terminal message');
  checkDates({ startDate: patch.startDate ?? before.startDate, endDate: patch.endDate ?? before.endDate });
  const row = await db.transaction(async (tx) => {
    const r = (await scoped(tx, clubId).update(terminalMessages, id, { ...patch, updatedAt: new Date() }))!;
    await audit(tx, actor, { action: 'update', entity: 'terminalMessage', entityId: id, before, after: r });
    return r;
  });
  bus.publish('gate-push', { clubId, what: 'messages' });
  return present(row, await clubToday(db, clubId));
}

/**
 * The `messages` push of a club: active messages that have not ended
 * (today in the club's time zone), with their dates, so that a terminal
 * starts showing one whose start date arrives while it stays connected.
 */
export async function messagesForTerminals(db: Db, clubId: number): Promise<ServerMessages> {
  const today = await clubToday(db, clubId);
  const rows = await db
    .select()
    .from(terminalMessages)
    .where(
      scoped(db, clubId).where(
        terminalMessages,
        eq(terminalMessages.active, true),
        or(isNull(terminalMessages.endDate), gte(terminalMessages.endDate, today)),
      ),
    )
    .orderBy(sql`${terminalMessages.startDate} nulls first`, terminalMessages.id);
  return {
    type: 'messages',
    items: rows.map((r) => ({
      id: r.id,
      type: r.type as ServerMessages['items'][number]['type'],
      content: r.content,
      displaySeconds: r.displaySeconds,
      startDate: r.startDate,
      endDate: r.endDate,
    })),
  };
}
